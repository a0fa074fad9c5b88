"""The commands' side of ``cardsim.feedback``: the compile feedback as a command shows it (a
spinner on a terminal, two lines in a log, a pipe or under ``--quiet``) and the progress bar."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

from cardsim.feedback import compiling as _compiling
from cardsim.feedback import progress_bar, stderr_is_terminal

__all__ = ["compiling", "progress_bar", "stderr_is_terminal"]


@contextlib.contextmanager
def compiling(
    game: str, bot_files: Iterable[str] = (), quiet: bool = False, bots: str | Iterable[str] = ()
) -> Iterator[bool]:
    """``feedback.compiling`` for a command: under ``--quiet`` the compile is still announced,
    in two plain lines instead of a spinner (a quiet run into a log is not silent for minutes)."""
    with _compiling(game, bot_files, bots, style="lines" if quiet else "auto") as due:
        yield due
