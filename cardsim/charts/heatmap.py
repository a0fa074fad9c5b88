"""Heatmaps of a finished wide table: the head-to-head matrix of a comparison, and a sweep over two
rule parameters. Every cell is written on the map, so the figure reads without the colour bar; a
cell with a 95% interval shows it under the value, in bold when it excludes the neutral value, and
the colour scale then reaches the widest interval end, so no cell saturates it."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cardsim.charts.render import figure, styled


def percent_cell(x: float) -> str:
    return "" if math.isnan(x) else f"{100 * x:.1f}%"


@styled
def heatmap(
    table: pd.DataFrame,
    title: str,
    *,
    row_label: str = "",
    column_label: str = "",
    colorbar_label: str = "",
    cell_text: Callable[[float], str] = percent_cell,
    center: float | None = None,
    cmap: str = "RdBu",
    low: pd.DataFrame | None = None,
    high: pd.DataFrame | None = None,
    percent_bar: bool = False,
) -> Figure:
    """``table`` (rows x columns of numbers, NaN left blank) as a coloured grid with each value
    written in its cell. ``center``: the value shown white (a diverging map around it).
    ``low``/``high``: each cell's 95% interval (same shape), written under its value, the value
    in bold when the interval excludes ``center``; the colour scale then spans the intervals.
    ``percent_bar``: the colour bar in percent (for values that are shares of 1)."""
    values = table.to_numpy(float)
    n_rows, n_cols = values.shape
    intervals = low is not None and high is not None
    fig = figure(max(4.5, 1.6 + 1.1 * n_cols), max(3.0, 1.4 + (0.8 if intervals else 0.6) * n_rows))
    ax = fig.add_subplot()
    finite = values[np.isfinite(values)]
    if intervals:
        lows, highs = low.to_numpy(float), high.to_numpy(float)
        finite = np.concatenate([finite, lows[np.isfinite(lows)], highs[np.isfinite(highs)]])
    lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    if center is not None:
        reach = max(abs(hi - center), abs(center - lo)) or 1.0
        lo, hi = center - reach, center + reach
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
    ax.set_xticks(range(n_cols), [str(c) for c in table.columns])
    ax.set_yticks(range(n_rows), [str(i) for i in table.index])
    ax.set_xlabel(column_label)
    ax.set_ylabel(row_label)
    ax.grid(False)
    ax.tick_params(length=0)
    mid = (lo + hi) / 2
    for (r, c), value in np.ndenumerate(values):
        if math.isfinite(value):
            strong = abs(value - mid) > 0.3 * (hi - lo)  # dark cell: white text
            text, weight = cell_text(value), "normal"
            if intervals and math.isfinite(lows[r, c]) and math.isfinite(highs[r, c]):
                text += f"\n[{cell_text(lows[r, c])}, {cell_text(highs[r, c])}]"
                neutral = 0.0 if center is None else center
                if lows[r, c] > neutral or highs[r, c] < neutral:
                    weight = "bold"
            ax.text(
                c,
                r,
                text,
                ha="center",
                va="center",
                fontsize=8 if intervals else 9,
                fontweight=weight,
                color="white" if strong else "black",
            )
    bar = fig.colorbar(image, ax=ax, shrink=0.85)
    if percent_bar:
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    bar.set_label(colorbar_label)
    ax.set_title(title)
    return fig


def head_to_head(matrix: pd.DataFrame) -> Figure:
    """The comparison matrix: how often the row bot finishes ahead of the column bot."""
    return heatmap(
        matrix,
        "How often the row bot finishes ahead of the column bot",
        row_label="bot",
        column_label="opponent",
        colorbar_label="finishes ahead (ties count half)",
        center=0.5,
        percent_bar=True,
    )
