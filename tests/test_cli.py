"""The command line: listings, runs and their summaries, Parquet output, resume, user bots, and
one-line errors (exit code 2, no traceback) for every kind of bad input."""

import json
import textwrap
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from cardsim.cli import run as run_command
from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core import registry, runner
from cardsim.core.outcomes import chunk_frame

GAME = "fruit-picking"
TWO_THREADS = str(min(2, runner.available_threads()))
SECTIONS = [
    "Win rate by turn order",
    "a win shared by k players counts 1/k for each",
    "First-player advantage",
    "Win rate by seat",
    "Winners",
    "Game length",
    "End reasons",
    "Ended by the turn cap",
    "Throughput",
]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def ok(*args):
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, (result.output, result.exception)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: "), err
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in err, err


def section(text, title):
    """The lines of the section starting with ``title``, up to the next blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


# -- listings ------------------------------------------------------------------------------------


def test_games_lists_every_ruleset_with_title_and_players():
    out = ok("games").stdout
    for name in registry.available():
        rs = registry.get(name)
        assert name in out and rs.title in out and f"{rs.min_players}-{rs.max_players}" in out


@pytest.mark.parametrize(
    ("written", "game"),
    [
        ("Piña Pirata", "pina-pirata"),
        ("PIÑA_PIRATA", "pina-pirata"),
        ("Songbirds", "piepmatz"),
        (" Fruit  Picking ", "fruit-picking"),
        ("Pajarracos", "pajarracos"),
    ],
)
def test_a_game_may_be_named_as_players_write_it(written, game):
    """Accents, case, spaces or underscores and the English title of Piepmatz name the game."""
    assert registry.get(written).name == game
    assert (
        ok("rules", written, "--format", "json").stdout
        == ok("rules", game, "--format", "json").stdout
    )


def test_bots_lists_builtin_bots_with_descriptions():
    out = ok("bots", GAME).stdout
    listed = json.loads(ok("bots", GAME, "--format", "json").stdout)["bots"]
    for (name, bot), row in zip(registry.get(GAME).bots().items(), listed, strict=True):
        assert name in out
        assert row["bot"] == name and row["description"] == bot.description
        named = bot.param_names or [f"p{i}" for i in range(len(bot.params))]
        assert list(row["params"]) == list(named)
        assert list(row["params"].values()) == list(bot.params[: len(named)])


def test_rules_lists_every_option_with_default_allowed_values_and_rule():
    out = ok("rules", GAME).stdout
    listed = json.loads(ok("rules", GAME, "--format", "json").stdout)["options"]
    for opt, row in zip(registry.get(GAME).options, listed, strict=True):
        assert opt.name in out and f"[{opt.refers}]" in out.replace("\n", "")
        assert row == {
            "option": opt.name,
            "default": list(opt.default) if isinstance(opt.default, tuple) else opt.default,
            "allowed": opt.allowed(),
            "refers": opt.refers,
            "doc": opt.doc,
        }
    assert "docs/rules/fruit-picking.md" in out


@pytest.mark.parametrize("command", ["games", "bots", "rules", "counters"])
def test_listings_fit_an_80_column_terminal(command):
    args = [command] if command == "games" else [command, GAME]
    out = ok(*args).stdout
    assert max(len(line) for line in out.splitlines()) <= 80


# -- runs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_run_prints_a_summary(players):
    out = ok("run", GAME, "--games", 200, "--players", players, "--quiet").stdout
    assert f"200 games, {players} players, seed 0" in out
    for title in SECTIONS:
        assert title in out, title
    positions = section(out, "Win rate by turn order")[3:]  # title, header, rule
    assert len(positions) == players
    assert positions[0].strip().startswith("1st (starts)")


def test_games_accepts_scientific_notation():
    assert "1,000 games" in ok("run", GAME, "--games", "1e3", "--players", 2).stdout


def test_run_with_rules_and_mixed_bots_shows_them():
    out = ok(
        "run",
        GAME,
        "-n",
        150,
        "-p",
        3,
        "--bots",
        "greedy,random,planner",
        "--rules",
        "turn_cap=30",
        "--rules",
        "variant_umbrella=true",
        "--seed",
        5,
    ).stdout
    assert "seat 0: greedy, seat 1: random, seat 2: planner" in out
    assert "rules: variant_umbrella=true, turn_cap=30" in out
    assert "Win rate by bot" in out
    assert "Ended by the turn cap (30 rounds)" in out


def run_to_file(path, *extra, games=300, players=3, seed=7):
    ok(
        "run",
        GAME,
        "--games",
        games,
        "--players",
        players,
        "--seed",
        seed,
        "--bots",
        "greedy,random,planner",
        "--out",
        path,
        "--quiet",
        *extra,
    )
    return io.read_results(path, compact=False)


def test_out_writes_every_game_with_its_metadata(tmp_path):
    path = tmp_path / "r.parquet"
    df, meta = run_to_file(path, "--chunk-size", 100)
    assert len(df) == 300 and df["game"].tolist() == list(range(300))
    # one part per chunk, named by its games, next to the metadata and the writers' lock
    # (docs/datasets.md); no temporary file left
    names = sorted(p.name for p in path.iterdir())
    assert names == [".cardsim-lock", "_cardsim.json"] + [
        io.part_name(a, a + 100) for a in (0, 100, 200)
    ]
    assert all(pq.ParquetFile(p.path).metadata.num_rows == 100 for p in io.list_parts(path))
    assert meta["ruleset"] == GAME and meta["seed"] == 7 and meta["n_players"] == 3
    assert meta["bots"] == ["greedy", "random", "planner"]
    assert meta["games"] == meta["games_done"] == 300 and meta["complete"] is True
    assert meta["rules"]["turn_cap"] == 1000
    assert list(df["bot_1"].cat.categories) == ["greedy", "random", "planner"]
    assert (df["bot_2"] == "planner").all()
    assert df["end_reason"].cat.categories.tolist() == list(registry.get(GAME).end_reasons)
    # exactly the frames of the runner's chunks
    spec = runner.make_spec(GAME, 300, 3, ["greedy", "random", "planner"], seed=7)
    frames = [
        chunk_frame(spec.ruleset, 3, spec.bot_names, c) for c in runner.iter_chunks(spec, 128)
    ]
    pd.testing.assert_frame_equal(df, pd.concat(frames, ignore_index=True))


def test_out_is_the_same_whatever_threads_and_chunk_size(tmp_path):
    base, _ = run_to_file(tmp_path / "a.parquet", "--threads", 1, "--chunk-size", 300)
    for i, (threads, chunk) in enumerate([(TWO_THREADS, 300), (TWO_THREADS, 37), (1, "1e2")]):
        df, _ = run_to_file(tmp_path / f"b{i}.parquet", "--threads", threads, "--chunk-size", chunk)
        pd.testing.assert_frame_equal(df, base)
    # with the same chunk size every file of the dataset is the same byte for byte
    for name in ["_cardsim.json", io.part_name(0, 300)]:
        assert (tmp_path / "a.parquet" / name).read_bytes() == (
            tmp_path / "b0.parquet" / name
        ).read_bytes()


class InterruptingBar:
    """Stands in for the progress bar and presses Ctrl-C after the first chunk."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        raise KeyboardInterrupt


