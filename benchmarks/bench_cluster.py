"""Scale-out figures, measured side by side in one run on this machine.

1. Throughput: games/s of a Fruit Picking run on all threads of this process, then on a Dask
   ``LocalCluster`` of ``--workers`` worker processes (``--cluster local:N``), alternately
   ``--repeat`` times, and the ratio cluster/threads of each pair (target: at least 0.85 for
   local:2 on 1e7 games). The cluster is started and warmed (each worker loads the compiled
   kernels from numba's cache) before it is timed; its start-up time is printed apart, and the
   ratio with start-up included too. On a loaded machine wall-clock ratios follow the load more
   than the code, so games per CPU-second (this process for threads; the client and every
   worker process for the cluster) are printed as well: their ratio is the cluster's own cost.
2. Report memory: ``cardsim report`` on results of growing size (4 players), each in a fresh
   process: its peak resident memory and time. The report streams the games in batches, so the
   peak should not grow with the number of games (target: 1e8 games under 1.5 GiB).

    python benchmarks/bench_cluster.py [--games 1e7] [--workers 2] [--repeat 1]
        [--report-games 1e5,1e6,1e7] [--skip-throughput] [--skip-report] [--keep DIR]

Results of each size are generated with ``cardsim run --out`` into a temporary directory (or
``--keep DIR``, where existing ones are reused); generating 1e7 4-player games takes minutes and
about a gigabyte of disk.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAME = "fruit-picking"
SEED = 2026


def threaded_rate(spec) -> tuple[float, float, int]:
    """(games per wall second, games per CPU second of this process, threads)."""
    from cardsim.analysis.stats.summary import SummaryAccumulator
    from cardsim.core import runner

    summary = SummaryAccumulator(spec)
    cpu = time.process_time()
    stats = runner.run(spec, [summary])
    cpu = time.process_time() - cpu
    return stats.games_per_second, spec.n_games / cpu, stats.threads


def cluster_rate(spec, client) -> tuple[float, float]:
    """(games per wall second, games per CPU second of the client and every worker process)."""
    from cardsim.analysis.stats.summary import SummaryAccumulator
    from cardsim.core import runner

    summary = SummaryAccumulator(spec)
    before = sum(client.run(time.process_time).values()) + time.process_time()
    stats = runner.run(spec, [summary], cluster=client)
    cpu = sum(client.run(time.process_time).values()) + time.process_time() - before
    return stats.games_per_second, spec.n_games / cpu


def throughput(games: int, workers: int, repeat: int) -> None:
    import dataclasses

    from cardsim.core import runner
    from cardsim.core.cluster import session

    spec = runner.make_spec(GAME, games, None, [], {}, seed=SEED)
    warm = dataclasses.replace(spec, n_games=20_000)
    threaded_rate(warm)  # compile / load, start the thread pool
    t0 = time.perf_counter()
    with session(f"local:{workers}") as client:
        client.wait_for_workers(workers)
        started = time.perf_counter() - t0
        cluster_rate(warm, client)  # every worker loads the kernels once
        warmed = time.perf_counter() - t0
        print(
            f"{GAME}, {spec.n_players} players, {spec.seat_bots()[0]} bots, {games:,} games; "
            f"local:{workers} started in {started:.1f} s, warmed in {warmed:.1f} s"
        )
        header = f"{'pair':>5}{'threads g/s':>14}{'threads':>9}{f'local:{workers} g/s':>16}"
        header += f"{'ratio':>8}{'with start-up':>15}{'g/CPU-s threads':>17}"
        header += f"{'g/CPU-s cluster':>17}{'CPU ratio':>11}"
        print(header)
        print("-" * len(header))
        for i in range(repeat):
            rate, cpu_rate, threads = threaded_rate(spec)
            crate, ccpu_rate = cluster_rate(spec, client)
            with_startup = games / (games / crate + warmed)
            print(
                f"{i + 1:>5}{rate:>14,.0f}{threads:>9}{crate:>16,.0f}{crate / rate:>8.2f}"
                f"{with_startup / rate:>15.2f}{cpu_rate:>17,.0f}{ccpu_rate:>17,.0f}"
                f"{ccpu_rate / cpu_rate:>11.2f}"
            )


def _peak_command(command: list[str]) -> tuple[float, int, str]:
    """Seconds, peak resident set size (bytes) and output of a command in a fresh process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return seconds, usage.ru_maxrss * 1024, out.strip()


def report_memory(sizes: list[int], keep: Path | None) -> None:
    cardsim = [sys.executable, "-m", "cardsim.cli.main"]
    with tempfile.TemporaryDirectory() as scratch:
        where = keep or Path(scratch)
        where.mkdir(parents=True, exist_ok=True)
        header = f"{'games':>13}{'on disk MiB':>13}{'report s':>10}{'games/s':>12}{'peak MiB':>10}"
        print(f"cardsim report of {GAME}, 4 players (greedy bots), in a fresh process each")
        print(header)
        print("-" * len(header))
        for games in sizes:
            results = where / f"fp4-{games}.parquet"
            if not results.exists():
                subprocess.run(
                    [*cardsim, "run", GAME, "-p", "4", "-b", "greedy", "-n", str(games),
                     "--seed", str(SEED), "-q", "--out", str(results)],
                    check=True, stdout=subprocess.DEVNULL,
                )  # fmt: skip
            size = sum(f.stat().st_size for f in [results, *results.rglob("*")] if f.is_file())
            out_dir = where / f"report-{games}"
            seconds, peak, _ = _peak_command(
                [*cardsim, "report", str(results), "--report", str(out_dir)]
            )
            print(
                f"{games:>13,}{size / 2**20:>13,.0f}{seconds:>10.1f}{games / seconds:>12,.0f}"
                f"{peak / 2**20:>10,.0f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=1e7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--report-games", default="1e5,1e6,1e7")
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-report", action="store_true")
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    if not args.skip_throughput:
        throughput(int(args.games), args.workers, args.repeat)
    if not args.skip_report:
        print()
        report_memory([int(float(x)) for x in args.report_games.split(",")], args.keep)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
