"""``cardsim counters GAME``: what each counter of a game counts, in the game's words."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_listing, format_option
from cardsim.core import registry


@click.command("counters", short_help="List what a game's counters count.")
@options.game_argument
@format_option
def counters(game: str, fmt: str) -> None:
    """List the counters GAME records for every game (per seat: `NAME_0`, `NAME_1`... columns of
    --out files; per game: `NAME`), with their meaning. Outcome counters restate the result and
    are kept out of the report's counter-impact regression."""
    ruleset = registry.get(game)
    rows, records = [], []
    for kind, names in (("seat", ruleset.seat_counters), ("game", ruleset.game_counters)):
        for name in names:
            outcome = name in ruleset.outcome_counters
            meaning = ruleset.counter_glossary.get(name, "")
            rows.append([name, kind, "outcome" if outcome else "", meaning])
            records.append({"counter": name, "per": kind, "outcome": outcome, "meaning": meaning})
    header = ["counter", "per", "role", "meaning"]
    echo_listing(
        fmt,
        header,
        rows,
        records,
        command="counters",
        key="counters",
        context={"game": ruleset.name},
    )
