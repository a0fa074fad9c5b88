"""Tuning study of pina-pirata: screen every rule option at the usual player count, then tune the
two that move the first-player edge most (``analysis/tuning_study.py``).

    python analysis/tuning_pina_pirata.py [--budget N] [--screen-games N]

Writes ``reports/pina-pirata/tuning/``.
"""

from tuning_study import main

if __name__ == "__main__":
    main("pina-pirata")
