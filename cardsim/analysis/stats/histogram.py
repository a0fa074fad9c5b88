"""Counts of integer values, mergeable: the exact distribution of a column without its rows.

Every figure the balance report draws from a distribution (scores, turns, margins, counters) is of
integer values, so a histogram holds it exactly in memory that grows with the range of values,
not with the number of games. ``IntHistogram`` keeps ``counts[value, column]`` for a few columns
(groups, or categories such as "won with k winners") and gives the same statistics as pandas and
numpy on the values themselves: mean, sd, min, max and the linear-interpolation quantiles, computed
with numpy's own formulas (so a quantile equals ``np.quantile``'s bit for bit, which matters for
bin edges that integer values fall on).
"""

from __future__ import annotations

import math

import numpy as np

QUANTILES = {"p05": 0.05, "p25": 0.25, "median": 0.5, "p75": 0.75, "p95": 0.95}


class IntHistogram:
    """``counts[value - low, column]``: int64 counts of integer values in ``columns`` columns."""

    def __init__(self, columns: int = 1):
        self.columns = columns
        self.low = 0
        self.counts = np.zeros((0, columns), np.int64)

    def _cover(self, lo: int, hi: int) -> None:
        if not len(self.counts):
            self.low = lo
            self.counts = np.zeros((hi - lo + 1, self.columns), np.int64)
            return
        new_low = min(self.low, lo)
        new_high = max(self.low + len(self.counts) - 1, hi)
        if new_low == self.low and new_high == self.low + len(self.counts) - 1:
            return
        grown = np.zeros((new_high - new_low + 1, self.columns), np.int64)
        grown[self.low - new_low : self.low - new_low + len(self.counts)] = self.counts
        self.low, self.counts = new_low, grown

    def add(self, values, column=0) -> None:
        """Count ``values`` (ints) in ``column`` (an int, or an int array as long as values)."""
        v = np.asarray(values, np.int64).ravel()
        if not len(v):
            return
        self._cover(int(v.min()), int(v.max()))
        index = (v - self.low) * self.columns + np.asarray(column, np.int64).ravel()
        self.counts += np.bincount(index, minlength=self.counts.size).reshape(self.counts.shape)

    def merge(self, other: IntHistogram) -> None:
        if not len(other.counts):
            return
        self._cover(other.low, other.low + len(other.counts) - 1)
        start = other.low - self.low
        self.counts[start : start + len(other.counts)] += other.counts

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.low, self.low + len(self.counts), dtype=np.int64)

    def column(self, columns=None) -> tuple[np.ndarray, np.ndarray]:
        """``(values, counts)`` of the values present in ``columns`` (one, a list, or all)."""
        counts = self.counts if columns is None else self.counts[:, columns]
        if counts.ndim == 2:
            counts = counts.sum(axis=1)
        present = counts > 0
        return self.values[present], counts[present]


def describe(values: np.ndarray, counts: np.ndarray, scale: float = 1.0) -> dict:
    """``length.describe`` of the values ``values / scale`` repeated ``counts`` times: mean, sd,
    min, p05 .. p95 (pandas' quantiles), max; NaNs when empty."""
    n = int(counts.sum())
    keys = ["mean", "sd", "min", *QUANTILES, "max"]
    if n == 0:
        return dict.fromkeys(keys, math.nan)
    x = values.astype(np.float64) / scale if scale != 1.0 else values.astype(np.float64)
    if scale == 1.0:  # whole numbers: the exact sum, as numpy's pairwise sum of them is exact
        mean = float(int(np.dot(values, counts))) / n
    else:
        mean = float(np.dot(x, counts)) / n
    sd = math.sqrt(float(np.dot((x - mean) ** 2, counts)) / (n - 1)) if n > 1 else math.nan
    out = {"mean": mean, "sd": sd, "min": float(x[0])}
    for name, q in QUANTILES.items():
        out[name] = float(quantile(x, counts, (q * 100) / 100))  # pandas asks np.percentile
    out["max"] = float(x[-1])
    return out


def quantile(values: np.ndarray, counts: np.ndarray, q) -> np.ndarray | float:
    """``np.quantile(np.repeat(values, counts), q)`` (method "linear") without the repeat.

    ``values`` ascending and distinct, ``counts`` positive. The arithmetic is numpy's own
    (virtual index, gamma and ``_lerp``), so the result is the same float.
    """
    q = np.asarray(q, np.float64)
    n = int(counts.sum())
    virtual = (n - 1) * q  # numpy's virtual index of the "linear" method
    previous = np.floor(virtual)
    above = virtual >= n - 1
    below = virtual < 0
    prev_index = np.where(above, n - 1, np.where(below, 0, previous)).astype(np.int64)
    next_index = np.where(above, n - 1, np.where(below, 0, previous + 1)).astype(np.int64)
    gamma = np.where(above | below, 0.0, virtual - previous)
    cum = np.cumsum(counts)
    a = values[np.searchsorted(cum, prev_index, side="right")].astype(np.float64)
    b = values[np.searchsorted(cum, next_index, side="right")].astype(np.float64)
    diff = b - a
    result = a + diff * gamma
    result = np.where(gamma >= 0.5, b - diff * (1 - gamma), result)
    return result[()] if result.ndim == 0 else result
