"""Game length: its distribution in turns and rounds, its histogram, and length by who won.

A turn is one player's turn; a round is ``turns / players``. Every game counts here, the ones the
turn cap ended included (they are the longest, and a report must show them).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.analysis.stats import frame as F

QUANTILES = {"p05": 0.05, "p25": 0.25, "median": 0.5, "p75": 0.75, "p95": 0.95}


def describe(values: pd.Series | np.ndarray) -> dict:
    """mean, sd, min, quantiles (p05 .. p95) and max of ``values`` (NaN when empty)."""
    s = pd.Series(np.asarray(values, dtype=np.float64))
    out = {"mean": s.mean(), "sd": s.std(ddof=1), "min": s.min()}
    out.update({name: s.quantile(q) for name, q in QUANTILES.items()})
    out["max"] = s.max()
    return out


def length_summary(frame: pd.DataFrame, ruleset=None) -> pd.DataFrame:
    """Rows ``turns``, ``rounds`` (turns / players, named by ``ruleset.table_rounds``) and the
    ruleset's ``length_counters`` (the game's own units, e.g. Piña Pirata's rounds); columns
    games, mean, sd, min, p05, p25, median, p75, p95, max."""
    turns = frame["turns"].to_numpy(np.float64)
    k = F.seat_count(frame)
    laps = getattr(ruleset, "table_rounds", "rounds")
    rows = {"turns": describe(turns), f"{laps} (turns / {k})": describe(turns / k)}
    for name, label in getattr(ruleset, "length_counters", ()):
        if name in frame and len(frame):
            rows[label] = describe(frame[name].to_numpy(np.float64))
    table = pd.DataFrame(rows).T
    table.insert(0, "games", len(frame))
    return table


def length_histogram(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns turns, games, share, turn_cap_games: one row per game length that occurs."""
    turns = frame["turns"].to_numpy(np.int64)
    cap = frame["turn_cap_hit"].to_numpy(bool)
    counts = pd.Series(turns).value_counts().sort_index()
    capped = pd.Series(turns[cap]).value_counts().reindex(counts.index, fill_value=0)
    return pd.DataFrame(
        {
            "turns": counts.index.to_numpy(),
            "games": counts.to_numpy(),
            "share": counts.to_numpy() / max(len(turns), 1),
            "turn_cap_games": capped.to_numpy(),
        }
    )


def length_by_winner(frame: pd.DataFrame) -> pd.DataFrame:
    """Game length by the turn-order position of the only winner, then for shared wins, games
    nobody won and games the turn cap ended. Columns: winner, games, mean, median, p05, p95
    (turns)."""
    k = F.seat_count(frame)
    cap = frame["turn_cap_hit"].to_numpy(bool)
    won = F.by_position(frame, F.wins(frame))
    winners = won.sum(axis=1)
    turns = frame["turns"].to_numpy(np.float64)
    groups = [(F.position_label(p), ~cap & (winners == 1) & won[:, p]) for p in range(k)]
    groups += [
        ("shared win", ~cap & (winners > 1)),
        ("no winner", ~cap & (winners == 0)),
        ("turn cap", cap),
    ]
    rows = []
    for label, mask in groups:
        d = describe(turns[mask])
        rows.append(
            {
                "winner": label,
                "games": int(mask.sum()),
                "mean": d["mean"],
                "median": d["median"],
                "p05": d["p05"],
                "p95": d["p95"],
            }
        )
    table = pd.DataFrame(rows)
    keep = table["games"] > 0
    keep[:k] = True  # always show every position, even one that never won
    return table[keep].reset_index(drop=True)
