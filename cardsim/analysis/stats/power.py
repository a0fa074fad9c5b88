"""How many games a question needs: before a run (``games_needed``, ``games_for_half_width``) and
during one (``PrecisionStop``, the stopping rule of ``cardsim run --until-ci W``).

``games_needed(edge, n_players)``: games after which a seat that wins ``edge`` more (or less) than
the fair 1/K is detected by a two-sided test at level ``alpha`` with probability ``power``: the
one-sample test of a proportion against 1/K, on Cohen's arcsine effect size h
(``statsmodels.stats.power.NormalIndPower`` with ``ratio=0``, its one-sample form). Shared wins
are taken as rare; where they are common the real test has a little more power.

``--until-ci W`` plays chunk after chunk and stops after the first chunk at which every 95% Wilson
interval of the summary (each turn-order position and each seat) has half-width below W. Games
depend only on their index, so stopping after ``n`` games gives exactly the games of a fixed run
of ``n`` games. The rule looks at interval widths, which depend on the game count and hardly on
the outcomes, so stopping this way does not bias the estimates the way stopping on a significant
result would.
"""

from __future__ import annotations

import math

from cardsim.analysis.stats.summary import z_score
from cardsim.core.errors import CardsimError

DEFAULT_ALPHA = 0.05
DEFAULT_POWER = 0.8
MAX_GAMES = 10**10  # the most one run plays (runner.MAX_GAMES; no numba import here)
MIN_EFFECT = 1e-9  # below it statsmodels' solver gives up; such an edge needs ~1e19 games
UNTIL_CI_CHUNK = 4096  # games per chunk when stopping on precision (--chunk-size changes it)


def parse_share(text: str | float, what: str, signed: bool = False) -> float:
    """``"0.01"``, ``"1%"`` -> 0.01: a share strictly between 0 and 0.5 (between -0.5 and 0.5,
    not 0, when ``signed``); one-line errors."""
    raw = str(text).strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise CardsimError(f"{what} must be a number like 0.01 or 1%, got {text!r}") from None
    if not (math.isfinite(value) and 0 < (abs(value) if signed else value) < 0.5):
        span = "-0.5 and 0.5 (not 0)" if signed else "0 and 0.5 (50%)"
        raise CardsimError(f"{what} must be between {span}, got {text!r}")
    return value


def games_needed(
    edge: float, n_players: int, alpha: float = DEFAULT_ALPHA, power: float = DEFAULT_POWER
) -> int:
    """Games needed to detect a seat whose win rate is ``1/n_players + edge`` (see the module)."""
    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    fair = 1 / n_players
    rate = fair + edge
    if not 0 < rate < 1:
        raise CardsimError(
            f"a win rate of {100 * fair:.1f}% {100 * edge:+.1f} points is not a proportion"
        )
    if not (0 < alpha < 1 and 0 < power < 1):
        raise CardsimError("alpha and power must be between 0 and 1")
    h = proportion_effectsize(rate, fair)
    if abs(h) < MIN_EFFECT:
        raise _too_small(edge)
    n = NormalIndPower().solve_power(effect_size=abs(h), alpha=alpha, power=power, ratio=0)
    return _checked_count(n, edge)


def games_for_half_width(width: float, rate: float, confidence: float = 0.95) -> int:
    """Games for a 95% interval of a rate near ``rate`` to have half-width ``width`` (normal
    approximation: z^2 p (1 - p) / w^2)."""
    z = z_score(confidence)
    if width <= 0:
        raise _too_small(width)
    return _checked_count(z * z * rate * (1 - rate) / (width * width), width)


def _too_small(edge: float) -> CardsimError:
    return CardsimError(
        f"--edge {edge:g} is too small: it would take more than {MAX_GAMES:.0e} games, the most "
        "a run plays"
    )


def _checked_count(n: float, edge: float) -> int:
    if not math.isfinite(n) or n > MAX_GAMES:
        raise _too_small(edge)
    return int(math.ceil(n))


def largest_half_width(summary) -> float:
    """The widest 95% interval half-width among the positions and seats of a ``Summary``."""
    widths = []
    for rate in (*summary.positions, *summary.seats):
        lo, hi = rate.interval
        widths.append((hi - lo) / 2 if not math.isnan(lo) else math.inf)
    return max(widths) if widths else math.inf


class PrecisionStop:
    """``until`` callback for ``runner.run``: true once every position's and seat's interval in
    the running summary (a ``SummaryAccumulator``) has half-width below ``width``."""

    def __init__(self, accumulator, width: float):
        self.accumulator = accumulator
        self.width = width
        self.reached = False
        self.half_width = math.inf

    def __call__(self) -> bool:
        self.half_width = largest_half_width(self.accumulator.summarize())
        self.reached = self.half_width < self.width
        return self.reached
