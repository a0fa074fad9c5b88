"""What ``cardsim replay --table`` shows: table lines between a story's events.

A replay's table lines start with ``TABLE_MARK`` (indented and barred, so a reader tells them from
the story's event lines); the lines of one table follow the line that names the moment
(``  | Table at Seat 2's turn ...``). Each game's ``trace.py`` writes its own table from the
reference's state; this module only holds what they share.
"""

from __future__ import annotations

from dataclasses import dataclass

TABLE_MARK = "  | "


@dataclass(frozen=True)
class TableView:
    """``seat``: the seat being followed (its hand is shown), None for none; ``all_hands``: every
    hand is shown."""

    seat: int | None = None
    all_hands: bool = False

    def shows_hand(self, seat: int) -> bool:
        return self.all_hands or seat == self.seat


def table_lines(lines: list[str]) -> list[str]:
    """The table lines written ``TABLE_MARK`` first."""
    return [TABLE_MARK + line for line in lines]
