"""Tuning study of fruit-picking: screen every rule option at the usual player count, then tune the
two that move the first-player edge most (``analysis/tuning_study.py``). Fruit Picking's market_slots (its default
decided by variant_beginners) is screened at 2..5.

    python analysis/tuning_fruit_picking.py [--budget N] [--screen-games N]

Writes ``reports/fruit-picking/tuning/``.
"""

from tuning_study import main

if __name__ == "__main__":
    main("fruit-picking", screen_extra=["--levels", "market_slots=2,3,4,5"])
