"""Tuning study of pina-pirata: screen every rule option at the usual player count, then tune the
two that move the first-player edge most (``analysis/tuning_study.py``).

    python analysis/tuning_pina_pirata.py [--budget N] [--screen-games N]

Writes ``reports/pina-pirata/tuning/``.
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
        "pina-pirata",
        budget=args.budget,
        screen_games=args.screen_games,
    ).run()


if __name__ == "__main__":
    main()
