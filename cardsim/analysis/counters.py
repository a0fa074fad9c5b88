"""Per-counter impact: does a seat that ends with more of some counter win more often?

A ruleset names the per-seat counters it records (``Ruleset.seat_counters``: cards bought, crows
played, ...); each is a ``<name>_<seat>`` column of the frame. For each counter:

- ``counter_win_rates``: the win rate of seat-games by the counter's final value, with 95% Wilson
  intervals; values are binned into at most ``max_bins`` ranges of about equal size when there are
  more;
- ``counter_effect``: a logistic regression of the win share on the counter with the turn-order
  position as a control (statsmodels GLM, binomial family; a shared win is a fractional outcome).
  The seats of one game are not independent (one of them wins), so the standard errors are
  robust and clustered by game. The effect size is the odds ratio of winning per unit
  and per standard deviation of the counter, with 95% intervals. A counter that decides who wins
  by itself (perfect separation) has no finite odds ratio and is flagged instead.

Games the turn cap ended are left out. A counter is an outcome of play, so these are
associations, not causes: a paired ablation (``cardsim.analysis.ablation``) measures causes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from cardsim.analysis import frame as F
from cardsim.analysis.summary import CONFIDENCE, wilson_interval

MAX_BINS = 10
MAX_REGRESSION_ROWS = 50_000  # seat-games (whole games): tight enough intervals, a second a fit
SEPARATION_NOTE = "decides who wins by itself (separation): no finite odds ratio"
EFFECT_COLUMNS = [
    "counter",
    "seat_games",
    "mean",
    "sd",
    "values",
    "odds_ratio",
    "or_low",
    "or_high",
    "odds_ratio_sd",
    "or_sd_low",
    "or_sd_high",
    "p_value",
    "note",
]
RATE_COLUMNS = [
    "counter",
    "value",
    "low",
    "high",
    "seat_games",
    "wins",
    "win_rate",
    "ci_low",
    "ci_high",
]


def seat_games(frame: pd.DataFrame, counters: list[str] | tuple[str, ...]) -> pd.DataFrame:
    """One row per seat of every finished game: game, seat, position, share (win share), and the
    ``counters``' values."""
    games = F.finished(frame)
    k = F.seat_count(frame)
    n = len(games)
    cols = {
        "game": np.repeat(games["game"].to_numpy(), k),
        "seat": np.tile(np.arange(k), n),
        "position": F.positions(games).ravel(),
        "share": F.win_shares(games).ravel(),
    }
    for name in counters:
        cols[name] = F.seat_matrix(games, name).ravel()
    return pd.DataFrame(cols)


def _bins(values: np.ndarray, max_bins: int) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Bin index per value and each bin's (lowest, highest) value: one bin per distinct value
    when there are at most ``max_bins``, else about equal-count ranges."""
    distinct = np.unique(values)
    if len(distinct) <= max_bins:
        index = np.searchsorted(distinct, values)
        return index, [(v, v) for v in distinct]
    edges = np.unique(np.quantile(values, np.linspace(0, 1, max_bins + 1)))
    index = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, len(edges) - 2)
    used = np.unique(index)
    index = np.searchsorted(used, index)
    ranges = [(values[index == i].min(), values[index == i].max()) for i in range(len(used))]
    return index, ranges


def counter_win_rates(
    frame: pd.DataFrame, counter: str, max_bins: int = MAX_BINS, long: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Win rate by the counter's final value (or value range). Columns: counter, value (label),
    low, high (the range), seat_games, wins (shared wins split), win_rate, ci_low, ci_high."""
    long = seat_games(frame, [counter]) if long is None else long
    values = long[counter].to_numpy()
    share = long["share"].to_numpy()
    rows = []
    if len(values):
        index, ranges = _bins(values, max_bins)
        wins = np.bincount(index, weights=share, minlength=len(ranges))
        count = np.bincount(index, minlength=len(ranges))
        for i, (lo, hi) in enumerate(ranges):
            ci = wilson_interval(float(wins[i]), int(count[i]))
            rows.append(
                {
                    "counter": counter,
                    "value": f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}",
                    "low": lo,
                    "high": hi,
                    "seat_games": int(count[i]),
                    "wins": float(wins[i]),
                    "win_rate": wins[i] / count[i],
                    "ci_low": ci[0],
                    "ci_high": ci[1],
                }
            )
    return pd.DataFrame(rows, columns=RATE_COLUMNS)


def _separates(x: np.ndarray, share: np.ndarray) -> bool:
    """The counter splits winners from losers at a threshold (quasi-complete separation): every
    seat-game below it lost, every one above it won (or the reverse). The maximum-likelihood odds
    ratio is then infinite, so there is none to report."""
    won, lost = share > 0, share < 1
    if not won.any() or not lost.any():
        return True
    return bool(x[lost].max() <= x[won].min() or x[won].max() <= x[lost].min())


