"""What Python's teardown at exit costs a warm ``cardsim`` command: the program (``main``, which
ends with ``os._exit`` once the command is done) beside the same command through ``cli`` with
the ordinary exit, alternated, as separate processes::

    python benchmarks/bench_exit.py [--rounds 5] [-- COMMAND ...]

The default command is ``run fruit-picking --games 1 --players 2`` (compiled first, so neither
side compiles). Prints each round's wall seconds with the load average, then the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

PROGRAMS = {
    "teardown": "from cardsim.cli.main import cli; cli(prog_name='cardsim')",
    "os._exit": "from cardsim.cli.main import main; main()",
}


def timed(code: str, command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *command], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "command", nargs="*", default=["run", "fruit-picking", "-n", "1", "-p", "2"]
    )
    args = parser.parse_args()
    timed(PROGRAMS["os._exit"], args.command)  # compiles what the command needs, once
    walls: dict[str, list[float]] = {name: [] for name in PROGRAMS}
    for r in range(args.rounds):
        for name in PROGRAMS if r % 2 == 0 else reversed(PROGRAMS):
            walls[name].append(timed(PROGRAMS[name], args.command))
            print(
                f"round {r + 1}  {name:<9} {walls[name][-1]:.3f} s  load {os.getloadavg()[0]:.2f}"
            )
    print(f"cardsim {' '.join(args.command)}")
    for name, values in walls.items():
        print(f"{name:<9} median {statistics.median(values):.3f} s wall")


if __name__ == "__main__":
    main()
