"""``cardsim rules GAME``: every rule option of a game."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_listing, format_option
from cardsim.core import registry
from cardsim.text import show_value


@click.command("rules", short_help="List the rule options of a game.")
@options.game_argument
@format_option
def rules(game: str, fmt: str) -> None:
    """List every rule option of GAME: default, allowed values and the rule it refers to (the
    [R12]/[A2]/[V1] ids of the game's rules reference, docs/rules/GAME.md)."""
    ruleset = registry.get(game)
    rows, records = [], []
    for opt in ruleset.options:
        refers = f"[{opt.refers}]" if opt.refers else ""
        meaning = f"{opt.doc}; default {show_value(opt.default)}; allowed {opt.allowed()}"
        rows.append([opt.name, refers, meaning])
        records.append(
            {
                "option": opt.name,
                "default": opt.default,
                "allowed": opt.allowed(),
                "refers": opt.refers,
                "doc": opt.doc,
            }
        )
    header = ["option", "rule", "meaning, default and allowed values"]
    footer = (
        f"Change one with --rules KEY=VALUE. Rule ids refer to {ruleset.rules_doc}."
        if ruleset.rules_doc
        else "Change one with --rules KEY=VALUE."
    )
    echo_listing(
        fmt,
        header,
        rows,
        records,
        footer,
        command="rules",
        key="options",
        context={"game": ruleset.name},
    )
