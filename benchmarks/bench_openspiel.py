"""Piña Pirata against OpenSpiel's ``crazy_eights``, side by side in one run, one thread each.

``crazy_eights`` is the closest shedding game in a widely used C++ engine. Both sides play with
uniform random bots: Piña Pirata through ``cardsim``'s compiled play loop (``random`` bot, one
thread, Treasure Hunt with the default rules), OpenSpiel through ``pyspiel.evaluate_bots`` with
its C++ uniform random bots (``pyspiel.make_uniform_random_bot``), the whole game loop in C++.
A Piña Pirata game is several rounds (a round is the shedding game; crazy_eights has one), so
the table gives Piña Pirata games/s and rounds/s, crazy_eights games/s, and the ratio of Piña
Pirata rounds/s to crazy_eights games/s.

    pip install -e ".[bench]"   # open_spiel, an optional extra
    python benchmarks/bench_openspiel.py [--games 100000] [--openspiel-games 20000] [--players K]

Compile time is excluded (a warm-up run first). Timings on a shared machine are noisy: compare the
ratios, taken in the same run.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from cardsim.core import runner
from cardsim.core.layout import GAME_COLUMNS
from cardsim.games.pina_pirata.cards import GAME_COUNTERS

GAME = "pina-pirata"
ROUNDS = len(GAME_COLUMNS) + GAME_COUNTERS.index("rounds")  # outcome column of rounds played


def pina_rate(players: int, games: int) -> tuple[float, float]:
    """(games/s, rounds/s) of Piña Pirata with random bots on one thread."""
    spec = runner.make_spec(GAME, games, players, ["random"], {}, seed=2024)
    runner.set_threads(1)
    for _ in runner.iter_chunks(dataclasses.replace(spec, n_games=500)):
        pass  # compile and warm
    t0 = time.perf_counter()
    rounds = 0
    for chunk in runner.iter_chunks(spec):
        rounds += int(chunk.game_out[:, ROUNDS].sum())
    seconds = time.perf_counter() - t0
    return games / seconds, rounds / seconds


def openspiel_rate(players: int, games: int) -> float:
    """Games/s of OpenSpiel's crazy_eights with C++ uniform random bots (evaluate_bots)."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(players)]
    for seed in range(200):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    t0 = time.perf_counter()
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return games / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=1e5)
    parser.add_argument("--openspiel-games", type=float, default=2e4)
    parser.add_argument("--players", type=int, action="append", help="default: 2, 4, 6")
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit('bench_openspiel: open_spiel is not installed (pip install -e ".[bench]")')
    header = (
        f"{'players':>7}{'Piña Pirata g/s':>17}{'rounds/s':>11}{'crazy_eights g/s':>18}"
        f"{'rounds/s / crazy_eights g/s':>29}"
    )
    print("one thread each, random bots")
    print(header)
    print("-" * len(header))
    for players in args.players or (2, 4, 6):
        games, rounds = pina_rate(players, int(args.games))
        eights = openspiel_rate(players, int(args.openspiel_games))
        print(
            f"{players:>7}{games:>17,.0f}{rounds:>11,.0f}{eights:>18,.0f}{rounds / eights:>28.1f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
