"""The chart of a variant diff: the change of each metric with its paired 95% interval, against
no change. Win rates change in points (top panel); length, score spread and margin have units of
their own, so they are shown as a change relative to the first variant's value (bottom panel)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cardsim.charts.render import BAR_COLOR, FAIR_COLOR, caption, figure, styled


def _panel(ax, rows: pd.DataFrame, scale, xlabel: str) -> None:
    y = np.arange(len(rows))[::-1]
    diff = rows["diff"].to_numpy(float) * scale
    lo = rows["ci_low"].to_numpy(float) * scale
    hi = rows["ci_high"].to_numpy(float) * scale
    err = np.vstack([np.nan_to_num(diff - lo), np.nan_to_num(hi - diff)])
    ax.errorbar(diff, y, xerr=err, fmt="o", color=BAR_COLOR, capsize=4)
    ax.axvline(0, color=FAIR_COLOR, linestyle="--")
    ax.set_yticks(y, list(rows["metric"]))
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)


@styled
def changes(table: pd.DataFrame, name_a: str, name_b: str, caption_text: str = "") -> Figure:
    """``paired_diff`` table -> forest plot: shares in points (top), other metrics in % of the
    first variant's value (bottom)."""
    shares = table[table["metric"].str.startswith(("win rate", "first-player advantage"))]
    others = table.drop(shares.index)
    fig = figure(8.0, 1.8 + 0.38 * len(table))
    top, bottom = fig.subplots(2, 1, height_ratios=[max(len(shares), 1), max(len(others), 1)])
    _panel(top, shares, 100, "change, points (95% paired interval)")
    base = others["a"].abs().to_numpy(float)
    relative = np.divide(100.0, base, out=np.full(len(base), np.nan), where=base > 0)
    _panel(bottom, others, relative, f"change, % of the value under {name_a} (95% interval)")
    top.set_title(f"Change from {name_a} to {name_b}")
    caption(fig, caption_text)
    return fig
