"""Seat advantage: win rates by turn-order position and by seat, the test that all seats are
equal, and the first-player advantage.

Shared wins count as ``1/k`` of a win for each of the ``k`` tied winners (``frame.win_shares``),
so the win rates of a game's seats add up to 1 and "fair" is exactly ``1/K`` of the games somebody
won. Outright wins and shared wins are also counted apart. Games ended by the turn cap are left
out. Intervals are 95% Wilson intervals on (win shares, games) — with fractional shares they are
slightly conservative, since a split win varies less than a whole one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from cardsim.analysis.stats import frame as F
from cardsim.analysis.stats.summary import CONFIDENCE, wilson_interval


def fair_rate(frame: pd.DataFrame) -> float:
    """What every seat would win if all were equal: the share of games with a winner over K."""
    games = F.finished(frame)
    if not len(games):
        return float("nan")
    decided = float(np.mean(F.winner_count(games) > 0))
    return decided / F.seat_count(frame)


def _rate_rows(kind: str, labels: list[str], share, won, alone, fair: float) -> list[dict]:
    n = share.shape[0]
    rows = []
    for i, label in enumerate(labels):
        wins = float(share[:, i].sum())
        lo, hi = wilson_interval(wins, n)
        outright = int(np.count_nonzero(won[:, i] & alone))
        rows.append(
            {
                "kind": kind,
                "index": i,
                "label": label,
                "games": n,
                "wins": wins,
                "outright_wins": outright,
                "shared_wins": int(np.count_nonzero(won[:, i])) - outright,
                "win_rate": wins / n if n else np.nan,
                "ci_low": lo,
                "ci_high": hi,
                "fair_rate": fair,
            }
        )
    return rows


def seat_win_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per turn-order position (``kind="position"``, 0 = starts) then per physical seat
    (``kind="seat"``): games, wins (shared wins split), outright_wins, shared_wins (games won
    jointly), win_rate, its 95% Wilson interval ci_low..ci_high, fair_rate, and vs_fair
    (win_rate - fair_rate). Turn-cap games are left out."""
    games = F.finished(frame)
    k = F.seat_count(frame)
    fair = fair_rate(frame)
    won = F.wins(games)
    share = F.win_shares(games)
    alone = (won.sum(axis=1) == 1)[:, None]
    rows = _rate_rows(
        "position",
        [F.position_label(p) for p in range(k)],
        F.by_position(games, share),
        F.by_position(games, won),
        alone[:, 0],
        fair,
    )
    seat_labels = []
    for s in range(k):
        bot = F.seat_bot(frame, s)
        seat_labels.append(f"seat {s}" + (f" ({bot})" if bot is not None else ""))
    rows += _rate_rows("seat", seat_labels, share, won, alone[:, 0], fair)
    table = pd.DataFrame(rows)
    table["vs_fair"] = table["win_rate"] - table["fair_rate"]
    return table


@dataclass(frozen=True)
class EqualSeatsTest:
    """Chi-squared goodness of fit of win shares against "every position (or seat) wins equally
    often": ``statistic`` with ``dof`` degrees of freedom, ``p_value``, over ``games``."""

    by: str
    statistic: float
    dof: int
    p_value: float
    games: int

    def rejects(self, alpha: float = 1 - CONFIDENCE) -> bool:
        return bool(self.p_value < alpha)


def seats_equal_test(frame: pd.DataFrame, by: str = "position") -> EqualSeatsTest:
    """Test "all turn-order positions win equally often" (``by="seat"``: physical seats).

    Each decided game hands out one win (split among tied winners), so the totals per position are
    multinomial under the null with expected ``decided / K`` each: ``scipy.stats.chisquare`` with
    K - 1 degrees of freedom. Games nobody won or the turn cap ended take no part.
    """
    if by not in ("position", "seat"):
        raise ValueError(f"by must be 'position' or 'seat', not {by!r}")
    games = F.finished(frame)
    share = F.win_shares(games)
    if by == "position":
        share = F.by_position(games, share)
    decided = int(np.count_nonzero(share.sum(axis=1) > 0))
    k = F.seat_count(frame)
    if decided == 0:
        return EqualSeatsTest(by, float("nan"), k - 1, float("nan"), 0)
    observed = share.sum(axis=0)
    result = stats.chisquare(observed, np.full(k, observed.sum() / k))
    return EqualSeatsTest(by, float(result.statistic), k - 1, float(result.pvalue), decided)


