"""How long a game of ``ismcts`` in every seat takes at a few budgets, per game, relative to
Fruit Picking at 1,000 iterations measured in the same minute (the default budgets in
``ismcts.ITERATIONS`` are chosen from these ratios; docs/search.md, "Budgets").

    python benchmarks/bench_budgets.py [--game NAME ...] [--iterations 100 300 1000] [--games 2]

Per game, at its default player count, on one thread: seconds a decision and a game at each
budget, each measurement followed by Fruit Picking 4p at 1,000 iterations (the reference) so that
a shared machine's load cancels in the ratio.
"""

from __future__ import annotations

import argparse
import os
import time

from bench_search import game_speed

from cardsim.core import registry

REFERENCE = ("fruit-picking", 1000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--iterations", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    games = args.game or [g for g in registry.available() if registry.get(g).determinize]
    reference_players = registry.get(REFERENCE[0]).default_players
    print(
        f"# bench_budgets {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, 1 thread"
    )
    game_speed(REFERENCE[0], reference_players, 5, 1, 1)  # load the compiled loops
    for game in games:
        players = registry.get(game).default_players
        game_speed(game, players, 5, 1, 1)
        for iterations in args.iterations:
            per_game, per_decision = game_speed(game, players, iterations, args.games, 1)
            reference, _ = game_speed(*REFERENCE[:1], reference_players, REFERENCE[1], 4, 1)
            print(
                f"{game} {players}p {iterations} iterations: {per_decision * 1e3:.1f} ms a "
                f"decision, {per_game:.2f} s a game = {per_game / reference:.2f}x Fruit Picking "
                f"{reference_players}p at {REFERENCE[1]} ({reference:.2f} s a game), "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
