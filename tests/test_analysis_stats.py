"""Balance metrics on synthetic games whose truth is known by construction: interval coverage, the
all-seats-equal test's error rates, shared-win accounting, length, scores, end reasons, counters.

Frames are built from raw chunk arrays through ``outcomes.chunk_frame``, so they have exactly the
layout of a real run.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from cardsim.analysis.stats import counters, length, scores, seats
from cardsim.analysis.stats.summary import wilson_interval
from cardsim.core import layout as L
from cardsim.core.outcomes import Chunk, chunk_frame

RULESET = SimpleNamespace(
    game_counters=(),
    seat_counters=("gems",),
    end_reasons=("turn_cap", "deck_out", "goal"),
)
GEMS = len(L.SEAT_COLUMNS)  # index of the "gems" counter in seat_out


def make_frame(first_seat, winners, scores=None, gems=None, turns=None, end_reason=None, bots=None):
    """A run's frame from per-game first seats and winner flags ``(games, k)``."""
    winners = np.asarray(winners, bool)
    n, k = winners.shape
    game = np.zeros((n, len(L.GAME_COLUMNS)), np.int32)
    game[:, L.G_FIRST_SEAT] = first_seat
    game[:, L.G_TURNS] = 10 if turns is None else turns
    game[:, L.G_END_REASON] = 2 if end_reason is None else end_reason
    game[:, L.G_TURN_CAP_HIT] = game[:, L.G_END_REASON] == 0
    seat = np.zeros((n, k, len(L.SEAT_COLUMNS) + 1), np.int32)
    seat[:, :, L.S_WIN] = winners
    if scores is not None:
        seat[:, :, L.S_SCORE] = scores
    if gems is not None:
        seat[:, :, GEMS] = gems
    names = ["greedy"] if bots is None else list(bots)
    seat_bot = np.zeros((n, k), np.int16) if bots is None else np.tile(np.arange(k), (n, 1))
    return chunk_frame(RULESET, k, names, Chunk(0, game, seat, seat_bot.astype(np.int16)))


def starter_wins_with(p_start, n, k, rng):
    """Games where the starter wins with probability p_start, else one of the others at random."""
    first = rng.integers(0, k, n)
    start_wins = rng.random(n) < p_start
    other = (first + rng.integers(1, k, n)) % k
    winner = np.where(start_wins, first, other)
    won = np.zeros((n, k), bool)
    won[np.arange(n), winner] = True
    return first, won


# -- intervals and tests -------------------------------------------------------------------------


def test_intervals_cover_the_true_win_rates_about_95_percent_of_the_time():
    # 3 players: the starter wins 40%, each other position 30%; 2,000 runs of 400 games
    rng = np.random.default_rng(7)
    truth = np.array([0.4, 0.3, 0.3])
    covered = np.zeros(3)
    advantage_covered = 0
    for _ in range(2000):
        frame = make_frame(*starter_wins_with(0.4, 400, 3, rng))
        rates = seats.seat_win_rates(frame)
        pos = rates[rates["kind"] == "position"]
        covered += (pos["ci_low"].to_numpy() <= truth) & (truth <= pos["ci_high"].to_numpy())
        adv = seats.first_player_advantage(frame)
        advantage_covered += adv.low <= 100 * (0.4 - 1 / 3) <= adv.high
    assert np.all((0.93 <= covered / 2000) & (covered / 2000 <= 0.97)), covered / 2000
    assert 0.93 <= advantage_covered / 2000 <= 0.97


def test_all_seats_equal_test_rejects_fair_games_at_its_nominal_rate():
    rng = np.random.default_rng(11)
    rejections = sum(
        seats.seats_equal_test(make_frame(*starter_wins_with(1 / 3, 300, 3, rng))).rejects()
        for _ in range(2000)
    )
    assert 0.035 <= rejections / 2000 <= 0.065


def test_all_seats_equal_test_detects_a_planted_starter_edge():
    rng = np.random.default_rng(12)
    tests = [
        seats.seats_equal_test(make_frame(*starter_wins_with(0.40, 2000, 3, rng)))
        for _ in range(50)
    ]
    assert all(t.rejects() for t in tests)
    assert tests[0].dof == 2 and tests[0].games == 2000 and tests[0].by == "position"


def test_seat_test_sees_no_seat_difference_when_only_the_starter_is_favoured():
    # a random first seat spreads the starter's edge evenly over the physical seats
    rng = np.random.default_rng(13)
    rejections = sum(
        seats.seats_equal_test(make_frame(*starter_wins_with(0.6, 500, 2, rng)), "seat").rejects()
        for _ in range(400)
    )
    assert rejections / 400 < 0.09


def test_wilson_interval_matches_scipy():
    from scipy.stats import binomtest

    ci = binomtest(37, 120).proportion_ci(0.95, "wilson")
    assert wilson_interval(37, 120) == pytest.approx((ci.low, ci.high), abs=1e-12)


