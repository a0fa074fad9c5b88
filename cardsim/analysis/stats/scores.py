"""Scores, winning margins, end reasons and how many winners games have.

What a score means is the ruleset's business (for Fruit Picking: fruits on market cards); these
tables only describe the ``score_<seat>`` columns. Win-related tables leave the turn cap's games
out, like every win figure (``cardsim.analysis.stats.frame``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cardsim.analysis.stats import frame as F
from cardsim.analysis.stats.length import describe
from cardsim.analysis.stats.paired import score_spread, winning_margin


def score_distribution(frame: pd.DataFrame, by: str = "position") -> pd.DataFrame:
    """Score statistics per turn-order position (``by="seat"``: per physical seat).

    Columns: label, games, mean, sd, min, p05, p25, median, p75, p95, max — enough to draw box
    plots without the games.
    """
    scores = F.seat_matrix(frame, "score", np.float64)
    if by == "position":
        scores = F.by_position(frame, scores)
        labels = [F.position_label(p) for p in range(scores.shape[1])]
    elif by == "seat":
        labels = [f"seat {s}" for s in range(scores.shape[1])]
    else:
        raise ValueError(f"by must be 'position' or 'seat', not {by!r}")
    rows = [
        {"label": lab, "games": len(frame), **describe(scores[:, i])}
        for i, lab in enumerate(labels)
    ]
    return pd.DataFrame(rows)


def margin_by_winner(frame: pd.DataFrame) -> pd.DataFrame:
    """Winning margin (best winner's score minus best other score) by the turn-order position of
    the only winner, then for all decided games. Columns: winner, games, mean, median, p05, p95,
    score_ties (share of games won on a tie-break: margin 0 or less)."""
    games = F.finished(frame)
    k = F.seat_count(frame)
    margin = winning_margin(games)
    won = F.by_position(games, F.wins(games))
    single = won.sum(axis=1) == 1
    groups = [(F.position_label(p), single & won[:, p]) for p in range(k)]
    groups.append(("all decided games", ~np.isnan(margin)))
    rows = []
    for label, mask in groups:
        m = margin[mask & ~np.isnan(margin)]
        d = describe(m)
        rows.append(
            {
                "winner": label,
                "games": len(m),
                "mean": d["mean"],
                "median": d["median"],
                "p05": d["p05"],
                "p95": d["p95"],
                "score_ties": float(np.mean(m <= 0)) if len(m) else np.nan,
            }
        )
    return pd.DataFrame(rows)


def spread_summary(frame: pd.DataFrame) -> dict:
    """Statistics of the per-game score spread (highest minus lowest score)."""
    return describe(score_spread(frame))


def end_reasons(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns reason, games, share: every end reason of the ruleset, in code order, the turn
    cap included (it should stay at 0)."""
    counts = frame["end_reason"].value_counts(sort=False)
    if isinstance(frame["end_reason"].dtype, pd.CategoricalDtype):
        counts = counts.reindex(frame["end_reason"].cat.categories, fill_value=0)
    n = len(frame)
    return pd.DataFrame(
        {
            "reason": [str(r) for r in counts.index],
            "games": counts.to_numpy(np.int64),
            "share": counts.to_numpy(np.float64) / n if n else np.nan,
        }
    )


def winners(frame: pd.DataFrame) -> pd.DataFrame:
    """How many games had one winner, a shared win, or no winner (turn-cap games apart).
    Columns: outcome, games, share."""
    games = F.finished(frame)
    count = F.winner_count(games)
    n = len(frame)
    rows = [
        ("one winner", int(np.count_nonzero(count == 1))),
        ("shared win (2+ winners)", int(np.count_nonzero(count > 1))),
        ("no winner", int(np.count_nonzero(count == 0))),
        ("ended by the turn cap", n - len(games)),
    ]
    table = pd.DataFrame(rows, columns=["outcome", "games"])
    table["share"] = table["games"] / n if n else np.nan
    return table
