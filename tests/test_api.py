"""The Python API's one-liners: the headline figures as typed values with intervals, the tidy
per-seat frame, the experiments importable from ``cardsim``, numeric notebook tables, and the
notebook example run cell by cell."""

import json
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import numpy as np
import pytest

import cardsim
from cardsim.analysis.stats import seats
from cardsim.analysis.values import Estimate

REPO = Path(__file__).resolve().parents[1]
GAME = "fruit-picking"


@pytest.fixture(scope="module")
def results():
    return cardsim.simulate(GAME, games=400, players=3, seed=4)


def test_import_cardsim_stays_light_and_names_the_experiments():
    code = (
        "import sys, cardsim; "
        "assert not {'pandas', 'numba'} & set(sys.modules), sorted(sys.modules); "
        "print(sorted(n for n in ('compare', 'sweep', 'diff', 'simulate') if n in dir(cardsim)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["['compare',", "'diff',", "'simulate',", "'sweep']"]
    from cardsim.api import compare, diff, sweep

    assert (cardsim.compare, cardsim.sweep, cardsim.diff) == (compare, sweep, diff)


def test_the_first_player_advantage_is_one_typed_value_with_its_interval(results):
    adv = results.first_player_advantage
    old = seats.first_player_advantage(results.frame)  # the report's, in points
    assert isinstance(adv, Estimate) and adv.unit == "fraction" and adv.games == old.games
    assert adv.points() == pytest.approx((old.points, old.low, old.high))
    assert adv.low < adv.estimate < adv.high and adv.detected == old.detected
    assert str(adv).startswith(f"first-player advantage: {old.points:+.2f} points")
    with pytest.raises(FrozenInstanceError):
        adv.estimate = 0.0


def test_seat_win_rates_and_mean_length(results):
    table = seats.seat_win_rates(results.frame)
    by_seat = table[table["kind"] == "seat"]
    rates = results.seat_win_rates
    assert [r.estimate for r in rates] == pytest.approx(by_seat["win_rate"].tolist())
    assert [r.low for r in rates] == pytest.approx(by_seat["ci_low"].tolist())
    by_position = [r.estimate for r in results.position_win_rates]
    assert sum(by_position) == pytest.approx(sum(r.estimate for r in rates))
    length = results.mean_length
    turns = results.frame["turns"].to_numpy(float)
    assert length.unit == "turns" and length.estimate == pytest.approx(turns.mean())
    half = 1.959964 * turns.std(ddof=1) / np.sqrt(len(turns))
    assert length.half_width == pytest.approx(half, rel=1e-5)


def test_seats_is_one_row_per_game_and_seat(results):
    long = results.seats
    assert len(long) == 3 * results.games
    assert list(long.columns[:6]) == ["game", "seat", "position", "bot", "win", "win_share"]
    game7 = long[long["game"] == 7]
    assert game7["seat"].tolist() == [0, 1, 2]
    assert game7["score"].tolist() == [results.frame[f"score_{s}"].iloc[7] for s in range(3)]
    first = int(results.frame["first_seat"].iloc[7])
    assert game7.loc[game7["position"] == 0, "seat"].item() == first
    finished = long[~long["turn_cap_hit"]]
    by_position = finished.groupby("position")["win_share"].mean().tolist()
    assert by_position == pytest.approx([r.estimate for r in results.position_win_rates])


def test_summary_keeps_fractions_apart_from_points(results):
    row = results.summary()["first_player_advantage"].iloc[0]
    assert list(row.index) == ["rate", "fair_rate", "edge", "ci_low", "ci_high", "games"]
    adv = results.first_player_advantage
    assert (row["edge"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (adv.estimate, adv.low, adv.high)
    )


def test_the_notebook_table_holds_numbers_formatted_by_a_styler(results):
    view, _, _ = results._view()
    assert view["win rate"].dtype == float and view["wins"].dtype == float
    html = results._repr_html_()
    rate = view["win rate"].iloc[0]
    assert f">{100 * rate:.2f}%</td>" in html and "text-align: right" in html


def test_sweep_and_diff_give_what_the_commands_give():
    grid = cardsim.sweep(GAME, {"seeds_per_player": [14, 18]}, games=60, players=2)
    assert grid["seeds_per_player"].tolist() == [14, 18]
    base = cardsim.simulate(GAME, games=60, players=2)
    assert grid["first_player_edge"].iloc[1] == pytest.approx(base.first_player_advantage.estimate)
    table = cardsim.diff(GAME, None, {"seeds_per_player": 14}, games=60, players=2)
    edge = table.set_index("key").loc["first_player_edge"]
    assert edge["a"] == pytest.approx(grid["first_player_edge"].iloc[1])
    assert edge["b"] == pytest.approx(grid["first_player_edge"].iloc[0])
    with pytest.raises(cardsim_error()):
        cardsim.sweep(GAME, {"no_such_option": [1, 2]}, games=10)


def cardsim_error():
    from cardsim.core.errors import CardsimError

    return CardsimError


def test_compare_from_cardsim():
    comparison = cardsim.compare(GAME, "random,greedy", games=20, players=2)
    assert comparison.win_rates["bot"].tolist() == ["random", "greedy"]
    assert comparison.games == 2 * 20  # two seatings of the same deals


def test_the_example_notebook_runs(monkeypatch):
    """examples/first_look.ipynb, code cells in order in one namespace (as a kernel would), at
    the notebook's own small game counts."""
    notebook = json.loads((REPO / "examples" / "first_look.ipynb").read_text())
    namespace: dict = {}
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert len(cells) >= 5
    for cell in cells:
        exec(compile("".join(cell["source"]), "first_look.ipynb", "exec"), namespace)
    assert isinstance(namespace["advantage"], Estimate)
    assert namespace["by_position"].tolist() == pytest.approx(
        [r.estimate for r in namespace["results"].position_win_rates]
    )
    assert namespace["grid"]["seeds_per_player"].tolist() == [14, 18]