def test_ctrl_c_keeps_every_saved_game_and_resume_completes_the_run(tmp_path, monkeypatch):
    whole = tmp_path / "whole.parquet"
    expected, _ = run_to_file(whole, "--chunk-size", 100)
    uninterrupted = ok(
        "run", GAME, "-n", 300, "-p", 3, "--seed", 7, "--bots", "greedy,random,planner", "--quiet"
    ).stdout

    path = tmp_path / "r.parquet"
    args = [
        "run",
        GAME,
        "-n",
        300,
        "-p",
        3,
        "--seed",
        7,
        "--bots",
        "greedy,random,planner",
        "--out",
        path,
        "--chunk-size",
        100,
        "--quiet",
    ]
    with monkeypatch.context() as m:
        m.setattr(run_command, "progress_bar", InterruptingBar)
        result = invoke(*args)
    assert result.exit_code == 130
    err = result.stderr.strip()
    assert "\n" not in err and "100 of 300 games saved in" in err and "--resume" in err
    df, meta = io.read_results(path, compact=False)
    assert len(df) == 100 and meta["games_done"] == 100 and meta["complete"] is False
    assert meta["seed"] == 7

    # without --resume an interrupted run is not overwritten
    assert_one_line_error(invoke(*args), "--resume")
    # a different run cannot continue it
    assert_one_line_error(invoke(*[a if a != 7 else 8 for a in args], "--resume"), "seed")

    result = ok(*args[:-3], "--chunk-size", 64, "--resume")  # a new chunk size is fine
    df, meta = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(df, expected)
    assert meta["complete"] is True and meta["games_done"] == 300
    # the summary covers the games of both sessions
    assert section(result.stdout, "Win rate by turn order") == section(
        uninterrupted, "Win rate by turn order"
    )

    # resuming a finished run with nothing left to play just reports it
    again = ok(*args[:-3], "--resume")
    assert "300 games, 3 players" in again.stdout and "Throughput" not in again.stdout
    pd.testing.assert_frame_equal(io.read_results(path, compact=False)[0], expected)


