"""Charts of a tune (the search history) and of a screen (the tornado of effects). Their captions
are printed under the chart by the report (``render_figure``), not drawn into it."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cardsim.charts.render import BAR_COLOR, FAIR_COLOR, figure, styled


@styled
def history(trials: pd.DataFrame, ylabel: str, title: str) -> Figure:
    """Objective per trial (filled: played every block; hollow: stopped by the pruner), in
    points, and the best full trial so far as a step line."""
    fig = figure(7.5, 4.2)
    ax = fig.subplots()
    full = trials[~trials["pruned"].astype(bool)]
    stopped = trials[trials["pruned"].astype(bool)]
    ax.scatter(full["trial"], 100 * full["objective"], color=BAR_COLOR, s=18, label="played fully")
    ax.scatter(
        stopped["trial"],
        100 * stopped["objective"],
        facecolors="none",
        edgecolors=BAR_COLOR,
        s=18,
        label="stopped early (pruner)",
    )
    ax.step(trials["trial"], 100 * trials["best_so_far"], where="post", color=FAIR_COLOR,
            label="best so far")  # fmt: skip
    ax.set_xlabel("trial")
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.legend()
    ax.set_title(title)
    return fig


@styled
def tornado(ranked: pd.DataFrame, xlabel: str, title: str, scale: float = 100.0) -> Figure:
    """One bar per option, most important at the top: its effect with the 95% interval."""
    fig = figure(7.5, 1.2 + 0.32 * len(ranked))
    ax = fig.subplots()
    y = np.arange(len(ranked))[::-1]
    effect = ranked["effect"].to_numpy(float) * scale
    lo = ranked["effect_low"].to_numpy(float) * scale
    hi = ranked["effect_high"].to_numpy(float) * scale
    err = np.vstack([np.nan_to_num(effect - lo), np.nan_to_num(hi - effect)])
    colors = [BAR_COLOR if e >= 0 else "#7f8c8d" for e in effect]
    ax.barh(y, effect, color=colors, height=0.6)
    ax.errorbar(effect, y, xerr=err, fmt="none", ecolor="black", capsize=3, linewidth=1)
    ax.axvline(0, color=FAIR_COLOR, linestyle="--")
    labels = [f"{o} ({lv})" for o, lv in zip(ranked["option"], ranked["levels"], strict=True)]
    ax.set_yticks(y, labels)
    ax.tick_params(axis="y", labelsize=8)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    return fig
