"""Tuning study of piepmatz: screen every rule option at the usual player count, then tune the
two that move the first-player edge most (``analysis/tuning_study.py``).

    python analysis/tuning_piepmatz.py [--budget N] [--screen-games N]

Writes ``reports/piepmatz/tuning/``.
"""

from tuning_study import main

if __name__ == "__main__":
    main("piepmatz")
