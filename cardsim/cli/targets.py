"""Where a command writes, with one meaning across commands: ``--out`` is data (a run's games, a
sweep's runs), ``--report DIR`` a report directory (report.html, report.md, figures/). Neither
overwrites earlier results unless ``--force`` says so: the check runs before any game is played.
"""

from __future__ import annotations

from pathlib import Path

from cardsim.core.errors import CardsimError

REPORT_FILES = ("report.html", "report.md")


def check_report_dir(path: str | None, force: bool) -> None:
    """A report directory that already holds a report is refused without ``force``."""
    if path is None or force:
        return
    held = [name for name in REPORT_FILES if (Path(path) / name).exists()]
    if held:
        raise CardsimError(
            f"--report {path}: the directory already holds a report ({held[0]}); "
            "add --force to replace it"
        )


def check_data_file(path: str | None, force: bool, resume: bool = False) -> None:
    """A run's ``--out`` that already exists is refused without ``force`` (or ``--resume``,
    which extends it)."""
    if path is None or force or resume:
        return
    if Path(path).exists():
        raise CardsimError(
            f"--out {path} already exists: add --resume to continue or extend that run, or "
            "--force to replace it"
        )


def check_data_dir(path: str | None, force: bool) -> None:
    """A sweep's ``--out`` directory that already holds results is refused without ``force``."""
    if path is None or force:
        return
    folder = Path(path)
    if folder.is_dir() and any(folder.glob("*.parquet")):
        raise CardsimError(
            f"--out {path}: the directory already holds results; add --force to replace them"
        )
