"""The chart of a variant diff: the change of each metric with its paired 95% interval, against
no change. Win rates change in points (top panel); length, score spread and margin have units of
their own, so they are shown as a change relative to the first variant's value (bottom panel)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cardsim.charts.render import BAR_COLOR, FAIR_COLOR, figure, styled, value_axis


def _panel(ax, rows: pd.DataFrame, scale, xlabel: str) -> None:
    """One row per metric: its change times ``scale`` (a number, or one per row; NaN: the
    metric cannot be shown on this scale, its label says so) with its interval, against 0."""
    y = np.arange(len(rows))[::-1]
    scale = np.broadcast_to(np.asarray(scale, float), (len(rows),))
    diff = rows["diff"].to_numpy(float) * scale
    lo = rows["ci_low"].to_numpy(float) * scale
    hi = rows["ci_high"].to_numpy(float) * scale
    err = np.vstack([np.nan_to_num(diff - lo), np.nan_to_num(hi - diff)])
    ax.errorbar(diff, y, xerr=err, fmt="o", color=BAR_COLOR, capsize=4)
    ax.axvline(0, color=FAIR_COLOR, linestyle="--")
    labels = [
        m if np.isfinite(s) else f"{m} (0 before: no %)"
        for m, s in zip(rows["metric"], scale, strict=True)
    ]
    ax.set_yticks(y, labels)
    ax.set_xlim(*value_axis(lo, hi, [0.0]))  # the shown metrics only, with room for the noise
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)


@styled
def changes(table: pd.DataFrame, name_a: str, name_b: str) -> Figure:
    """``paired_diff`` table -> forest plot: shares in points (top), other metrics in % of the
    first variant's value (bottom; a metric whose first value is 0 has no % change: it is
    named, not drawn, and does not stretch the axis)."""
    shares = table[table["metric"].str.startswith(("win rate", "first-player advantage"))]
    others = table.drop(shares.index)
    fig = figure(8.0, 1.8 + 0.38 * len(table))
    top, bottom = fig.subplots(2, 1, height_ratios=[max(len(shares), 1), max(len(others), 1)])
    _panel(top, shares, 100, "change, points (95% paired interval)")
    base = others["a"].abs().to_numpy(float)
    relative = np.divide(100.0, base, out=np.full(len(base), np.nan), where=base > 0)
    _panel(bottom, others, relative, f"change, % of the value under {name_a} (95% interval)")
    top.set_title(f"Change from {name_a} to {name_b}")
    return fig