@dataclass(frozen=True)
class FirstPlayerAdvantage:
    """The starting player's win rate minus the fair rate, in percentage points, with its 95%
    interval ``low .. high`` (the Wilson interval of the rate, shifted by the fair rate)."""

    rate: float
    fair: float
    points: float
    low: float
    high: float
    games: int

    @property
    def detected(self) -> bool:
        """The interval excludes 0: the advantage (or handicap) is not noise."""
        return bool(self.low > 0 or self.high < 0)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def first_player_advantage(frame: pd.DataFrame) -> FirstPlayerAdvantage:
    """How many points more often than fair the player who starts wins (negative: less)."""
    row = seat_win_rates(frame).iloc[0]  # position 0
    fair = float(row["fair_rate"])
    return FirstPlayerAdvantage(
        rate=float(row["win_rate"]),
        fair=fair,
        points=100 * (float(row["win_rate"]) - fair),
        low=100 * (float(row["ci_low"]) - fair),
        high=100 * (float(row["ci_high"]) - fair),
        games=int(row["games"]),
    )


def bot_win_rates(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per bot: seat_games (seats it played), wins (shared wins split), outright_wins,
    win_rate with its 95% Wilson interval ci_low..ci_high, fair_rate. Turn-cap games left out."""
    games = F.finished(frame)
    k = F.seat_count(frame)
    fair = fair_rate(frame)
    share = F.win_shares(games)
    won = F.wins(games)
    alone = won & (won.sum(axis=1) == 1)[:, None]
    bots = np.column_stack([games[f"bot_{s}"].astype(str).to_numpy() for s in range(k)])
    long = (
        pd.DataFrame({"bot": bots.ravel(), "share": share.ravel(), "outright": alone.ravel()})
        if len(games)
        else pd.DataFrame({"bot": [], "share": [], "outright": []})
    )
    grouped = long.groupby("bot", sort=False)
    rows = []
    for bot, sub in grouped:
        n, wins = len(sub), float(sub["share"].sum())
        lo, hi = wilson_interval(wins, n)
        rows.append(
            {
                "bot": bot,
                "seat_games": n,
                "wins": wins,
                "outright_wins": int(sub["outright"].sum()),
                "win_rate": wins / n,
                "ci_low": lo,
                "ci_high": hi,
                "fair_rate": fair,
            }
        )
    cols = ["bot", "seat_games", "wins", "outright_wins", "win_rate", "ci_low", "ci_high"]
    return pd.DataFrame(rows, columns=[*cols, "fair_rate"])


def long_frame(frame: pd.DataFrame, seat_counters=()) -> pd.DataFrame:
    """The wide per-game frame as one row per game and seat: game, seat, position (turn order,
    0 starts), bot, win, win_share (1/k for each of a game's k winners), score, rank, every
    per-seat counter of ``seat_counters``, and turn_cap_hit (win figures leave those games
    out). Rows are game-major (game 0's seats, then game 1's)."""
    k = F.seat_count(frame)
    n = len(frame)
    out = {
        "game": np.repeat(frame["game"].to_numpy(), k),
        "seat": np.tile(np.arange(k, dtype=np.int16), n),
        "position": F.positions(frame).astype(np.int16).ravel(),
        "bot": pd.Categorical(
            np.column_stack([frame[f"bot_{s}"].astype(str).to_numpy() for s in range(k)]).ravel()
            if n
            else []
        ),
        "win": F.wins(frame).ravel(),
        "win_share": F.win_shares(frame).ravel(),
    }
    for name in ("score", "rank", *seat_counters):
        if f"{name}_0" in frame.columns:
            out[name] = F.seat_matrix(frame, name).ravel()
    out["turn_cap_hit"] = np.repeat(frame["turn_cap_hit"].to_numpy(bool), k)
    return pd.DataFrame(out)