# -- shared wins and the first-player advantage --------------------------------------------------


def test_shared_wins_count_as_a_fraction_and_are_counted_apart():
    # 4 games, 2 players, seat 0 starts every game: starter alone, other alone, shared, shared
    won = [[1, 0], [0, 1], [1, 1], [1, 1]]
    frame = make_frame([0, 0, 0, 0], won)
    rates = seats.seat_win_rates(frame).set_index(["kind", "index"])
    starter = rates.loc[("position", 0)]
    assert starter["wins"] == 2.0 and starter["win_rate"] == 0.5
    assert starter["outright_wins"] == 1 and starter["shared_wins"] == 2
    assert rates.loc[("position", 1), "wins"] == 2.0
    assert rates["fair_rate"].eq(0.5).all()
    lo, hi = wilson_interval(2.0, 4)
    assert (starter["ci_low"], starter["ci_high"]) == pytest.approx((lo, hi))


def test_position_follows_the_first_seat():
    # seat 1 starts both games and wins both: position 0 wins 100%, seat 1 wins 100%
    frame = make_frame([1, 1], [[0, 1], [0, 1]])
    rates = seats.seat_win_rates(frame).set_index(["kind", "index"])
    assert rates.loc[("position", 0), "win_rate"] == 1.0
    assert rates.loc[("seat", 1), "win_rate"] == 1.0
    assert rates.loc[("seat", 0), "label"] == "seat 0 (greedy)"


def test_games_nobody_won_lower_the_fair_rate_and_turn_cap_games_are_left_out():
    won = [[1, 0], [0, 0], [0, 1], [1, 0]]
    frame = make_frame([0, 0, 0, 0], won, end_reason=[2, 2, 2, 0])  # last game: turn cap
    rates = seats.seat_win_rates(frame)
    assert rates["games"].eq(3).all()
    assert seats.fair_rate(frame) == pytest.approx(2 / 3 / 2)  # 2 of 3 games decided, 2 players
    adv = seats.first_player_advantage(frame)
    assert adv.rate == pytest.approx(1 / 3) and adv.points == pytest.approx(0.0)
    assert not adv.detected


def test_first_player_advantage_detected_only_when_the_interval_excludes_zero():
    rng = np.random.default_rng(5)
    strong = seats.first_player_advantage(make_frame(*starter_wins_with(0.6, 5000, 2, rng)))
    assert strong.detected and strong.low > 0 and 8 < strong.points < 12
    fair = seats.first_player_advantage(make_frame(*starter_wins_with(0.5, 400, 2, rng)))
    assert fair.low < 0 < fair.high and not fair.detected


def test_bot_win_rates_count_every_seat_a_bot_played():
    won = [[1, 0], [1, 0], [0, 1], [1, 1]]
    frame = make_frame([0, 1, 0, 1], won, bots=["alpha", "beta"])  # alpha in seat 0, beta in 1
    table = seats.bot_win_rates(frame).set_index("bot")
    assert table.loc["alpha", "wins"] == 2.5 and table.loc["beta", "wins"] == 1.5
    assert table.loc["alpha", "outright_wins"] == 2 and table.loc["alpha", "seat_games"] == 4


# -- length, scores, end reasons -----------------------------------------------------------------


def test_length_tables():
    won = [[1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]]
    frame = make_frame([0, 0, 0, 0], won, turns=[9, 12, 15, 30], end_reason=[1, 2, 2, 0])
    summary = length.length_summary(frame)
    assert summary.loc["turns", "mean"] == 16.5 and summary.loc["turns", "median"] == 13.5
    assert summary.loc["rounds (turns / 3)", "max"] == 10
    hist = length.length_histogram(frame)
    assert hist["turns"].tolist() == [9, 12, 15, 30] and hist["games"].sum() == 4
    assert hist["turn_cap_games"].tolist() == [0, 0, 0, 1]
    by = length.length_by_winner(frame).set_index("winner")
    assert by.loc["1st (starts)", "games"] == 2 and by.loc["1st (starts)", "mean"] == 12
    assert by.loc["2nd", "games"] == 1 and by.loc["3rd", "games"] == 0
    assert by.loc["turn cap", "games"] == 1 and "shared win" not in by.index


