"""Faults, tested rather than assumed: runs killed with SIGKILL during play, during a resume and
after the last game, interrupted with Ctrl-C (once, and twice while a bot loops forever), and
cut off by a broken pipe. After each, ``--resume`` must give exactly the rows of an
uninterrupted run: no game lost, none duplicated, every saved game kept as it was.

These run ``cardsim`` as real processes (signals and pipes are what is tested), on small
two-player Fruit Picking runs with small chunks, so that a run has many parts to be killed
between.
"""

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim.cli import run as run_command
from cardsim.cli.main import cli
from cardsim.core import dataset as io
from cardsim.core.lock import LOCK_FILE

GAME = "fruit-picking"
GAMES = 9000
CHUNK = 300  # 30 parts
RUN = ["run", GAME, "-n", str(GAMES), "-p", "2", "-b", "planner,greedy", "-s", "11"]
RUN += ["--chunk-size", str(CHUNK), "-q"]
PARTS = GAMES // CHUNK
ATTEMPTS = 3  # runs started before giving up on signalling one mid-run (signalled_mid_run)


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    """The rows of the run played without interruption (in this process)."""
    path = tmp_path_factory.mktemp("whole") / "r"
    result = CliRunner().invoke(cli, [*RUN, "--out", str(path)])
    assert result.exit_code == 0, result.output
    return io.read_results(path, compact=False)[0]


def start(*args: str, **kwargs) -> subprocess.Popen:
    with sigint_not_ignored():
        return subprocess.Popen(
            [sys.executable, "-m", "cardsim.cli.main", *args],
            stdout=kwargs.pop("stdout", subprocess.PIPE),
            stderr=subprocess.PIPE,
            text=True,
            **kwargs,
        )


@contextlib.contextmanager
def sigint_not_ignored():
    """A child inherits an ignored SIGINT and then no Ctrl-C reaches its Python: a shell ignores
    SIGINT in a job it starts in the background (``pytest ... &``), and these tests then failed.
    A handled signal is reset to the default by exec, so the child starts as from a terminal."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out or "", err


def parts_on_disk(path: Path) -> int:
    if not path.is_dir():
        return 0
    return sum(1 for name in os.listdir(path) if io.PART_PATTERN.match(name))


def wait_for_parts(proc: subprocess.Popen, path: Path, count: int, timeout: float = 120) -> bool:
    """Poll until ``count`` parts exist while the run goes on (True), or the run has ended (False)."""
    deadline = time.monotonic() + timeout
    while parts_on_disk(path) < count:
        if proc.poll() is not None:
            return False
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.002)
    return True


def stopped(proc: subprocess.Popen, timeout: float = 10) -> bool:
    """Wait until a SIGSTOP has taken effect (Linux /proc state T); False if the process ended."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None:
        with contextlib.suppress(OSError):
            if Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T":
                return True
        assert time.monotonic() < deadline, "SIGSTOP did not stop the run"
        time.sleep(0.001)
    return False


def signalled_mid_run(proc: subprocess.Popen, path: Path, parts: int, sig: int) -> bool:
    """Send ``sig`` to the run once ``parts`` parts exist, if games are still to be played then;
    False if the run finished first. The run is frozen (SIGSTOP) while that is checked: on a busy
    machine the rest of the run (a fraction of a second) can end between the test's last look and
    its signal, and a signal after the last game is another test."""
    if not wait_for_parts(proc, path, parts):
        finish(proc)
        return False
    proc.send_signal(signal.SIGSTOP)
    mid_run = stopped(proc) and parts_on_disk(path) < PARTS
    if mid_run:
        proc.send_signal(sig)  # delivered when the run continues
    proc.send_signal(signal.SIGCONT)
    if not mid_run:
        finish(proc)
    return mid_run