def test_sink_interrupted_by_the_runner_then_resumed(tmp_path):
    spec = runner.make_spec(GAME, 250, 2, ["planner", "greedy"], seed=3)
    path = tmp_path / "r.parquet"
    sink = io.DatasetSink(path, spec)

    def interrupt(n):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(spec, [sink], chunk_size=60, progress=interrupt)
    assert sink.close() == path
    df, meta = io.read_results(path, compact=False)
    assert len(df) == 60 and meta["complete"] is False

    def resume(games):
        args = ("-n", games, "-p", 2, "--seed", 3, "--bots", "planner,greedy", "--out", path)
        ok("run", GAME, *args, "--resume", "--quiet")

    resume(250)
    df, _ = io.read_results(path, compact=False)
    frames = [chunk_frame(spec.ruleset, 2, spec.bot_names, c) for c in runner.iter_chunks(spec)]
    pd.testing.assert_frame_equal(df, pd.concat(frames, ignore_index=True))

    # a finished run can be extended with a larger --games
    resume(400)
    df, meta = io.read_results(path, compact=False)
    assert df["game"].tolist() == list(range(400)) and meta["games"] == 400


BOT_FILE = '''
from numba import njit

from cardsim.core import layout as L
from cardsim.games.fruit_picking import cards as C

BOT_PARAMS = {"last_choice": [1.0]}


@njit
def last_choice(obs, legal, n_legal, params, rng):
    """takes the last legal decision (a purchase when there is one)"""
    if obs[L.H_PHASE] == C.PHASE_TARGET and params[0] > 0:
        return n_legal - 1
    return 0


def not_compiled(obs, legal, n_legal, params, rng):
    return 0


@njit
def wrong_signature(obs):
    return obs[0] + 1.5j
'''


@pytest.fixture
def bot_file(tmp_path):
    path = tmp_path / "my_bots.py"
    path.write_text(textwrap.dedent(BOT_FILE))
    return path


def test_user_bot_from_a_file_sits_next_to_builtin_bots(bot_file):
    out = ok(
        "run",
        GAME,
        "-n",
        200,
        "-p",
        3,
        "--bot-file",
        bot_file,
        "--bots",
        "last_choice,greedy,random",
        "--quiet",
    ).stdout
    assert "seat 0: last_choice, seat 1: greedy, seat 2: random" in out
    rows = section(out, "Win rate by bot")
    assert any(row.strip().startswith("last_choice") for row in rows)


def test_a_non_compiled_bot_is_a_one_line_error(bot_file):
    result = invoke("run", GAME, "-n", 10, "--bot-file", bot_file, "--bots", "not_compiled")
    assert_one_line_error(result, "not_compiled")


def test_a_bot_with_the_wrong_signature_is_a_one_line_error(bot_file):
    result = invoke("run", GAME, "-n", 10, "--bot-file", bot_file, "--bots", "wrong_signature")
    assert_one_line_error(result, "wrong_signature", "signature")


