"""Runs on a Dask cluster (``cardsim.core.cluster``): the same rows as threads whatever the worker
count and task size, per-task summaries merged to the threaded summary, a worker killed mid-run,
and the ``--cluster`` option of every command that simulates.

Every cluster here is a ``LocalCluster`` of worker processes on this machine (loopback only).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import distributed  # noqa: F401  (the [test] extra installs it: a missing install fails, never skips)
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cardsim import simulate
from cardsim.analysis.results import FrameSink
from cardsim.analysis.stats.summary import SummaryAccumulator
from cardsim.cli.main import cli
from cardsim.core import cluster as C
from cardsim.core import dataset as io
from cardsim.core import runner
from cardsim.core.errors import CardsimError

BOTS = ["random", "greedy", "planner"]


@pytest.fixture(scope="module")
def client():
    """Two worker processes of one thread, as ``--cluster local:2`` starts them."""
    with C.session("local:2") as c:
        c.wait_for_workers(2)
        yield c


@pytest.fixture(scope="module")
def threaded():
    return simulate("fruit-picking", 1500, players=3, bots=BOTS, seed=31, chunk_size=128)


@pytest.mark.parametrize("task_size", [1500, 400, 129, 7])
def test_cluster_rows_equal_threaded_rows_whatever_the_task_size(client, threaded, task_size):
    results = simulate(
        "fruit-picking",
        1500,
        players=3,
        bots=BOTS,
        seed=31,
        chunk_size=64,
        cluster=client,
        task_size=task_size,
    )
    pd.testing.assert_frame_equal(results.frame, threaded.frame)


def test_one_worker_gives_the_same_rows_as_two():
    one = simulate("fruit-picking", 500, players=4, bots="greedy", seed=2, cluster="local:1")
    two = simulate("fruit-picking", 500, players=4, bots="greedy", seed=2, cluster="local:2")
    local = simulate("fruit-picking", 500, players=4, bots="greedy", seed=2, threads=1)
    pd.testing.assert_frame_equal(one.frame, local.frame)
    pd.testing.assert_frame_equal(two.frame, local.frame)


def test_summaries_merged_from_tasks_equal_the_threaded_summary(client):
    spec = runner.make_spec("pajarracos", 900, 4, ["random", "greedy"] * 2, {}, seed=9)
    local = SummaryAccumulator(spec)
    runner.run(spec, [local], chunk_size=100)
    merged = SummaryAccumulator(spec)
    stats = runner.run(spec, [merged], cluster=client, task_size=250, chunk_size=100)
    expected, got = local.summarize(), merged.summarize()
    for name in vars(expected):  # the turn histogram is an array: compared as one
        np.testing.assert_array_equal(getattr(got, name), getattr(expected, name), err_msg=name)
    assert stats.games == 900 and stats.workers >= 1


def test_no_row_travels_when_only_summaries_are_asked_for(client, monkeypatch):
    spec = runner.make_spec("fruit-picking", 400, 2, ["greedy"], {}, seed=1)
    sent = []
    original = C._merge

    def spy(task, *sinks):
        sent.append(task.chunks)
        original(task, *sinks)

    monkeypatch.setattr(C, "_merge", spy)
    runner.run(spec, [SummaryAccumulator(spec)], cluster=client, task_size=100)
    assert sent == [None] * 4


def test_user_bot_file_plays_on_the_workers(client, tmp_path):
    path = tmp_path / "my_bots.py"
    path.write_text(
        textwrap.dedent(
            """
            from numba import njit

            @njit
            def last_choice(obs, legal, n_legal, params, rng):
                return n_legal - 1
            """
        )
    )
    kwargs = dict(players=2, bots="last_choice,greedy", seed=4, bot_files=[str(path)])
    local = simulate("fruit-picking", 300, **kwargs)
    remote = simulate("fruit-picking", 300, cluster=client, task_size=90, **kwargs)
    pd.testing.assert_frame_equal(remote.frame, local.frame)


def test_until_ci_stops_at_the_same_game_on_a_cluster(client):
    from cardsim.analysis.stats.power import PrecisionStop

    spec = runner.make_spec("fruit-picking", 50_000, 2, ["greedy"], {}, seed=3)
    played = []
    for cluster in (None, client):
        summary = SummaryAccumulator(spec)
        stop = PrecisionStop(summary, 0.05)
        runner.run(spec, [summary], chunk_size=500, until=stop, cluster=cluster)
        played.append(summary.games)
    assert played[0] == played[1] < 50_000


def _held_when_removed(client, address: str) -> list:
    """The tasks the scheduler counted on worker ``address`` when it removed it: those it was
    playing or had queued, and those it had played but not yet handed over (its event log)."""
    return [
        key
        for _, event in client.get_events("all")
        if isinstance(event, dict)
        and event.get("action") == "remove-worker"
        and event.get("worker") == address
        for key in [*event.get("processing-tasks", ()), *event.get("lost-computed-tasks", ())]
    ]


def test_a_worker_killed_mid_run_loses_nothing(tmp_path):
    """SIGKILL one worker process while it holds a task: every task it held is played again
    elsewhere (the nanny starts a new process); the rows in memory and the dataset the workers
    wrote equal the threaded run's. The victim is frozen (SIGSTOP) before the scheduler is asked
    what it holds, so that it cannot finish in between, and killed only then; the scheduler's
    own record of the removal names the tasks it held. Seen to fail with the kill planted on a
    worker that held nothing (killed before the run: no task in its record)."""
    spec = runner.make_spec("fruit-picking", 6000, 3, BOTS, {}, seed=77)
    local = FrameSink(spec)
    runner.run(spec, [local])
    with C.session("local:2") as client:
        client.wait_for_workers(2)
        pids = client.run(os.getpid)  # worker address -> process id
        victim = sorted(pids)[0]
        frames, summary = FrameSink(spec), SummaryAccumulator(spec)
        dataset = io.DatasetSink(tmp_path / "run", spec)
        killed = []

        def kill_while_it_holds_a_task(games):
            if killed:
                return
            os.kill(pids[victim], signal.SIGSTOP)
            if client.processing().get(victim):
                os.kill(pids[victim], signal.SIGKILL)
                killed.append(victim)
            else:  # between two tasks: let it go on, try again at the next task's end
                os.kill(pids[victim], signal.SIGCONT)

        runner.run(
            spec,
            [frames, summary, dataset],
            cluster=client,
            task_size=250,
            chunk_size=50,
            progress=kill_while_it_holds_a_task,
        )
        dataset.close()
        client.wait_for_workers(2, timeout=60)
        assert pids[victim] not in client.run(os.getpid).values()  # it really died
        held = _held_when_removed(client, victim)
    assert killed
    assert held and all(str(key).startswith("cardsim-play-") for key in held), held
    pd.testing.assert_frame_equal(frames.frame(), local.frame())
    assert summary.games == 6000
    games, meta = io.read_results(tmp_path / "run", compact=False)
    pd.testing.assert_frame_equal(games, local.frame(), check_categorical=False)
    assert meta["complete"] is True


def test_a_local_cluster_leaves_port_8787_alone():
    """No dashboard, and the scheduler's HTTP server on a free port: clusters started side by
    side (parallel tests, two commands) do not warn "Port 8787 is already in use"."""
    import socket
    import warnings

    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        try:
            held.bind(("0.0.0.0", 8787))  # if someone else holds it, the test is the same
            held.listen(1)
        except OSError:
            pass
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with C.session("local:1") as client:
                port = client.scheduler_info()["services"].get("dashboard")
    finally:
        held.close()
    assert not [w for w in caught if "8787" in str(w.message)]
    assert port != 8787


# -- the option ----------------------------------------------------------------------------------


def test_parse_cluster():
    assert C.parse_cluster("local:3").local_workers == 3
    assert C.parse_cluster("10.0.0.5:8786").scheduler == "tcp://10.0.0.5:8786"
    assert C.parse_cluster("tls://sched:8786").scheduler == "tls://sched:8786"
    for bad in ("local:0", "local:x", "local:", "nohost", "", "tcp://a b:1", "tcp://host"):
        with pytest.raises(CardsimError):
            C.parse_cluster(bad)


def test_task_ranges_cover_the_run_once():
    assert C.task_ranges([(0, 10)], 0, 4, 4) == [[(0, 4)], [(4, 8)], [(8, 10)]]
    assert C.task_ranges([(0, 10)], 0, 8, 4) == [[(0, 4), (4, 8)], [(8, 10)]]
    # gaps of a resume: tasks and chunks stay on the grids from the first game (here 100)
    assert C.task_ranges([(103, 109), (117, 121)], 100, 8, 4) == [
        [(103, 104), (104, 108)],
        [(108, 109)],
        [(117, 120), (120, 121)],
    ]
    assert C.default_task_size(10**7, 2, 65536) % 65536 == 0
    assert C.default_task_size(100, 2, 65536) == 65536


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _body(output: str) -> str:
    """The summary without its throughput paragraph (which says where the games were played)."""
    return "\n\n".join(p for p in output.split("\n\n") if not p.startswith("Throughput"))


@pytest.mark.parametrize(
    "command",
    [
        ["run", "fruit-picking", "-n", "600", "-p", "3", "-q"],
        ["compare", "fruit-picking", "--bots", "random,greedy", "-p", "2", "-n", "200", "-q"],
        ["sweep", "fruit-picking", "--param", "market_slots=4,5", "-n", "200", "-q"],
        ["diff", "fruit-picking", "--variant", "analysis/variants/umbrella.toml", "-n", "200"],
    ],
    ids=["run", "compare", "sweep", "diff"],
)
def test_every_simulating_command_prints_the_same_on_a_cluster(command, client):
    address = client.scheduler_info()["address"]
    threaded = _run(*command)
    clustered = _run(*command, "--cluster", address, "--task-size", "70")
    assert threaded.exit_code == 0, threaded.output
    assert clustered.exit_code == 0, clustered.output
    assert _body(clustered.output) == _body(threaded.output)


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--cluster", "local:0"], "local:N"),
        (["--cluster", "nohost"], "scheduler address"),
        (["--task-size", "100"], "add --cluster"),
        (["--cluster", "local:2", "--task-size", "0"], "--task-size"),
        (["--cluster", "127.0.0.1:9"], "cannot reach the Dask scheduler"),
    ],
)
def test_bad_cluster_options_are_one_line_errors(args, fragment, monkeypatch):
    monkeypatch.setattr(C, "CONNECT_TIMEOUT", "1s")  # nobody listens on port 9
    result = CliRunner().invoke(cli, ["run", "fruit-picking", "-n", "10", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.output


# -- results datasets written by the workers ---------------------------------------------------

DATASET_RUN = ["fruit-picking", "-p", "3", "-b", "random,greedy,planner", "-s", "21"]


@pytest.fixture(scope="module")
def threaded_dataset(tmp_path_factory):
    path = tmp_path_factory.mktemp("threads") / "run"
    result = _run("run", *DATASET_RUN, "-n", "3000", "--chunk-size", "250", "-q", "--out", path)
    assert result.exit_code == 0, result.output
    return io.read_results(path, compact=False)[0]


def _parts(path) -> dict[str, tuple[int, int]]:
    """Part file name -> (inode, mtime): a kept part is the same file, untouched."""
    return {
        entry.name: (entry.inode(), entry.stat().st_mtime_ns)
        for entry in os.scandir(path)
        if entry.name.startswith("part-")
    }


def test_workers_write_the_dataset_and_no_row_reaches_the_client(
    client, threaded_dataset, tmp_path, monkeypatch
):
    sent = []
    original = C._merge

    def spy(task, *sinks):
        sent.append(task.chunks)
        original(task, *sinks)

    monkeypatch.setattr(C, "_merge", spy)
    path = tmp_path / "run"
    address = client.scheduler_info()["address"]
    result = _run(
        "run", *DATASET_RUN, "-n", "3000", "--chunk-size", "250", "-q", "--out", path,
        "--cluster", address, "--task-size", "750",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sent and all(chunks is None for chunks in sent)  # parts went to disk on the workers
    games, meta = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(games, threaded_dataset)
    assert meta["complete"] is True
    assert len(_parts(path)) == 12  # one part per chunk, on the chunk grid


def test_an_interrupted_cluster_run_resumes_keeping_every_finished_part(
    client, threaded_dataset, tmp_path
):
    """Parts of unfinished tasks missing and a half-written temporary file left behind, as after
    a crash: --resume on the cluster keeps every part, plays only the gaps, loses and
    duplicates nothing."""
    path = tmp_path / "run"
    address = client.scheduler_info()["address"]
    common = [*DATASET_RUN, "-n", "3000", "--chunk-size", "250", "-q", "--out", path]
    assert _run("run", *common, "--cluster", address, "--task-size", "500").exit_code == 0
    names = sorted(_parts(path))
    for name in names[3:5] + names[9:]:  # tasks that had not finished
        os.unlink(path / name)
    (path / f".{names[4]}.123.abcd.tmp").write_bytes(b"half a part")
    meta = json.loads((path / io.METADATA_FILE).read_text())
    io.write_metadata(path, {**meta, "complete": False})  # as the run left it before its end
    kept = _parts(path)
    result = _run("run", *common, "--resume", "--cluster", address, "--task-size", "1000")
    assert result.exit_code == 0, result.output
    after = _parts(path)
    assert {name: after[name] for name in kept} == kept  # the finished parts were not touched
    assert len(after) == 12 and not any(n.endswith(".tmp") for n in os.listdir(path))
    games, meta = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(games, threaded_dataset)
    assert meta["complete"] is True


def test_a_killed_cluster_run_resumes(threaded_dataset, tmp_path):
    """SIGKILL the whole command (client, scheduler, workers) while the workers write parts; the
    same command with --resume finishes it."""
    path = tmp_path / "run"
    command = [
        sys.executable, "-m", "cardsim.cli.main", "run", *DATASET_RUN, "-n", "3000",
        "--chunk-size", "250", "-q", "--out", str(path), "--cluster", "local:2",
        "--task-size", "250",
    ]  # fmt: skip
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
    deadline = time.time() + 120
    while len(_parts(path) if path.is_dir() else ()) < 2 and time.time() < deadline:
        assert proc.poll() is None, "the run ended before it could be killed"
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    saved = len(_parts(path))
    assert 2 <= saved < 12
    assert not io.read_metadata(path)["complete"]
    result = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    games, meta = io.read_results(path, compact=False)
    pd.testing.assert_frame_equal(games, threaded_dataset)
    assert meta["complete"] is True


# -- quiet means quiet; workers counted once (issue 33) ---------------------------------------------


def _worker_processes(pid: int) -> list[int]:
    """The Dask worker processes a command started (multiprocessing children of ``pid``)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            cmdline = open(f"/proc/{entry}/cmdline", "rb").read().decode(errors="replace")
        except OSError:
            continue
        if int(stat[1]) == pid and "spawn_main" in cmdline:
            found.append(int(entry))
    return sorted(found)


