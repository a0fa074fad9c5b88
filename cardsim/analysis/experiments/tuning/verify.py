"""Against the winner's curse: the best candidates of a search re-played on fresh deals.

A search keeps the candidate that did best on its deals, so part of its lead is luck on those
deals, and its figures on them flatter it. Here the few best candidates and the rules without the
searched values (the "defaults": ``--rules`` and ``--variant`` only) are played again on games the
search never played (game indices from ``setup.games`` on, so new deals of the same seed), all on
the same fresh deals. Their figures come with 95% intervals from a bootstrap over those deals
(``measures.paired_bootstrap``), and each candidate's change against the defaults with a paired
one. The winner is the candidate best on the fresh deals (among those keeping the length window).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from cardsim.analysis.experiments.tuning.ladder_values import ORDER_MARGIN
from cardsim.analysis.experiments.tuning.measures import (
    GameValues,
    as_values,
    paired_bootstrap,
    percentile_interval,
)
from cardsim.analysis.experiments.tuning.objectives import OBJECTIVES
from cardsim.analysis.experiments.tuning.search import Play, TuneSetup
from cardsim.text import show_value

DEFAULTS = "defaults"
FIGURES = ("first_player_edge", "seat_spread", "mean_turns")


def label(point: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={show_value(v)}" for k, v in point.items()) or DEFAULTS


def _objective_draws(setup: TuneSetup, draws: dict[str, np.ndarray]) -> np.ndarray:
    figure = OBJECTIVES[setup.objective.name].figure
    values = draws[figure]
    return np.abs(values) if figure == "first_player_edge" else values


def ladder_parts(draws: dict[str, np.ndarray], i: int) -> dict[str, Any]:
    """The ladder objective's parts for run ``i`` (``ladder_values``): the order shortfall with
    its interval, whether the ladder kept its order (every stronger level at least
    ``ORDER_MARGIN`` above its fair share: no shortfall), and each adjacent pair's margin."""
    low, high = percentile_interval(draws["order_shortfall"][i, 1:])
    pairs = []
    for name in (k for k in draws if k.startswith("margin:")):
        weaker, _, stronger = name.partition(":")[2].partition("<")
        m_low, m_high = percentile_interval(draws[name][i, 1:])
        margin = float(draws[name][i, 0])
        pairs.append(
            {"weaker": weaker, "stronger": stronger, "margin": margin, "margin_low": m_low,
             "margin_high": m_high, "ordered": margin >= ORDER_MARGIN}
        )  # fmt: skip
    shortfall = float(draws["order_shortfall"][i, 0])
    return {
        "order_shortfall": shortfall,
        "order_shortfall_low": low,
        "order_shortfall_high": high,
        "ordered": shortfall == 0,
        "order_margin": ORDER_MARGIN,
        "pairs": pairs,
    }


def verification_table(
    setup: TuneSetup, points: Sequence[Mapping[str, Any]], runs: Sequence[GameValues], seed: int
) -> pd.DataFrame:
    """One row per run (the defaults first, then ``points``): each figure with its interval,
    the objective, the change of the first-player edge against the defaults with its paired
    interval, the ladder objective's parts (``ladder_parts``, ladder objective only), whether
    the run keeps the length window, and ``winner``."""
    draws = paired_bootstrap(list(runs), seed)
    objective = _objective_draws(setup, draws)
    rows = []
    for i, point in enumerate([{}, *points]):
        row: dict[str, Any] = {"candidate": label(point), "rules": dict(point)}
        for name in FIGURES:
            row[name] = float(draws[name][i, 0])
            row[f"{name}_low"], row[f"{name}_high"] = percentile_interval(draws[name][i, 1:])
        row["objective"] = float(objective[i, 0])
        row["objective_low"], row["objective_high"] = percentile_interval(objective[i, 1:])
        change = draws["first_player_edge"][i] - draws["first_player_edge"][0]
        row["edge_change"] = float(change[0])
        row["edge_change_low"], row["edge_change_high"] = percentile_interval(change[1:])
        if setup.objective.ladder:
            row["ladder"] = ladder_parts(draws, i)
        row["feasible"] = setup.objective.feasible(row["mean_turns"])
        row["games"] = runs[i].games
        rows.append(row)
    table = pd.DataFrame(rows)
    table["winner"] = False
    candidates = table.iloc[1:]
    feasible = candidates[candidates["feasible"]]
    if len(feasible):
        table.loc[feasible["objective"].idxmin(), "winner"] = True
    return table


def verify(
    setup: TuneSetup, points: Sequence[Mapping[str, Any]], play: Play, games: int
) -> pd.DataFrame:
    """Play the defaults and ``points`` on ``games`` fresh deals and tabulate them."""
    first = setup.games  # the search played games 0 .. setup.games - 1
    runs = [as_values(play({**setup.base_rules, **point}, first, games)) for point in [{}, *points]]
    return verification_table(setup, points, runs, setup.seed)
