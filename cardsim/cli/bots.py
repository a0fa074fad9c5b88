"""``cardsim bots GAME``: the built-in bots of a game."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_listing, format_option
from cardsim.core import registry


def param_names(bot) -> tuple[str, ...]:
    return bot.param_names or tuple(f"p{i}" for i in range(len(bot.params)))


def _params(bot) -> str:
    if not bot.params:
        return "-"
    return ", ".join(f"{n}={_value(bot, n, v)}" for n, v in _named(bot))


def _named(bot) -> list[tuple[str, float]]:
    """(name, value) of each named parameter (a search bot's vector goes on past its names)."""
    return list(zip(param_names(bot), bot.params, strict=False))


def _value(bot, name: str, value: float):
    """A parameter's value as the user writes it: a name for a parameter that takes names
    (``rollout=greedy``), else the number."""
    choices = dict(bot.choices).get(name)
    if choices is not None and 0 <= int(value) < len(choices):
        return choices[int(value)]
    return f"{value:g}"


@click.command("bots", short_help="List the built-in bots of a game.")
@options.game_argument
@format_option
def bots(game: str, fmt: str) -> None:
    """List the built-in bots of GAME with their default parameters (change one with
    --bot-param NAME.KEY=VALUE)."""
    ruleset = registry.get(game)
    rows, records = [], []
    for name, bot in ruleset.bots().items():
        default = name in ruleset.default_bots
        rows.append([name, "yes" if default else "", _params(bot), bot.description])
        records.append(
            {
                "bot": name,
                "default": default,
                "params": dict(_named(bot)),
                "description": bot.description,
            }
        )
    header = ["bot", "default", "parameters", "description"]
    footer = (
        "Seat them with `cardsim run GAME --bots NAME[,NAME...]`; change a parameter with "
        "--bot-param NAME.KEY=VALUE; your own bots come from --bot-file FILE."
    )
    echo_listing(
        fmt,
        header,
        rows,
        records,
        footer,
        fill=[2, 3],
        command="bots",
        key="bots",
        context={"game": ruleset.name},
    )
