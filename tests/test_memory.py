"""Reading results in little memory: compact integer types that keep every value, the parts
read one by one into the final arrays, only the columns asked for (docs/memory.md; the figures
come from benchmarks/bench_memory.py)."""

import numpy as np
import pandas as pd
import pytest

import cardsim
from cardsim.analysis.results import Results
from cardsim.core import dataset as io

GAME = "fruit-picking"


@pytest.fixture(scope="module")
def run():
    return cardsim.simulate(GAME, games=300, players=2, seed=3)


def write_in_parts(path, results, cuts):
    """``results`` as a dataset whose parts end at ``cuts`` (as a chunked run writes them)."""
    meta = io.json_ready(dict(results.metadata))
    meta.pop("games_done", None)
    meta |= {"first_game": 0, "games": results.games, "format": io.FORMAT}
    meta |= {"format_version": io.FORMAT_VERSION, "complete": True}
    meta.setdefault("seat_counters", list(results.ruleset.seat_counters))
    io.prepare_new_dataset(path, "results")
    io.write_metadata(path, meta)
    start = 0
    for stop in cuts:
        io.write_part(path, results.frame.iloc[start:stop], meta)
        start = stop
    return path


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 18, np.int8),
        (-128, 127, np.int8),
        (0, 128, np.int16),
        (-40_000, 3, np.int32),
        (0, 2**31, np.int64),
    ],
)
def test_compact_dtype_is_the_smallest_signed_type_holding_the_range(low, high, expected):
    assert io.compact_dtype(np.dtype(np.int64), low, high) == np.dtype(expected)
    assert io.compact_dtype(np.dtype(np.int8), 0, 1) == np.dtype(np.int8)  # never wider
    assert io.compact_dtype(np.dtype(bool), 0, 1) == np.dtype(bool)


def test_compact_reading_keeps_every_value_in_a_third_of_the_memory(run, tmp_path):
    path = write_in_parts(tmp_path / "r", run, [100, 200, 300])
    compact, _ = io.read_results(path)
    stored, _ = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(compact, stored, check_dtype=False)
    pd.testing.assert_frame_equal(compact, run.frame, check_dtype=False)
    assert compact["game"].dtype == np.int64  # per-game streams are derived from it
    assert compact["score_0"].dtype == np.int8 and stored["score_0"].dtype == np.int32
    assert list(compact["bot_0"].cat.categories) == list(stored["bot_0"].cat.categories)
    size = compact.memory_usage(deep=True).sum()
    assert size < stored.memory_usage(deep=True).sum() / 2.5


def test_a_column_whose_range_grows_in_a_later_part_gets_a_type_that_holds_it(run, tmp_path):
    big = Results(run.frame.copy(), run.metadata)
    big.frame.loc[250, "turns"] = 40_000  # beyond int16, in the last part only
    path = write_in_parts(tmp_path / "r", big, [100, 200, 300])
    frame, _ = io.read_results(path)
    assert frame["turns"].dtype == np.int32 and frame["turns"].iloc[250] == 40_000
    assert frame["turns"].tolist() == big.frame["turns"].tolist()


def test_only_the_columns_asked_for_are_read(run, tmp_path):
    path = write_in_parts(tmp_path / "r", run, [150, 300])
    columns = ["game", "first_seat", "win_0", "bot_1"]
    loaded = Results.load(path, columns=columns)
    assert list(loaded.frame.columns) == columns
    assert loaded.frame["win_0"].tolist() == run.frame["win_0"].tolist()
    assert loaded.frame["bot_1"].astype(str).tolist() == run.frame["bot_1"].astype(str).tolist()


def test_a_loaded_run_gives_the_same_figures(run, tmp_path):
    path = write_in_parts(tmp_path / "r", run, [120, 300])
    loaded = Results.load(path)
    assert loaded.first_player_advantage == run.first_player_advantage
    assert loaded.seat_win_rates == run.seat_win_rates
    assert loaded.mean_length.estimate == pytest.approx(run.mean_length.estimate)
    pd.testing.assert_frame_equal(loaded.seats, run.seats, check_dtype=False)
