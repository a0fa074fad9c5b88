"""The skill ladder (``cardsim ladder``): level syntax, the default ladder, the seatings, a planted
order on real games, the antisymmetric matrix, interval coverage on simulated games, resuming
saved runs, and one-line errors for bad input."""

import json
import shutil
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import cardsim
from cardsim import experiments
from cardsim.analysis.experiments import ladder as L
from cardsim.cli.main import cli
from cardsim.core.errors import CardsimError

GAME = "fruit-picking"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


# -- levels --------------------------------------------------------------------------------------


def test_level_syntax_bot_or_bot_with_parameters():
    levels = L.parse_levels("random, greedy,ismcts:iterations=200,c=0.7,ismcts")
    assert [lv.label for lv in levels] == [
        "random",
        "greedy",
        "ismcts:iterations=200,c=0.7",
        "ismcts",
    ]
    assert levels[2].overrides() == {"iterations": "200", "c": "0.7"}
    # a bot reference package.module:function is a bot, not parameters
    assert L.parse_level("mybots.strong:play").label == "mybots.strong:play"


def test_the_same_bot_with_other_parameters_is_another_level():
    levels = L.parse_levels(["planner", "planner:money=1.2"])
    assert [lv.label for lv in levels] == ["planner", "planner:money=1.2"]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("greedy", "at least 2 levels"),
        ("greedy,random,greedy", "'greedy' twice"),
        ("planner:money=1,planner:money=1", "twice"),
        ("greedy,planner:money=", "KEY=VALUE"),
        ("greedy,,random", "empty level"),
    ],
)
def test_bad_level_lists_are_errors(text, fragment):
    with pytest.raises(CardsimError, match=fragment):
        L.parse_levels(text)


def _bot(params=(), names=()):
    return SimpleNamespace(params=params, param_names=names)


def test_default_ladder_without_the_search_bot_is_the_heuristic_levels_and_says_so():
    bots = {name: _bot() for name in ("random", "greedy", "crow-attacker", "strategist")}
    levels, note = L.default_levels(bots)
    assert [lv.label for lv in levels] == ["random", "greedy", "strategist"]
    assert "ismcts" in note and "\n" not in note


def test_default_ladder_with_the_search_bot_adds_half_and_full_budget():
    bots = {"random": _bot(), "greedy": _bot(), "planner": _bot()}
    bots["ismcts"] = _bot((800.0, 0.7), ("iterations", "c"))
    levels, note = L.default_levels(bots)
    labels = [lv.label for lv in levels]
    assert labels == ["random", "greedy", "planner", "ismcts:iterations=400", "ismcts"]
    assert note == ""


@pytest.mark.parametrize("k", [2, 3, 4])
def test_matchup_seatings_seat_each_level_in_every_seat_equally(k):
    seatings = L.matchup_seatings("a", "b", k)
    for level in "ab":
        per_seat = [sum(s[seat] == level for s in seatings) for seat in range(k)]
        assert len(set(per_seat)) == 1, per_seat
    if k > 2:  # one of each level against copies of the other
        assert all(sorted(s).count("a") in (1, k - 1) for s in seatings)
        assert len(seatings) == 2 * k


# -- simulated games: the analysis alone ---------------------------------------------------------


def _frame(rng, deals, seating, ahead_prob, start_win=0.5):
    """Two-player games of ``seating``: seat 0 finishes ahead with ``ahead_prob[deal]`` (its
    own deal's chance, so the games of one deal move together) when it is the level ``a``
    ... and the starter wins with ``start_win`` in self-play (``ahead_prob`` None)."""
    first = rng.integers(0, 2, deals)
    if ahead_prob is None:
        starter_wins = rng.random(deals) < start_win
        seat0 = np.where(first == 0, starter_wins, ~starter_wins)
    else:
        p = ahead_prob if seating[0] == "a" else 1 - ahead_prob
        seat0 = rng.random(deals) < p
    return pd.DataFrame(
        {
            "game": np.arange(deals),
            "first_seat": first,
            "turn_cap_hit": np.zeros(deals, bool),
            "win_0": seat0,
            "win_1": ~seat0,
            "rank_0": np.where(seat0, 1, 2),
            "rank_1": np.where(seat0, 2, 1),
            "bot_0": seating[0],
            "bot_1": seating[1],
        }
    )


