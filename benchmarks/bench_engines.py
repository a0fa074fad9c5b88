"""Engine throughput, measured as ratios taken in one run on this machine.

For every registered ruleset, player count and bot (random, greedy, the game's default), prints
games/s and turns/s for the compiled engine on 1 thread and on all threads, and for the
plain-Python reference, then the ratios compiled/reference (1 thread) and all-threads/1-thread.

    python benchmarks/bench_engines.py [--games 200000] [--reference-games 40] [--game NAME]
        [--players K] [--bot NAME]

--game, --players and --bot may be repeated; by default every ruleset, every player count it
allows, and the random, greedy and default bots.

Compile time is excluded (one warm-up run first); reference games are fewer because they are slow.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import time

from cardsim.core import registry, runner
from cardsim.core.layout import G_TURNS


def compiled_rate(spec, threads: int) -> tuple[float, float]:
    """(games/s, turns/s) of the compiled engine on ``threads`` threads."""
    runner.set_threads(threads)
    t0 = time.perf_counter()
    turns = 0
    for chunk in runner.iter_chunks(spec):
        turns += int(chunk.game_out[:, G_TURNS].sum())
    seconds = time.perf_counter() - t0
    return spec.n_games / seconds, turns / seconds


def reference_rate(spec, games: int) -> tuple[float, float]:
    """(games/s, turns/s) of the plain-Python reference implementation."""
    package = spec.ruleset.kernels.__module__  # cardsim.games.<ruleset>
    reference = importlib.import_module(f"{package}.reference")
    t0 = time.perf_counter()
    turns = 0
    for game in range(games):
        game_row, _, _ = reference.play_reference(spec, game)
        turns += int(game_row[G_TURNS])
    seconds = time.perf_counter() - t0
    return games / seconds, turns / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=2e5)
    parser.add_argument("--reference-games", type=int, default=40)
    parser.add_argument("--game", action="append", help="ruleset(s); default: all")
    parser.add_argument(
        "--players", type=int, action="append", help="player count(s); default: all allowed"
    )
    parser.add_argument("--bot", action="append", help="bot(s); default: random and greedy")
    args = parser.parse_args()
    all_threads = runner.available_threads()
    header = (
        f"{'game':<14}{'players':>8}{'bot':>14}{'1 thread g/s':>14}{'turns/s':>12}"
        f"{f'{all_threads} threads g/s':>16}{'turns/s':>12}{'reference g/s':>15}{'turns/s':>10}"
        f"{'compiled/ref':>14}{'threads x':>11}"
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
                warm = dataclasses.replace(spec, n_games=1000)
                compiled_rate(warm, all_threads)  # compile and start the thread pool
                one, one_turns = compiled_rate(spec, 1)
                many, many_turns = compiled_rate(spec, all_threads)
                ref, ref_turns = reference_rate(spec, args.reference_games)
                print(
                    f"{name:<14}{players:>8}{bot:>14}{one:>14,.0f}{one_turns:>12,.0f}"
                    f"{many:>16,.0f}{many_turns:>12,.0f}{ref:>15,.1f}{ref_turns:>10,.0f}"
                    f"{one / ref:>13,.0f}x{many / one:>10.2f}x",
                    flush=True,
                )


if __name__ == "__main__":
    main()