def _regression_rows(long: pd.DataFrame, max_rows: int, seed: int) -> pd.DataFrame:
    """At most ``max_rows`` seat-games, whole games drawn without replacement (reproducible)."""
    if len(long) <= max_rows:
        return long
    games = long["game"].unique()
    k = len(long) // len(games)
    rng = np.random.default_rng(seed)
    keep = rng.choice(games, size=max(max_rows // max(k, 1), 1), replace=False)
    return long[long["game"].isin(keep)]


def counter_effect(
    frame: pd.DataFrame,
    counter: str,
    long: pd.DataFrame | None = None,
    max_rows: int = MAX_REGRESSION_ROWS,
    seed: int = 0,
) -> dict:
    """Logistic-regression effect of ``counter`` on winning, turn-order position held fixed.

    Returns counter, seat_games, mean, sd, values (distinct), odds_ratio (per unit) with
    or_low/or_high, odds_ratio_sd (per standard deviation) with or_sd_low/or_sd_high, p_value,
    and note (why there is no estimate, if there is none).
    """
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

    long = seat_games(frame, [counter]) if long is None else long
    x = long[counter].to_numpy(np.float64)
    row = {
        "counter": counter,
        "seat_games": len(x),
        "mean": float(x.mean()) if len(x) else np.nan,
        "sd": float(x.std(ddof=1)) if len(x) > 1 else np.nan,
        "values": int(len(np.unique(x))),
    }
    for key in ("odds_ratio", "or_low", "or_high", "odds_ratio_sd", "or_sd_low", "or_sd_high"):
        row[key] = np.nan
    row.update(p_value=np.nan, note="")
    if row["values"] < 2:
        row["note"] = "constant: no effect to measure"
        return row
    if _separates(x, long["share"].to_numpy(np.float64)):
        row["note"] = SEPARATION_NOTE
        return row
    data = _regression_rows(long, max_rows, seed)
    k = int(long["position"].max()) + 1
    pos = data["position"].to_numpy()
    design = np.column_stack(
        [np.ones(len(data)), data[counter].to_numpy(np.float64)]
        + [(pos == p).astype(np.float64) for p in range(1, k)]
    )
    y = data["share"].to_numpy(np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PerfectSeparationWarning)
        try:
            fit = sm.GLM(y, design, family=sm.families.Binomial()).fit(
                cov_type="cluster", cov_kwds={"groups": data["game"].to_numpy()}
            )
        except (PerfectSeparationWarning, np.linalg.LinAlgError, ValueError):
            row["note"] = SEPARATION_NOTE
            return row
    if not fit.converged:
        row["note"] = "the regression did not converge: no odds ratio"
        return row
    beta = float(fit.params[1])
    lo, hi = (float(v) for v in fit.conf_int(1 - CONFIDENCE)[1])
    sd = row["sd"]
    row.update(
        odds_ratio=np.exp(beta),
        or_low=np.exp(lo),
        or_high=np.exp(hi),
        odds_ratio_sd=np.exp(beta * sd),
        or_sd_low=np.exp(lo * sd),
        or_sd_high=np.exp(hi * sd),
        p_value=float(fit.pvalues[1]),
    )
    if len(data) < len(long):
        row["note"] = f"fitted on {len(data):,} of {len(long):,} seat-games"
    return row


def counter_impact(
    frame: pd.DataFrame, counters: list[str] | tuple[str, ...], max_bins: int = MAX_BINS
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every counter at once: ``(effects, win_rates)`` — one ``counter_effect`` row per counter
    (strongest association first, by |log odds ratio per sd|), and the ``counter_win_rates`` rows
    of all counters together."""
    base = seat_games(frame, [])
    games = F.finished(frame)
    effects, rates = [], []
    for name in counters:  # one counter column at a time: memory stays at one extra column
        sub = base.assign(**{name: F.seat_matrix(games, name).ravel()})
        effects.append(counter_effect(frame, name, long=sub))
        rates.append(counter_win_rates(frame, name, max_bins, long=sub))
    table = pd.DataFrame(effects, columns=EFFECT_COLUMNS)
    if len(table):
        strength = np.abs(np.log(table["odds_ratio_sd"].astype(float)))
        separated = table["note"] == SEPARATION_NOTE
        order = np.lexsort((-strength.fillna(-1).to_numpy(), ~separated.to_numpy()))
        table = table.iloc[order].reset_index(drop=True)
    if not rates:
        return table, pd.DataFrame(columns=RATE_COLUMNS)
    return table, pd.concat(rates, ignore_index=True)
