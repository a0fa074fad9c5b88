"""A ruleset defined outside cardsim (tests/toy/race.py) runs through the unchanged core and CLI:
the registry, runner, outcome frame, summary and commands know a game only through RULESET."""

import numpy as np
import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.core import layout as L
from cardsim.core import registry, runner
from cardsim.core.outcomes import chunk_frame
from tests.toy import race


@pytest.fixture
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "toy-race", "tests.toy.race:RULESET")
    return registry.get("toy-race")


def _play(spec, threads=None, chunk_size=None):
    runner.set_threads(threads)
    chunks = list(runner.iter_chunks(spec, chunk_size))
    return chunks, np.concatenate([c.game_out for c in chunks])


def test_toy_games_follow_their_rules(toy_registered):
    spec = runner.make_spec(
        "toy-race", 500, 3, ["cautious", "random", "random"], {"target": "30"}, 4
    )
    chunks, games = _play(spec)
    seats = np.concatenate([c.seat_out for c in chunks])
    total = games[:, len(L.GAME_COLUMNS)]
    assert np.all((total >= 30) & (total <= 32))  # the last addition is 1..3
    assert np.all(seats[:, :3, L.S_WIN].sum(axis=1) == 1)
    assert np.all(seats[:, :3, len(L.SEAT_COLUMNS)].sum(axis=1) == total)  # additions add up
    frame = chunk_frame(spec.ruleset, 3, spec.bot_names, chunks[0])
    assert {"total", "added_0", "added_2", "bot_1", "win_2"} <= set(frame.columns)
    assert set(frame["end_reason"]) == {"reached"}


def test_toy_results_do_not_depend_on_threads_or_chunks(toy_registered):
    spec = runner.make_spec("toy-race", 300, 2, ["cautious", "random"], {}, 9)
    _, base = _play(spec, threads=1, chunk_size=300)
    _, other = _play(spec, threads=2, chunk_size=7)
    np.testing.assert_array_equal(base, other)


def test_observe_hides_the_other_seats_secrets(toy_registered):
    state = np.zeros(race.STATE_LEN, np.int32)
    state[race.SECRETS : race.SECRETS + 3] = [1, 2, 3]
    buf = np.zeros(race.OBS_LEN, np.int32)
    for seat in range(3):
        obs = race.observe(state, seat, buf)
        assert obs[race.SECRET_SEEN] == seat + 1
        assert len(obs) == race.OBS_LEN  # nothing of the other secrets is passed on


def test_the_turn_cap_ends_a_toy_game(toy_registered):
    spec = runner.make_spec("toy-race", 50, 2, ["random"], {"target": "99", "turn_cap": "3"}, 1)
    _, games = _play(spec)
    assert np.all(games[:, L.G_TURN_CAP_HIT] == 1)
    assert np.all(games[:, L.G_TURNS] == 6)  # 3 rounds of 2 players


def test_the_cli_knows_the_toy_through_its_ruleset(toy_registered):
    cli_runner = CliRunner()
    listing = cli_runner.invoke(cli, ["games"])
    assert "toy-race" in listing.output and "Race to 21" in listing.output
    assert "cautious" in cli_runner.invoke(cli, ["bots", "toy-race"]).output
    assert "target" in cli_runner.invoke(cli, ["rules", "toy-race"]).output
    result = cli_runner.invoke(
        cli, ["run", "toy-race", "-n", "400", "-p", "2", "--bots", "cautious,random", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert "Win rate by bot" in result.output and "reached" in result.output
    bad = cli_runner.invoke(cli, ["run", "toy-race", "-n", "10", "-p", "4"])
    assert bad.exit_code == 2 and "2-3 players, not 4" in bad.output
