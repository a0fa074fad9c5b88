"""Balance study of Fruit Picking: seat advantage by player count, bot strength, and the variants.

Reproduces ``reports/fruit-picking/`` with the same commands a user would type:

- ``balance-{2,3,4}p/``: the standard balance report of games between ``planner`` bots (the
  strongest built-in heuristic);
- ``bots-3p/``: ``cardsim compare`` of random, greedy and planner, every seating on the same deals;
- ``variant-<name>/``: ``cardsim diff`` of each variant file in ``analysis/variants/`` against the
  standard rules, on the same games (beginners, umbrella, market operation).

    python analysis/fruit_picking.py [--games 200000] [--report reports/fruit-picking] [--cluster A]

``--cluster`` plays every command on a Dask cluster (``local:N``: one local cluster, started
here, serves them all): the same games, so the same reports.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

GAME = "fruit-picking"
SEED = 2026
ROOT = Path(__file__).resolve().parent
VARIANTS = ("beginners", "umbrella", "market-operation")


def cardsim(*args: str, cluster: str | None = None) -> None:
    """Run one ``cardsim`` command as a user would, failing loudly (``--force``: the study
    replaces its earlier reports)."""
    where = ["--cluster", cluster] if cluster else []
    command = [sys.executable, "-m", "cardsim.cli.main", *args, *where, "--quiet", "--force"]
    print("$ cardsim", " ".join(args), flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=float, default=2e5)
    parser.add_argument("--report", type=Path, default=ROOT.parent / "reports" / GAME)
    parser.add_argument("--cluster", default=None, help="local:N or a Dask scheduler address")
    args = parser.parse_args()
    if args.cluster:
        from cardsim.core.cluster import session

        with session(args.cluster) as client:
            study(args, client.scheduler_info()["address"])
    else:
        study(args, None)


def study(args, cluster: str | None) -> None:
    games, out, seed = str(int(args.games)), args.report, str(SEED)
    start = time.perf_counter()
    for players in (2, 3, 4):
        cardsim("run", GAME, "--players", str(players), "--bots", "planner", "--games", games,
                "--seed", seed, "--report", str(out / f"balance-{players}p"), cluster=cluster)  # fmt: skip
    deals = str(max(int(args.games) // 10, 1000))
    cardsim("compare", GAME, "--bots", "random,greedy,planner", "--players", "3", "--games", deals,
            "--seed", seed, "--report", str(out / "bots-3p"), cluster=cluster)  # fmt: skip
    for name in VARIANTS:
        cardsim("diff", GAME, "--variant", str(ROOT / "variants" / f"{name}.toml"), "--players",
                "3", "--bots", "planner", "--games", games, "--seed", seed, "--report",
                str(out / f"variant-{name}"), cluster=cluster)  # fmt: skip
    print(f"done in {time.perf_counter() - start:.0f} s: {out}")


if __name__ == "__main__":
    main()