def _simulated(rng, deals, p, spread, edge):
    deal_p = np.clip(p + spread * rng.choice([-1, 1], deals), 0, 1)  # correlated by deal
    frames = {
        "self-0": _frame(rng, deals, ("a", "a"), None, 0.5 + edge),
        "self-1": _frame(rng, deals, ("b", "b"), None, 0.5 + edge),
    }
    for s, seating in enumerate(L.matchup_seatings("a", "b", 2)):
        frames[f"match-0-1-{s}"] = _frame(rng, deals, seating, deal_p)
    return frames


def test_intervals_cover_on_simulated_games():
    """100 simulated ladders with known chances (a finishes ahead of b 65% of the time, deals
    correlated; the starter wins 56% in self-play): the 95% intervals hold the truth in about
    95% of them (at least 88%: 100 draws of a 95% coverage fall below 88% with p < 0.01)."""
    rng = np.random.default_rng(5)
    hits = np.zeros(3)
    reps = 100
    for _ in range(reps):
        frames = _simulated(rng, 150, 0.65, 0.25, 0.06)
        matchups = L.matchup_table(frames, ["a", "b"])
        row = matchups.set_index(["level", "opponent"]).loc[("b", "a")]
        hits[0] += row["ci_low"] <= 0.35 <= row["ci_high"]
        for n, f in enumerate(L.first_player_table(frames, ["a", "b"]).itertuples()):
            hits[1 + n] += f.edge_low_points <= 6.0 <= f.edge_high_points
    coverage = hits / reps
    assert (coverage >= 0.88).all(), coverage


def test_matrix_is_antisymmetric_on_simulated_games():
    lad = L.analyse(_simulated(np.random.default_rng(1), 300, 0.7, 0.1, 0.0), ["a", "b"])
    m = lad.matrix()
    assert m.loc["a", "b"] + m.loc["b", "a"] == pytest.approx(1.0, abs=1e-12)
    lo, hi = lad.matrix("ci_low"), lad.matrix("ci_high")
    assert lo.loc["a", "b"] == pytest.approx(1 - hi.loc["b", "a"], abs=1e-9)


# -- real games ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def planted():
    """random, greedy and planner in 3-player Fruit Picking, 120 deals a run (seed 4)."""
    return cardsim.ladder(GAME, "random,greedy,planner", games=120, players=3, seed=4)


def test_a_planted_order_comes_out_ordered(planted):
    m, lo = planted.matrix(), planted.matrix("ci_low")
    # greedy beats random, planner beats both (a better player finishes ahead, R-independent)
    assert lo.loc["greedy", "random"] > 0.5
    assert lo.loc["planner", "random"] > 0.5
    assert m.loc["planner", "greedy"] > 0.5
    ratings = planted.ratings()
    assert list(ratings["level"]) == ["planner", "greedy", "random"]
    s = planted.skill.iloc[0]
    assert s["order_low"] > 0 and s["rating_spread_low"] > 0


def test_the_matrix_is_antisymmetric_with_ties_half(planted):
    m = planted.matrix()
    for a in planted.levels:
        for b in planted.levels:
            if a != b:
                assert m.loc[a, b] + m.loc[b, a] == pytest.approx(1.0, abs=1e-12)
    # three players: one of each level against two copies: two meetings per game
    row = planted.matchups.iloc[0]
    assert row["meetings"] == 2 * 2 * 3 * 120


