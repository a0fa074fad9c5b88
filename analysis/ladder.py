"""Skill-ladder studies: balance at every skill level, for every game at two of its player counts.

Reproduces ``reports/<game>/ladder-<p>p/`` (the ``cardsim ladder`` report, ``report.md``,
``report.html``, ``figures/``, and the command's JSON as ``ladder.json``) and
``reports/ladder-studies.md``, one line per study: its levels, games, the time it took and the
load of the machine, and the top level's first-player edge with its interval.

Each study is the command itself:

    cardsim ladder GAME -p P -n GAMES [--matrix-deals M] [--levels ...] --seed 2026
                   --report reports/GAME/ladder-Pp --force

with the default ladder (random, greedy, the game's strongest heuristic bot, then ismcts at half
and at its default budget when the game has it). 1200 deals a run give at most ±3 points on every
level's self-play first-player edge (the worst case, a 50% win share in 2 players: ±2.8).

    python analysis/ladder.py [--games 1200] [--matrix-games M] [--only GAME[:P,P]]
                              [--threads T] [--report reports] [--heuristic]
                              [--data data/ladder] [--resume]

Each study saves its games in ``--data`` (``cardsim ladder --out``) as they are played: a study
killed part way is continued by the same command with ``--resume``, which also writes the reports
again from the saved games without playing them (a change to the report's words or charts).
Without ``--resume`` a study plays afresh.

``STUDIES`` is the table of studies: a game at a player count, and optionally its own deals
(``games``), matrix deals (``matrix_games``, ``--matrix-deals``: the matchup runs play the first
M of the self-play's deals; the matrix costs levels*(levels-1)/2 * 2K games a deal at K > 2
players, docs/ladder.md) and levels. An option given on the command line overrides the table for
every study it runs (``--games 40`` for a quick check); the table overrides the defaults (1200
deals, the matrix on all of them, the default ladder).

``--heuristic``: random, greedy and the strongest heuristic bot only, the ladders committed on
2026-12-06 (before ismcts reached the branch; they are the default ladder of that time, so the
same command without the flag played them).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026
GAMES = 1200  # deals of each level's self-play: ±3 points on its first-player edge


@dataclass(frozen=True)
class Study:
    """One ladder study: a game at a player count, and what it plays where it differs from the
    defaults (``None``: ``GAMES`` deals, the matrix on all of them, the game's default ladder)."""

    game: str
    players: int
    games: int | None = None  # -n: deals of each level's self-play
    matrix_games: int | None = None  # --matrix-deals: deals of each seating of each pair
    levels: str | None = None  # --levels, weakest first


# the usual player counts of each game (cardsim games), two per game. The self-play's deals give
# ±3 points on the top level's first-player edge (1,200 at 2 players, where a 50% share is the
# worst case; 1,000 at 3 and 800 at 4 players, fair shares of 33% and 25%); the matrix plays
# fewer where its cost (levels*(levels-1)/2 * 2K games a deal, most of them with search bots)
# would take hours on the 2-core machine (docs/ladder.md, "Fewer deals for the matrix")
STUDIES = (
    Study("fruit-picking", 2),
    Study("fruit-picking", 4, games=800, matrix_games=60),
    Study("pajarracos", 3, games=1000, matrix_games=100),
    Study("pajarracos", 4, games=800, matrix_games=60),
    Study("piepmatz", 2, matrix_games=300),
    Study("piepmatz", 4, games=800, matrix_games=60),
    Study("pina-pirata", 2, matrix_games=400),
    Study("pina-pirata", 4, games=800, matrix_games=60),
)
STUDY_RECORD = "study.json"  # beside ladder.json: how long the study took, and when


def table_study(game: str, players: int) -> Study:
    """The table's study of ``game`` at ``players`` (a plain one when the table has none)."""
    rows = [s for s in STUDIES if (s.game, s.players) == (game, players)]
    return rows[0] if rows else Study(game, players)


def parse_only(items: list[str]) -> list[Study]:
    """``["piepmatz:2,4", "pajarracos"]`` -> the studies to run (the table's counts of a game
    when none given)."""
    out = []
    for item in items:
        game, _, counts = item.partition(":")
        if counts:
            out += [table_study(game, int(c)) for c in counts.split(",")]
        else:
            out += [s for s in STUDIES if s.game == game]
    return out


def with_command_line(study: Study, args: argparse.Namespace) -> Study:
    """``study`` with the options given on the command line in place of the table's, and the
    defaults where neither gives one."""

    def given(option, row, default=None):
        return option if option is not None else row if row is not None else default

    levels = heuristic_levels(study.game) if args.heuristic else study.levels
    return dataclasses.replace(
        study,
        games=given(args.games, study.games, GAMES),
        matrix_games=given(args.matrix_games, study.matrix_games),
        levels=levels,
    )


def heuristic_levels(game: str) -> str:
    """random, greedy and the game's strongest heuristic bot: the default ladder without the
    search levels (the ladders of ``reports/`` before ismcts reached them)."""
    from cardsim.analysis.experiments.ladder import HEURISTIC_FLOOR, strongest_heuristic
    from cardsim.core import registry

    return ",".join([*HEURISTIC_FLOOR, strongest_heuristic(registry.get(game).bot_names)])


def ladder_args(study: Study) -> list[str]:
    """The ``cardsim ladder`` arguments of ``study`` (its options filled in:
    ``with_command_line``) that decide its figures."""
    args = ["ladder", study.game, "-p", str(study.players), "-n", str(study.games)]
    if study.matrix_games is not None:
        args += ["--matrix-deals", str(study.matrix_games)]
    if study.levels is not None:
        args += ["--levels", study.levels]
    return [*args, "--seed", str(SEED)]


def ladder_command(study: Study, target: Path, threads: int | None, saved: Path) -> list[str]:
    """The command that plays ``study``, saves its games in ``saved`` (continuing what is there),
    and writes its report to ``target``, its JSON to stdout."""
    command = [
        sys.executable, "-m", "cardsim.cli.main", *ladder_args(study), "--report", str(target),
        "--out", str(saved), "--resume", "--force", "--format", "json", "-q",
    ]  # fmt: skip
    if threads is not None:
        command += ["--threads", str(threads)]
    return command


class StudyClock:
    """A study's playing seconds, over every run of it: a resumed study's time is the killed
    run's and the resume's together. The total so far is written to ``path`` every
    ``EVERY`` seconds (atomically), so a kill loses at most that much of the count."""

    EVERY = 10.0

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.before = float(path.read_text()) if resume and path.exists() else 0.0
        self.t0 = time.perf_counter()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)

    def seconds(self) -> float:
        return self.before + time.perf_counter() - self.t0

    def _write(self) -> None:
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(f"{self.seconds():.1f}\n")
        os.replace(temporary, self.path)

    def _tick(self) -> None:
        while not self.done.wait(self.EVERY):
            self._write()

    def __enter__(self) -> StudyClock:
        self.t0 = time.perf_counter()
        self._write()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.done.set()
        self.thread.join()
        self._write()


