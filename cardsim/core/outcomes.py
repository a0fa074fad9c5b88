"""Outcome records: the one place where the kernel's int arrays become a pandas DataFrame.

One row per game, wide by seat::

    game | n_players | first_seat | turns | end_reason | turn_cap_hit | decisions | <game counters>
         | bot_0 | score_0 | rank_0 | win_0 | <seat counters>_0 | bot_1 | ... (seats < max players)

Seats are physical seats, numbered clockwise; ``first_seat`` says who started, so a seat's turn
order position is ``(seat - first_seat) % n_players``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cardsim.core import layout as L

if TYPE_CHECKING:  # pandas costs 0.2 s to import: only where a table is made
    import pandas as pd


@dataclass
class Chunk:
    """Raw outcomes of games ``first_game .. first_game + len(game_out) - 1``.

    ``game_out``: int32 (games, len(GAME_COLUMNS) + game counters);
    ``seat_out``: int32 (games, players, len(SEAT_COLUMNS) + seat counters);
    ``seat_bot``: int16 (games, players) index into the run's bot names.
    """

    first_game: int
    game_out: np.ndarray
    seat_out: np.ndarray
    seat_bot: np.ndarray

    def __len__(self) -> int:
        return self.game_out.shape[0]


def game_column_names(ruleset) -> list[str]:
    return list(L.GAME_COLUMNS) + list(ruleset.game_counters)


def seat_column_names(ruleset) -> list[str]:
    return list(L.SEAT_COLUMNS) + list(ruleset.seat_counters)


def chunk_frame(ruleset, n_players: int, bot_names: list[str], chunk: Chunk) -> pd.DataFrame:
    """The DataFrame of one chunk, with fixed dtypes and categories (so chunks concatenate)."""
    import pandas as pd

    n = len(chunk)
    cols: dict[str, object] = {
        "game": np.arange(chunk.first_game, chunk.first_game + n, dtype=np.int64)
    }
    for j, name in enumerate(game_column_names(ruleset)):
        if name == "bad_bot_answers":
            continue
        values = chunk.game_out[:, j]
        if name == "end_reason":
            cols[name] = pd.Categorical.from_codes(values, categories=list(ruleset.end_reasons))
        elif name == "turn_cap_hit":
            cols[name] = values.astype(bool)
        else:
            cols[name] = values.astype(
                np.int16 if name in ("n_players", "first_seat") else np.int32
            )
    seat_names = seat_column_names(ruleset)
    for seat in range(n_players):
        cols[f"bot_{seat}"] = pd.Categorical.from_codes(
            chunk.seat_bot[:, seat], categories=bot_names
        )
        for j, name in enumerate(seat_names):
            values = chunk.seat_out[:, seat, j]
            cols[f"{name}_{seat}"] = values.astype(bool) if name == "win" else values
    return pd.DataFrame(cols)
