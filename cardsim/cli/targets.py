"""Where a command writes, with one meaning across commands: ``--out`` is data (a run's games, a
sweep's runs), ``--report DIR`` a report directory (report.html, report.md, figures/). A report is
not overwritten unless ``--force`` says so, and the check runs before any game is played; saved
games (``--out``) are never overwritten (``cardsim.core.dataset``: resume them or choose another
path).
"""

from __future__ import annotations

from pathlib import Path

from cardsim.core.errors import CardsimError

REPORT_FILES = ("report.html", "report.md")


def check_report_dir(path: str | None, force: bool, option: str = "--report") -> None:
    """A report directory that already holds a report is refused without ``force``
    (``option``: how the command names the directory, for the message)."""
    if path is None or force:
        return
    held = [name for name in REPORT_FILES if (Path(path) / name).exists()]
    if held:
        raise CardsimError(
            f"{option} {path}: the directory already holds a report ({held[0]}); "
            "add --force to replace it"
        )
