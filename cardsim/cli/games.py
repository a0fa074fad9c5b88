"""``cardsim games``: the rulesets cardsim can simulate."""

from __future__ import annotations

import click

from cardsim.core import registry
from cardsim.text import text_table


@click.command("games", short_help="List the games cardsim can simulate.")
def games() -> None:
    """List the games (rulesets) with their player counts."""
    rows = []
    for name in registry.available():
        rs = registry.get(name)
        rows.append(
            [rs.name, rs.title, f"{rs.min_players}-{rs.max_players}", str(rs.default_players)]
        )
    header = ["game", "title", "players", "default players"]
    click.echo("\n".join(text_table(header, rows, left=len(header), indent="")))
