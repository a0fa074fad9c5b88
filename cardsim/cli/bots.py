"""``cardsim bots GAME``: the built-in bots of a game."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.core import registry
from cardsim.text import text_table


def _params(bot) -> str:
    if not bot.params:
        return "-"
    names = bot.param_names or tuple(f"p{i}" for i in range(len(bot.params)))
    return ", ".join(f"{n}={v:g}" for n, v in zip(names, bot.params, strict=False))


@click.command("bots", short_help="List the built-in bots of a game.")
@options.game_argument
def bots(game: str) -> None:
    """List the built-in bots of GAME with their default parameters."""
    ruleset = registry.get(game)
    rows = []
    for name, bot in ruleset.bots().items():
        default = "yes" if name in ruleset.default_bots else ""
        rows.append([name, default, _params(bot), bot.description])
    header = ["bot", "default", "parameters", "description"]
    click.echo("\n".join(text_table(header, rows, left=len(header), indent="")))
    click.echo(
        "\nSeat them with `cardsim run GAME --bots NAME[,NAME...]`; "
        "your own bots come from --bot-file FILE."
    )
