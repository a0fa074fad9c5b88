"""Ratings from finishing orders: a Plackett-Luce model with a turn-order effect, fitted by
maximum likelihood.

Model. In a game, the player in turn-order position ``p`` (0 = starts) played by bot ``b`` has
utility ``u = strength[b] + position[p]``. The finishing order is drawn best first: the winner is
player ``i`` with probability ``exp(u_i) / sum exp(u_j)`` over all players, the second among the
rest in the same way, and so on. Players sharing a rank (``rank`` = 1 + players strictly better)
are handled as Breslow handles tied times: each of them is chosen from everyone not ranked above
the group. So ``exp(strength[a] - strength[b])`` is the odds that ``a`` finishes ahead of ``b``
when they meet in the same position, and ``position[p]`` is what sitting at ``p`` is worth on
the same scale — counting it in the model is what keeps a seat advantage out of the ratings.

Identification: ``position[0] = 0`` and the strengths are centred (mean 0). Standard errors come
from the inverse of the observed information (the Hessian of the negative log-likelihood, exact
for this model) at the maximum, or, when games come in clusters that are not independent (one
deal played under every seating), from the cluster-robust sandwich around it. A tiny ridge (``RIDGE``) keeps the maximum finite if a bot never
lost; it moves estimates by far less than their standard errors on any real run.

No maintained rating library fits this: choix fits Plackett-Luce without covariates (no turn
order), and TrueSkill/OpenSkill are online updates without a likelihood to read errors from. The
model is small, so it is fitted here with ``scipy.optimize`` on the distinct game patterns
(bots by position, ranks by position) weighted by how often each occurs: a few hundred patterns
however many games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from scipy import optimize

from cardsim.analysis.stats.summary import z_score

RIDGE = 1e-6  # penalty on squared parameters; only matters when a bot never lost
ELO_PER_UNIT = 400 / math.log(10)  # Elo points per unit of log-strength (same odds)


@dataclass(frozen=True)
class Rating:
    """A fitted model: strengths by bot, position effects, and their covariance."""

    bots: tuple[str, ...]
    strength: np.ndarray  # float (bots,), centred log-strengths
    strength_se: np.ndarray  # float (bots,)
    position: np.ndarray  # float (players,), position[0] = 0
    position_se: np.ndarray  # float (players,), 0 for position 0
    strength_cov: np.ndarray  # float (bots, bots)
    games: int
    log_likelihood: float
    converged: bool

    def table(self) -> pd.DataFrame:
        """One row per bot, strongest first: strength, se, 95% interval, Elo-scale rating."""
        z = z_score()
        df = pd.DataFrame(
            {
                "bot": list(self.bots),
                "strength": self.strength,
                "se": self.strength_se,
                "ci_low": self.strength - z * self.strength_se,
                "ci_high": self.strength + z * self.strength_se,
            }
        )
        df["elo"] = df["strength"] * ELO_PER_UNIT
        df["elo_se"] = df["se"] * ELO_PER_UNIT
        return df.sort_values("strength", ascending=False, kind="stable").reset_index(drop=True)

    def position_table(self) -> pd.DataFrame:
        """One row per turn-order position: effect on the log-strength scale and its se."""
        return pd.DataFrame(
            {
                "position": np.arange(len(self.position)),
                "effect": self.position,
                "se": self.position_se,
            }
        )

    def gap(self, a: str, b: str) -> tuple[float, float]:
        """``strength[a] - strength[b]`` and its standard error."""
        i, j = self.bots.index(a), self.bots.index(b)
        var = self.strength_cov[i, i] + self.strength_cov[j, j] - 2 * self.strength_cov[i, j]
        return float(self.strength[i] - self.strength[j]), math.sqrt(max(var, 0.0))

    def head_to_head(self, a: str, b: str) -> float:
        """Model chance that ``a`` finishes ahead of ``b`` in the same position."""
        return 1 / (1 + math.exp(-self.gap(a, b)[0]))


def _patterns(
    bots: np.ndarray, ranks: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (bots by position, ranks by position) rows, how often each occurs, and the
    pattern of every game."""
    k = bots.shape[1]
    rows = np.concatenate([bots, ranks], axis=1).astype(np.int64)
    unique, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    return unique[:, :k], unique[:, k:], counts.astype(np.float64), inverse.reshape(-1)


def _design(pattern_bots: np.ndarray, n_bots: int) -> np.ndarray:
    """float (patterns, players, params): one-hot of the bot (bot 0 is the reference, no column)
    then of the position (position 0 is the reference)."""
    n, k = pattern_bots.shape
    x = np.zeros((n, k, n_bots - 1 + k - 1))
    rows, cols = np.nonzero(pattern_bots > 0)
    x[rows, cols, pattern_bots[rows, cols] - 1] = 1.0
    for p in range(1, k):
        x[:, p, n_bots - 1 + p - 1] = 1.0
    return x


