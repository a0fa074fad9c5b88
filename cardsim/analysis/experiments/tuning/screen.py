"""Screening: which rule options move balance at all, from few runs on the same deals.

Each option (a ``params.Factor``) takes a few levels. The design says which level every option
takes in each run:

- ``pb``: Plackett-Burman (pyDOE3 ``pbdesign``), for options with two levels: N runs, N the
  multiple of 4 above the number of options; each option's main effect is the mean of the runs
  at its high level minus the mean at its low level;
- ``fracfact``: a two-level fractional factorial of resolution IV where one exists (else III;
  pyDOE3 ``fracfact_by_res``; the full factorial ``ff2n`` for 2 or 3 options), main effects as
  above, free of two-option interactions at IV;
- ``morris``: the Morris method (SALib ``morris.sample``), for options with several levels:
  ``trajectories`` paths through a 4-level grid, each changing one option at a time; an
  option's elementary effect is the change of a figure over a step divided by the step, in
  units of the option's whole range (lowest to highest level). SALib's ``morris.analyze`` gives
  mu* (mean |effect|, which ranks the options), sigma (spread: interactions or curvature) and
  its interval of mu* over trajectories (mu, mu* and sigma are computed here the same way,
  ``elementary_effects``, so that a run left out is an effect left out);
- ``auto``: ``pb`` when every option has two levels, else ``morris``.

A run whose rule values cannot be played together (a final discard larger than the hand) is
left out: its effects are missing, the means are over the other runs (``rejected`` says why).

Every run plays the same games (seed, indices 0..n-1), so the deals cancel from every
difference. The 95% interval of each effect comes from a bootstrap over deals that resamples
the same deals in every run (``measures.paired_bootstrap``): it covers the games' noise with
the pairing kept. Figures: first-player edge, seat spread, mean length (turns) and, when the
runs seat different bots, the win share per seat of the strongest bot (the best over all runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardsim.analysis.experiments.tuning.measures import (
    GameValues,
    paired_bootstrap,
    percentile_interval,
)
from cardsim.analysis.experiments.tuning.params import INT_LEVELS, Factor
from cardsim.core.errors import CardsimError

DESIGNS = ("auto", "pb", "fracfact", "morris")
TRAJECTORIES = 10  # Morris paths (r): 10 is the usual choice for screening
FIGURES = {
    "first_player_edge": "first-player edge",
    "seat_spread": "seat spread",
    "mean_turns": "mean length (turns)",
    "strongest_bot_share": "strongest bot's win share",
}


def choose_design(factors: Sequence[Factor], design: str) -> str:
    if design not in DESIGNS:
        raise CardsimError(f"unknown --design {design!r}: choose {', '.join(DESIGNS)}")
    two_level = all(f.two_level for f in factors)
    if design == "auto":
        return "pb" if two_level else "morris"
    if design in ("pb", "fracfact") and not two_level:
        many = ", ".join(f.name for f in factors if not f.two_level)
        raise CardsimError(
            f"--design {design} is for two-level options; {many} take more levels: use --design "
            "morris, or --two-level to keep each integer option's lowest and highest level"
        )
    return design


def design_matrix(
    factors: Sequence[Factor], design: str, seed: int, trajectories: int
) -> np.ndarray:
    """``(runs, options)`` positions in [0, 1] (0 the lowest level, 1 the highest)."""
    k = len(factors)
    if design == "pb":
        from pyDOE3 import pbdesign

        return (pbdesign(k) + 1) / 2
    if design == "fracfact":
        from pyDOE3 import fracfact_by_res

        for resolution in (4, 3):
            try:
                return (fracfact_by_res(k, resolution) + 1) / 2
            except ValueError:
                continue
        from pyDOE3 import ff2n  # so few options that the full factorial is the fraction

        return (ff2n(k) + 1) / 2
    from SALib.sample import morris

    if trajectories < 2:
        raise CardsimError(f"--trajectories must be at least 2, got {trajectories}")
    return morris.sample(_problem(factors), trajectories, num_levels=INT_LEVELS, seed=seed)


def _problem(factors: Sequence[Factor]) -> dict:
    return {
        "num_vars": len(factors),
        "names": [f.name for f in factors],
        "bounds": [[0, 1]] * len(factors),
    }


def settings(factors: Sequence[Factor], matrix: np.ndarray) -> list[dict]:
    """The rule values of every run of the design."""
    return [{f.name: f.at(x) for f, x in zip(factors, row, strict=True)} for row in matrix]


@dataclass(frozen=True)
class Draws:
    """Per figure: ``(runs, 1 + draws)`` values (column 0 the estimate); ``strongest``: the bot
    whose share is followed (``None`` when every seat has the same bot)."""

    figures: dict[str, np.ndarray]
    strongest: str | None


def run_draws(runs: Sequence[GameValues | None], seed: int) -> Draws:
    """The figures of every run under the same deal resamples; a run whose rules could not be
    played together (``None``) has NaN figures, and the effects leave it out."""
    played = [i for i, r in enumerate(runs) if r is not None]
    valid = paired_bootstrap([runs[i] for i in played], seed)
    draws = {}
    for name, values in valid.items():
        draws[name] = np.full((len(runs), values.shape[1]), np.nan)
        draws[name][played] = values
    shares = {k.split(":", 1)[1]: v for k, v in draws.items() if k.startswith("bot_share:")}
    out = {k: v for k, v in draws.items() if k in FIGURES}
    strongest = None
    if len(shares) > 1:
        strongest = max(shares, key=lambda b: float(np.nanmean(shares[b][:, 0])))
        out["strongest_bot_share"] = shares[strongest]
    return Draws(out, strongest)


def two_level_effects(matrix: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``(options, draws)`` main effects: mean at the high level minus mean at the low one."""
    high = matrix > 0.5
    effects = []
    for j in range(matrix.shape[1]):
        effects.append(
            np.nanmean(values[high[:, j]], axis=0) - np.nanmean(values[~high[:, j]], axis=0)
        )
    return np.array(effects)