def test_first_player_rows_are_self_play_with_intervals(planted):
    f = planted.first_player
    assert list(f["level"]) == ["random", "greedy", "planner"]
    assert (f["games"] <= 120).all()
    assert (f["edge_low_points"] <= f["edge_points"]).all()
    assert (f["edge_points"] <= f["edge_high_points"]).all()
    assert np.allclose(100 * (f["first_player_win_rate"] - f["fair_rate"]), f["edge_points"])


@pytest.mark.parametrize(
    "order, low, words",
    [
        (0.99, 0.98, "almost every game"),  # a 99.5% share at 2 players
        (0.56, 0.50, "in most games"),  # 78%: not "almost every game" (Piña Pirata 2p)
        (0.30, 0.25, "skill matters clearly"),
        (0.10, 0.05, "luck decides most games"),
        (0.10, -0.02, "does not measurably beat random"),  # the interval reaches 0
    ],
)
def test_the_verdict_words_follow_the_order_score(order, low, words):
    assert words in L._skill_words(order, low, order + 0.05)


def test_same_seed_same_ladder_whatever_the_threads(planted):
    again = cardsim.ladder(GAME, "random,greedy,planner", games=120, players=3, seed=4, threads=1)
    pd.testing.assert_frame_equal(again.matchups, planted.matchups)
    pd.testing.assert_frame_equal(again.first_player, planted.first_player)


def test_saved_runs_resume_to_the_same_ladder(tmp_path):
    out = tmp_path / "ladder"
    whole = cardsim.ladder(GAME, "random,greedy", games=150, players=2, seed=2, out=str(out))
    runs = sorted(p.name for p in out.iterdir())
    assert runs == ["_ladder.json", "match-0-1-0", "match-0-1-1", "self-0", "self-1"]
    # an interruption: one run never started, another had saved none of its games yet
    shutil.rmtree(out / "match-0-1-1")
    meta_file = out / "self-1" / "_cardsim.json"
    meta = json.loads(meta_file.read_text())
    meta_file.write_text(json.dumps({**meta, "complete": False}))
    for part in (out / "self-1").glob("*.parquet"):
        part.unlink()
    resumed = cardsim.ladder(
        GAME, "random,greedy", games=150, players=2, seed=2, out=str(out), resume=True
    )
    pd.testing.assert_frame_equal(resumed.matchups, whole.matchups)
    pd.testing.assert_frame_equal(resumed.first_player, whole.first_player)
    with pytest.raises(CardsimError, match="cannot resume"):
        cardsim.ladder(
            GAME, "random,greedy", games=150, players=2, seed=3, out=str(out), resume=True
        )
    with pytest.raises(CardsimError, match="not empty"):
        cardsim.ladder(GAME, "random,greedy", games=150, players=2, seed=2, out=str(out))


# -- --matrix-deals: the matrix on the first M of the self-play's N deals -------------------------


def test_matchup_runs_play_m_deals_and_self_play_runs_n():
    setup = experiments.ladder_setup(GAME, "random,greedy,planner", 30, 3, matrix_deals=12)
    for run, spec in zip(setup.plan, setup.specs, strict=True):
        assert spec.n_games == (30 if run.key.startswith("self-") else 12), run.key
        assert (spec.seed, spec.first_game) == (0, 0)  # deal i is game i of every run
    # the cost the docs give: levels * (levels - 1) / 2 pairs x 2K seatings a deal of the matrix
    per_deal = L.matrix_games_per_deal(3, 3)
    assert per_deal == 3 * 2 * 3 == sum(not run.self_play for run in setup.plan)
    assert sum(s.n_games for s in setup.specs) == 3 * 30 + per_deal * 12


def test_by_default_the_matrix_plays_the_self_plays_deals():
    setup = experiments.ladder_setup(GAME, "random,greedy", "25", 2)
    assert {s.n_games for s in setup.specs} == {25}
    assert (setup.deals, setup.matrix_deals, setup.matrix_given) == (25, 25, False)


