"""Small typed values for the Python API: one figure with its 95% interval and its unit.

``Results.first_player_advantage``, ``Results.seat_win_rates`` and ``Results.mean_length`` return
``Estimate``s, so a notebook line gives the number, its interval and what it is measured in
without reading a table: rates and their differences are fractions of 1 (``unit="fraction"``);
``points`` gives them in percentage points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardsim.analysis.stats.summary import CONFIDENCE, z_score

UNITS = ("fraction", "turns")


@dataclass(frozen=True)
class Estimate:
    """``estimate`` with its ``confidence`` interval ``low .. high`` in ``unit``, from
    ``games`` games; ``what`` says what it measures (``"first-player advantage"``)."""

    what: str
    estimate: float
    low: float
    high: float
    unit: str
    games: int
    confidence: float = CONFIDENCE
    difference: bool = False  # a change or an edge: shown signed, a fraction in points

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {self.unit!r}")

    def __float__(self) -> float:
        return float(self.estimate)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def detected(self) -> bool:
        """The interval excludes 0 (for a difference: the effect is not noise)."""
        return bool(self.low > 0 or self.high < 0)

    def points(self) -> tuple[float, float, float]:
        """A fraction's estimate, low and high in percentage points (x 100)."""
        if self.unit != "fraction":
            raise ValueError(f"{self.what} is in {self.unit}, not a fraction")
        return 100 * self.estimate, 100 * self.low, 100 * self.high

    def __str__(self) -> str:
        level = f"{100 * self.confidence:g}%"
        if math.isnan(self.estimate):
            return f"{self.what}: n/a (no games)"
        if self.unit == "fraction" and self.difference:
            x, lo, hi = self.points()
            return f"{self.what}: {x:+.2f} points ({level} interval {lo:+.2f} .. {hi:+.2f})"
        if self.unit == "fraction":
            x, lo, hi = self.points()
            return f"{self.what}: {x:.2f}% ({level} interval {lo:.2f} .. {hi:.2f}%)"
        return (
            f"{self.what}: {self.estimate:.2f} {self.unit} "
            f"({level} interval {self.low:.2f} .. {self.high:.2f})"
        )


def mean_estimate(what: str, values, unit: str) -> Estimate:
    """The mean of ``values`` with its normal-approximation interval (mean +/- z sd / sqrt n)."""
    import numpy as np

    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Estimate(what, math.nan, math.nan, math.nan, unit, 0)
    mean = float(x.mean())
    half = z_score() * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return Estimate(what, mean, mean - half, mean + half, unit, n)
