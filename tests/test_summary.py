"""The streaming summary on small synthetic chunks whose counts are known by construction."""

import math
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from cardsim.analysis.stats import summary as summary_module
from cardsim.analysis.stats.summary import SummaryAccumulator, format_summary, wilson_interval
from cardsim.core import layout as L
from cardsim.core.outcomes import Chunk

END_REASONS = ("turn_cap", "set_completed", "stack_exhausted")


def fake_spec(n_players=2, bot_names=("greedy",), length_counters=()):
    """A run's spec as the accumulator reads it; ``length_counters``: (name, label) pairs of game
    counters, which come after ``GAME_COLUMNS`` in ``game_out`` in that order."""
    return SimpleNamespace(
        n_players=n_players,
        bot_names=list(bot_names),
        ruleset=SimpleNamespace(
            end_reasons=END_REASONS,
            game_counters=tuple(name for name, _ in length_counters),
            length_counters=tuple(length_counters),
        ),
    )


def make_chunk(
    first_seat, winners, turns=None, end_reason=None, seat_bot=None, first_game=0, max_players=4
):
    """Games with the given first seats and winner seats (a list of seat lists per game)."""
    n = len(first_seat)
    game_out = np.zeros((n, len(L.GAME_COLUMNS)), np.int32)
    seat_out = np.zeros((n, max_players, len(L.SEAT_COLUMNS)), np.int32)
    game_out[:, L.G_FIRST_SEAT] = first_seat
    game_out[:, L.G_TURNS] = 10 if turns is None else turns
    game_out[:, L.G_END_REASON] = 1 if end_reason is None else end_reason
    game_out[:, L.G_TURN_CAP_HIT] = game_out[:, L.G_END_REASON] == 0
    game_out[:, L.G_DECISIONS] = 7
    for g, seats in enumerate(winners):
        seat_out[g, seats, L.S_WIN] = 1
    if seat_bot is None:
        seat_bot = np.zeros((n, max_players), np.int16)
    return Chunk(first_game, game_out, seat_out, np.asarray(seat_bot, np.int16))


def test_known_wins_give_known_rates_by_position_and_seat():
    # 10 games, 2 players; seat 0 starts games 0-5, seat 1 games 6-9.
    # Starter wins 7 times (games 0-3 seat 0, games 6-8 seat 1), the other player 3 times.
    first = [0] * 6 + [1] * 4
    winners = [[0]] * 4 + [[1]] * 2 + [[1]] * 3 + [[0]]
    acc = SummaryAccumulator(fake_spec())
    acc(make_chunk(first, winners))
    s = acc.summarize()
    assert s.games == 10
    assert [r.wins for r in s.positions] == [7, 3]
    assert [r.rate for r in s.positions] == [0.7, 0.3]
    assert [r.wins for r in s.seats] == [5, 5]
    adv, lo, hi = s.first_player_advantage
    assert adv == pytest.approx(0.2)
    wlo, whi = s.positions[0].interval
    assert (lo, hi) == pytest.approx((wlo - 0.5, whi - 0.5))
    assert s.shared_win_games == 0 and s.no_winner_games == 0
    assert s.decisions == 70


def test_positions_for_three_players_follow_the_first_seat():
    # Seat 2 starts; then seat 0 is 2nd in turn order, seat 1 is 3rd.
    acc = SummaryAccumulator(fake_spec(3))
    acc(make_chunk([2, 2, 2, 1], [[0], [1], [2], [0]]))
    s = acc.summarize()
    # game 0: seat 0 -> position 1; game 1: seat 1 -> position 2; game 2: seat 2 -> position 0;
    # game 3: first seat 1, seat 0 -> position 2.
    assert [r.wins for r in s.positions] == [1, 1, 2]
    assert [r.wins for r in s.seats] == [2, 1, 1]


@pytest.mark.parametrize(
    "k, n", [(0, 10), (3, 10), (10, 10), (523, 1000), (1, 2), (49_871, 100_000)]
)
def test_wilson_interval_matches_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_interval_without_trials_is_nan():
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_a_shared_win_is_split_between_the_tied_winners_and_counted_apart():
    acc = SummaryAccumulator(fake_spec(3))
    acc(make_chunk([0, 0, 1, 2], [[0, 1], [0, 1, 2], [], [2]]))
    s = acc.summarize()
    assert s.shared_win_games == 2
    assert s.no_winner_games == 1
    # seat 0: 1/2 + 1/3; seat 1: the same; seat 2: 1/3 + a win of its own
    assert [r.wins for r in s.seats] == pytest.approx([5 / 6, 5 / 6, 4 / 3])
    assert [r.shared for r in s.seats] == [2, 2, 1]
    assert sum(r.wins for r in s.positions) == pytest.approx(3)  # one win per decided game
    assert s.fair_rate == pytest.approx(3 / 4 / 3)  # 1/K of the games somebody won


