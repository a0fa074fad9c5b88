"""Reports that stream: every table of the balance report computed batch by batch
(``BalanceStats``) equals the in-memory metric on the whole frame, whatever the batch size;
``cardsim report`` on a file writes the same report as ``balance_report`` in memory; the counter
regression sample drawn from a stream is the in-memory sample."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import cardsim
from cardsim.analysis.reports.balance import balance_report, dataset_report
from cardsim.analysis.stats import counters, length, scores, seats
from cardsim.analysis.stats.balance_stats import BalanceStats
from cardsim.analysis.stats.histogram import IntHistogram, describe, quantile
from cardsim.cli.main import cli

BATCHES = [7, 1000, 10**6]


@pytest.fixture(scope="module")
def capped():
    """Four seats, three bots, and a turn cap low enough that some games hit it: every group of
    every table has members (shared wins, turn-cap games, bots in several seats)."""
    return cardsim.simulate(
        "pajarracos",
        1200,
        players=4,
        bots="random,greedy,strategist,random",
        seed=8,
        rules={"turn_cap": 11},
    )


@pytest.fixture(scope="module")
def fruit():
    return cardsim.simulate("fruit-picking", 1500, players=3, bots="random,greedy,planner", seed=3)


@pytest.fixture(scope="module")
def pina():
    """Piña Pirata, whose games count their own rounds (``Ruleset.length_counters``), with a
    round turn cap low enough that some rounds end by it (pina-pirata.md A16)."""
    return cardsim.simulate("pina-pirata", 400, players=3, seed=5, rules={"round_turn_cap": 40})


def _stats(results, batch):
    return BalanceStats.from_frame(results.frame, results.metadata, results.seat_counters, batch)


def _equal(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(
        got.reset_index(drop=True),
        expected.reset_index(drop=True),
        check_dtype=False,
        rtol=1e-12,
        atol=0,
    )


def test_the_runs_exercise_every_group(capped):
    frame = capped.frame
    assert 0 < frame["turn_cap_hit"].sum() < len(frame)
    assert (capped.frame[[f"win_{s}" for s in range(4)]].sum(axis=1) > 1).any()


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("which", ["capped", "fruit"])
def test_streamed_seat_tables_equal_the_in_memory_ones(which, batch, request):
    results = request.getfixturevalue(which)
    frame = results.frame
    stats = _stats(results, batch)
    _equal(stats.seat_win_rates(), seats.seat_win_rates(frame))
    _equal(stats.bot_win_rates(), seats.bot_win_rates(frame))
    _equal(stats.winners(), scores.winners(frame))
    assert stats.fair_rate == pytest.approx(seats.fair_rate(frame), rel=1e-15)
    assert stats.first_player_advantage() == pytest.approx(seats.first_player_advantage(frame))
    for by in ("position", "seat"):
        got, expected = stats.seats_equal_test(by), seats.seats_equal_test(frame, by)
        assert (got.games, got.dof) == (expected.games, expected.dof)
        assert got.statistic == pytest.approx(expected.statistic, rel=1e-9)
        assert got.p_value == pytest.approx(expected.p_value, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("which", ["capped", "fruit", "pina"])
def test_streamed_length_and_score_tables_equal_the_in_memory_ones(which, batch, request):
    results = request.getfixturevalue(which)
    frame = results.frame
    stats = _stats(results, batch)
    assert list(stats.length_summary().index) == list(
        length.length_summary(frame, results.ruleset).index
    )
    _equal(stats.length_summary(), length.length_summary(frame, results.ruleset))
    _equal(stats.length_histogram(), length.length_histogram(frame))
    _equal(stats.length_by_winner(), length.length_by_winner(frame))
    _equal(stats.score_distribution(), scores.score_distribution(frame, "position"))
    _equal(stats.margin_by_winner(), scores.margin_by_winner(frame))
    assert stats.spread_summary() == pytest.approx(scores.spread_summary(frame), rel=1e-12)
    _equal(stats.end_reason_table(), scores.end_reasons(frame))


def test_pina_pirata_lengths_are_told_in_the_games_words(pina):
    """A Piña Pirata round ends with an empty Hand (R10), not after a turn of every player: the
    length table names turns / players "turns per player" and adds the game's rounds, whose
    figures are the frame's counters (some capped by round_turn_cap, A16)."""
    table = length.length_summary(pina.frame, pina.ruleset)
    rounds = pina.frame["rounds"]
    capped = pina.frame["rounds_capped"]
    assert 0 < capped.sum() < rounds.sum()
    assert list(table.index) == [
        "turns",
        "turns per player (turns / 3)",
        "rounds played (R10)",
        "rounds ended by round_turn_cap (A16)",
    ]
    assert table.loc["rounds played (R10)", "mean"] == pytest.approx(rounds.mean(), rel=1e-12)
    assert table.loc["rounds played (R10)", "max"] == rounds.max()
    report = balance_report(pina).to_markdown()
    assert "turns per player)" in report and "rounds of 3 turns" not in report
    assert f"Rounds played (R10): {rounds.mean():.3g} per game on average" in report
    assert f"round_turn_cap (A16): {capped.mean():.3g} per game on average" in report


