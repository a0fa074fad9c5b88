"""``cardsim tune --objective ladder``: the top level's first-player edge plus a shortfall for each
adjacent pair of levels where the stronger does not beat the weaker by ``ORDER_MARGIN``
(cardsim/analysis/experiments/tuning/ladder_values.py). Heuristic levels only (random, greedy, planner of
Fruit Picking, 2 players): no search-bot compile, a few trials of a few dozen deals."""

from __future__ import annotations

import numpy as np
import pytest

from cardsim import api
from cardsim.analysis.experiments.tuning.ladder_values import (
    ORDER_MARGIN,
    LadderValues,
    PairValues,
    tuning_levels,
)
from cardsim.analysis.experiments.tuning.measures import GameValues, figures
from cardsim.core import registry

GAME = "fruit-picking"
LEVELS = "random,greedy,planner"
TINY = dict(budget=2, games=40, blocks=2, verify_games=60, top=1, players=2, seed=5)


@pytest.fixture(scope="module")
def tuned():
    return api.tune(GAME, ["market_slots=2..5"], "ladder", levels=LEVELS, **TINY)


def test_a_ladder_tune_is_the_same_for_the_same_seed(tuned):
    again = api.tune(GAME, ["market_slots=2..5"], "ladder", levels=LEVELS, **TINY)
    first, second = tuned.to_dict(), again.to_dict()
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_verification_reports_the_parts_of_the_ladder_objective(tuned):
    doc = tuned.to_dict()
    assert doc["levels"] == LEVELS.split(",")
    for row in doc["verification"]:
        parts = row["ladder"]
        assert [(p["weaker"], p["stronger"]) for p in parts["pairs"]] == [
            ("random", "greedy"),
            ("greedy", "planner"),
        ]
        shortfall = sum(max(ORDER_MARGIN - p["margin"], 0) for p in parts["pairs"])
        assert parts["order_shortfall"] == pytest.approx(shortfall)
        assert parts["ordered"] == (shortfall == 0)
        # the objective: |top-level edge| plus the shortfall
        assert row["objective"] == pytest.approx(abs(row["first_player_edge"]) + shortfall)
        assert row["first_player_edge_low"] <= row["first_player_edge"]
        assert row["first_player_edge"] <= row["first_player_edge_high"]


def _pair(stronger_wins: list[float]) -> PairValues:
    """A 2-player pair over its two seatings: per deal the stronger level's summed win share,
    both runs decided, a fair share of one seat in two per run."""
    wins = np.array(stronger_wins)
    return PairValues("weak", "strong", wins, np.full(len(wins), 2.0), np.full(len(wins), 1.0))


def _top(n: int) -> GameValues:
    positions = np.tile([[1.0, 0.0], [0.0, 1.0]], (n // 2, 1))
    return GameValues(np.ones(n), positions, np.full(n, 10.0), {}, {})


def test_the_penalty_is_zero_when_levels_are_ordered_and_grows_as_the_order_fails():
    ordered = LadderValues(_top(4), (_pair([2, 2, 1, 1]),))  # stronger wins 75%: +25 points
    luck = LadderValues(_top(4), (_pair([1, 1, 1, 1]),))  # stronger wins its fair half
    reversed_ = LadderValues(_top(4), (_pair([0, 1, 0, 1]),))  # stronger wins 25%
    shortfall = [float(figures(v)["order_shortfall"][0]) for v in (ordered, luck, reversed_)]
    assert shortfall == pytest.approx([0.0, ORDER_MARGIN, ORDER_MARGIN + 0.25])
    # a fair top level (edge 0): the objective is the shortfall alone
    assert float(figures(luck)["ladder_objective"][0]) == pytest.approx(ORDER_MARGIN)


def test_a_ladder_out_of_order_gets_a_worse_objective():
    """Planted: the same rules and deals, the ladder given strongest first (planner below
    greedy), so the pair's stronger level loses to the weaker; its objective counts that."""
    kept = api._ladder_player(GAME, 2, _levels("greedy,planner"), 5, [], 1, None, None)
    turned = api._ladder_player(GAME, 2, _levels("planner,greedy"), 5, [], 1, None, None)
    good, bad = figures(kept({}, 0, 60)), figures(turned({}, 0, 60))
    assert good["order_shortfall"][0] == 0
    assert bad["order_shortfall"][0] > ORDER_MARGIN
    assert bad["margin:planner<greedy"][0] == pytest.approx(-good["margin:greedy<planner"][0])
    assert bad["ladder_objective"][0] > abs(bad["first_player_edge"][0])


def _levels(text: str):
    from cardsim.analysis.experiments.ladder import parse_levels

    return parse_levels(text)


def test_the_default_tuning_ladder_is_the_heuristic_levels():
    levels = [lv.label for lv in tuning_levels(registry.get(GAME).bots())]
    assert levels == ["random", "greedy", "planner"]


def test_the_report_has_the_ladder_order(tuned, tmp_path):
    from cardsim.analysis.reports.tuning_report import tune_report

    tune_report(tuned).write(tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert "Ladder order on fresh deals" in text
    assert "planner > greedy" in text


def test_the_command_takes_levels_and_prints_the_order(tmp_path):
    from click.testing import CliRunner

    from cardsim.cli.main import cli

    args = ["tune", GAME, "-p", "2", "--param", "market_slots=2..5", "--objective", "ladder",
            "--levels", "greedy,planner", "--budget", "2", "--games", "20", "--blocks", "2",
            "--verify-games", "20", "--top", "1", "--study", str(tmp_path / "s.journal"), "-q"]  # fmt: skip
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "planner > greedy" in result.output
    assert "bots greedy,planner" in result.output


def test_the_json_of_a_ladder_tune_keeps_the_tune_schema(tuned):
    import json
    from pathlib import Path

    import jsonschema

    path = Path(__file__).parents[1] / "cardsim" / "schemas" / "tune.schema.json"
    doc = json.loads(json.dumps(tuned.to_dict()))
    jsonschema.validate(doc, json.loads(path.read_text()))
    assert doc["verification"][0]["ladder"]["order_margin"] == ORDER_MARGIN
