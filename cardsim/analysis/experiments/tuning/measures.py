"""Balance figures of a set of games, from per-game values, with a bootstrap over deals.

``game_values(frame)`` reads what every figure needs from one run's frame: per game, whether it
was decided by the rules (not the turn cap), the win share of each turn-order position, the
first player's edge, the length in turns and the win share per seat of each bot. ``figures``
turns any weighting of those games into the figures:

- ``first_player_edge``: the starter's win rate minus the fair 1/K, as a fraction of 1;
- ``seat_spread``: highest minus lowest win rate over the turn-order positions;
- ``mean_turns``: mean length in turns (every game, turn-cap ones too);
- ``bot_share[name]``: the bot's win rate per seat it held.

Win figures leave turn-cap games out and split shared wins, as everywhere in cardsim.

``bootstrap_weights`` draws deals with replacement: the same draw weighs every run played on the
deals, so the figures of two rule sets stay paired (a deal that favours the starter under both
counts for both), and an interval of a difference between runs is a paired one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardsim.analysis.stats import frame as F

BOOTSTRAP = 400  # deal resamples behind a bootstrap interval
CONFIDENCE = 0.95


@dataclass(frozen=True)
class GameValues:
    """Per-game values of one run, game i of every run of an experiment the same deal.

    ``decided`` (n,) 1.0 for games the rules ended, 0.0 for the turn cap's; ``positions`` (n, K)
    the win share of each turn-order position (0 in turn-cap games); ``turns`` (n,); ``bots``
    name -> (n,) win share of the bot's seats together, ``bot_seats`` name -> seats it holds.
    """

    decided: np.ndarray
    positions: np.ndarray
    turns: np.ndarray
    bots: dict[str, np.ndarray]
    bot_seats: dict[str, int]

    @property
    def games(self) -> int:
        return len(self.turns)

    @property
    def edge(self) -> np.ndarray:
        """(n,) the starter's share minus 1/K in decided games, 0 in the others."""
        k = self.positions.shape[1]
        return self.positions[:, 0] - self.decided / k


def game_values(frame: pd.DataFrame) -> GameValues:
    """The per-game values of a run's frame (see ``GameValues``)."""
    decided = ~frame["turn_cap_hit"].to_numpy(bool)
    shares = F.win_shares(frame) * decided[:, None]
    k = F.seat_count(frame)
    bots: dict[str, np.ndarray] = {}
    seats: dict[str, int] = {}
    for s in range(k):
        name = F.seat_bot(frame, s) if len(frame) else None
        name = name if name is not None else f"seat {s}"
        bots[name] = bots.get(name, 0.0) + shares[:, s]
        seats[name] = seats.get(name, 0) + 1
    return GameValues(
        decided.astype(float),
        F.by_position(frame, shares),
        frame["turns"].to_numpy(np.float64),
        bots,
        seats,
    )


def as_values(played) -> GameValues:
    """What a tune's ``play`` returned as per-game values: a run's frame is read by
    ``game_values``; a ladder's values (``ladder_values.LadderValues``) are already that."""
    return game_values(played) if isinstance(played, pd.DataFrame) else played


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    return np.divide(top, bottom, out=np.full_like(top, np.nan), where=bottom > 0)


def figures(values: GameValues, weights: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Every figure of the module docstring, one value per row of ``weights`` (default: the
    games once each, a single row)."""
    w = np.ones((1, values.games)) if weights is None else weights
    if not isinstance(values, GameValues):  # a ladder's values (``ladder_values``) say their own
        return values.figures(w)
    decided = w @ values.decided
    rates = _ratio(w @ values.positions, decided[:, None])
    k = values.positions.shape[1]
    out = {
        "first_player_edge": rates[:, 0] - 1.0 / k,
        "seat_spread": rates.max(axis=1) - rates.min(axis=1),
        "mean_turns": (w @ values.turns) / w.sum(axis=1),
    }
    for name, share in values.bots.items():
        out[f"bot_share:{name}"] = _ratio(w @ share, decided * values.bot_seats[name])
    return out


def percentile_interval(draws: np.ndarray) -> tuple[float, float]:
    """The 95% percentile interval of bootstrap draws (NaN draws left out)."""
    draws = draws[np.isfinite(draws)]
    if len(draws) == 0:
        return (np.nan, np.nan)
    tail = 100 * (1 - CONFIDENCE) / 2
    lo, hi = np.percentile(draws, [tail, 100 - tail])
    return float(lo), float(hi)


def concat_values(parts: list[GameValues]) -> GameValues:
    """The games of several blocks of one run as one ``GameValues`` (or ``LadderValues``)."""
    first = parts[0]
    if not isinstance(first, GameValues):
        return type(first).concat(parts)
    return GameValues(
        np.concatenate([p.decided for p in parts]),
        np.concatenate([p.positions for p in parts]),
        np.concatenate([p.turns for p in parts]),
        {b: np.concatenate([p.bots[b] for p in parts]) for b in first.bots},
        dict(first.bot_seats),
    )


CHUNK_DRAWS = 50  # deal resamples weighed at once (memory: draws x games floats)


def paired_bootstrap(
    runs: list[GameValues], seed: int, draws: int = BOOTSTRAP
) -> dict[str, np.ndarray]:
    """Every figure of every run under the same deal resamples: figure -> ``(runs, 1 + draws)``
    (column 0 the estimate on the games as played). The runs must be played on the same deals
    (game i of each is deal i), which is what makes differences between runs paired."""
    games = runs[0].games
    rng = np.random.default_rng(seed)
    columns: dict[str, list[np.ndarray]] = {}
    done = 0
    while done < draws + 1:
        if done == 0:
            w = np.ones((1, games))
        else:
            size = min(CHUNK_DRAWS, draws + 1 - done)
            w = rng.multinomial(games, np.full(games, 1.0 / games), size=size).astype(np.float64)
        per_run = [figures(v, w) for v in runs]
        for name in per_run[0]:
            columns.setdefault(name, []).append(np.vstack([f[name] for f in per_run]))
        done += len(w)
    return {name: np.hstack(parts) for name, parts in columns.items()}
