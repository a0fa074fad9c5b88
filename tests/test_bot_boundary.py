"""The guarded bot boundary (kernel.py): a user's bot that writes into what it is given, answers
out of range, peeks or writes past its buffers, or raises, never corrupts a game; the run either
gives the games it would give with a well-behaved bot or stops with one line naming the bot, the
seat, the game and the value.

One compiled bot (tests/hostile_bots.py) misbehaves as its first parameter says, so every case
shares one compiled loop per ruleset.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli
from cardsim.core import runner
from cardsim.core.bots import Bot
from cardsim.core.errors import CardsimError
from tests import hostile_bots as H

# (ruleset, players): a state-prefix observation with bot scratch room (Pajarracos) and without
CASES = [("fruit-picking", 2), ("pajarracos", 3)]


def _hostile(mode: int, delay: int = 0) -> Bot:
    return Bot("hostile", H.hostile, (float(mode), float(delay)))


def _play(game, players, seat_bots, games=60, seed=5, threads=None, chunk_size=None):
    spec = runner.make_spec(game, games, players, (), {}, seed=seed, seat_bots=seat_bots)
    runner.set_threads(threads)
    chunks = list(runner.iter_chunks(spec, chunk_size))
    return (
        np.concatenate([c.game_out for c in chunks]),
        np.concatenate([c.seat_out for c in chunks]),
    )


def _random(game):
    from cardsim.core import registry

    return registry.get(game).bots()["random"]


def _fault_line(game, players, bot, **kwargs) -> str:
    seats = [bot] + [_random(game)] * (players - 1)
    with pytest.raises(CardsimError) as info:
        _play(game, players, seats, **kwargs)
    line = str(info.value)
    assert "\n" not in line
    return line


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_user_bot_is_guarded_and_a_builtin_is_not(game, players):
    spec = runner.make_spec(
        game, 5, players, (), {}, seat_bots=[_hostile(H.BEHAVE)] + [_random(game)] * (players - 1)
    )
    assert spec.guard_flags() == (True, False)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_bot_writing_into_everything_it_is_given_changes_no_game(game, players):
    """It plays like the random bot and scribbles over its observation (the live state, before),
    its legal list (a segfault, before) and its parameters: the games are the random bot's."""
    expected = _play(game, players, [_random(game)] * players)
    vandal = _play(game, players, [_hostile(H.VANDAL)] + [_random(game)] * (players - 1))
    behaving = _play(game, players, [_hostile(H.BEHAVE)] + [_random(game)] * (players - 1))
    np.testing.assert_array_equal(behaving[0], expected[0])
    np.testing.assert_array_equal(vandal[0], expected[0])
    np.testing.assert_array_equal(vandal[1], expected[1])


@pytest.mark.parametrize(("game", "players"), CASES)
def test_an_out_of_range_answer_stops_the_run_naming_bot_seat_game_and_value(game, players):
    line = _fault_line(game, players, _hostile(H.OUT_OF_RANGE))
    assert line.startswith("bot 'hostile' (seat 0) answered ")
    answered = int(line.split("answered ")[1].split()[0])
    assert f"in game 0: not an index of its {answered} legal decisions" in line
    negative = _fault_line(game, players, _hostile(H.NEGATIVE))
    assert negative.startswith("bot 'hostile' (seat 0) answered -1 in game 0")


@pytest.mark.parametrize(("game", "players"), CASES)
def test_an_exception_in_a_bot_is_one_line_naming_it(game, players):
    line = _fault_line(game, players, _hostile(H.RAISES))
    assert line == "bot 'hostile' (seat 0) raised ValueError in game 0: hostile bot gives up"


@pytest.mark.parametrize(("game", "players"), CASES)
@pytest.mark.parametrize("mode", [H.PEEKS, H.OVERRUNS])
def test_reading_or_writing_past_its_buffers_stops_the_run(game, players, mode):
    """Bounds are checked in a guarded bot: reading past the observation (where the other
    players' hidden cards lie in the state) or past the legal list raises, and is reported."""
    line = _fault_line(game, players, _hostile(mode))
    assert line.startswith("bot 'hostile' (seat 0) raised IndexError in game 0")


def test_the_reported_fault_is_the_first_whatever_threads_and_chunks():
    """Each thread stops at its own first fault; the runner reports the smallest game."""
    bot = _hostile(H.OUT_OF_RANGE, delay=400)
    lines = {
        _fault_line("fruit-picking", 2, bot, games=300, threads=t, chunk_size=c)
        for t, c in [(1, None), (2, None), (2, 7), (1, 50)]
    }
    assert len(lines) == 1
    (line,) = lines
    game = int(line.split("in game ")[1].split(":")[0])
    assert game > 0  # a later game, so the threads and chunks did matter to where it is found


