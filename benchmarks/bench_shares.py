"""How the threads of a run split a chunk: one fixed block each (the split before 2026-12-02)
beside the shrinking shares of ``specialize.run_chunk``, alternated in one process::

    python benchmarks/bench_shares.py [--game fruit-picking] [--players 2] [--bot greedy]
                                      [--games 500000] [--rounds 8] [--threads 2]

Both play the run's chunks as ``cardsim run`` does (``runner.iter_chunks`` with prefetch: the
next chunk plays while the main thread sums the last), and the script checks that both give the
same games. It prints each round's wall and process CPU seconds with the load average, then the
median and minimum wall of each way. A fixed block each leaves a thread idle at a chunk's end
whenever the other was slowed (by the summing thread, or by another program on the machine).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time

import numpy as np

from cardsim.core import runner, specialize

SHARES = specialize.run_chunk


def fixed_blocks(
    loop, n_threads, seat_bot_table, bot_code, bot_params, rules, n_players, turn_cap, seed,
    first_game, game_out, seat_out, faults,
) -> int:  # fmt: skip
    """The split before the shares: thread w plays games ``w * n / T .. (w + 1) * n / T``."""
    n_games = game_out.shape[0]
    n_workers = max(1, min(int(n_threads), n_games))
    args = (seat_bot_table, bot_code, bot_params, rules, n_players, turn_cap, seed, first_game)
    results = [0] * n_workers

    def block(w: int) -> None:
        lo, hi = w * n_games // n_workers, (w + 1) * n_games // n_workers
        buffers = specialize.thread_buffers(loop, bot_params)
        results[w] = loop.run_block(*args, lo, hi, game_out, seat_out, faults[w], *buffers)

    specialize.on_threads(block, n_workers)
    return sum(max(0, r) for r in results)


def play(spec, split) -> tuple[float, float, np.ndarray]:
    """Wall and process CPU seconds of the run with ``split`` as run_chunk, and its outcomes."""
    specialize.run_chunk = split
    wall, cpu = time.perf_counter(), time.process_time()
    rows = [chunk.game_out for chunk in runner.iter_chunks(spec, prefetch=True)]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    specialize.run_chunk = SHARES
    return wall, cpu, np.concatenate(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="fruit-picking")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--games", type=float, default=5e5)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    spec = runner.make_spec(args.game, int(args.games), args.players, [args.bot], {}, seed=2024)
    runner.set_threads(args.threads)
    for _ in runner.iter_chunks(dataclasses.replace(spec, n_games=200)):
        pass  # compiled and loaded before any timing
    ways = {"fixed blocks": fixed_blocks, "shares": SHARES}
    walls: dict[str, list[float]] = {name: [] for name in ways}
    outcomes = {}
    print(f"{args.game}, {args.players} players, {args.bot}, {spec.n_games:,} games, "
          f"{args.threads} threads")  # fmt: skip
    for r in range(args.rounds):
        order = list(ways) if r % 2 == 0 else list(reversed(ways))
        for name in order:
            wall, cpu, rows = play(spec, ways[name])
            walls[name].append(wall)
            outcomes.setdefault(name, rows)
            load = os.getloadavg()[0]
            print(f"round {r + 1}  {name:<12} {wall:6.2f} s wall {cpu:6.2f} s CPU  load {load:.2f}")
    if not np.array_equal(outcomes["fixed blocks"], outcomes["shares"]):
        raise SystemExit("bench_shares: the two splits gave different games")
    for name, values in walls.items():
        print(f"{name:<12} median {statistics.median(values):.2f} s, minimum {min(values):.2f} s")


if __name__ == "__main__":
    main()