def test_median_and_mean_of_turns():
    acc = SummaryAccumulator(fake_spec(2))
    acc(make_chunk([0] * 4, [[0]] * 4, turns=[3, 9, 5, 7]))
    s = acc.summarize()
    assert s.median_turns == 6.0 and s.mean_turns == 6.0
    assert s.median_rounds == 3.0 and s.mean_rounds == 3.0
    acc(make_chunk([0], [[0]], turns=[100], first_game=4))  # histogram grows
    s = acc.summarize()
    assert s.median_turns == 7.0
    assert s.mean_turns == pytest.approx((3 + 9 + 5 + 7 + 100) / 5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=200), st.integers(1, 50))
def test_turn_statistics_match_numpy_whatever_the_chunks(turns, chunk_size):
    acc = SummaryAccumulator(fake_spec(2))
    for start in range(0, len(turns), chunk_size):
        part = turns[start : start + chunk_size]
        acc(make_chunk([0] * len(part), [[0]] * len(part), turns=part, first_game=start))
    s = acc.summarize()
    assert s.games == len(turns)
    assert s.median_turns == np.median(turns)
    assert s.mean_turns == pytest.approx(np.mean(turns))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 300), st.integers(1, 12)), min_size=1, max_size=120),
    st.integers(1, 40),
)
def test_length_counters_match_numpy_whatever_the_chunks_and_merges(games, chunk_size):
    """A game counter of length (Piña Pirata's rounds) is summarized like turns, whether the
    chunks go to one accumulator or to fresh ones merged (a cluster's tasks)."""
    spec = fake_spec(2, length_counters=(("rounds", "rounds played"),))
    whole, merged = SummaryAccumulator(spec), SummaryAccumulator(spec)
    for start in range(0, len(games), chunk_size):
        part = games[start : start + chunk_size]
        chunk = make_chunk([0] * len(part), [[0]] * len(part), turns=[t for t, _ in part])
        chunk = Chunk(
            start,
            np.column_stack([chunk.game_out, [r for _, r in part]]).astype(np.int32),
            chunk.seat_out,
            chunk.seat_bot,
        )
        whole(chunk)
        task = merged.fresh()
        task(chunk)
        merged.merge(task)
    rounds = [r for _, r in games]
    for s in (whole.summarize(), merged.summarize()):
        histogram = s.length_histograms["rounds"]
        assert histogram.sum() == len(games)
        assert summary_module.histogram_median(histogram) == np.median(rounds)
        assert summary_module.histogram_mean(histogram) == pytest.approx(np.mean(rounds))
        assert s.median_turns == np.median([t for t, _ in games])
    assert merged.fresh().length_histograms["rounds"].sum() == 0  # never shared with a task's


def test_end_reasons_and_turn_cap():
    acc = SummaryAccumulator(fake_spec(2))
    acc(make_chunk([0] * 5, [[0]] * 5, end_reason=[1, 1, 2, 0, 1]))
    s = acc.summarize()
    assert s.end_reasons == {"turn_cap": 1, "set_completed": 3, "stack_exhausted": 1}
    assert s.turn_cap_games == 1
    table = s.end_reasons_table()
    assert table.loc["set_completed", "share"] == pytest.approx(0.6)


def test_wins_per_bot_are_over_the_seats_each_bot_played():
    # 2 players; bot 0 (a) in seat 0, bot 1 (b) in seat 1 for games 0-1, swapped for game 2.
    seat_bot = [[0, 1, -1, -1], [0, 1, -1, -1], [1, 0, -1, -1]]
    acc = SummaryAccumulator(fake_spec(2, ("a", "b")))
    acc(make_chunk([0, 1, 0], [[0], [0], [0]], seat_bot=seat_bot))
    s = acc.summarize()
    assert (s.bots["a"].wins, s.bots["a"].trials) == (2, 3)
    assert (s.bots["b"].wins, s.bots["b"].trials) == (1, 3)