def run_study(study: Study, report: Path, threads: int | None, data: Path, resume: bool) -> dict:
    """One ``cardsim ladder`` run: its JSON, the seconds it took and the load around it. Its games
    go to ``data`` as they are played; ``resume`` keeps the games saved there by an earlier run
    (after a kill, or to write the report again without playing), else they are played afresh:
    games saved by older code must not stand in for the current engines'."""
    target = report / study.game / f"ladder-{study.players}p"
    saved = data / f"{study.game}-{study.players}p"
    if not resume:
        shutil.rmtree(saved, ignore_errors=True)
    saved.parent.mkdir(parents=True, exist_ok=True)
    command = ladder_command(study, target, threads, saved)
    load = os.getloadavg()[0]
    clock = StudyClock(data / f"{study.game}-{study.players}p.seconds", resume)
    with clock:
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    seconds = clock.seconds()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    (target / "ladder.json").write_text(done.stdout)
    record = {
        "seconds": round(seconds, 1),
        "load": round((load + os.getloadavg()[0]) / 2, 2),
        "command": " ".join(ladder_args(study)),
        "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    (target / STUDY_RECORD).write_text(json.dumps(record, indent=2) + "\n")
    return {"doc": json.loads(done.stdout), **record}


def saved_study(study: Study, report: Path) -> dict | None:
    """A study played before (its ``ladder.json`` and ``study.json``), or None."""
    target = report / study.game / f"ladder-{study.players}p"
    if not (target / "ladder.json").exists() or not (target / STUDY_RECORD).exists():
        return None
    record = json.loads((target / STUDY_RECORD).read_text())
    return {"doc": json.loads((target / "ladder.json").read_text()), **record}


def deals_cell(doc: dict) -> str:
    """``1,200``, or ``1,200 / 300`` when the matrix played fewer deals than the self-play."""
    matrix = doc.get("matrix_deals", doc["deals"])  # ladders before --matrix-deals: the same
    return f"{doc['deals']:,}" + ("" if matrix == doc["deals"] else f" / {matrix:,}")


def summary_line(players: int, study: dict) -> str:
    doc = study["doc"]
    top = doc["first_player"][-1]
    bottom = doc["first_player"][0]
    skill = doc["skill"]
    order = "n/a" if skill["order_score"] is None else f"{skill['order_score']:.2f}"
    return (
        f"| {doc['title']} | {players} | {', '.join(doc['levels'])} | {deals_cell(doc)} | "
        f"{doc['games']:,} | {bottom['edge_points']:+.1f} ± {bottom['half_width_points']:.1f} | "
        f"{top['edge_points']:+.1f} ± {top['half_width_points']:.1f} | {order} | "
        f"{study['seconds']:.0f} s (load {study['load']:.1f}) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=None, help=f"self-play deals (default: the table's, {GAMES})"
    )
    parser.add_argument(
        "--matrix-games",
        type=int,
        default=None,
        metavar="M",
        help="deals of each matchup seating, the first M of the self-play's (cardsim ladder "
        "--matrix-deals; default: the table's, else all of them)",
    )
    parser.add_argument("--only", nargs="*", default=[], metavar="GAME[:P,P]")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--report", type=Path, default=ROOT / "reports")
    parser.add_argument(
        "--heuristic", action="store_true", help="the heuristic levels only (no ismcts levels)"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT / "data" / "ladder",
        help="where each study saves its games as it plays (GAME-Pp, a cardsim ladder --out "
        "dataset; not committed)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep the games saved in --data: finish studies a kill interrupted, or write "
        "their reports again without playing (after a change to the reports only)",
    )
    args = parser.parse_args()
    studies = parse_only(args.only) if args.only else STUDIES
    lines = [
        "# Skill-ladder studies",
        "",
        "Written by `python analysis/ladder.py` (each row is `cardsim ladder GAME -p P --seed "
        f"{SEED}` with the deals and levels of its study, the commands below). Deals: of each "
        "level's self-play, then of each matchup seating when the matrix played fewer. Edge: "
        "the starting player's win share minus fair in self-play, points, ± the 95% interval's "
        "half width; order: the CardStock order score of the top level among random players.",
        "",
        "| game | players | levels | deals | games | edge, bottom level | "
        "edge, top level | order | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    verdicts = ["", "Verdicts:", ""]
    commands = ["", "Commands:", ""]
    for row in studies:
        study = run_study(
            with_command_line(row, args), args.report, args.threads, args.data, args.resume
        )
        print(summary_line(row.players, study), study["doc"]["verdict"], sep="\n", flush=True)
    # the table: every study of STUDIES played so far (this run's and earlier runs' records)
    for row in STUDIES:
        study = saved_study(row, args.report)
        if study is None:
            continue
        lines.append(summary_line(row.players, study))
        verdicts.append(f"- {row.players} players: {study['doc']['verdict']}")
        commands.append(f"- `cardsim {study['command']}`")
    text = "\n".join(lines + verdicts + commands) + "\n"
    (args.report / "ladder-studies.md").write_text(text)


if __name__ == "__main__":
    main()
