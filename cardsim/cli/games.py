"""``cardsim games``: the rulesets cardsim can simulate."""

from __future__ import annotations

import click

from cardsim.cli.output import echo_listing, format_option
from cardsim.core import registry


@click.command("games", short_help="List the games cardsim can simulate.")
@format_option
def games(fmt: str) -> None:
    """List the games (rulesets) with their player counts and rules reference."""
    records = []
    for name in registry.available():
        rs = registry.get(name)
        records.append(
            {
                "game": rs.name,
                "title": rs.title,
                "min_players": rs.min_players,
                "max_players": rs.max_players,
                "default_players": rs.default_players,
                "rules": rs.rules_doc,
            }
        )
    rows = [
        [r["game"], r["title"], f"{r['min_players']}-{r['max_players']}", r["default_players"]]
        for r in records
    ]
    header = ["game", "title", "players", "default players"]
    footer = "Each game's rules, with the [R12]/[A2] ids the tools cite: docs/rules/GAME.md."
    echo_listing(fmt, header, rows, records, footer, command="games", key="games")