def test_one_chunk_or_many_give_the_same_summary():
    rng = np.random.default_rng(5)
    n = 1000
    first = rng.integers(0, 4, n)
    winners = [list(np.flatnonzero(rng.random(4) < 0.3)) for _ in range(n)]
    turns = rng.integers(8, 90, n)
    whole = SummaryAccumulator(fake_spec(4))
    whole(make_chunk(first, winners, turns))
    parts = SummaryAccumulator(fake_spec(4))
    for a in range(0, n, 64):
        parts(make_chunk(first[a : a + 64], winners[a : a + 64], turns[a : a + 64], first_game=a))
    s, p = whole.summarize(), parts.summarize()
    assert s.positions == p.positions and s.seats == p.seats and s.bots == p.bots
    assert (s.shared_win_games, s.no_winner_games) == (p.shared_win_games, p.no_winner_games)
    np.testing.assert_array_equal(s.turns_histogram, p.turns_histogram)


def test_a_million_games_in_chunks_sum_to_the_counts_of_one_chunk():
    # 16 chunks of 65,536 games: every count is 16 times the single chunk's (its speed is measured
    # in benchmarks/bench_summary.py, not asserted here)
    n = 1 << 16
    rng = np.random.default_rng(1)
    chunk = make_chunk(
        rng.integers(0, 4, n), [[int(s)] for s in rng.integers(0, 4, n)], rng.integers(20, 200, n)
    )
    one = SummaryAccumulator(fake_spec(4))
    one(chunk)
    single = one.summarize()
    acc = SummaryAccumulator(fake_spec(4))
    for _ in range(16):
        acc(chunk)
    summary = acc.summarize()
    assert summary.games == 16 * n
    assert [r.wins for r in summary.positions] == [16 * r.wins for r in single.positions]
    assert [r.wins for r in summary.seats] == [16 * r.wins for r in single.seats]
    np.testing.assert_array_equal(summary.turns_histogram, 16 * single.turns_histogram)


def test_format_summary_has_every_section():
    from cardsim.core import runner

    spec = runner.make_spec("fruit-picking", 4, 2, ["greedy", "random"], {"turn_cap": "50"})
    acc = SummaryAccumulator(spec)
    seat_bot = [[0, 1, -1, -1]] * 4
    acc(
        make_chunk(
            [0, 1, 0, 1],
            [[0], [1], [0, 1], []],
            turns=[10, 20, 30, 40],
            end_reason=[1, 1, 2, 0],
            seat_bot=seat_bot,
        )
    )
    stats = runner.RunStats(games=4, decisions=28, seconds=0.5, threads=2)
    text = format_summary(acc.summarize(), spec, stats)
    for expected in [
        "4 games, 2 players, seed 0",
        "seat 0: greedy, seat 1: random",
        "rules: turn_cap=50",
        "a win shared by k players counts 1/k for each",
        "1st (starts)",
        "2nd",
        "First-player advantage",
        "Win rate by seat",
        "Win rate by bot",
        "shared win (2+ winners)",
        "no winner",
        "Game length",
        "rounds (turns / 2)",
        "End reasons",
        "stack_exhausted",
        "Ended by the turn cap (50 rounds): 1 of 4 games (25.00%)",
        "8 games/s on 2 threads",
    ]:
        assert expected in text, expected


def test_pina_pirata_summary_tells_lengths_in_the_games_words():
    """Piña Pirata's rounds end with an empty Hand (R10): the summary calls turns / players
    "turns per player" (the turn cap too) and shows the game's rounds from its counters."""
    from cardsim.analysis.stats.summary import summary_record
    from cardsim.core import runner

    spec = runner.make_spec("pina-pirata", 2, 2, ["greedy"], {})
    acc = SummaryAccumulator(spec)
    chunk = make_chunk([0, 1], [[0], [1]], turns=[40, 60], end_reason=[1, 1])
    counters = np.zeros((2, len(spec.ruleset.game_counters)), np.int32)
    counters[:, spec.ruleset.game_counters.index("rounds")] = [3, 5]
    acc(Chunk(0, np.column_stack([chunk.game_out, counters]), chunk.seat_out, chunk.seat_bot))
    text = format_summary(acc.summarize(), spec)
    assert "turns per player (turns / 2)" in text and "rounds (turns" not in text
    assert "Ended by the turn cap (10,000 turns per player)" in text
    row = next(line for line in text.splitlines() if line.startswith("rounds played (R10)"))
    assert row.split()[-2:] == ["4.00", "4"]
    record = summary_record(acc.summarize(), spec)
    assert record["length"]["counters"]["rounds"] == {"mean": 4.0, "median": 4.0}
    assert record["length"]["counters"]["rounds_capped"] == {"mean": 0.0, "median": 0.0}


def test_summary_and_results_io_do_not_import_numba():
    code = "import sys, cardsim.analysis.stats.summary, cardsim.core.dataset; sys.exit('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
