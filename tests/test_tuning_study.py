"""The tuning studies' verdict on the top ladder level (analysis/tuning_study.py): a winner is
said to hold only where the standard rules are unfair and the winner is not."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "analysis"))
import tuning_study  # noqa: E402


def edge(a: float, b: float, games: int = 300) -> dict:
    """A ``cardsim diff`` first-player-edge metric: the standard rules' edge ``a`` and the
    winner's ``b`` (fractions), on ``games`` 4-player deals."""
    return {"a": a, "b": b, "change": b - a, "ci_low": -0.05, "ci_high": 0.05, "games": games}


@pytest.mark.parametrize(
    ("a", "b", "words"),
    [
        # Piña Pirata's confirmation, 300 deals: both intervals hold 0 (±5 points), so the
        # winner's smaller |edge| is not a gain
        (-0.0233, 0.0100, "both are within their intervals of fair"),
        (0.0900, 0.0100, "the winner's gain holds"),
        (0.0100, -0.0900, "does not carry over to strong play"),
        (0.0900, 0.0800, "does not confirm the winner"),
    ],
)
def test_the_top_level_words_need_the_standard_rules_unfair_for_a_gain(a, b, words):
    assert words in tuning_study.top_level_words(edge(a, b), players=4)


def test_identical_games_have_nothing_to_confirm():
    same = {"a": 0.02, "b": 0.02, "change": 0.0, "ci_low": 0.0, "ci_high": 0.0, "games": 300}
    assert "no change to confirm" in tuning_study.top_level_words(same, players=4)