class _Likelihood:
    """Negative log-likelihood, gradient and Hessian over weighted patterns."""

    def __init__(self, x: np.ndarray, ranks: np.ndarray, weights: np.ndarray):
        self.x = x
        self.weights = weights
        # risk[n, j, i]: player i is still in the draw when player j is chosen
        self.risk = ranks[:, None, :] >= ranks[:, :, None]

    def _probabilities(self, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u = self.x @ params  # (n, k)
        u = u - u.max(axis=1, keepdims=True)
        e = np.exp(u)[:, None, :] * self.risk  # (n, j, i)
        total = e.sum(axis=2)  # (n, j)
        return u, e / total[:, :, None]

    def value(self, params: np.ndarray) -> float:
        u, _ = self._probabilities(params)
        e = np.exp(u)[:, None, :] * self.risk
        ll = (u - np.log(e.sum(axis=2))).sum(axis=1)
        return float(-(self.weights * ll).sum() + RIDGE * params @ params)

    def scores(self, params: np.ndarray) -> np.ndarray:
        """float (patterns, params): gradient of one game's log-likelihood, per pattern."""
        _, p = self._probabilities(params)
        du = 1.0 - p.sum(axis=1)  # d ll / d u_i = 1 - sum_j p[j, i]
        return np.einsum("ni,nip->np", du, self.x)

    def gradient(self, params: np.ndarray) -> np.ndarray:
        return -self.weights @ self.scores(params) + 2 * RIDGE * params

    def hessian(self, params: np.ndarray) -> np.ndarray:
        _, p = self._probabilities(params)
        xbar = np.einsum("nji,nip->njp", p, self.x)  # expected design of each draw
        second = np.einsum("nji,nip,niq->pq", p * self.weights[:, None, None], self.x, self.x)
        outer = np.einsum("n,njp,njq->pq", self.weights, xbar, xbar)
        return second - outer + 2 * RIDGE * np.eye(len(params))


def cluster_meat(
    model: _Likelihood, params: np.ndarray, pattern_of_game: np.ndarray, clusters: np.ndarray
) -> np.ndarray:
    """The meat M of the sandwich: the outer products of each cluster's summed scores, times
    the small-sample factor n / (n - 1) over the ``n`` clusters."""
    per_game = model.scores(params)[pattern_of_game]  # (games, params)
    _, cluster = np.unique(clusters, return_inverse=True)
    n_clusters = int(cluster.max()) + 1
    summed = np.zeros((n_clusters, per_game.shape[1]))
    np.add.at(summed, cluster.reshape(-1), per_game)
    return summed.T @ summed * (n_clusters / max(n_clusters - 1, 1))


def fit_plackett_luce(
    bots: np.ndarray,
    ranks: np.ndarray,
    bot_names: list[str] | tuple[str, ...],
    clusters: np.ndarray | None = None,
) -> Rating:
    """Fit the model to finishing orders.

    ``bots``: int (games, players), index into ``bot_names`` of the bot in each turn-order
    position (column 0 = the player who starts); ``ranks``: int (games, players), 1 = best, tied
    players share a rank. Games ended by the turn cap should be left out by the caller.
    ``clusters``: int (games,), games with the same value are not independent (a comparison's
    deal index): the standard errors are then cluster-robust (sandwich) instead of the inverse
    Hessian's, which would be too small.
    """
    bots = np.asarray(bots, np.int64)
    ranks = np.asarray(ranks, np.int64)
    pattern_bots, pattern_ranks, weights, pattern_of_game = _patterns(bots, ranks)
    meat = None
    if clusters is not None:
        meat = partial(cluster_meat, pattern_of_game=pattern_of_game, clusters=np.asarray(clusters))
    return fit_patterns(pattern_bots, pattern_ranks, weights, bot_names, meat)


def fit_patterns(
    pattern_bots: np.ndarray,
    pattern_ranks: np.ndarray,
    weights: np.ndarray,
    bot_names: list[str] | tuple[str, ...],
    meat=None,
) -> Rating:
    """``fit_plackett_luce`` from the distinct game patterns (bots by position, ranks by
    position, rows in ``np.unique`` order) and how often each occurs, which a stream of games
    can count as it goes. ``meat(model, params)``: the sandwich's meat for cluster-robust
    standard errors (``cluster_meat``), or ``None`` for the inverse Hessian's."""
    n_bots = len(bot_names)
    x = _design(np.asarray(pattern_bots, np.int64), n_bots)
    model = _Likelihood(x, np.asarray(pattern_ranks, np.int64), np.asarray(weights, np.float64))
    start = np.zeros(x.shape[2])
    result = optimize.minimize(
        model.value, start, jac=model.gradient, hess=model.hessian, method="trust-exact"
    )
    params = result.x
    if meat is None:
        cov = np.linalg.pinv(model.hessian(params))
    else:
        bread = np.linalg.pinv(model.hessian(params))
        cov = bread @ meat(model, params) @ bread
    # full strengths (reference bot 0 = 0), then centred: s_c = A @ params
    a = np.zeros((n_bots, len(params)))
    a[1:, : n_bots - 1] = np.eye(n_bots - 1)
    a -= a.mean(axis=0, keepdims=True)
    strength = a @ params
    strength_cov = a @ cov @ a.T
    position = np.concatenate([[0.0], params[n_bots - 1 :]])
    position_var = np.concatenate([[0.0], np.diag(cov)[n_bots - 1 :]])
    return Rating(
        bots=tuple(bot_names),
        strength=strength,
        strength_se=np.sqrt(np.clip(np.diag(strength_cov), 0, None)),
        position=position,
        position_se=np.sqrt(np.clip(position_var, 0, None)),
        strength_cov=strength_cov,
        games=int(round(float(np.sum(weights)))),
        log_likelihood=-float(result.fun),
        converged=bool(result.success),
    )


def sample_orders(
    strength: np.ndarray, position: np.ndarray, bots: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Ranks (1 = best, no ties) drawn from the model for games seating ``bots`` by position:
    sorting utilities plus Gumbel noise draws a Plackett-Luce order. For tests and power checks."""
    u = strength[bots] + position[None, :] + rng.gumbel(size=bots.shape)
    order = np.argsort(-u, axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, bots.shape[1] + 1)[None, :], axis=1)
    return ranks