@pytest.mark.parametrize("batch", [37, 10**6])
def test_streamed_counter_impact_equals_the_in_memory_one(capped, batch):
    stats = _stats(capped, batch)
    effects, rates = counters.counter_impact(capped.frame, list(capped.seat_counters))
    got_effects, got_rates = stats.counter_impact()
    _equal(got_rates, rates)
    _equal(got_effects, effects)
    assert len(effects) == len(capped.seat_counters) > 5


def test_a_stream_draws_the_in_memory_regression_sample(capped):
    """The regression fits whole games with the smallest game hash: the same ones in a stream."""
    games = capped.frame[~capped.frame["turn_cap_hit"]]
    names = ["crows_played", "fruit_lost"]
    long = counters.seat_games(games, names)
    expected = counters._regression_rows(long, 400, 0).reset_index(drop=True)
    sample = counters.GameSample(400 // 4)
    for start in range(0, len(games), 53):
        sample.add(games.iloc[start : start + 53], names)
    assert len(expected) == 400
    _equal(sample.rows, expected)


def test_cardsim_report_streams_a_file_into_the_in_memory_report(capped, tmp_path):
    path = capped.save(tmp_path / "run.parquet")
    result = CliRunner().invoke(cli, ["report", str(path), "--report", str(tmp_path / "streamed")])
    assert result.exit_code == 0, result.output
    assert "Report of 1,200 games" in result.output
    balance_report(capped).write(tmp_path / "memory")
    streamed = (tmp_path / "streamed" / "report.md").read_text()
    memory = (tmp_path / "memory" / "report.md").read_text()
    assert streamed == memory
    assert "Counter impact" in streamed and "turn cap" in streamed


def test_dataset_report_reports_progress_over_every_game(fruit, tmp_path):
    path = fruit.save(tmp_path / "run.parquet")
    seen = []
    report = dataset_report(path, progress=seen.append)
    assert sum(seen) == 1500 and len(seen) >= 1
    assert report.subtitle.startswith("1,500 games")


# -- histograms ----------------------------------------------------------------------------------


def test_histogram_statistics_equal_pandas_and_numpy_on_the_values():
    rng = np.random.default_rng(0)
    for _ in range(300):
        values = rng.integers(-7, rng.integers(1, 60), rng.integers(1, 80))
        hist, other = IntHistogram(), IntHistogram()
        hist.add(values[: len(values) // 3])
        other.add(values[len(values) // 3 :])
        hist.merge(other)
        distinct, counts = hist.column()
        qs = np.linspace(0, 1, 11)
        np.testing.assert_array_equal(quantile(distinct, counts, qs), np.quantile(values, qs))
        for scale in (1, 3):
            got = describe(distinct, counts, scale)
            expected = length.describe(values / scale)
            for key in ("min", "p05", "p25", "median", "p75", "p95", "max"):
                assert got[key] == expected[key], key  # bit for bit
            assert got["mean"] == pytest.approx(expected["mean"], rel=1e-14)
            if len(values) > 1:
                assert got["sd"] == pytest.approx(expected["sd"], rel=1e-12)


def test_histogram_columns_keep_groups_apart():
    hist = IntHistogram(3)
    hist.add([5, 5, 7, -2], [0, 2, 2, 1])
    hist.add([9], 0)
    values, counts = hist.column(2)
    assert values.tolist() == [5, 7] and counts.tolist() == [1, 1]
    values, counts = hist.column()
    assert values.tolist() == [-2, 5, 7, 9] and counts.tolist() == [1, 2, 1, 1]
