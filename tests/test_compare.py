"""Bot comparison: seatings, paired deals, head-to-head scores, the Plackett-Luce rating (on
synthetic finishing orders with known strengths), deal-clustered intervals, and the command."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim import experiments
from cardsim.analysis.experiments import compare as C
from cardsim.analysis.stats.rating import fit_plackett_luce, sample_orders
from cardsim.cli.main import cli
from cardsim.core.errors import CardsimError

GAME = "fruit-picking"
BOTS = ["random", "greedy", "planner"]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def three_bots():
    """random, greedy and planner in every seating of 3 seats, 300 deals each (seed 11)."""
    seats = C.seatings(BOTS, 3)
    specs = experiments.seating_specs(GAME, 300, 3, BOTS, seats, seed=11)
    results = experiments.play_on_common_games(specs)
    return results, C.compare([r.frame for r in results], BOTS, seats, 11, "Fruit Picking")


# -- seatings ------------------------------------------------------------------------------------


def test_all_seatings_as_many_bots_as_seats_are_the_permutations():
    seats = C.seatings(["a", "b", "c"], 3)
    assert sorted(seats) == sorted(itertools.permutations("abc"))


def test_fewer_bots_than_seats_every_bot_at_least_once_and_equally_often_per_seat():
    seats = C.seatings(["a", "b"], 4)
    assert len(seats) == 2**4 - 2 and all(set(s) == {"a", "b"} for s in seats)
    for seat in range(4):
        column = [s[seat] for s in seats]
        assert column.count("a") == column.count("b")


def test_more_bots_than_seats_every_ordered_choice():
    seats = C.seatings(["a", "b", "c"], 2)
    assert sorted(seats) == sorted(itertools.permutations("abc", 2))


def test_rotations_of_a_lineup_with_copies():
    seats = C.seatings(["p", "g", "g"], 3, "rotations")
    assert seats == [("p", "g", "g"), ("g", "p", "g"), ("g", "g", "p")]


@pytest.mark.parametrize(
    "names, k, mode, fragment",
    [
        (["greedy"], 2, "all", "at least two different bots"),
        (["a", "a", "b"], 3, "all", "names a bot twice"),
        (["a", "b"], 3, "rotations", "one bot per seat"),
        (["a", "b", "c", "d", "e", "f", "g"], 6, "all", "too many"),
    ],
)
def test_bad_seatings_are_errors(names, k, mode, fragment):
    with pytest.raises(CardsimError, match=fragment):
        C.seatings(names, k, mode)


# -- the experiment on real games ----------------------------------------------------------------


def test_every_seating_plays_the_same_deals(three_bots):
    results, _ = three_bots
    first = results[0].frame
    for r in results[1:]:
        assert (r.frame["game"].to_numpy() == first["game"].to_numpy()).all()
        # same deal: the same starting seat (drawn from the chance stream at the deal)
        assert (r.frame["first_seat"].to_numpy() == first["first_seat"].to_numpy()).all()
        seating = [r.frame[f"bot_{s}"].iloc[0] for s in range(3)]
        assert all((r.frame[f"bot_{s}"] == seating[s]).all() for s in range(3))


def test_a_seating_run_is_the_plain_run_with_those_bots(three_bots):
    import cardsim

    results, comparison = three_bots
    seating = comparison.seatings[2]
    plain = cardsim.simulate(GAME, 300, 3, list(seating), seed=11).frame
    mine = results[2].frame
    cols = ["game", "first_seat", "turns"] + [
        f"{c}_{s}" for c in ("score", "rank") for s in range(3)
    ]
    pd.testing.assert_frame_equal(plain[cols], mine[cols])


def test_strong_bots_beat_random_and_the_rating_orders_them(three_bots):
    _, c = three_bots
    rates = c.win_rates.set_index("bot")
    assert rates.loc["planner", "ci_low"] > rates.loc["greedy", "ci_high"]
    assert rates.loc["greedy", "ci_low"] > rates.loc["random", "ci_high"]
    assert rates["seats_played"].tolist() == [1800, 1800, 1800]
    matrix = c.matrix()
    assert matrix.loc["planner", "random"] > 0.9 and matrix.loc["greedy", "random"] > 0.55
    assert math.isclose(matrix.loc["planner", "greedy"] + matrix.loc["greedy", "planner"], 1)
    table = c.rating.table()
    assert table["bot"].tolist() == ["planner", "greedy", "random"]
    assert table["ci_low"].iloc[0] > table["ci_high"].iloc[1]
    assert table["ci_low"].iloc[1] > table["ci_high"].iloc[2]
    assert abs(table["strength"].sum()) < 1e-9
    assert c.skill_depth.startswith("Skill depth: planner finishes ahead of random in")


def test_intervals_are_clustered_by_deal(three_bots):
    """Games of one deal move together: the measured design effect is above 1 and widens the
    interval beyond the plain Wilson interval of the same counts."""
    from cardsim.analysis.stats.summary import wilson_interval

    _, c = three_bots
    row = c.win_rates.set_index("bot").loc["greedy"]
    plain = wilson_interval(row["wins"], row["seats_played"])
    assert row["design_effect"] > 1
    assert row["ci_high"] - row["ci_low"] > plain[1] - plain[0]


def test_clustered_wilson_is_plain_wilson_for_independent_observations():
    from cardsim.analysis.stats.summary import wilson_interval

    rng = np.random.default_rng(5)
    wins = (rng.random(4000) < 0.3).astype(float)
    rate, lo, hi, deff = C.clustered_wilson(wins, np.ones(4000), np.arange(4000))
    assert rate == wins.mean()
    # independent games: the estimated design effect is about 1 (floored at 1)
    assert deff < 1.1
    plain = wilson_interval(wins.sum(), 4000)
    assert abs((hi - lo) - (plain[1] - plain[0])) / (plain[1] - plain[0]) < 0.05


def test_pairwise_counts_ties_half():
    frame = pd.DataFrame(
        {
            "game": [0, 1, 2],
            "first_seat": [0, 0, 0],
            "turn_cap_hit": [False] * 3,
            "bot_0": ["a", "a", "b"],
            "bot_1": ["b", "b", "a"],
            "rank_0": [1, 1, 2],
            "rank_1": [2, 1, 1],
            "win_0": [True, True, False],
            "win_1": [False, True, True],
        }
    )
    pairs = C.pairwise(frame, ["a", "b"]).set_index(["bot", "opponent"])
    a = pairs.loc[("a", "b")]
    assert (a["meetings"], a["ahead"], a["tied"], a["behind"]) == (3, 2, 1, 0)
    assert a["score"] == pytest.approx(2.5 / 3)
    assert pairs.loc[("b", "a"), "score"] == pytest.approx(0.5 / 3)


# -- the rating on synthetic finishing orders ----------------------------------------------------


def test_rating_recovers_known_strengths_and_turn_order_effect():
    rng = np.random.default_rng(2026)
    strength = np.array([-1.2, -0.3, 0.4, 1.1])  # centred
    position = np.array([0.0, -0.25, -0.45])
    seatings = np.array(list(itertools.permutations(range(4), 3)))
    bots = seatings[rng.integers(0, len(seatings), 8000)]
    ranks = sample_orders(strength, position, bots, rng)
    fit = fit_plackett_luce(bots, ranks, ["w", "x", "y", "z"])
    assert fit.converged
    z = np.abs(fit.strength - strength) / fit.strength_se
    assert (z < 4).all(), (fit.strength, fit.strength_se)
    assert (fit.strength_se < 0.05).all()
    zp = np.abs(fit.position[1:] - position[1:]) / fit.position_se[1:]
    assert (zp < 4).all(), (fit.position, fit.position_se)
    # the seat effect is in the model: without it the strengths would still be unbiased here
    # (seatings are balanced), but its estimate must be clearly negative
    assert fit.position[2] + 4 * fit.position_se[2] < 0


def test_rating_with_ties_and_clusters_is_finite_and_ordered():
    rng = np.random.default_rng(3)
    strength = np.array([-0.5, 0.0, 0.5])
    bots = np.array(list(itertools.permutations(range(3))))[rng.integers(0, 6, 3000)]
    ranks = sample_orders(strength, np.zeros(3), bots, rng)
    ranks[ranks == 3] = 2  # the last two share second place
    fit = fit_plackett_luce(bots, ranks, ["a", "b", "c"], clusters=np.arange(3000) // 6)
    assert np.all(np.isfinite(fit.strength_se)) and fit.strength_se.min() > 0
    assert list(fit.table()["bot"]) == ["c", "b", "a"]


# -- the command ---------------------------------------------------------------------------------


def test_compare_command_prints_every_part_and_writes_a_report(tmp_path):
    result = invoke(
        "compare",
        GAME,
        "--bots",
        "greedy,random",
        "-p",
        2,
        "-n",
        200,
        "--seed",
        4,
        "--report",
        tmp_path / "rep",
        "-q",
    )
    assert result.exit_code == 0, (result.output, result.exception)
    out = result.stdout
    for part in (
        "2 seatings x 200 deals = 400 games",
        "Win rate by bot",
        "Head to head",
        "Rating (Plackett-Luce",
        "Skill depth: greedy finishes ahead of random",
    ):
        assert part in out, out
    html = (tmp_path / "rep" / "report.html").read_text()
    md = (tmp_path / "rep" / "report.md").read_text()
    for heading in ("Win rate by bot", "Head to head", "Rating"):
        assert heading in html and f"## {heading}" in md
    assert "data:image/png;base64," in html


def test_compare_without_random_says_so():
    result = invoke("compare", GAME, "--bots", "greedy,planner", "-p", 2, "-n", 50, "-q")
    assert result.exit_code == 0, result.output
    assert "random is not seated" in result.stdout


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--bots", "greedy"], "at least two different bots"),
        (["--bots", "greedy,nobody"], "unknown bot 'nobody'"),
        (["--bots", "greedy,random", "-p", 9], "for 2-"),
        (["--bots", "greedy,random", "-r", "nope=1"], "unknown rule option 'nope'"),
        (["--bots", "greedy,random", "--variant", "missing.toml"], "does not exist"),
    ],
)
def test_compare_errors_are_one_line(args, fragment):
    result = invoke("compare", GAME, "-n", 10, *args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: ") and fragment in err, err
