"""Arrays out of the wide per-game frame (``cardsim.core.outcomes``): the one place that knows
its column names, so every metric reads seats, wins and counters the same way.

Conventions shared by every metric:

- a seat's **turn-order position** is ``(seat - first_seat) % n_players`` (0 = the player who
  starts);
- a **win share** splits a shared win equally: in a game with ``k`` winners each gets ``1/k``, so
  the shares of a game with a winner add up to exactly 1 and win rates of all seats add up to the
  share of games somebody won. Outright wins (the only winner) are counted apart;
- games the **turn cap** ended are a safeguard's doing, not the rules': win figures leave them
  out (``finished``), game length and end reasons keep them.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th")
_WIN_COLUMN = re.compile(r"^win_(\d+)$")


def seat_count(frame: pd.DataFrame) -> int:
    """Players per game: the number of ``win_<seat>`` columns."""
    return sum(1 for c in frame.columns if _WIN_COLUMN.match(c))


def position_label(position: int) -> str:
    """``0`` -> ``"1st (starts)"``, ``1`` -> ``"2nd"``, ..."""
    label = ORDINALS[position] if position < len(ORDINALS) else f"{position + 1}th"
    return label + (" (starts)" if position == 0 else "")


def finished(frame: pd.DataFrame) -> pd.DataFrame:
    """The games that ended by the rules (the turn cap's left out)."""
    if "turn_cap_hit" not in frame.columns or not frame["turn_cap_hit"].any():
        return frame
    return frame[~frame["turn_cap_hit"].to_numpy(bool)]


def seat_matrix(frame: pd.DataFrame, name: str, dtype=None) -> np.ndarray:
    """``(games, seats)`` array of the per-seat column ``<name>_<seat>``."""
    k = seat_count(frame)
    return np.column_stack([frame[f"{name}_{s}"].to_numpy(dtype) for s in range(k)]).reshape(
        len(frame), k
    )


def wins(frame: pd.DataFrame) -> np.ndarray:
    """bool ``(games, seats)``: the seat is among the winners."""
    return seat_matrix(frame, "win", bool)


def win_shares(frame: pd.DataFrame) -> np.ndarray:
    """float ``(games, seats)``: 1/k for each of the k winners of a game, else 0."""
    w = wins(frame).astype(float)
    winners = w.sum(axis=1, keepdims=True)
    return np.divide(w, winners, out=np.zeros_like(w), where=winners > 0)


def positions(frame: pd.DataFrame) -> np.ndarray:
    """int ``(games, seats)``: turn-order position of each seat (0 = starts)."""
    k = seat_count(frame)
    first = frame["first_seat"].to_numpy(np.int64)[:, None]
    return (np.arange(k)[None, :] - first) % k


def by_position(frame: pd.DataFrame, values: np.ndarray) -> np.ndarray:
    """Reorder a ``(games, seats)`` array to ``(games, positions)``: column 0 is the starter."""
    k = seat_count(frame)
    first = frame["first_seat"].to_numpy(np.int64)[:, None]
    seat_of = (first + np.arange(k)[None, :]) % k
    return np.take_along_axis(values, seat_of, axis=1)


def winner_count(frame: pd.DataFrame) -> np.ndarray:
    """int ``(games,)``: how many seats won each game (0 when nobody did)."""
    return wins(frame).sum(axis=1)


def seat_bot(frame: pd.DataFrame, seat: int) -> str | None:
    """The bot in ``seat`` if it is the same in every game, else ``None``."""
    col = frame[f"bot_{seat}"]
    values = col.unique()
    return str(values[0]) if len(values) == 1 else None
