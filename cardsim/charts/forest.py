"""Forest charts: one row per item (a tile, a card, a variant), its estimated change with a 95%
interval, one panel per measure, against no change."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cardsim.charts.render import BAR_COLOR, FAIR_COLOR, figure, styled


@styled
def forest(
    table: pd.DataFrame,
    label: str,
    panels: list[tuple[str, str]],
    title: str,
) -> Figure:
    """``table``: one row per item, column ``label`` names it; each panel ``(column, xlabel)``
    reads ``column``, ``column_low`` and ``column_high`` (the estimate and its interval)."""
    fig = figure(4.2 * len(panels), 1.2 + 0.24 * len(table))
    axes = np.atleast_1d(fig.subplots(1, len(panels), sharey=True))
    y = np.arange(len(table))[::-1]
    for ax, (column, xlabel) in zip(axes, panels, strict=True):
        mid = table[column].to_numpy(float)
        lo = table[f"{column}_low"].to_numpy(float)
        hi = table[f"{column}_high"].to_numpy(float)
        ax.errorbar(
            mid,
            y,
            xerr=np.vstack([mid - lo, hi - mid]),
            fmt="o",
            color=BAR_COLOR,
            capsize=2,
            markersize=3,
        )
        ax.axvline(0, color=FAIR_COLOR, linestyle="--")
        ax.set_xlabel(xlabel)
        ax.grid(axis="y", visible=False)
    axes[0].set_yticks(y, list(table[label]))
    axes[0].tick_params(axis="y", labelsize=7)
    fig.suptitle(title)
    return fig


@styled
def lines(table: pd.DataFrame, x: str, y: str, group: str, xlabel: str, ylabel: str, title: str) -> Figure:  # fmt: skip
    """One line per ``group`` value: ``y`` against ``x``, with ``y_low``/``y_high`` as a band."""
    fig = figure(7.0, 4.2)
    ax = fig.subplots()
    for key, rows in table.groupby(group, sort=True):
        rows = rows.sort_values(x)
        ax.plot(rows[x], rows[y], marker="o", label=f"{key}")
        ax.fill_between(rows[x], rows[f"{y}_low"], rows[f"{y}_high"], alpha=0.2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(title=group)
    ax.set_title(title)
    return fig
