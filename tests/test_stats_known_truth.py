"""The statistics against known truth: data simulated with known strengths and known differences,
and the intervals and tests checked to do what their names say.

- ratings (``fit_plackett_luce``): the 95% intervals of the strengths cover the true strengths in
  about 95% of simulated runs, plain (independent games) and cluster-robust (each deal played
  several times, so games of a deal are copies: the plain errors would be too small);
- paired differences (``paired_row``): the interval of the mean difference covers the true one,
  and with no true difference the test says "changed" (p < 0.05) in about 5% of runs;
- Holm (``paired.holm``): statsmodels' ``multipletests`` and the textbook step-down on the same
  p-values, NaN left in place.

"About 95%" is a binomial check: the count of covering intervals must not be below what a true
95% gives in all but one run of a thousand (``_binomial_floor``), so a 90% interval fails.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from cardsim.analysis.stats.paired import holm, paired_row
from cardsim.analysis.stats.rating import fit_plackett_luce, sample_orders

TRUE_STRENGTH = np.array([0.4, 0.0, -0.4])  # centred, as the fit reports them
TRUE_POSITION = np.array([0.0, -0.1, -0.2])


def _binomial_band(n: int, p: float = 0.95, alpha: float = 1e-3) -> tuple[int, int]:
    """The counts of successes out of ``n`` a true rate ``p`` stays within but in ``alpha``."""
    return int(binom.ppf(alpha / 2, n, p)), int(binom.isf(alpha / 2, n, p))


def _seatings(games: int, rng) -> np.ndarray:
    return np.array([rng.permutation(3) for _ in range(games)])


def _covered(rating, truth=TRUE_STRENGTH) -> int:
    table = rating.table().set_index("bot").loc[["a", "b", "c"]]
    return int(((table["ci_low"] <= truth) & (truth <= table["ci_high"])).sum())


def test_rating_intervals_cover_the_true_strengths():
    """120 runs of 300 independent 3-player games. Seen to fail with the standard errors planted
    at 0.7 times their value (``strength_se`` of ``fit_patterns``)."""
    rng = np.random.default_rng(2026)
    covered = 0
    runs = 120
    for _ in range(runs):
        bots = _seatings(300, rng)
        ranks = sample_orders(TRUE_STRENGTH, TRUE_POSITION, bots, rng)
        covered += _covered(fit_plackett_luce(bots, ranks, ["a", "b", "c"]))
    lo, hi = _binomial_band(3 * runs)
    assert lo <= covered <= hi, (covered, lo, hi)


def test_clustered_rating_intervals_cover_the_true_strengths():
    """Each of 100 deals played 4 times with the same finishing order (copies, the extreme of
    dependence): the cluster-robust intervals cover the truth about 95% of the time, where the
    plain ones, counting 400 games as independent, cover far less. Seen to fail with the
    standard errors planted at 0.7 times their value, as above."""
    rng = np.random.default_rng(7)
    runs = 100
    covered = plain = 0
    for _ in range(runs):
        bots = _seatings(100, rng)
        ranks = sample_orders(TRUE_STRENGTH, TRUE_POSITION, bots, rng)
        bots, ranks = np.repeat(bots, 4, axis=0), np.repeat(ranks, 4, axis=0)
        clusters = np.repeat(np.arange(100), 4)
        covered += _covered(fit_plackett_luce(bots, ranks, ["a", "b", "c"], clusters=clusters))
        plain += _covered(fit_plackett_luce(bots, ranks, ["a", "b", "c"]))
    lo, hi = _binomial_band(3 * runs)
    assert lo <= covered <= hi, (covered, lo, hi)
    assert plain < lo  # the dependence is real: without clusters the intervals are too narrow


def _paired_runs(runs: int, games: int, shift: float, rng):
    """``paired_row`` of ``runs`` simulated comparisons: b = a + shift + noise, a and b
    correlated through the same deal (as paired runs are)."""
    for _ in range(runs):
        deal = rng.normal(10, 3, games)
        a = deal + rng.normal(0, 1, games)
        b = deal + shift + rng.normal(0, 1, games)
        yield paired_row("m", a, b)


def test_paired_interval_covers_the_true_difference():
    """Seen to fail with ``paired_row``'s interval planted at 80% instead of ``CONFIDENCE``."""
    rng = np.random.default_rng(11)
    rows = list(_paired_runs(400, 50, 0.3, rng))
    covered = sum(r["ci_low"] <= 0.3 <= r["ci_high"] for r in rows)
    lo, hi = _binomial_band(len(rows))
    assert lo <= covered <= hi, (covered, lo, hi)


def test_paired_test_false_alarm_rate_is_five_percent():
    """No true difference: p < 0.05 in about 5% of 400 runs. Seen to fail with the p-value planted
    as half its value (a one-sided test read as two-sided)."""
    rng = np.random.default_rng(13)
    alarms = sum(r["p_value"] < 0.05 for r in _paired_runs(400, 50, 0.0, rng))
    lo, hi = _binomial_band(400, 0.05)
    assert lo <= alarms <= hi, (alarms, lo, hi)


def _textbook_holm(p: list[float]) -> list[float]:
    """Holm (1979): sort ascending, multiply the i-th smallest (from 0) by m - i, take running
    maxima, cap at 1."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


@settings(max_examples=30)
@given(st.lists(st.one_of(st.none(), st.floats(0, 1)), min_size=1, max_size=30))
def test_holm_is_statsmodels_and_the_textbook(values):
    """Seen to fail with ``holm`` planted to use ``method="bonferroni"``."""
    from statsmodels.stats.multitest import multipletests

    p = pd.Series(
        [np.nan if v is None else v for v in values], index=[f"m{i}" for i in range(len(values))]
    )
    got = holm(p)
    known = p.notna().to_numpy()
    assert got[~known].isna().all()
    if known.any():
        expect = multipletests(p[known].to_numpy(), method="holm")[1]
        np.testing.assert_allclose(got[known].to_numpy(), expect, rtol=1e-12)
        np.testing.assert_allclose(
            got[known].to_numpy(), _textbook_holm(list(p[known])), rtol=1e-12
        )