def test_a_worker_killed_under_quiet_prints_nothing_and_is_counted_once(tmp_path):
    """SIGKILL one worker process of a ``-q`` run once its first parts are written: Dask's own
    "ERROR" lines stay out of stderr, and the summary reports the restart apart from the workers:
    never more than the 2 workers (the nanny's new process keeps the dead one's name; the victim
    may have died before it played a task, on a busy machine). The scheduler may count a second
    worker lost when a loaded machine misses its heartbeats: at least 1 restart."""
    path = tmp_path / "run"
    command = [
        sys.executable, "-m", "cardsim.cli.main", "run", *DATASET_RUN, "-n", "12000",
        "--chunk-size", "250", "-q", "--out", str(path), "--cluster", "local:2",
        "--task-size", "250", "--format", "json",
    ]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while len(_parts(path) if path.is_dir() else ()) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline
        time.sleep(0.02)
    workers = _worker_processes(proc.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    assert len(_parts(path)) < 48  # the run still had games to play when the worker died
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert err == ""
    throughput = json.loads(out)["throughput"]
    assert 1 <= throughput["workers"] <= 2 and throughput["worker_restarts"] >= 1
    assert io.read_metadata(path)["complete"] is True


def test_dask_log_records_become_one_line_or_nothing(capfd):
    import logging

    lines = []
    with C.dask_logs_to(lines.append):
        logging.getLogger("distributed.scheduler").error("Couldn't gather keys: {...}\nmore")
        logging.getLogger("distributed.nanny").info("Start Nanny at: ...")  # below WARNING
    with C.dask_logs_to(None):  # --quiet
        logging.getLogger("distributed.scheduler").error("Removing worker ...")
    assert lines == ["dask error: Couldn't gather keys: {...}"]
    assert capfd.readouterr().err == ""


class _Events:
    """A client whose scheduler's event log is ``events`` (``Client.get_events``)."""

    def __init__(self, events):
        self.events = events

    def get_events(self, topic):
        assert topic == "all"
        return self.events


def test_workers_lost_counts_unexpected_removals_only():
    events = [
        (1.0, {"action": "add-worker", "worker": "tcp://a:1"}),
        (2.0, {"action": "remove-worker", "worker": "tcp://a:1", "expected": False}),  # died
        (3.0, {"action": "add-worker", "worker": "tcp://a:2"}),  # its nanny's new process
        (4.0, {"action": "remove-worker", "worker": "tcp://b:1", "expected": True}),  # retired
        (5.0, "a plain message"),
    ]
    assert C.workers_lost(_Events(events)) == 1
    assert C.workers_lost(object()) == 0  # a client that cannot tell