def test_a_bot_file_that_fails_to_load_is_a_one_line_error(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("import no_such_module_here\n")
    assert_one_line_error(invoke("run", GAME, "-n", 10, "--bot-file", path), "failed to load")


# -- bad input -----------------------------------------------------------------------------------

BAD_INPUT = {
    "unknown game": (["run", "no-such-game"], "unknown game"),
    "unknown game for bots": (["bots", "no-such-game"], "unknown game"),
    "unknown game for rules": (["rules", "no-such-game"], "unknown game"),
    "unknown bot": (["run", GAME, "--bots", "nobody"], "unknown bot"),
    "too few bots": (["run", GAME, "-p", 3, "--bots", "greedy,random"], "--bots"),
    "unknown rule option": (["run", GAME, "--rules", "no_such=1"], "unknown rule option"),
    "malformed rule": (["run", GAME, "--rules", "turn_cap"], "key=value"),
    "rule out of range": (["run", GAME, "--rules", "turn_cap=0"], "turn_cap"),
    "rule of the wrong type": (
        ["run", GAME, "--rules", "variant_umbrella=maybe"],
        "variant_umbrella",
    ),
    "rules that conflict": (["run", GAME, "-p", 2, "--rules", "first_player=3"], "first_player"),
    "too many players": (["run", GAME, "--players", 5], "2-4 players"),
    "too few players": (["run", GAME, "--players", 1], "2-4 players"),
    "zero games": (["run", GAME, "--games", 0], "--games"),
    "negative games": (["run", GAME, "--games", -5], "--games"),
    "fractional games": (["run", GAME, "--games", 2.5], "--games"),
    "non-numeric games": (["run", GAME, "--games", "many"], "--games"),
    "missing bot file": (["run", GAME, "--bot-file", "/no/such/bots.py"], "does not exist"),
    "too many threads": (["run", GAME, "--threads", 10_000], "--threads"),
    "negative threads": (["run", GAME, "--threads", -1], "--threads"),
    "non-numeric threads": (["run", GAME, "--threads", "all"], "--threads"),
    "negative seed": (["run", GAME, "--seed", -1], "--seed"),
    "bad chunk size": (["run", GAME, "--chunk-size", 0], "--chunk-size"),
    "resume without out": (["run", GAME, "--resume"], "--out"),
    "unknown option": (["run", GAME, "--no-such-option"], "--no-such-option"),
    "unknown command": (["no-such-command"], "no-such-command"),
    "replay without game": (["replay", GAME], "--game"),
    "replay negative game": (["replay", GAME, "--game", -1], "--game"),
    "replay unknown bot": (["replay", GAME, "--game", 0, "--bots", "nobody"], "unknown bot"),
}


@pytest.mark.parametrize("args, fragment", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    assert_one_line_error(invoke(*args), fragment)


def test_out_in_a_missing_directory_is_a_one_line_error(tmp_path):
    result = invoke("run", GAME, "-n", 10, "--out", tmp_path / "nowhere" / "r.parquet")
    assert_one_line_error(result, "does not exist")


# -- replay --------------------------------------------------------------------------------------


def test_replay_tells_the_story_of_one_game():
    out = ok("replay", GAME, "--seed", 3, "--game", 5, "--players", 3).stdout
    assert "Turn 1" in out and "initial player" in out
    assert len(out.splitlines()) > 10


def test_replay_lines_wrap_to_a_terminal_keeping_their_indent(monkeypatch):
    """On a terminal a long event wraps, its continuation two spaces deeper; piped (CliRunner,
    grep) every event stays on one line."""
    from cardsim.cli import replay

    monkeypatch.setenv("COLUMNS", "80")
    story = "Turn 1: Seat 0 (greedy).\n  Plants " + "two seeds, " * 12 + "done."
    lines = replay._fitted(story).splitlines()
    assert max(map(len, lines)) <= 80 and len(lines) == 3
    assert lines[1].startswith("  Plants") and lines[2].startswith("    ")
    assert " ".join(" ".join(lines).split()) == " ".join(story.split())
    out = ok("replay", GAME, "--seed", 3, "--game", 5, "--players", 3).stdout
    assert max(map(len, out.splitlines())) > 80  # not a terminal: not wrapped


def test_the_documented_bot_example_is_the_example_file_and_runs():
    root = Path(__file__).resolve().parents[1]
    example = root / "examples" / "my_bots.py"
    guide = (root / "docs" / "bots.md").read_text()
    block = next(b for b in guide.split("```python\n")[1:] if "def cheapskate" in b)
    assert block.split("```")[0] in example.read_text()
    out = ok(
        "run",
        GAME,
        "-n",
        200,
        "-p",
        2,
        "--bot-file",
        example,
        "--bots",
        "cheapskate,greedy",
        "--quiet",
    ).stdout
    assert "seat 0: cheapskate, seat 1: greedy" in out
