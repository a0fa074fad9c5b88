"""How strong is ``ismcts``? Every game with a determinizer, two matchups on the same deals:

1. ``ismcts`` at its default budget against the game's strongest heuristic bot;
2. ``ismcts`` at twice its default budget against ``ismcts`` at the default (is the ladder
   monotone?).

Each matchup plays every seating of the two bots on the same deals (the ``cardsim compare``
machinery: ``experiments.play_blocks`` and ``analysis.compare``), so seat and turn order cancel
out; win rates come with 95% intervals clustered by deal. Beside each result: iterations a
decision and seconds a game (wall, on all threads; the machine's load is printed too).

    python analysis/search_strength.py [--games 200] [--x2-games N] [--players 2] [--game NAME ...]
                                       [--param KEY=VALUE ...] [--out PATH]

``--x2-games``: deals of the second matchup when it needs more than the first (two search bots
a budget apart are closer than the search and a heuristic; default ``--games``). ``--param``:
an ``ismcts`` parameter other than its default in both matchups (``reward=margin``; the doubled
bot doubles the ``iterations`` given), to measure a change of the search before it becomes one.

Writes ``reports/search-strength/report.md`` (or ``--out``: one file per game when the games are
run as separate processes side by side).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

import numpy as np

from cardsim import experiments
from cardsim.analysis.experiments import compare
from cardsim.core import bots as bot_params
from cardsim.core import ismcts, registry, runner

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "reports" / "search-strength" / "report.md"

# the strongest heuristic bot of each game (the reports' bot comparisons)
STRONGEST = {
    "fruit-picking": "planner",
    "pajarracos": "strategist",
    "piepmatz": "planner",
    "pina-pirata": "captain",
}


def matchup(game: str, players: int, games: int, bots: list, seed: int = 0) -> tuple:
    """(win-rate table, seconds a game): every seating of ``bots`` (two ``Bot`` records) on the
    same ``games`` deals."""
    names = [b.name for b in bots]
    seatings = compare.seatings(names, players, "all")
    specs = []
    for seating in seatings:
        row = np.array([[names.index(name) for name in seating]], np.int16)
        specs.append(
            runner.make_spec(game, games, players, seed=seed, seat_bots=bots, seat_bot_table=row)
        )
    start = time.perf_counter()
    frames = [f for block in experiments.play_blocks(specs) for f in block]
    seconds = time.perf_counter() - start
    # play_blocks yields one frame per seating per block: regroup by seating
    per_seating = [compare.combine(frames[i :: len(specs)]) for i in range(len(specs))]
    result = compare.compare(per_seating, names, seatings, seed, registry.get(game).title)
    return result.win_rates, seconds / (games * len(specs))


def markdown(table) -> list[str]:
    """A DataFrame as the lines of a markdown table (numbers to 3 decimals)."""

    def cell(value) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    lines = ["| " + " | ".join(map(str, table.columns)) + " |"]
    lines.append("|" + "---|" * len(table.columns))
    for row in table.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per matchup")
    parser.add_argument(
        "--x2-games", type=int, default=None, help="deals of ismcts x2 vs ismcts (default --games)"
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", action="append")
    parser.add_argument(
        "--param", action="append", default=[], help="an ismcts parameter, KEY=VALUE (repeatable)"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="the report's path")
    args = parser.parse_args()
    games = args.game or [g for g in registry.available() if registry.get(g).determinize]
    # the --param changes, parsed once for every game, and the label they add to its matchups
    changes = bot_params.parse_bot_params(f"ismcts.{pair}" for pair in args.param)
    changed = "".join(f", {pair}" for pair in args.param if not pair.startswith("iterations"))
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [
        "# Search strength: ismcts against the heuristics and against itself",
        "",
        f"`python analysis/search_strength.py {' '.join(sys.argv[1:])}`, "
        f"{started}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (the "
        "machine was shared: seconds are wall time under that load).",
        "",
        "Every seating of the two bots on the same deals; win rate per bot with its 95% interval "
        "(clustered by deal); a fair share is 1/players.",
        "",
    ]
    for game in games:
        ruleset = registry.get(game)
        players = max(ruleset.min_players, min(args.players, ruleset.max_players))
        bots = ruleset.bots()
        search = bot_params.with_params([bots["ismcts"]], changes)[0]
        budget = int(search.params[ismcts.P_ITERATIONS])
        double = dataclasses.replace(
            search,
            name="ismcts-x2",
            params=(2.0 * budget, *search.params[1:]),
        )
        lines += [f"## {ruleset.title}, {players} players", ""]
        x2_games = args.x2_games or args.games
        for label, pair, deals in (
            (
                f"ismcts ({budget} iterations{changed}) vs {STRONGEST[game]}",
                [search, bots[STRONGEST[game]]],
                args.games,
            ),
            (f"ismcts x2 ({2 * budget}) vs ismcts ({budget})", [double, search], x2_games),
        ):
            table, per_game = matchup(game, players, deals, pair)
            print(label, per_game, flush=True)
            print(table.to_string(index=False), flush=True)
            timing = f"{deals:,} deals, {per_game:.2f} s a game (wall, 2 threads)"
            lines += [f"### {label}", "", timing, ""]
            lines += markdown(table) + [""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
