"""Skill-ladder studies: balance at every skill level, for every game at two of its player counts.

Reproduces ``reports/<game>/ladder-<p>p/`` (the ``cardsim ladder`` report, ``report.md``,
``report.html``, ``figures/``, and the command's JSON as ``ladder.json``) and
``reports/ladder-studies.md``, one line per study: its levels, games, the time it took and the
load of the machine, and the top level's first-player edge with its interval.

Each study is the command itself:

    cardsim ladder GAME -p P -n GAMES --seed 2026 --report reports/GAME/ladder-Pp --force

with the default ladder (random, greedy, the game's strongest heuristic bot, then ismcts at half
and at its default budget when the game has it). 1200 deals a run give at most ±3 points on every
level's self-play first-player edge (the worst case, a 50% win share in 2 players: ±2.8).

    python analysis/ladder.py [--games 1200] [--only GAME[:P,P]] [--threads T] [--report reports]
                              [--heuristic]

``--heuristic``: random, greedy and the strongest heuristic bot only, the ladders committed on
2026-12-06 (before ismcts reached the branch; they are the default ladder of that time, so the
same command without the flag played them).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026
# the usual player counts of each game (cardsim games), two per game
STUDIES = {
    "fruit-picking": (2, 4),
    "pajarracos": (3, 4),
    "piepmatz": (2, 4),
    "pina-pirata": (2, 4),
}


def parse_only(items: list[str]) -> dict[str, tuple[int, ...]]:
    """``["piepmatz:2,4", "pajarracos"]`` -> the studies to run (all counts when none given)."""
    out = {}
    for item in items:
        game, _, counts = item.partition(":")
        out[game] = tuple(int(c) for c in counts.split(",")) if counts else STUDIES[game]
    return out


def heuristic_levels(game: str) -> str:
    """random, greedy and the game's strongest heuristic bot: the default ladder without the
    search levels (the ladders of ``reports/`` before ismcts reached them)."""
    from cardsim.analysis.experiments.ladder import HEURISTIC_FLOOR, strongest_heuristic
    from cardsim.core import registry

    return ",".join([*HEURISTIC_FLOOR, strongest_heuristic(registry.get(game).bot_names)])


def run_study(
    game: str, players: int, games: int, report: Path, threads: int | None, heuristic: bool
) -> dict:
    """One ``cardsim ladder`` run: its JSON, the seconds it took and the load around it."""
    target = report / game / f"ladder-{players}p"
    command = [
        sys.executable, "-m", "cardsim.cli.main", "ladder", game, "-p", str(players),
        "-n", str(games), "--seed", str(SEED), "--report", str(target), "--force",
        "--format", "json", "-q",
    ]  # fmt: skip
    if threads is not None:
        command += ["--threads", str(threads)]
    if heuristic:
        command += ["--levels", heuristic_levels(game)]
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    doc = json.loads(done.stdout)
    (target / "ladder.json").write_text(done.stdout)
    return {
        "doc": doc,
        "seconds": seconds,
        "load": (load + os.getloadavg()[0]) / 2,
        "command": " ".join(command[3:]),
    }


def summary_line(game: str, players: int, study: dict) -> str:
    doc = study["doc"]
    top = doc["first_player"][-1]
    bottom = doc["first_player"][0]
    skill = doc["skill"]
    order = "n/a" if skill["order_score"] is None else f"{skill['order_score']:.2f}"
    return (
        f"| {doc['title']} | {players} | {', '.join(doc['levels'])} | {doc['deals']:,} | "
        f"{doc['games']:,} | {bottom['edge_points']:+.1f} ± {bottom['half_width_points']:.1f} | "
        f"{top['edge_points']:+.1f} ± {top['half_width_points']:.1f} | {order} | "
        f"{study['seconds']:.0f} s (load {study['load']:.1f}) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--only", nargs="*", default=[], metavar="GAME[:P,P]")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--report", type=Path, default=ROOT / "reports")
    parser.add_argument(
        "--heuristic", action="store_true", help="the heuristic levels only (no ismcts levels)"
    )
    args = parser.parse_args()
    studies = parse_only(args.only) if args.only else STUDIES
    lines = [
        "# Skill-ladder studies",
        "",
        "Written by `python analysis/ladder.py` (each row is `cardsim ladder GAME -p P -n "
        f"{args.games} --seed {SEED}` with the default ladder). Edge: the starting player's win "
        "share minus fair in self-play, points, ± the 95% interval's half width; order: "
        "the CardStock order score of the top level among random players.",
        "",
        "| game | players | levels | deals a run | games | edge, bottom level | "
        "edge, top level | order | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    verdicts = ["", "Verdicts:", ""]
    for game, counts in studies.items():
        for players in counts:
            study = run_study(game, players, args.games, args.report, args.threads, args.heuristic)
            line = summary_line(game, players, study)
            print(line, study["doc"]["verdict"], sep="\n", flush=True)
            lines.append(line)
            verdicts.append(f"- {players} players: {study['doc']['verdict']}")
    (args.report / "ladder-studies.md").write_text("\n".join(lines + verdicts) + "\n")


if __name__ == "__main__":
    main()
