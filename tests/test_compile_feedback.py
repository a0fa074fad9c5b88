"""A compile is never silent, and `cardsim compile` builds the cache ahead: real cold compiles
in fresh processes with a fresh CARDSIM_CACHE_DIR and stderr a pipe (as in a log or CI)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardsim.cli.main import cli

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("cold-cache")


def _cardsim(cache_dir, *args) -> subprocess.CompletedProcess:
    env = {**os.environ, "CARDSIM_CACHE_DIR": str(cache_dir), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "cardsim.cli.main", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=600,
        check=True,
    )


def test_a_quiet_run_into_a_pipe_says_when_its_compile_starts_and_ends(cache_dir):
    done = _cardsim(cache_dir, "run", "fruit-picking", "-n", "20", "-p", "2", "-q")
    lines = done.stderr.splitlines()
    assert lines[0] == "compiling the Fruit Picking engine (first run only)…"
    assert re.fullmatch(r"compiled the Fruit Picking engine in \d+ s", lines[1])
    assert "\r" not in done.stderr and "\x1b" not in done.stderr  # no spinner in a log
    assert "Win rate by turn order" in done.stdout


def test_cardsim_compile_builds_ahead_and_says_what_and_how_long(cache_dir):
    again = _cardsim(cache_dir, "compile", "fruit-picking")  # the run above built it
    assert again.stdout.splitlines()[0] == "fruit-picking (greedy): already compiled"
    assert again.stderr == ""
    built = _cardsim(cache_dir, "compile", "fruit-picking", "--bots", "random,greedy")
    line, total = built.stdout.splitlines()
    assert re.fullmatch(r"fruit-picking \(random,greedy\): compiled in \d+ s", line)
    assert total.startswith("1 compiled, 0 already there, in ") and str(cache_dir) in total
    assert built.stderr.splitlines()[0].startswith("compiling the Fruit Picking engine")
    # a comparison of the two, later: nothing left to compile, not a word about it
    later = _cardsim(cache_dir, "compare", "fruit-picking", "-b", "greedy,random", "-n", "4")
    assert "compil" not in later.stderr


@pytest.mark.parametrize(
    "args, problem",
    [
        (["compile"], "name the games to compile"),
        (["compile", "chess"], "unknown game"),
        (["compile", "fruit-picking", "--all"], "either GAME names or --all"),
    ],
)
def test_cardsim_compile_refuses_bad_input_in_one_line(args, problem):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.startswith("cardsim: error: ") and problem in result.stderr
    assert len(result.stderr.splitlines()) == 1


# -- cardsim.simulate(progress=...) ----------------------------------------------------------------


class Widget:
    """tqdm.auto's bar as the calls it gets (in a notebook: a widget)."""

    made: list = []

    def __init__(self, *args, **kwargs):
        self.kwargs, self.descriptions, self.updates, self.closed = kwargs, [], 0, False
        Widget.made.append(self)

    def set_description_str(self, text):
        self.descriptions.append(text)

    def refresh(self):
        pass

    def update(self, n=1):
        self.updates += n

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.fixture
def notebook(monkeypatch, tmp_path):
    import tqdm.auto

    from cardsim import feedback
    from cardsim.core import compiled

    Widget.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", Widget)
    monkeypatch.setattr(feedback, "in_notebook", lambda: True)
    monkeypatch.setattr(compiled, "cache_dir", lambda: tmp_path)  # no record: a first run
    return Widget.made


def test_in_a_notebook_simulate_shows_the_compile_and_the_games(notebook):
    import cardsim

    results = cardsim.simulate("fruit-picking", games=300, players=2)
    compile_widget, games_widget = notebook
    assert compile_widget.descriptions[0].startswith("compiling the Fruit Picking engine")
    assert re.fullmatch(
        r"compiled the Fruit Picking engine in \d+ s", compile_widget.descriptions[-1]
    )
    assert compile_widget.closed and "{elapsed}" in compile_widget.kwargs["bar_format"]
    assert games_widget.kwargs["total"] == 300 and games_widget.updates == len(results.frame)


def test_progress_false_shows_nothing_and_a_function_gets_the_games(notebook):
    import cardsim

    cardsim.simulate("fruit-picking", games=300, players=2, progress=False)
    assert notebook == []
    seen = []
    cardsim.simulate("fruit-picking", games=300, players=2, seed=1, progress=seen.append)
    assert sum(seen) == 300 and notebook == []  # the function is the progress shown


@pytest.mark.parametrize(
    "module, counted",
    [
        ("cardsim.games.fruit_picking.engine", True),  # an engine, a built-in bot
        ("cardsim_loop_0123abcd", True),  # a generated play loop
        ("cardsim_user_bots_5f3a", False),  # a user's bot, checked against the bot signature
        ("mypackage.bots", False),  # a bot named package.module:function
    ],
)
def test_in_a_log_only_a_compile_of_cardsims_code_is_announced(module, counted):
    from types import SimpleNamespace

    from cardsim.feedback import _cardsims_own

    def function():
        pass

    function.__module__ = module
    started = SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=function)})
    assert _cardsims_own(started) is counted