@pytest.fixture(scope="module")
def short_matrix():
    """random against greedy in 3-player games: 40 deals of self-play, 15 of the matrix; the
    progress callback's count of every game played."""
    played = []
    lad = cardsim.ladder(
        GAME, "random,greedy", games=40, players=3, seed=3, matrix_deals=15,
        progress=played.append,
    )  # fmt: skip
    return lad, sum(played)


def test_a_short_matrix_plays_m_deals_a_seating_and_counts_every_game(short_matrix):
    lad, played = short_matrix
    assert (lad.deals, lad.matrix_deals) == (40, 15)
    assert list(lad.first_player["games"]) == [40, 40]  # no turn cap in Fruit Picking
    # 6 seatings of the pair, each seating one level against two copies: 2 meetings a game
    assert list(lad.matchups["meetings"]) == [6 * 15 * 2] * 2
    assert lad.games == played == 2 * 40 + L.matrix_games_per_deal(2, 3) * 15


def test_the_first_m_deals_give_the_matrix_of_a_ladder_of_m_deals(short_matrix):
    lad, _ = short_matrix
    same = cardsim.ladder(GAME, "random,greedy", games=15, players=3, seed=3)
    pd.testing.assert_frame_equal(lad.matchups, same.matchups)
    pd.testing.assert_frame_equal(lad.ratings(), same.ratings())
    for key in ("order_score", "rating_spread", "elo_spread_low"):
        assert lad.skill.iloc[0][key] == same.skill.iloc[0][key]
    # the self-play kept its 40 deals: its first 15 are the other ladder's whole self-play
    assert list(same.first_player["games"]) == [15, 15]


def test_matrix_deals_equal_to_n_is_the_default_ladder():
    default = cardsim.ladder(GAME, "random,greedy", games=30, players=2, seed=6)
    given = cardsim.ladder(GAME, "random,greedy", games=30, players=2, seed=6, matrix_deals=30)
    pd.testing.assert_frame_equal(default.matchups, given.matchups)
    pd.testing.assert_frame_equal(default.first_player, given.first_player)
    assert L.ladder_record(default) == L.ladder_record(given)
    assert L.format_ladder(default) == L.format_ladder(given)
    assert "30 deals per run" in L.format_ladder(default)


@pytest.mark.parametrize(
    "matrix, fragment",
    [
        (0, "--matrix-deals must be a positive whole number"),
        (-2, "--matrix-deals must be a positive whole number"),
        ("some", "--matrix-deals must be a positive whole number"),
        (21, "--matrix-deals 21 is more than the self-play's 20 deals"),
    ],
)
def test_bad_matrix_deals_are_one_line_and_exit_2(matrix, fragment):
    result = invoke("ladder", GAME, "-n", 20, "--matrix-deals", matrix, "--levels", "random,greedy")
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: ") and fragment in err, err


def test_resume_with_another_matrix_deals_is_refused(tmp_path):
    out = tmp_path / "ladder"
    args = dict(games=20, players=2, seed=2, out=str(out))
    first = cardsim.ladder(GAME, "random,greedy", matrix_deals=8, **args)
    record = json.loads((out / "_ladder.json").read_text())
    assert record["matrix_deals"] == 8 and record["matrix_deals_given"]
    for other in (12, None):  # another M, or none (then M is -n: 20)
        with pytest.raises(CardsimError, match="made with --matrix-deals 8") as caught:
            cardsim.ladder(GAME, "random,greedy", matrix_deals=other, resume=True, **args)
        assert "\n" not in str(caught.value)
    # the same M resumes, and -n may be raised: only the self-play runs play more
    again = cardsim.ladder(
        GAME, "random,greedy", matrix_deals=8, resume=True, **{**args, "games": 30}
    )
    pd.testing.assert_frame_equal(again.matchups, first.matchups)
    assert list(again.first_player["games"]) == [30, 30]


