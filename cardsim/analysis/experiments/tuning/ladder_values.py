"""The ladder objective of a tune: per deal, what ``--objective ladder`` needs from a ladder.

A trial of ``cardsim tune --objective ladder`` plays, on each deal of its blocks, only the runs
of ``cardsim ladder`` (``analysis.ladder.ladder_plan``) that the objective reads:

- the **self-play of the top level**: its first-player edge is what the tune makes fair;
- the **matchups of each adjacent pair of levels** (both seatings with 2 players, the rotations
  of one against copies of the other with more): the stronger level's win share there, against
  its fair share (its seats' share of the table, 1/2 over a pair's seatings), tells whether
  the rules still let skill show.

``LadderValues`` holds those per-deal values, so a block's figures, a bootstrap over deals and
the paired comparison of two candidates work as for ``measures.GameValues``. Its figures are the
top level's (``first_player_edge``, ``seat_spread``, ``mean_turns``...) and:

- ``margin:WEAKER<STRONGER``: the stronger level's win share minus its fair share, per pair;
- ``order_shortfall``: the sum over adjacent pairs of how far each margin falls short of
  ``ORDER_MARGIN`` (0 when every stronger level beats the weaker one by the margin at least);
- ``ladder_objective``: ``|first_player_edge| + ORDER_WEIGHT * order_shortfall``, lower is
  better: a fair first seat does not win if the rules made the game one of luck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cardsim.analysis.experiments.tuning.measures import (
    GameValues,
    concat_values,
    figures,
    game_values,
)

ORDER_MARGIN = 0.05  # a stronger level should win 5 points above its fair share of its pair
ORDER_WEIGHT = 1.0  # one point of shortfall costs as much as one point of first-player edge


@dataclass(frozen=True)
class PairValues:
    """One adjacent pair over its seatings, per deal: ``wins`` the stronger level's win share
    summed over the pair's runs, ``decided`` the runs the rules ended, ``fair`` its fair wins
    (its seats' share of each decided run)."""

    weaker: str
    stronger: str
    wins: np.ndarray
    decided: np.ndarray
    fair: np.ndarray

    @property
    def name(self) -> str:
        return f"margin:{self.weaker}<{self.stronger}"

    def margin(self, w: np.ndarray) -> np.ndarray:
        """The stronger level's win share minus its fair share, per row of ``w``."""
        decided = w @ self.decided
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(decided > 0, (w @ self.wins - w @ self.fair) / decided, np.nan)


@dataclass(frozen=True)
class LadderValues:
    """What a trial's block of deals gave at the ladder: the top level's self-play games and
    each adjacent pair's per-deal values (deal i of every run the same deal)."""

    top: GameValues
    pairs: tuple[PairValues, ...]

    @property
    def games(self) -> int:
        return self.top.games

    def figures(self, w: np.ndarray) -> dict[str, np.ndarray]:
        out = figures(self.top, w)
        shortfall = np.zeros(len(w))
        for pair in self.pairs:
            margin = pair.margin(w)
            out[pair.name] = margin
            # no decided meeting is no evidence that skill shows: the full shortfall
            shortfall += np.maximum(ORDER_MARGIN - np.nan_to_num(margin, nan=0.0), 0.0)
        out["order_shortfall"] = shortfall
        out["ladder_objective"] = np.abs(out["first_player_edge"]) + ORDER_WEIGHT * shortfall
        return out

    @staticmethod
    def concat(parts: Sequence[LadderValues]) -> LadderValues:
        pairs = tuple(
            PairValues(
                p.weaker,
                p.stronger,
                *(np.concatenate([getattr(q.pairs[i], f) for q in parts]) for f in FIELDS),
            )
            for i, p in enumerate(parts[0].pairs)
        )
        return LadderValues(concat_values([q.top for q in parts]), pairs)


FIELDS = ("wins", "decided", "fair")


def given_levels(goal, levels) -> list | None:
    """``--levels`` of a tune parsed as ``cardsim ladder`` parses them (``None`` if not given);
    an error if given for an objective other than the ladder."""
    from cardsim.analysis.experiments.ladder import parse_levels
    from cardsim.core.errors import CardsimError

    if levels is None or (isinstance(levels, str) and not levels.strip()):
        return None
    if not goal.ladder:
        raise CardsimError(f"--levels is for --objective ladder (the objective is {goal.name})")
    return parse_levels(levels)


def tuning_levels(bots: Mapping[str, object]) -> list:
    """The default ladder of ``--objective ladder``: ``cardsim ladder``'s heuristic levels
    (random, greedy, the game's strongest heuristic bot), without its ``ismcts`` levels. A trial
    plays every deal of its blocks on each run of ``tuning_plan``, dozens of times over a tune:
    the search bot there would cost hundreds of times the heuristic games and a compile of its
    own (give it with ``--levels`` to pay for it)."""
    from cardsim.analysis.experiments.ladder import SEARCH_BOT, default_levels

    levels, _ = default_levels(bots)
    return [lv for lv in levels if lv.bot != SEARCH_BOT]


def tuning_plan(plan: Sequence, n_levels: int) -> list:
    """The runs of a ladder plan that the objective reads: the top level's self-play and every
    seating of each adjacent pair (``match-i-(i+1)-s``)."""
    keep = {f"self-{n_levels - 1}"}
    keep |= {f"match-{i}-{i + 1}" for i in range(n_levels - 1)}
    return [r for r in plan if r.key in keep or r.key.rpartition("-")[0] in keep]


def pair_values(frames: Sequence[pd.DataFrame], weaker: str, stronger: str) -> PairValues:
    """The per-deal values of one pair from the frames of its seatings."""
    parts = [game_values(f) for f in frames]
    k = parts[0].positions.shape[1]
    wins = sum(p.bots[stronger] for p in parts)
    decided = sum(p.decided for p in parts)
    fair = sum(p.decided * p.bot_seats[stronger] / k for p in parts)
    return PairValues(weaker, stronger, wins, decided, fair)


def ladder_values(frames: Mapping[str, pd.DataFrame], labels: Sequence[str]) -> LadderValues:
    """The values of the runs of ``tuning_plan`` (run key -> its games)."""
    n = len(labels)
    pairs = tuple(
        pair_values(
            [f for key, f in frames.items() if key.startswith(f"match-{i}-{i + 1}-")],
            labels[i],
            labels[i + 1],
        )
        for i in range(n - 1)
    )
    return LadderValues(game_values(frames[f"self-{n - 1}"]), pairs)
