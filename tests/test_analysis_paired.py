"""The library API on real engine runs: ``cardsim.simulate`` and its ``Results`` (save, load),
paired differences between runs on common seeds, and the ablation helper."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy import stats

import cardsim
from cardsim.analysis.results import Results
from cardsim.analysis.stats import frame as F
from cardsim.analysis.stats.paired import paired_diff
from cardsim.api import ablation
from cardsim.core import dataset as io
from cardsim.core.errors import CardsimError

GAME = "fruit-picking"


@pytest.fixture(scope="module")
def base():
    return cardsim.simulate(GAME, games=3000, players=2, seed=5)


def diff_row(table, metric):
    return table.set_index("metric").loc[metric]


# -- simulate and Results ------------------------------------------------------------------------


def test_import_cardsim_stays_light():
    code = (
        "import sys, cardsim; "
        "print(all(m not in sys.modules for m in ('numba', 'pandas', 'matplotlib')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_simulate_returns_every_game_and_the_run_metadata(base):
    assert isinstance(base, Results) and len(base.frame) == 3000
    assert base.frame["game"].tolist() == list(range(3000))
    meta = base.metadata
    assert meta["ruleset"] == GAME and meta["n_players"] == 2 and meta["seed"] == 5
    assert meta["games"] == meta["games_done"] == 3000 and meta["complete"]
    assert meta["games_per_second"] > 0 and meta["threads"] >= 1 and meta["load_average"] >= 0
    assert meta["end_reasons"][0] == "turn_cap"
    assert base.ruleset.name == GAME and "cards_bought" in base.seat_counters


def test_simulate_gives_the_same_games_whatever_threads_chunks_and_spelling():
    a = cardsim.simulate(
        GAME,
        games=500,
        players=3,
        bots="planner,greedy,random",
        seed=9,
        rules={"variant_umbrella": True},
        threads=1,
        chunk_size=97,
    )
    b = cardsim.simulate(
        GAME,
        games="5e2",
        players=3,
        bots=["planner", "greedy", "random"],
        seed=9,
        rules={"variant_umbrella": "true"},
    )
    pd.testing.assert_frame_equal(a.frame, b.frame)
    assert a.frame["bot_0"].iloc[0] == "planner" and a.frame["bot_2"].iloc[0] == "random"


def test_simulate_rejects_bad_input_with_a_cardsim_error():
    with pytest.raises(CardsimError, match="unknown rule option"):
        cardsim.simulate(GAME, games=10, rules={"no_such_rule": 1})
    with pytest.raises(CardsimError, match="unknown bot"):
        cardsim.simulate(GAME, games=10, bots="nobody")


def test_results_save_and_load_round_trip(base, tmp_path):
    path = base.save(tmp_path / "run.parquet")
    assert path == tmp_path / "run.parquet" and io.is_dataset(path)
    loaded = Results.load(path)  # compact integer types: the same values
    pd.testing.assert_frame_equal(loaded.frame, base.frame, check_dtype=False)
    assert loaded.metadata == base.metadata
    # the file is a regular results file: the run's reader reads it too
    frame, meta = io.read_results(path, compact=False)
    assert len(frame) == 3000 and meta["seed"] == 5


def test_results_of_a_run_out_file_load_without_speed(tmp_path):
    from click.testing import CliRunner

    from cardsim.cli.main import cli

    path = tmp_path / "r.parquet"
    result = CliRunner().invoke(
        cli, ["run", GAME, "-n", "300", "-p", "2", "-s", "5", "-o", str(path), "-q"]
    )
    assert result.exit_code == 0, result.output
    loaded = Results.load(path)
    fresh = cardsim.simulate(GAME, games=300, players=2, seed=5)
    pd.testing.assert_frame_equal(loaded.frame, fresh.frame, check_dtype=False)
    assert "games_per_second" not in loaded.metadata


def test_loading_a_missing_or_foreign_file_is_a_one_line_error(tmp_path):
    with pytest.raises(CardsimError, match="does not exist"):
        Results.load(tmp_path / "missing.parquet")
    text = tmp_path / "notes.parquet"
    text.write_text("not parquet")
    with pytest.raises(CardsimError, match="not a readable Parquet file"):
        Results.load(text)
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), foreign)
    with pytest.raises(CardsimError, match="not a cardsim results file"):
        Results.load(foreign)
    with pytest.raises(CardsimError, match="is a directory"):
        Results.load(tmp_path)
    for exc in (CardsimError("x"),):
        assert "\n" not in str(exc)


# -- paired differences --------------------------------------------------------------------------


def test_identical_rule_sets_differ_by_exactly_nothing(base):
    again = cardsim.simulate(GAME, games=3000, players=2, seed=5)
    table = paired_diff(base, again)
    assert (table["diff"] == 0).all()
    assert (table["ci_low"] == 0).all() and (table["ci_high"] == 0).all()
    assert (table["p_value"] == 1).all()
    assert (table["a"] == table["b"]).all()
    assert table["metric"].tolist() == [
        "win rate 1st (starts)",
        "win rate 2nd",
        "win rate seat 0",
        "win rate seat 1",
        "first-player advantage",
        "game length (turns)",
        "score spread",
        "winning margin",
    ]


def test_paired_diff_detects_a_shorter_game_with_a_narrower_interval_than_unpaired(base):
    beginners = cardsim.simulate(
        GAME, games=3000, players=2, seed=5, rules={"variant_beginners": True}
    )
    table = paired_diff(base, beginners)
    length = diff_row(table, "game length (turns)")
    assert length["ci_high"] < 0 and length["p_value"] < 1e-6  # beginners' games are shorter
    assert length["diff"] == pytest.approx(length["b"] - length["a"])
    assert length["a"] == pytest.approx(base.frame["turns"].mean())
    # the same games under both rules are correlated, so pairing narrows the interval
    unpaired = stats.ttest_ind(
        beginners.frame["turns"].astype(float), base.frame["turns"].astype(float)
    ).confidence_interval()
    assert length["ci_high"] - length["ci_low"] < 0.9 * (unpaired.high - unpaired.low)


def test_paired_diff_detects_a_fixed_first_player_on_the_seat_it_favours(base):
    seat0 = cardsim.simulate(GAME, games=3000, players=2, seed=5, rules={"first_player": 0})
    table = paired_diff(base, seat0)
    row = diff_row(table, "win rate seat 0")
    # seat 0 now always starts: it gains about half the first-player advantage of ~7 points x 2
    assert row["ci_low"] > 0.02 and row["p_value"] < 1e-3
    assert diff_row(table, "win rate seat 1")["ci_high"] < 0
    # who starts changes, how much starting is worth does not
    advantage = diff_row(table, "first-player advantage")
    assert advantage["ci_low"] < 0 < advantage["ci_high"]


def test_paired_diff_pairs_games_by_index_and_refuses_different_player_counts(base):
    half = Results(base.frame.iloc[1000:2000], base.metadata)
    table = paired_diff(base, half)
    assert table["games"].iloc[0] == 1000 and (table["diff"] == 0).all()
    three = cardsim.simulate(GAME, games=50, players=3, seed=5)
    with pytest.raises(CardsimError, match="2 and 3 players"):
        paired_diff(base, three)


def test_a_constant_change_has_an_interval_of_that_one_value(base):
    longer = base.frame.copy()
    longer["turns"] = longer["turns"] + 2
    row = diff_row(paired_diff(base, longer), "game length (turns)")
    assert (row["diff"], row["ci_low"], row["ci_high"], row["p_value"]) == (2, 2, 2, 0)


def test_a_games_own_rounds_are_a_paired_metric_in_the_api_and_streamed():
    """Piña Pirata's rounds (Ruleset.length_counters) are a metric of the paired table, game by
    game: two tiles in play from the start against none, on the same games (pina-pirata.md
    ``fixed_tiles``); the streamed table (``cardsim diff``) agrees."""
    from cardsim.analysis.stats.paired import PairedStats

    a = cardsim.simulate("pina-pirata", games=300, players=3, seed=4)
    b = cardsim.simulate(
        "pina-pirata", games=300, players=3, seed=4, rules={"fixed_tiles": "T18,T37"}
    )
    table = paired_diff(a, b)
    row = diff_row(table, "rounds played (R10)")
    assert row["games"] == 300
    assert row["a"] == pytest.approx(a.frame["rounds"].mean())
    assert row["b"] == pytest.approx(b.frame["rounds"].mean())
    assert "rounds ended by round_turn_cap (A16)" in set(table["metric"])
    streamed = PairedStats(a.ruleset.length_counters)
    for lo in range(0, 300, 128):
        streamed.add(a.frame.iloc[lo : lo + 128], b.frame.iloc[lo : lo + 128])
    pd.testing.assert_frame_equal(streamed.table(), table, rtol=1e-9, check_dtype=False)
    assert "rounds played (R10)" not in set(paired_diff(a.frame, b.frame)["metric"])  # no ruleset


def test_score_spread_and_winning_margin_per_game(base):
    from cardsim.analysis.stats.paired import score_spread, winning_margin

    frame = base.frame.iloc[:200]
    scores = F.seat_matrix(frame, "score", float)
    wins = F.wins(frame)
    assert np.array_equal(score_spread(frame), np.abs(scores[:, 0] - scores[:, 1]))
    single = wins.sum(axis=1) == 1
    expected = np.where(wins[:, 0], scores[:, 0] - scores[:, 1], scores[:, 1] - scores[:, 0])
    assert np.array_equal(winning_margin(frame)[single], expected[single])


# -- ablation ------------------------------------------------------------------------------------


def test_ablation_runs_every_variant_on_the_base_seeds():
    runs = {}
    table = ablation(
        GAME,
        {"seeds_per_player": 18},
        {"umbrella": {"variant_umbrella": True}, "same": {}},
        games=1500,
        players=3,
        seed=4,
        results=runs,
    )
    assert sorted(runs) == ["base", "same", "umbrella"]
    assert runs["umbrella"].metadata["rules"]["variant_umbrella"] is True
    assert runs["umbrella"].metadata["rules"]["seeds_per_player"] == 18
    assert table["variant"].unique().tolist() == ["umbrella", "same"]
    same = table[table["variant"] == "same"]
    assert (same["diff"] == 0).all()
    umbrella = table[table["variant"] == "umbrella"].drop(columns="variant").reset_index(drop=True)
    pd.testing.assert_frame_equal(umbrella, paired_diff(runs["base"], runs["umbrella"]))
