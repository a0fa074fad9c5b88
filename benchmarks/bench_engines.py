"""Engine throughput, start-up and compile time, as ratios taken in one run on this machine.

For every registered ruleset, player count and bot: ns per player turn and games/s of the
compiled engine on 1 thread and on all threads, games/s of the plain-Python reference, and the
ratios compiled/reference and all-threads/1-thread. With the boundary column, the same bot is
also played behind the guarded bot boundary (copies, bounds checks, exceptions caught: what a
user's bot gets, kernel.py) and the ratio guarded/trusted is printed. Then, per ruleset with its
default bots: the cold compile of ``cardsim run`` from an empty cache and its warm start-up, in
wall and user CPU seconds (the CPU figure is the one a shared machine disturbs least).

    python benchmarks/bench_engines.py [--games 200000] [--repeat 5] [--reference-games 40]
        [--game NAME] [--players K] [--bot NAME] [--no-boundary] [--no-startup]

--game, --players and --bot may be repeated; by default every ruleset, every player count it
allows, and the random, greedy and default bots. The machine may be shared: configurations
alternate within each repetition and the minimum time of each is kept; the load average is
printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardsim.core import registry, runner
from cardsim.core.layout import G_TURNS


def timed_run(spec, threads: int) -> tuple[float, float, int]:
    """(wall seconds, process CPU seconds, player turns) of one run of ``spec`` on ``threads``
    threads. On a loaded machine the CPU time of a 1-thread run is the steadier figure."""
    runner.set_threads(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    turns = 0
    for chunk in runner.iter_chunks(spec):
        turns += int(chunk.game_out[:, G_TURNS].sum())
    return time.perf_counter() - t0, time.process_time() - c0, turns


def reference_rate(spec, games: int) -> float:
    """Games/s of the plain-Python reference implementation."""
    kernels = spec.ruleset.kernels  # a registry.lazy naming <package>.engine, or a function
    module = getattr(kernels, "module", None) or kernels.__module__
    package = module.rpartition(".")[0] if hasattr(kernels, "module") else module
    reference = importlib.import_module(f"{package}.reference")
    t0 = time.perf_counter()
    for game in range(games):
        reference.play_reference(spec, game)
    return games / (time.perf_counter() - t0)


def best_times(configs: dict, repeat: int) -> dict:
    """Minimum (wall, CPU) seconds and the turns of each (spec, threads) config, alternating
    them ``repeat`` times."""
    best = {name: (float("inf"), float("inf")) for name in configs}
    turns = {}
    for _ in range(repeat):
        for name, (spec, threads) in configs.items():
            wall, cpu, turns[name] = timed_run(spec, threads)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return {name: (*best[name], turns[name]) for name in configs}


def cli_seconds(game: str, cache_dir: str, games: int = 1) -> tuple[float, float]:
    """(wall, user CPU) seconds of ``cardsim run GAME --games N --quiet`` with the given cache
    root. The user CPU (the process and any it waited for) is what a shared machine's load
    disturbs least: on an idle 2-core machine a compile's wall time is about its user CPU."""
    env = {**os.environ, "CARDSIM_CACHE_DIR": cache_dir}
    env.pop("NUMBA_CACHE_DIR", None)
    executable = Path(sys.executable).with_name("cardsim")  # the installed command
    command = [str(executable), "run", game, "-n", str(games), "-q"]
    t0, u0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(command, env=env, check=True, capture_output=True)
    user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - u0
    return time.perf_counter() - t0, user


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def throughput(args) -> None:
    all_threads = runner.available_threads()
    header = (
        f"{'game':<14}{'players':>8}{'bot':>14}{'ns/turn':>9}{'cpu ns/turn':>12}{'1 thread g/s':>14}"
        f"{f'{all_threads} threads g/s':>16}{'threads x':>10}{'reference g/s':>15}"
        f"{'compiled/ref':>13}{'guarded ns/turn':>17}{'guarded/trusted':>17}"
    )
    print(header)
    print("-" * len(header))
    for name in args.game or registry.available():
        ruleset = registry.get(name)
        allowed = range(ruleset.min_players, ruleset.max_players + 1)
        for players in [k for k in args.players or allowed if k in allowed]:
            default = ("random", "greedy", *ruleset.default_bots)  # and the game's default bot
            for bot in args.bot or dict.fromkeys(default):
                spec = runner.make_spec(name, int(args.games), players, [bot], {}, seed=2024)
                configs = {"one": (spec, 1), "all": (spec, all_threads)}
                if args.boundary:
                    guarded = dataclasses.replace(spec, guarded=(True,) * len(spec.bots))
                    configs["guarded"] = (guarded, 1)
                for warm_spec, threads in configs.values():  # compile, start the thread pool
                    timed_run(dataclasses.replace(warm_spec, n_games=2000), threads)
                times = best_times(configs, args.repeat)
                one, one_cpu, turns = times["one"]
                many, _, _ = times["all"]
                ref = reference_rate(spec, args.reference_games)
                games = spec.n_games
                line = (
                    f"{name:<14}{players:>8}{bot:>14}{one / turns * 1e9:>9.1f}"
                    f"{one_cpu / turns * 1e9:>12.1f}{games / one:>14,.0f}"
                    f"{games / many:>16,.0f}{one / many:>9.2f}x{ref:>15,.1f}"
                    f"{games / one / ref:>12,.0f}x"
                )
                if args.boundary:
                    guarded_time, _, _ = times["guarded"]
                    line += f"{guarded_time / turns * 1e9:>17.1f}{one / guarded_time:>16.3f}x"
                print(line, flush=True)


def startup(args) -> None:
    print(
        f"\n{'game':<14}{'cold compile s':>16}{'user CPU s':>12}{'warm start-up s':>17}"
        f"{'user CPU s':>12}  (cardsim run GAME -n 1, default bots; {load()})"
    )
    for name in args.game or registry.available():
        with tempfile.TemporaryDirectory() as cache_dir:
            cold, cold_user = cli_seconds(name, cache_dir)
            warm, warm_user = min(cli_seconds(name, cache_dir) for _ in range(3))
        print(
            f"{name:<14}{cold:>16.1f}{cold_user:>12.1f}{warm:>17.2f}{warm_user:>12.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=2e5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reference-games", type=int, default=40)
    parser.add_argument("--game", action="append", help="ruleset(s); default: all")
    parser.add_argument(
        "--players", type=int, action="append", help="player count(s); default: all allowed"
    )
    parser.add_argument(
        "--bot", action="append", help="bot(s); default: random, greedy and the game's default"
    )
    parser.add_argument("--no-boundary", dest="boundary", action="store_false")
    parser.add_argument("--no-startup", dest="startup", action="store_false")
    args = parser.parse_args()
    print(f"{runner.available_threads()} threads; {load()} at start")
    throughput(args)
    if args.startup:
        startup(args)
    print(f"{load()} at end")


if __name__ == "__main__":
    main()