def signal_fresh_run(path: Path, parts: int, sig: int, *extra: str) -> subprocess.Popen:
    """Start the run writing a new ``path`` and send ``sig`` mid-run once ``parts`` parts exist
    (``signalled_mid_run``); a run that finished first is started again."""
    for _ in range(ATTEMPTS):
        shutil.rmtree(path, ignore_errors=True)
        proc = start(*RUN, "--out", str(path), *extra)
        if signalled_mid_run(proc, path, parts, sig):
            return proc
    raise AssertionError(
        f"the run finished before {parts} parts could be signalled, {ATTEMPTS} times"
    )


def kill_after(path: Path, parts: int, *extra: str) -> int:
    """Start the run writing ``path``, SIGKILL it once ``parts`` parts exist; games saved."""
    proc = signal_fresh_run(path, parts, signal.SIGKILL, *extra)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return io.read_metadata(path)["games_done"]


def resume(path: Path) -> str:
    proc = start(*RUN, "--out", str(path), "--resume")
    code, out, err = finish(proc)
    assert code == 0 and err == "", (code, err)
    return out


def assert_same_rows(path: Path, expected: pd.DataFrame) -> None:
    df, meta = io.read_results(path, compact=False)
    assert meta["complete"] is True and meta["games_done"] == GAMES
    assert df["game"].is_unique  # 0 duplicated
    assert len(df) == GAMES  # 0 lost
    pd.testing.assert_frame_equal(df, expected)
    assert not [n for n in os.listdir(path) if n.endswith(io.TMP_SUFFIX)]


def snapshot(path: Path) -> dict[str, bytes]:
    return {n: (path / n).read_bytes() for n in os.listdir(path) if io.PART_PATTERN.match(n)}


