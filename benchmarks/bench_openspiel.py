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
                                         [--rounds 3]

Compile time is excluded (a warm-up run first). Both sides run in this process on one thread
each and are timed in process CPU, the figure this shared VM's load disturbs least; they
alternate ``--rounds`` times per player count and each side's best round is kept (this VM's
speed moves by half from one minute to the next: one round of each side, minutes apart, gave
4-player ratios from 2.5x to 5.0x on the idle machine). The range of the rounds' own ratios is
printed beside the ratio of the bests.

What one unit holds, printed under the table (the issue fixes the metric: Piña Pirata rounds/s
against crazy_eights games/s): a crazy_eights game (OpenSpiel's defaults: 52 cards, 5 cards each,
7 with 2 players, a draw limit of 5, no reshuffle, at most 100 turns) is a deal and a shedding
game, counted in chance nodes (the deal, draws) and decisions; a Piña Pirata round (55 cards, 7 /
6 / 5 cards each, 4 tiles in play and more as the game goes on) is a deal, a shedding game and
its tiles, counted in player turns and decisions. So the table also gives both sides' decisions
per second: the per-step comparison. crazy_eights' counts come from a few hundred games played
through OpenSpiel's Python API with uniform random choices (the same distribution as its uniform
random bots).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

from cardsim.core import runner
from cardsim.core.layout import G_DECISIONS, G_TURNS, GAME_COLUMNS
from cardsim.games.pina_pirata.cards import GAME_COUNTERS

GAME = "pina-pirata"
ROUNDS = len(GAME_COLUMNS) + GAME_COUNTERS.index("rounds")  # outcome column of rounds played


def pina_rate(players: int, games: int) -> tuple[float, float, float, float]:
    """(games/s, rounds/s, turns per round, decisions per round) of Piña Pirata with random bots
    on one thread."""
    spec = runner.make_spec(GAME, games, players, ["random"], {}, seed=2024)
    runner.set_threads(1)
    for _ in runner.iter_chunks(dataclasses.replace(spec, n_games=500)):
        pass  # compile and warm
    t0 = time.process_time()
    rounds = turns = decisions = 0
    for chunk in runner.iter_chunks(spec):
        rounds += int(chunk.game_out[:, ROUNDS].sum())
        turns += int(chunk.game_out[:, G_TURNS].sum())
        decisions += int(chunk.game_out[:, G_DECISIONS].sum())
    seconds = time.process_time() - t0
    return games / seconds, rounds / seconds, turns / rounds, decisions / rounds


def openspiel_moves(players: int, games: int = 300) -> tuple[float, float]:
    """(decisions, chance nodes) per crazy_eights game, uniform random choices."""
    import random

    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(players)
    decisions = chance = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance += 1
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                decisions += 1
                state.apply_action(rng.choice(state.legal_actions()))
    return decisions / games, chance / games


def openspiel_rate(players: int, games: int) -> float:
    """Games/s of OpenSpiel's crazy_eights with C++ uniform random bots (evaluate_bots)."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(players)]
    for seed in range(200):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    t0 = time.process_time()
    for seed in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return games / (time.process_time() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=1e5)
    parser.add_argument("--openspiel-games", type=float, default=2e4)
    parser.add_argument("--players", type=int, action="append", help="default: 2, 4, 6")
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternated rounds of both sides (best kept)"
    )
    args = parser.parse_args()
    if args.rounds < 1:
        sys.exit("bench_openspiel: --rounds must be at least 1")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit('bench_openspiel: open_spiel is not installed (pip install -e ".[bench]")')
    header = (
        f"{'players':>7}{'Piña Pirata g/s':>17}{'rounds/s':>11}{'crazy_eights g/s':>18}"
        f"{'rounds/s / crazy_eights g/s':>29}{'rounds':>15}"
    )
    print(
        f"one thread each, random bots, process CPU, best of {args.rounds} alternated rounds"
        f" (load average {os.getloadavg()[0]:.1f})"
    )
    print(header)
    print("-" * len(header))
    units = []
    for players in args.players or (2, 4, 6):
        pina, eights_rounds = [], []
        for _ in range(args.rounds):
            pina.append(pina_rate(players, int(args.games)))
            eights_rounds.append(openspiel_rate(players, int(args.openspiel_games)))
        games, rounds, turns, decisions = max(pina, key=lambda rate: rate[1])
        eights = max(eights_rounds)
        each = [p[1] / e for p, e in zip(pina, eights_rounds, strict=True)]
        print(
            f"{players:>7}{games:>17,.0f}{rounds:>11,.0f}{eights:>18,.0f}{rounds / eights:>28.1f}x"
            f"{min(each):>9.1f}-{max(each):.1f}x  (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )
        units.append((players, rounds, turns, decisions, eights, *openspiel_moves(players)))
    print(
        "\nwhat each side counts: a Piña Pirata round (turns, decisions of two or more legal"
        "\nchoices) and a crazy_eights game (decisions, chance nodes), and decisions/s per thread"
    )
    print(
        f"{'players':>7}{'Piña turns':>11}{'decisions':>10}{'c8 decisions':>13}{'chance':>7}"
        f"{'Piña dec/s':>12}{'c8 dec/s':>11}{'ratio':>7}"
    )
    for players, rounds, turns, decisions, eights, c8_decisions, c8_chance in units:
        pina_ds, c8_ds = rounds * decisions, eights * c8_decisions
        print(
            f"{players:>7}{turns:>11.1f}{decisions:>10.1f}{c8_decisions:>13.1f}{c8_chance:>7.1f}"
            f"{pina_ds:>12,.0f}{c8_ds:>11,.0f}{pina_ds / c8_ds:>6.1f}x"
        )


if __name__ == "__main__":
    main()