def test_resume_of_a_ladder_saved_before_matrix_deals_reads_its_matchup_runs(tmp_path):
    out = tmp_path / "ladder"
    args = dict(games=20, players=2, seed=2, out=str(out))
    cardsim.ladder(GAME, "random,greedy", **args)
    (out / "_ladder.json").unlink()  # as a ladder saved before --matrix-deals left it
    with pytest.raises(CardsimError, match="made with --matrix-deals 20"):
        cardsim.ladder(GAME, "random,greedy", matrix_deals=10, resume=True, **args)
    # without --matrix-deals both follow -n, which a resume may raise as before
    more = cardsim.ladder(GAME, "random,greedy", resume=True, **{**args, "games": 25})
    assert (more.deals, more.matrix_deals) == (25, 25)
    assert not json.loads((out / "_ladder.json").read_text())["matrix_deals_given"]


def test_command_json_and_report(tmp_path):
    report = tmp_path / "report"
    result = invoke(
        "ladder", GAME, "-p", 2, "-n", 60, "--matrix-deals", 30, "--levels",
        "random,planner:money=1.2", "--format", "json", "--report", report, "-q",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["schema"] == "cardsim.ladder/1"
    assert doc["levels"] == ["random", "planner:money=1.2"]
    assert (doc["deals"], doc["matrix_deals"], doc["games"]) == (60, 30, 2 * 60 + 2 * 30)
    assert [row["meetings"] for row in doc["matchups"]] == [2 * 30] * 2
    for row in doc["matchups"]:  # a 100% score's Wilson bound is 1 to rounding (1 - 2e-16)
        assert 0 <= row["ci_low"] <= row["score"] + 1e-12
        assert row["score"] <= row["ci_high"] + 1e-12 and row["ci_high"] <= 1
    for row in doc["first_player"]:
        assert 0 <= row["first_player_win_rate"] <= 1
        assert isinstance(row["edge_points"], float)
    assert set(doc["skill"]) >= {"order_score", "order_low", "order_high", "rating_spread"}
    md = (report / "report.md").read_text()
    assert "Matchups" in md and "First-player edge by skill level" in md
    assert "How much skill matters" in md
    assert "60 deals per self-play run, 30 per matchup seating" in md
    assert "30 deals per seating" in md and "60 deals a level" in md
    assert len(list((report / "figures").glob("*.png"))) == 2


def test_command_text_shows_every_part():
    result = invoke("ladder", GAME, "-p", 2, "-n", 40, "--levels", "random,greedy", "-q")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for part in (
        "Matchups",
        "First-player edge by level",
        "order score of greedy",
        "rating spread",
    ):
        assert part in out, out
    assert "greedy vs random" in out


@pytest.mark.parametrize(
    "levels, fragment",
    [
        ("greedy,nobody", "unknown bot 'nobody'"),
        ("greedy,random,greedy", "'greedy' twice"),
        ("greedy", "at least 2 levels"),
        ("random,planner:nosuch=1", "has no parameter 'nosuch'"),
        ("random,planner:money=lots", "is not a number"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(levels, fragment):
    result = invoke("ladder", GAME, "-n", 10, "--levels", levels)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: ") and fragment in err, err


@pytest.mark.parametrize("game", ["fruit-picking", "pajarracos", "piepmatz", "pina-pirata"])
def test_default_ladder_of_every_game(game):
    from cardsim.core import registry

    bots = registry.get(game).bots()
    levels, note = L.default_levels(bots)
    labels = [lv.label for lv in levels]
    assert labels[:2] == ["random", "greedy"]
    assert labels[2] == L.strongest_heuristic(registry.get(game).bot_names)
    assert labels[2] in bots and labels[2] not in ("random", "greedy", "ismcts")
    if "ismcts" in bots:  # the search bot at half and at its default budget
        assert labels[3].startswith("ismcts:iterations=") and labels[4] == "ismcts" and not note
    else:
        assert len(labels) == 3 and "heuristic levels" in note
