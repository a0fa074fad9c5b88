"""The charts of a balance report: seat win rates, game length, scores by seat, counter impact.

Each takes the table the analysis layer made (``seat_win_rates``, ``length_histogram``,
``score_distribution``, ``counter_win_rates``) and returns a figure (the report adds its caption).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cardsim.charts.render import BAR_COLOR, FAIR_COLOR, figure, styled, value_axis

MIN_RATE_SPAN = 0.10  # a seat chart shows at least 10 points, so noise does not look like a gap


def _error_bars(rate: np.ndarray, low, high) -> np.ndarray:
    """(2, n) distances from each rate to its interval ends (never negative: a Wilson end can
    sit a rounding error beyond a rate of 0 or 1)."""
    below = rate - np.asarray(low, float)
    above = np.asarray(high, float) - rate
    return np.clip(np.vstack([below, above]), 0, None)


def rate_axis(rates: pd.DataFrame, fair: float, min_span: float = MIN_RATE_SPAN) -> tuple:
    """Axis limits that hold every interval and the fair share, at least ``min_span`` and
    ``render.NOISE_SPANS`` intervals wide (centred on what is shown), with a margin, inside 0..1."""
    return value_axis(rates["ci_low"], rates["ci_high"], [fair], min_span, bounds=(0.0, 1.0))


@styled
def seat_win_rates(rates: pd.DataFrame, title: str) -> Figure:
    """Win rate per row of ``rates`` (label, win_rate, ci_low, ci_high, fair_rate) as points
    with 95% interval bars, against the fair rate as a dashed line."""
    n = len(rates)
    fig = figure(7.5, 1.6 + 0.45 * n)
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    rate = rates["win_rate"].to_numpy(float)
    err = _error_bars(rate, rates["ci_low"], rates["ci_high"])
    ax.errorbar(rate, y, xerr=err, fmt="o", color=BAR_COLOR, ecolor=BAR_COLOR, capsize=4)
    fair = float(rates["fair_rate"].iloc[0]) if n else math.nan
    if not math.isnan(fair):
        ax.axvline(fair, color=FAIR_COLOR, linestyle="--", label=f"fair share {100 * fair:.1f}%")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_yticks(y, [str(v) for v in rates["label"]])
    ax.set_xlim(*rate_axis(rates, fair))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("win rate (shared wins split), 95% interval")
    ax.set_title(title)
    ax.grid(axis="y", visible=False)
    return fig


@styled
def length_histogram(hist: pd.DataFrame, players: int) -> Figure:
    """Share of games per length in turns (``length_histogram`` table); games ended by the turn
    cap in a separate colour; the median as a vertical line."""
    fig = figure()
    ax = fig.add_subplot()
    turns = hist["turns"].to_numpy(float)
    share = hist["share"].to_numpy(float)
    capped = hist["turn_cap_games"].to_numpy(float) / max(hist["games"].sum(), 1)
    width = 1.0 if len(turns) < 2 else max(np.min(np.diff(turns)), 1.0)
    ax.bar(turns, share - capped, width=width, color=BAR_COLOR, label="ended by the rules")
    if capped.any():
        ax.bar(
            turns, capped, bottom=share - capped, width=width, color=FAIR_COLOR, label="turn cap"
        )
        ax.legend(fontsize=8)
    if len(turns):
        cum = np.cumsum(share)
        median = turns[np.searchsorted(cum, 0.5)]
        ax.axvline(median, color="#333333", linestyle=":", label=f"median {median:g}")
        ax.legend(fontsize=8)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(f"game length in turns (a round is {players} turns)")
    ax.set_ylabel("share of games")
    ax.set_title("How long games last")
    return fig


@styled
def score_distribution(scores: pd.DataFrame, title: str) -> Figure:
    """Box per row of a ``score_distribution`` table: box p25..p75, median line, whiskers
    p05..p95, mean as a dot."""
    fig = figure(7.5, 1.6 + 0.5 * len(scores))
    ax = fig.add_subplot()
    stats = [
        {
            "label": str(r["label"]),
            "med": r["median"],
            "q1": r["p25"],
            "q3": r["p75"],
            "whislo": r["p05"],
            "whishi": r["p95"],
            "mean": r["mean"],
            "fliers": [],
        }
        for _, r in scores.iterrows()
    ][::-1]
    ax.bxp(
        stats,
        orientation="horizontal",
        showmeans=True,
        patch_artist=True,
        boxprops={"facecolor": "#d6e4f0", "edgecolor": BAR_COLOR},
        meanprops={"marker": "o", "markerfacecolor": FAIR_COLOR, "markeredgecolor": FAIR_COLOR},
    )
    ax.set_xlabel("final score (box: middle half, whiskers: 5%-95%, dot: mean)")
    ax.set_title(title)
    return fig


@styled
def counter_impact(rates: pd.DataFrame, counters: list[str], fair: float) -> Figure:
    """Small multiples, one per counter of ``counters``: win rate by the counter's final value
    (``counter_win_rates`` rows) as points with 95% intervals (values are discrete: no lines
    between them), the seat-games behind each point under its value, and the fair rate dashed."""
    n = max(len(counters), 1)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig = figure(3.3 * cols, 2.6 * rows + 0.6)
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, name in zip(axes.ravel(), counters, strict=False):
        sub = rates[rates["counter"] == name]
        x = np.arange(len(sub))
        rate = sub["win_rate"].to_numpy(float)
        err = _error_bars(rate, sub["ci_low"], sub["ci_high"])
        ax.errorbar(x, rate, yerr=err, fmt="o", color=BAR_COLOR, capsize=3, markersize=4)
        if not math.isnan(fair):
            ax.axhline(fair, color=FAIR_COLOR, linestyle="--", linewidth=1)
        # one number format for every count (a mix of 29k and 1,125 reads as two scales)
        labels = [f"{v}\n{n:,}" for v, n in zip(sub["value"], sub["seat_games"], strict=True)]
        ax.set_xticks(x, labels, rotation=45 if len(x) > 6 else 0, fontsize=7)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("final value / seat-games", fontsize=8)
    for ax in axes.ravel()[len(counters) :]:
        ax.set_visible(False)
    fig.suptitle("Win rate by a seat's final counter value (dashed: fair share)")
    return fig
