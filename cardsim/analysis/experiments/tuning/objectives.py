"""What a tune minimises, block of deals by block of deals, and its optional length constraint.

An objective turns the games of one block (the same deals for every candidate, so the values of
two candidates on a block are paired, as the Wilcoxon pruner wants them) into one number, lower
is better:

- ``first-player``: |first-player edge| (the starter's win rate minus the fair 1/K);
- ``seats``: the spread of win rates over the turn-order positions (highest minus lowest);
- ``ladder``: |first-player edge| of the top level of a bot ladder in self-play, plus the
  shortfall of each adjacent pair of levels below a stronger-beats-weaker margin
  (``ladder_values``): a block then holds the games of the ladder's runs on its deals.

``length=LO..HI`` is a constraint, not an objective: a candidate whose mean length in turns
falls outside LO..HI is infeasible (``Trial.set_constraint``: the sampler steers away from it)
and never wins.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardsim.analysis.experiments.tuning.measures import GameValues, figures
from cardsim.core.errors import CardsimError


def first_player_gap(block: GameValues) -> float:
    """|first-player edge| of the block's games."""
    return float(abs(figures(block)["first_player_edge"][0]))


def seat_spread(block: GameValues) -> float:
    """Spread of the turn-order positions' win rates in the block's games."""
    return float(figures(block)["seat_spread"][0])


def ladder_gap(block: GameValues) -> float:
    """|first-player edge| at the top level plus the order shortfall (``ladder_values``)."""
    return float(figures(block)["ladder_objective"][0])


@dataclass(frozen=True)
class Kind:
    """An objective: its value on a block of games, what it measures, the ``measures.figures``
    figure (|figure| for an edge) that verification on fresh deals compares the candidates by,
    and whether its games are a ladder's (``--levels``)."""

    block_value: Callable[[GameValues], float]
    what: str
    figure: str
    ladder: bool = False


OBJECTIVES: dict[str, Kind] = {
    "first-player": Kind(first_player_gap, "|first-player edge|", "first_player_edge"),
    "seats": Kind(seat_spread, "spread of the turn-order positions' win rates", "seat_spread"),
    "ladder": Kind(
        ladder_gap,
        "|first-player edge| at the top ladder level plus each adjacent pair's shortfall below "
        "a stronger-beats-weaker margin",
        "ladder_objective",
        ladder=True,
    ),
}


@dataclass(frozen=True)
class Objective:
    """The objective of a tune and the length window its candidates must keep (or ``None``)."""

    name: str
    length: tuple[float, float] | None = None

    @property
    def block_value(self) -> Callable[[GameValues], float]:
        return OBJECTIVES[self.name].block_value

    @property
    def ladder(self) -> bool:
        return OBJECTIVES[self.name].ladder

    @property
    def describe(self) -> str:
        what = OBJECTIVES[self.name].what
        if self.length is None:
            return what
        return f"{what}, mean length kept within {self.length[0]:g}..{self.length[1]:g} turns"

    def constraint(self, mean_turns: float) -> list[float]:
        """optuna's constraint values: each <= 0 when the mean length is inside the window."""
        if self.length is None:
            return [0.0]
        lo, hi = self.length
        return [lo - mean_turns, mean_turns - hi]

    def feasible(self, mean_turns: float) -> bool:
        return all(c <= 0 for c in self.constraint(mean_turns))


def _length(text: str) -> tuple[float, float]:
    raw = text.partition("=")[2]
    lo, sep, hi = raw.partition("..")
    try:
        window = (float(lo), float(hi))
    except ValueError:
        window = None
    if not sep or window is None:
        raise CardsimError(f"--objective {text}: give the mean length as length=LO..HI (turns)")
    if not 0 <= window[0] < window[1]:
        raise CardsimError(f"--objective {text}: the length window is empty")
    return window


def parse_objective(texts: Sequence[str]) -> Objective:
    """``["first-player"]``, ``["seats", "length=40..60"]``, ... -> the ``Objective``; one-line
    errors for an unknown name or two objectives."""
    name, length = None, None
    for text in texts:
        text = text.strip()
        if text.startswith("length"):
            if length is not None:
                raise CardsimError("--objective length=LO..HI is given twice")
            length = _length(text)
            continue
        if text not in OBJECTIVES:
            raise CardsimError(
                f"unknown --objective {text!r}: choose {', '.join(OBJECTIVES)} (and optionally "
                "length=LO..HI)"
            )
        if name is not None and name != text:
            raise CardsimError(f"--objective: one objective at a time, got {name} and {text}")
        name = text
    return Objective(name or "first-player", length)