def test_games_before_the_fault_were_handed_out_whole():
    """The chunks before the faulty one reach the sinks (and are the random bot's games)."""
    bot = _hostile(H.OUT_OF_RANGE, delay=400)
    spec = runner.make_spec(
        "fruit-picking", 300, 2, (), {}, seed=5, seat_bots=[bot, _random("fruit-picking")]
    )
    line = _fault_line("fruit-picking", 2, bot, games=300)
    first_bad = int(line.split("in game ")[1].split(":")[0])
    got = []
    with pytest.raises(CardsimError):
        for chunk in runner.iter_chunks(spec, chunk_size=10):
            got.append(chunk)
    assert sum(len(c.game_out) for c in got) == first_bad // 10 * 10


def test_the_cli_reports_a_raising_bot_in_one_line_with_exit_2(tmp_path):
    bot_file = tmp_path / "mine.py"
    bot_file.write_text(
        f"from tests.hostile_bots import hostile\nBOT_PARAMS = {{'hostile': [{H.RAISES}, 0]}}\n"
    )
    result = CliRunner().invoke(
        cli,
        [
            "run",
            "fruit-picking",
            "-n",
            "20",
            "-p",
            "2",
            "--bot-file",
            str(bot_file),
            "--bots",
            "hostile,random",
            "--quiet",
        ],
    )
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == (
        "cardsim: error: bot 'hostile' (seat 0) raised ValueError in game 0: hostile bot gives up"
    )


def test_a_builtin_bot_answering_out_of_range_is_stopped_too():
    """Trusted bots skip the copies, not the answer check."""
    bot = _hostile(H.OUT_OF_RANGE)
    spec = runner.make_spec(
        "fruit-picking", 5, 2, (), {}, seat_bots=[_random("fruit-picking"), bot]
    )
    import dataclasses

    trusted = dataclasses.replace(spec, guarded=(False, False))
    with pytest.raises(CardsimError, match=r"^bot 'hostile' \(seat 1\) answered \d+ in game 0"):
        list(runner.iter_chunks(trusted))


def test_the_play_loop_releases_the_gil():
    """The durable runner plays chunks in a worker thread so Ctrl-C is handled meanwhile."""
    from cardsim.core import specialize

    spec = runner.make_spec("fruit-picking", 5, 2, ["random"], {})
    loop = specialize.loop_for(spec)
    assert loop.run_block.targetoptions["nogil"] is True


# -- the type of an answer (issue 33): refused before the loop compiles when numba can tell, at the
# boundary when it cannot (a bot that may answer None)

WRONG_TYPES = {
    "a tuple": ("return (0, 1)", "returns a tuple of 2"),
    "a float": ("return 0.5", "returns float64"),
    "a bool": ("return n_legal > 1", "returns bool"),
    "nothing": ("x = n_legal", "returns nothing (None)"),
}


def _run_bot_file(tmp_path, body: str, name: str = "mine"):
    bot_file = tmp_path / f"{name}_bots.py"
    bot_file.write_text(
        f"from numba import njit\n\n\n@njit\ndef {name}(obs, legal, n_legal, params, rng):\n"
        f"    {body}\n"
    )
    args = ["run", "fruit-picking", "-n", "20", "-p", "2", "--bot-file", str(bot_file)]
    result = CliRunner().invoke(cli, [*args, "--bots", f"{name},random", "--quiet"])
    return bot_file, result


@pytest.mark.parametrize(("body", "said"), WRONG_TYPES.values(), ids=WRONG_TYPES.keys())
def test_an_answer_of_the_wrong_type_is_one_line_naming_file_function_and_type(
    tmp_path, body, said
):
    bot_file, result = _run_bot_file(tmp_path, body)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (line,) = result.stderr.strip().splitlines()[-1:]
    assert line == (
        f"cardsim: error: bot 'mine' (function 'mine' of {bot_file}) {said}: a bot answers an "
        "integer, the index of its choice in legal[:n_legal]"
    )


def test_a_bot_that_may_answer_none_is_stopped_at_the_boundary_when_it_does(tmp_path):
    """numba types it Optional(int64): only the run can tell, and the boundary does."""
    body = "if n_legal > 1:\n        return None\n    return 0"
    bot_file, result = _run_bot_file(tmp_path, body, name="maybe")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.strip().splitlines()[-1] == (
        f"cardsim: error: bot 'maybe' (seat 0, function 'maybe' of {bot_file}) answered None in "
        "game 0: a bot answers an integer, the index of its choice in legal[:n_legal]"
    )