def elementary_effects(matrix: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """``(options, trajectories, draws)`` Morris elementary effects: along each trajectory of
    k + 1 runs, the change of the figure over a step divided by the step of the option moved."""
    runs = matrix.shape[0]
    r = runs // (k + 1)
    out = np.full((k, r, values.shape[1]), np.nan)
    for t in range(r):
        base = t * (k + 1)
        for s in range(k):
            step = matrix[base + s + 1] - matrix[base + s]
            j = int(np.argmax(np.abs(step)))
            out[j, t] = (values[base + s + 1] - values[base + s]) / step[j]
    return out


def _salib(factors: Sequence[Factor], matrix: np.ndarray, y: np.ndarray, seed: int) -> dict:
    from SALib.analyze import morris

    return morris.analyze(
        _problem(factors),
        matrix,
        y,
        num_resamples=1000,
        conf_level=0.95,
        num_levels=INT_LEVELS,
        seed=seed,
    )


def effects_table(
    factors: Sequence[Factor], design: str, matrix: np.ndarray, draws: Draws, seed: int
) -> pd.DataFrame:
    """One row per option and figure: ``effect`` (two-level: high minus low; Morris: mu, the
    mean elementary effect) with its deal-bootstrap interval; ``importance`` (|effect|, or
    Morris mu*) with its interval; Morris's sigma and SALib's interval half-width of mu* over
    trajectories (``mu_star_conf``)."""
    rows = []
    k = len(factors)
    for figure, values in draws.figures.items():
        if design == "morris":
            ee = elementary_effects(matrix, values, k)
            effect, importance = np.nanmean(ee, axis=1), np.nanmean(np.abs(ee), axis=1)
            sigma = np.nanstd(ee[:, :, 0], axis=1, ddof=1)
            complete = bool(np.isfinite(values[:, 0]).all())  # SALib takes no missing run
            conf = _salib(factors, matrix, values[:, 0], seed)["mu_star_conf"] if complete else None
        else:
            effect = two_level_effects(matrix, values)
            importance = np.abs(effect)
        for j, f in enumerate(factors):
            row = {"option": f.name, "figure": figure, "levels": ", ".join(f.labels())}
            row["effect"] = float(effect[j, 0])
            row["effect_low"], row["effect_high"] = percentile_interval(effect[j, 1:])
            row["importance"] = float(importance[j, 0])
            row["importance_low"], row["importance_high"] = percentile_interval(importance[j, 1:])
            if design == "morris":
                row["sigma"] = float(sigma[j])
                row["mu_star_conf"] = float(conf[j]) if conf is not None else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def ranking(effects: pd.DataFrame, figure: str = "first_player_edge") -> pd.DataFrame:
    """The options by importance on ``figure``, most important first, numbered from 1."""
    table = effects[effects["figure"] == figure].sort_values("importance", ascending=False)
    table = table.reset_index(drop=True)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return table
