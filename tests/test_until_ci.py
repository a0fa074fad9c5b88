"""``run --until-ci W``: stops at the first chunk where every interval is within +/-W, and the games
it played are exactly those of a fixed run of that many games; ``games_needed`` and ``power``."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.stats import binomtest

from cardsim.analysis.stats.power import games_for_half_width, games_needed, parse_share
from cardsim.analysis.stats.summary import wilson_interval
from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core.errors import CardsimError

GAME = "fruit-picking"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def widest_half_width(games):
    """Widest 95% Wilson half-width over positions and seats (a shared win counts for each
    winner, as in the run summary)."""
    k = int(games["n_players"].iloc[0])
    wins = np.column_stack([games[f"win_{s}"].to_numpy(bool) for s in range(k)])
    first = games["first_seat"].to_numpy()
    by_position = np.take_along_axis(wins, (first[:, None] + np.arange(k)) % k, axis=1)
    counts = [*wins.sum(axis=0), *by_position.sum(axis=0)]
    widths = [(hi - lo) / 2 for lo, hi in (wilson_interval(int(c), len(games)) for c in counts)]
    return max(widths)


def test_stops_at_the_first_chunk_within_the_width_and_equals_a_fixed_run(tmp_path):
    width, chunk = 0.03, 500
    stopped = tmp_path / "stopped.parquet"
    result = invoke(
        "run",
        GAME,
        "-p",
        3,
        "-n",
        100_000,
        "--until-ci",
        width,
        "--chunk-size",
        chunk,
        "-o",
        stopped,
    )
    assert result.exit_code == 0, (result.output, result.exception)
    games, meta = io.read_results(stopped, compact=False)
    n = len(games)
    assert n % chunk == 0 and n < 100_000
    assert f"Stopped after {n:,} games" in result.stdout
    assert f"{n:,} games, 3 players" in result.stdout  # the summary describes the games played
    assert meta["games"] == n and meta["complete"]
    assert widest_half_width(games) < width
    assert widest_half_width(games.iloc[: n - chunk]) >= width  # not one chunk later than needed
    fixed = tmp_path / "fixed.parquet"
    assert invoke("run", GAME, "-p", 3, "-n", n, "-o", fixed, "-q").exit_code == 0
    fixed_games, fixed_meta = io.read_results(fixed, compact=False)
    assert games.equals(fixed_games)
    assert meta == fixed_meta


def test_the_summary_is_that_of_the_fixed_run():
    stopped = invoke("run", GAME, "-n", 50_000, "--until-ci", "2%", "-q").stdout
    n = int(stopped.split("Stopped after ")[1].split(" games")[0].replace(",", ""))
    fixed = invoke("run", GAME, "-n", n, "-q").stdout

    def body(text):  # the paragraphs, without the throughput's and the stop's
        skip = ("Throughput", "Stop")
        return [p for p in text.split("\n\n") if p.strip() and not p.startswith(skip)]

    assert body(stopped) == body(fixed)


def test_the_cap_stops_a_run_that_is_not_precise_enough():
    result = invoke("run", GAME, "-n", 3000, "--until-ci", 0.001, "-q")
    assert result.exit_code == 0, result.output
    assert "Reached the cap of 3,000 games" in result.stdout


@pytest.mark.parametrize("value", ["0", "-0.01", "0.7", "wide", "nan"])
def test_bad_widths_are_one_line_errors(value):
    result = invoke("run", GAME, "-n", 100, "--until-ci", value)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("cardsim: error: --until-ci must be")


def test_parse_share_takes_percent_and_sign():
    assert parse_share("1%", "x") == pytest.approx(0.01)
    assert parse_share("-0.02", "x", signed=True) == -0.02
    with pytest.raises(CardsimError):
        parse_share("-0.02", "x")


# -- games needed --------------------------------------------------------------------------------


def test_games_needed_matches_the_textbook_formula_and_shrinks_with_the_edge():
    # one-sample normal approximation on the arcsine scale: n = ((z_a/2 + z_b) / h)^2
    n = games_needed(0.05, 2)
    h = 2 * np.arcsin(np.sqrt(0.55)) - 2 * np.arcsin(np.sqrt(0.5))
    assert n == int(np.ceil(((1.959964 + 0.841621) / h) ** 2))
    assert games_needed(0.01, 4) > games_needed(0.02, 4) > games_needed(0.04, 4)
    assert games_needed(0.02, 4, power=0.9) > games_needed(0.02, 4)
    assert games_needed(-0.02, 2) == games_needed(0.02, 2)


def test_games_needed_gives_the_promised_power_on_simulated_seats():
    """Binomial seats winning fair + edge, tested with n = games_needed: about 80% rejected."""
    rng = np.random.default_rng(7)
    n = games_needed(0.03, 3)
    wins = rng.binomial(n, 1 / 3 + 0.03, size=400)
    rejected = np.mean([binomtest(int(w), n, 1 / 3).pvalue < 0.05 for w in wins])
    assert 0.72 < rejected < 0.88, rejected


def test_games_for_half_width():
    n = games_for_half_width(0.01, 0.5)
    lo, hi = wilson_interval(n // 2, n)
    assert (hi - lo) / 2 == pytest.approx(0.01, rel=0.01)


def test_power_command():
    result = invoke("power", "--edge", "1%", "--players", 4)
    assert result.exit_code == 0, result.output
    assert f"{games_needed(0.01, 4):,} games" in result.stdout
    assert "--until-ci 0.01" in result.stdout

    # without --players (issue 14: it used to be an error): one line per player count 2-6
    every = invoke("power", "--edge", "0.01")
    assert every.exit_code == 0, every.output
    for k in range(2, 7):
        assert f"{games_needed(0.01, k):,}" in every.stdout
    rows = json.loads(invoke("power", "--edge", "1%", "--format", "json").stdout)["by_players"]
    assert [r["players"] for r in rows] == [2, 3, 4, 5, 6]
    assert rows[2]["games_to_detect"] == games_needed(0.01, 4)
    assert invoke("power", "--edge", "1%", "-p", "1").exit_code == 2
