"""Tuning study of fruit-picking: screen every rule option at the usual player count, then tune the
two that move the first-player edge most (``analysis/tuning_study.py``). market_slots (default decided by variant_beginners) is screened at 2..5.

    python analysis/tuning_fruit_picking.py [--budget N] [--screen-games N]

Writes ``reports/fruit-picking/tuning/``.
"""

from __future__ import annotations

import argparse

from tuning_study import Study


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--screen-games", type=int, default=4000)
    args = parser.parse_args()
    Study(
        "fruit-picking",
        screen_extra=["--levels", "market_slots=2,3,4,5"],
        budget=args.budget,
        screen_games=args.screen_games,
    ).run()


if __name__ == "__main__":
    main()