def test_scores_margins_end_reasons_and_winners():
    won = [[1, 0], [0, 1], [1, 0], [1, 1]]
    score = [[10, 4], [3, 5], [6, 7], [8, 8]]
    frame = make_frame([0, 0, 1, 0], won, scores=score, end_reason=[1, 2, 2, 2])
    dist = scores.score_distribution(frame, "seat").set_index("label")
    assert dist.loc["seat 0", "mean"] == pytest.approx(27 / 4)
    by_pos = scores.score_distribution(frame).set_index("label")
    assert by_pos.loc["1st (starts)", "max"] == 10 and by_pos.loc["2nd", "max"] == 8
    margin = scores.margin_by_winner(frame).set_index("winner")
    # single winners: game 0 starter +6, game 1 2nd +2, game 2 seat 0 = 2nd, -1 (not top score)
    assert margin.loc["1st (starts)", "mean"] == 6
    assert margin.loc["2nd", "games"] == 2 and margin.loc["2nd", "mean"] == 0.5
    assert margin.loc["all decided games", "games"] == 3  # the shared win has no loser
    assert margin.loc["all decided games", "score_ties"] == pytest.approx(1 / 3)
    assert scores.spread_summary(frame)["mean"] == pytest.approx((6 + 2 + 1 + 0) / 4)
    reasons = scores.end_reasons(frame)
    assert reasons["reason"].tolist() == ["turn_cap", "deck_out", "goal"]
    assert reasons["games"].tolist() == [0, 1, 3]
    win = scores.winners(frame).set_index("outcome")
    assert win.loc["one winner", "games"] == 3 and win.loc["shared win (2+ winners)", "games"] == 1


# -- counters ------------------------------------------------------------------------------------


def counter_games(n, k, effect, rng, gems=None):
    """Gems 0..9 per seat; the winner is drawn with odds proportional to exp(effect * gems)."""
    gems = rng.integers(0, 10, (n, k)) if gems is None else gems
    weight = np.exp(effect * gems)
    p = weight / weight.sum(axis=1, keepdims=True)
    winner = (rng.random((n, 1)) > np.cumsum(p, axis=1)).sum(axis=1)
    won = np.zeros((n, k), bool)
    won[np.arange(n), winner] = True
    return make_frame(rng.integers(0, k, n), won, gems=gems)


def test_counter_effect_recovers_a_planted_odds_ratio_and_finds_none_without_one():
    # two seats holding 9 gems between them: P(seat wins) = logistic(0.2 * (g - (9 - g))), so a
    # seat's log odds of winning grow by exactly 0.4 per gem of its own
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(40):
        g0 = rng.integers(0, 10, 2000)
        frame = counter_games(2000, 2, 0.2, rng, gems=np.column_stack([g0, 9 - g0]))
        planted = counters.counter_effect(frame, "gems")
        hits += planted["or_low"] < np.exp(0.4) < planted["or_high"]
    # the intervals are clustered by game (the two seats of a game are one observation):
    # about 95% of them cover the truth
    assert hits >= 35
    assert planted["p_value"] < 1e-6 and planted["values"] == 10 and planted["note"] == ""
    null = counters.counter_effect(counter_games(4000, 2, 0.0, rng), "gems")
    assert null["or_low"] < 1 < null["or_high"]


def test_counter_win_rates_by_value_and_binned():
    rng = np.random.default_rng(4)
    frame = counter_games(3000, 3, 0.3, rng)
    by_value = counters.counter_win_rates(frame, "gems")
    assert by_value["value"].tolist() == [str(v) for v in range(10)]
    assert by_value["seat_games"].sum() == 9000
    assert by_value["wins"].sum() == pytest.approx(3000)
    assert by_value["win_rate"].iloc[-1] > by_value["win_rate"].iloc[0]
    assert (by_value["ci_low"] <= by_value["win_rate"]).all()
    binned = counters.counter_win_rates(frame, "gems", max_bins=4)
    assert len(binned) <= 4 and binned["seat_games"].sum() == 9000
    assert binned["low"].iloc[0] == 0 and binned["high"].iloc[-1] == 9


def test_a_counter_that_decides_the_winner_or_never_changes_has_no_odds_ratio():
    won = np.array([[1, 0], [0, 1], [1, 0], [0, 1]])
    decider = make_frame([0, 1, 0, 1], won, gems=won * 5)
    effect = counters.counter_effect(decider, "gems")
    assert effect["note"] == counters.SEPARATION_NOTE and np.isnan(effect["odds_ratio"])
    constant = counters.counter_effect(make_frame([0, 1, 0, 1], won, gems=np.ones((4, 2))), "gems")
    assert constant["note"].startswith("constant") and np.isnan(constant["odds_ratio"])
    effects, rates = counters.counter_impact(decider, ["gems"])
    assert effects["counter"].tolist() == ["gems"] and rates["value"].tolist() == ["0", "5"]


def test_regression_on_a_sample_of_whole_games_says_so():
    rng = np.random.default_rng(8)
    frame = counter_games(2000, 2, 0.2, rng)
    effect = counters.counter_effect(frame, "gems", max_rows=1000)
    assert effect["note"] == "fitted on 1,000 of 4,000 seat-games"
    assert effect["seat_games"] == 4000 and effect["or_low"] > 1
