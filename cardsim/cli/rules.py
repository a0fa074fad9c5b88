"""``cardsim rules GAME``: every rule option of a game."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.core import registry
from cardsim.text import show_value


@click.command("rules", short_help="List the rule options of a game.")
@options.game_argument
def rules(game: str) -> None:
    """List every rule option of GAME: default, allowed values and the rule it refers to."""
    ruleset = registry.get(game)
    click.echo(f"Rule options of {ruleset.title}; change one with --rules KEY=VALUE.\n")
    width = max(len(o.name) for o in ruleset.options)
    for opt in ruleset.options:
        refers = f"  [{opt.refers}]" if opt.refers else ""
        click.echo(f"{opt.name.ljust(width)}  default {show_value(opt.default)}{refers}")
        click.echo(f"{'':{width}}  allowed {opt.allowed()}")
        click.echo(f"{'':{width}}  {opt.doc}")
