"""How long a tune and a screen take, against the targets of issue 31, and what share of that
is playing games.

    python benchmarks/bench_tuning.py [--only tune|screen|ladder] [--threads T]

- tune: 2 parameters (seeds_per_player=10..30, market_slots=1..6), 60 trials, Fruit Picking 2
  players, the command's defaults otherwise (10,000 games per trial in 10 blocks, the best 3
  and the defaults verified on 40,000 fresh games); target: under 5 minutes;
- screen: every Pajarracos option the screen varies by default, 4 players, the command's
  defaults (Morris, 10 trajectories, 4,000 games per run); target: under 10 minutes;
- ladder: the cost of ``--objective ladder`` (its default heuristic ladder, random < greedy <
  planner) per trial, against ``--objective first-player`` with the top level (planner) in
  every seat: the same 2 parameters, 12 trials of 2,000 deals each, Fruit Picking 2 players.

Each line gives the wall time, its ratio to the target, the games played, and the ratio of the
wall time to the time the same number of games takes in one plain run of the default rules
(the overhead of many small runs, the search and the analysis), all measured in this one
process, after the compiled engines are loaded. The machine and its load decide the seconds:
quote them with the load (``uptime``).
"""

from __future__ import annotations

import argparse
import time

import cardsim

TUNE_TARGET, SCREEN_TARGET = 300.0, 600.0


def plain_seconds(game: str, games: int, players: int, threads: int | None) -> float:
    """Seconds one plain run of ``games`` games takes (the engine's own speed, here and now)."""
    start = time.perf_counter()
    cardsim.simulate(game, games, players=players, seed=99, threads=threads)
    return time.perf_counter() - start


def bench_tune(threads: int | None) -> None:
    cardsim.simulate("fruit-picking", 1000, players=2, threads=threads)  # load the engine
    result = cardsim.tune(
        "fruit-picking",
        ["seeds_per_player=10..30", "market_slots=1..6"],
        players=2,
        budget=60,
        seed=1,
        threads=threads,
    )
    played = int(result.trials["games"].sum()) + int(result.verification["games"].sum())
    plain = plain_seconds("fruit-picking", played, 2, threads)
    stopped = int(result.trials["pruned"].sum())
    print(
        f"tune fruit-picking 2p, 2 params, 60 trials ({stopped} stopped by the pruner): "
        f"{result.seconds:.0f} s = {result.seconds / TUNE_TARGET:.2f} x the 5-minute target; "
        f"{played:,} games, {result.seconds / plain:.1f} x a plain run of as many games "
        f"({plain:.1f} s); winner {result.winner}",
        flush=True,
    )


def bench_screen(threads: int | None) -> None:
    cardsim.simulate("pajarracos", 1000, threads=threads)
    result = cardsim.screen("pajarracos", seed=1, threads=threads)
    played = len(result.runs) * result.games
    plain = plain_seconds("pajarracos", played, 4, threads)
    print(
        f"screen pajarracos 4p, {len(result.factors)} options, {result.design}, "
        f"{len(result.runs)} runs: {result.seconds:.0f} s = "
        f"{result.seconds / SCREEN_TARGET:.2f} x the 10-minute target; {played:,} games, "
        f"{result.seconds / plain:.1f} x a plain run of as many games ({plain:.1f} s)",
        flush=True,
    )


def bench_ladder(threads: int | None) -> None:
    common = dict(players=2, budget=12, games=2000, blocks=5, verify_games=4000, seed=1)
    params = ["seeds_per_player=10..30", "market_slots=1..6"]
    cardsim.simulate("fruit-picking", 1000, players=2, bots="planner", threads=threads)
    plain = cardsim.tune("fruit-picking", params, bots="planner", threads=threads, **common)
    ladder = cardsim.tune("fruit-picking", params, "ladder", threads=threads, **common)
    per_trial = [r.seconds / len(r.trials) for r in (plain, ladder)]
    games = [int(r.trials["games"].sum()) for r in (plain, ladder)]
    print(
        f"tune fruit-picking 2p, 2 params, 12 trials of 2,000 deals: --objective ladder "
        f"(random,greedy,planner) {ladder.seconds:.0f} s ({per_trial[1]:.1f} s a trial), "
        f"first-player with planner {plain.seconds:.0f} s ({per_trial[0]:.1f} s a trial): "
        f"{ladder.seconds / plain.seconds:.1f} x; deals played in the search "
        f"{games[1]:,} and {games[0]:,}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["tune", "screen", "ladder"], default=None)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    if args.only in (None, "tune"):
        bench_tune(args.threads)
    if args.only in (None, "screen"):
        bench_screen(args.threads)
    if args.only in (None, "ladder"):
        bench_ladder(args.threads)


if __name__ == "__main__":
    main()
