"""Engine speed of this source tree against another revision's, side by side in one run.

A change that must not make an engine slower (a file split, a refactor) is measured here: the
revision ``--base`` is exported with ``git archive`` to a temporary directory, and runs of both
trees alternate (base, this, base, this, ...), each a fresh process with that tree first on
``sys.path``. A run compiles (or loads from the cache) and warms up first, then times ``--games``
games on one thread; the minimum of each tree's ``--repeat`` runs is kept (a shared machine only
ever makes a run slower), and the ratio this/base is printed with the load average.

    python benchmarks/bench_trees.py --base main [--tree DIR] [--game pina-pirata] [--players 4]
        [--bots greedy] [--games 20000] [--repeat 5]

``--tree`` measures another directory holding a cardsim tree instead of this one.

Both trees must define the same games: the results (a hash of the outcome arrays) are compared
too, so a speed-up that changed the games is reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One timed run, in a child process: PYTHONPATH names the tree.
CHILD = """
import hashlib, json, sys, time
from cardsim.core import runner
from cardsim.core.layout import G_TURNS
game, players, bots, games = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
bots = bots.split(",") if bots else []
runner.set_threads(1)
warm = runner.make_spec(game, 200, players, bots, seed=7)
for _ in runner.iter_chunks(warm):
    pass
spec = runner.make_spec(game, games, players, bots, seed=11)
digest, turns = hashlib.sha256(), 0
t0, c0 = time.perf_counter(), time.process_time()
for chunk in runner.iter_chunks(spec):
    turns += int(chunk.game_out[:, G_TURNS].sum())
    digest.update(chunk.game_out.tobytes())
    digest.update(chunk.seat_out.tobytes())
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"wall": wall, "cpu": cpu, "turns": turns, "hash": digest.hexdigest()[:16]}))
"""


def export(revision: str, into: Path) -> Path:
    """The tree of ``revision`` (``git archive``) under ``into``."""
    archive = subprocess.run(
        ["git", "archive", revision], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def timed(tree: Path, args) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, args.game, str(args.players), args.bots, str(args.games)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare with (e.g. main)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree measured (default: this)")
    parser.add_argument("--game", default="pina-pirata")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--bots", default="", help="comma-separated, per seat (default: the game's)"
    )
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardsim-base-") as tmp:
        trees = {"base": export(args.base, Path(tmp)), "this": args.tree.resolve()}
        runs = {name: [] for name in trees}
        for _ in range(args.repeat):
            for name, tree in trees.items():
                runs[name].append(timed(tree, args))
    best = {name: min(r, key=lambda x: x["cpu"]) for name, r in runs.items()}
    print(f"{args.game}, {args.players} players, bots {args.bots or 'default'}, "
          f"{args.games:,} games on 1 thread, best of {args.repeat} (load {os.getloadavg()[0]:.1f})")  # fmt: skip
    for name, b in best.items():
        label = f"{name} ({args.base})" if name == "base" else f"this ({args.tree.name})"
        print(
            f"  {label:<22} {1e9 * b['cpu'] / b['turns']:8.1f} ns/turn CPU  "
            f"{1e9 * b['wall'] / b['turns']:8.1f} ns/turn wall  results {b['hash']}"
        )
    ratio = best["this"]["cpu"] / best["base"]["cpu"]
    wall = best["this"]["wall"] / best["base"]["wall"]
    same = best["this"]["hash"] == best["base"]["hash"]
    print(f"  this/base: {ratio:.3f} CPU, {wall:.3f} wall; same games: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