@pytest.mark.parametrize("parts", [1, PARTS // 2, PARTS - 3])
def test_sigkill_during_play_then_resume(tmp_path, expected, parts):
    path = tmp_path / "r"
    saved = kill_after(path, parts)
    assert parts * CHUNK <= saved < GAMES  # killed mid-run, every finished part readable
    before = snapshot(path)
    resume(path)
    assert_same_rows(path, expected)
    after = snapshot(path)
    assert all(after[name] == data for name, data in before.items())  # saved games untouched


def test_sigkill_during_a_resume_then_resume_again(tmp_path, expected):
    path = tmp_path / "r"
    for _ in range(ATTEMPTS):
        first = kill_after(path, 4)
        proc = start(*RUN, "--out", str(path), "--resume")
        if signalled_mid_run(proc, path, first // CHUNK + 6, signal.SIGKILL):
            break
    else:
        raise AssertionError(f"every resume finished before it could be killed ({ATTEMPTS} tries)")
    proc.wait(timeout=30)
    second = io.read_metadata(path)["games_done"]
    assert first < second < GAMES  # the killed resume lost none of the first session's games
    resume(path)
    assert_same_rows(path, expected)


def test_sigkill_after_the_last_game_then_resume(tmp_path, expected):
    path = tmp_path / "r"
    proc = start(*RUN, "--out", str(path))
    wait_for_parts(proc, path, PARTS)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    meta = io.read_metadata(path)
    assert meta["games_done"] == GAMES  # whether or not it was marked complete yet
    out = resume(path)
    assert f"{GAMES:,} games" in out and "Throughput" not in out  # nothing left to play
    assert_same_rows(path, expected)


def test_broken_pipe_after_the_last_game_keeps_a_complete_result(tmp_path, expected):
    path = tmp_path / "r"
    read_end, write_end = os.pipe()
    os.close(read_end)  # whoever reads the summary has gone away (`... | true`)
    proc = start(*RUN, "--out", str(path), stdout=write_end)
    os.close(write_end)
    code, _, err = finish(proc)
    assert code == run_command.EXIT_BROKEN_PIPE
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "broken pipe" in lines[0], err
    assert f"all {GAMES:,} games are saved in {path}" in lines[0]
    assert_same_rows(path, expected)


def test_the_program_ends_without_teardown_yet_loses_nothing(tmp_path, expected):
    """``main`` ends the process with ``os._exit`` once ``cli`` returns (no interpreter
    teardown): the dataset is complete, stdout holds the whole summary, and the exit codes are
    those of ``cli`` (0, and 2 with one line for a mistake)."""
    path = tmp_path / "r"
    code, out, err = finish(start(*RUN, "--out", str(path), "--format", "json"))
    assert code == 0, err
    assert json.loads(out)["games"] == GAMES  # the last line of stdout was flushed
    assert_same_rows(path, expected)
    code, out, err = finish(start("run", GAME, "-p", "9"))
    assert (code, out) == (2, "")
    assert err.strip().splitlines() == ["cardsim: error: fruit-picking is for 2-4 players, not 9"]


def test_ctrl_c_during_play_saves_the_chunk_in_flight_and_resumes(tmp_path, expected):
    path = tmp_path / "r"
    proc = signal_fresh_run(path, 5, signal.SIGINT)
    code, out, err = finish(proc)
    assert code == run_command.EXIT_INTERRUPTED and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "--resume" in lines[0], err
    saved = io.read_metadata(path)["games_done"]
    assert f"{saved:,} of {GAMES:,} games saved in {path}" in lines[0]
    assert 5 * CHUNK <= saved < GAMES
    resume(path)
    assert_same_rows(path, expected)


def test_ctrl_c_after_the_last_game_leaves_a_complete_result(tmp_path, expected, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    path = tmp_path / "r"
    monkeypatch.setattr(run_command, "_print_summary", interrupted)
    result = CliRunner().invoke(cli, [*RUN, "--out", str(path)])
    assert result.exit_code == run_command.EXIT_INTERRUPTED
    err = result.stderr.strip()
    assert "\n" not in err and f"interrupted, but all {GAMES:,} games are saved" in err
    assert_same_rows(path, expected)


LOOPING_BOT = '''
from numba import njit


@njit
def stuck(obs, legal, n_legal, params, rng):
    """never answers"""
    i = 0
    while i >= 0:
        i = (i + 1) % 1000
    return 0
'''


def off_main_cpu_seconds(pid: int) -> float:
    """CPU time of the process's threads other than the main one (Linux /proc): a bot spinning
    in the chunk's worker thread is the only thing that burns it."""
    ticks = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        if int(tid) != pid:
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def stderr_until(proc: subprocess.Popen, text: str, timeout: float = 60) -> str:
    """Read the run's stderr as it is written until ``text`` appears; what was read (``finish``
    then reads the rest)."""
    got = b""
    fd = proc.stderr.fileno()
    deadline = time.monotonic() + timeout
    while text.encode() not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} not printed in {timeout} s: {got.decode()!r}"
        if select.select([fd], [], [], min(left, 1.0))[0]:
            data = os.read(fd, 4096)
            assert data, f"the run ended without printing {text!r}: {got.decode()!r}"
            got += data
    return got.decode()


def test_a_second_ctrl_c_ends_a_run_stuck_in_a_bot(tmp_path):
    """The first Ctrl-C waits for the games in flight (and says so), the second stops at once.
    Waits for the notice, not a fixed time. Seen to fail with ``runner``'s wait planted to
    raise ``StopNow`` at the first Ctrl-C (the run ended without the notice)."""
    bots = tmp_path / "stuck_bots.py"
    bots.write_text(textwrap.dedent(LOOPING_BOT))
    path = tmp_path / "r"
    args = ["run", GAME, "-n", "100", "-p", "2", "--bot-file", str(bots), "-b", "stuck,greedy"]
    proc = start(*args, "--out", str(path), "-q")
    deadline = time.monotonic() + 120
    while off_main_cpu_seconds(proc.pid) < 0.5:  # the bot is stuck in the chunk's worker thread
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    early = stderr_until(proc, "Ctrl-C again to stop at once")  # the first Ctrl-C was heard
    assert proc.poll() is None  # and the run waits for the games in flight, which never end
    proc.send_signal(signal.SIGINT)
    code, out, err = finish(proc, timeout=10)
    err = early + err
    assert code == run_command.EXIT_INTERRUPTED
    lines = err.strip().splitlines()
    assert lines[-1].startswith("cardsim: stopped at once"), err
    assert "Traceback" not in err


# -- two processes on one dataset (issue 33: cardsim/core/lock.py) --------------------------------


def frozen_mid_run(proc: subprocess.Popen, path: Path, parts: int) -> bool:
    """Freeze the run (SIGSTOP: it keeps its lock) once ``parts`` parts exist and games are
    still to be played; False (the run ended) if it finished first."""
    if not wait_for_parts(proc, path, parts):
        finish(proc)
        return False
    proc.send_signal(signal.SIGSTOP)
    if stopped(proc) and parts_on_disk(path) < PARTS:
        return True
    proc.send_signal(signal.SIGCONT)
    finish(proc)
    return False


def every_file(path: Path) -> dict[str, bytes]:
    """Every file of the dataset, the lock and a frozen run's temporary part included."""
    return {n: (path / n).read_bytes() for n in sorted(os.listdir(path))}


def refused_while_held(path: Path, holder: subprocess.Popen, *args: str) -> None:
    """``cardsim *args`` exits 2 with one line naming ``path`` and the holder's pid, and touches
    no file of ``path``."""
    before = every_file(path)
    code, out, err = finish(start(*args))
    assert (code, out) == (2, ""), err
    (line,) = err.strip().splitlines()
    assert line.startswith(
        f"cardsim: error: results dataset '{path}' is being written by another process "
        f"(pid {holder.pid} on "
    ), line
    assert every_file(path) == before


def test_a_second_run_or_resume_is_refused_while_a_run_writes_and_a_report_says_so(
    tmp_path, expected
):
    path = tmp_path / "r"
    for _ in range(ATTEMPTS):
        shutil.rmtree(path, ignore_errors=True)
        first = start(*RUN, "--out", str(path))
        if frozen_mid_run(first, path, 3):
            break
    else:
        raise AssertionError(f"the run finished before it could be frozen, {ATTEMPTS} times")
    try:
        # run vs resume with another chunk size (the overlapping parts of before), run vs run
        refused_while_held(path, first, *RUN, "--out", str(path), "--resume", "--chunk-size", "170")
        refused_while_held(path, first, *RUN, "--out", str(path))
        # run vs report: the report reads the parts saved so far and says a run is writing
        saved = io.read_metadata(path)["games_done"]
        code, out, err = finish(start("report", str(path), "--report", str(tmp_path / "rep")))
        assert code == 0, err
        assert f"a run is still writing {path} (pid {first.pid} on " in err
        assert f"covers the {saved:,} games saved so far" in err
        assert "incomplete run: still being written" in (tmp_path / "rep" / "report.md").read_text()
    finally:
        first.send_signal(signal.SIGCONT)
    code, _, err = finish(first)
    assert code == 0, err
    assert_same_rows(path, expected)


def test_a_lock_left_by_sigkill_does_not_block_and_resume_excludes_resume(tmp_path, expected):
    path = tmp_path / "r"
    for _ in range(ATTEMPTS):
        killed_at = kill_after(path, 3)
        left = json.loads((path / LOCK_FILE).read_text())
        assert left["command"].startswith("cardsim run")  # the killed run's record stays...
        assert "writer" not in io.read_metadata(path)  # ...but nobody holds the lock
        first = start(*RUN, "--out", str(path), "--resume")
        if frozen_mid_run(first, path, killed_at // CHUNK + 3):
            break
    else:
        raise AssertionError(f"every resume finished before it could be frozen ({ATTEMPTS} tries)")
    try:
        # the second resume neither plays nor removes the first one's temporary part
        refused_while_held(path, first, *RUN, "--out", str(path), "--resume", "--chunk-size", "170")
    finally:
        first.send_signal(signal.SIGCONT)
    code, _, err = finish(first)
    assert code == 0 and err == "", err
    assert_same_rows(path, expected)
