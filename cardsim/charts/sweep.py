"""Sweep charts: balance figures against the swept rule values.

One parameter: win rate of each turn-order position (95% bars for the first player's advantage
band) and mean game length against the values. Two parameters: a heatmap of the first-player
advantage (points). More: the advantage per grid point, in grid order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from cardsim.charts.balance import MIN_RATE_SPAN
from cardsim.charts.heatmap import heatmap
from cardsim.charts.render import BAR_COLOR, FAIR_COLOR, figure, styled, value_axis


def _points_cell(x: float) -> str:
    return "" if np.isnan(x) else f"{x:+.2f}"


@styled
def one_parameter(table: pd.DataFrame, name: str, fair: float) -> Figure:
    """Win rate by turn-order position (lines, the first player's with its 95% band) and mean
    game length (second panel) against the values of ``name``."""
    fig = figure(8.0, 5.6)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    x = np.arange(len(table))
    labels = [str(v) for v in table[name]]
    for col in [c for c in table.columns if c.startswith("win ")]:
        top.plot(x, table[col], marker="o", label=col.removeprefix("win ") + " player")
    first = table[[c for c in table.columns if c.startswith("win ")][0]].to_numpy(float)
    low = first + (table["fpa_low"] - table["first_player_points"]).to_numpy(float) / 100
    high = first + (table["fpa_high"] - table["first_player_points"]).to_numpy(float) / 100
    top.fill_between(x, low, high, alpha=0.2, color=BAR_COLOR, label="1st: 95% interval")
    top.axhline(fair, color=FAIR_COLOR, linestyle="--", label=f"fair share {100 * fair:.1f}%")
    rates = table[[c for c in table.columns if c.startswith("win ")]].to_numpy(float).ravel()
    top.set_ylim(*value_axis(low, high, [*rates, fair], MIN_RATE_SPAN, bounds=(0.0, 1.0)))
    top.yaxis.set_major_formatter(PercentFormatter(1.0))
    top.set_ylabel("win rate (shared wins split)")
    top.legend(fontsize=8, ncols=2)
    top.set_title(f"Win rate by turn order and game length as {name} changes")
    mean, mean_low, mean_high = (
        table[c].to_numpy(float) for c in ("mean_turns", "mean_turns_low", "mean_turns_high")
    )
    err = np.vstack([mean - mean_low, mean_high - mean])
    bottom.errorbar(x, mean, yerr=err, marker="s", color="#555555", capsize=3)
    bottom.set_ylim(*value_axis(mean_low, mean_high))  # a change within the noise looks flat
    bottom.set_ylabel("mean turns (95% interval)")
    bottom.set_xticks(x, labels)
    bottom.set_xlabel(name)
    return fig


def two_parameters(
    wide: pd.DataFrame,
    rows: str,
    columns: str,
    low: pd.DataFrame | None = None,
    high: pd.DataFrame | None = None,
) -> Figure:
    """First-player advantage (points) over a grid of two parameters; with ``low``/``high``,
    each cell's 95% interval, bold where it excludes 0."""
    return heatmap(
        wide,
        "First-player advantage, points over the fair share",
        row_label=rows,
        column_label=columns,
        colorbar_label="points (win rate - fair share)",
        cell_text=_points_cell,
        center=0.0,
        cmap="RdBu_r",
        low=low,
        high=high,
    )


@styled
def grid_points(table: pd.DataFrame, names: list[str]) -> Figure:
    """First-player advantage with its 95% interval at every grid point, in grid order."""
    n = len(table)
    fig = figure(8.0, 1.6 + 0.35 * n)
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    adv = table["first_player_points"].to_numpy(float)
    err = np.vstack(
        [adv - table["fpa_low"].to_numpy(float), table["fpa_high"].to_numpy(float) - adv]
    )
    ax.errorbar(adv, y, xerr=err, fmt="o", color=BAR_COLOR, capsize=3)
    ax.axvline(0, color=FAIR_COLOR, linestyle="--")
    labels = [", ".join(f"{k}={r[k]}" for k in names) for r in table.to_dict("records")]
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("first-player advantage, points (95% interval)")
    ax.set_title("First-player advantage at every grid point")
    ax.grid(axis="y", visible=False)
    return fig
