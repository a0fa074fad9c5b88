"""Ctrl-C while a run waits for the games in flight: the first one is heard and lets them finish
(their games are worth keeping), a note says so if they take more than a second, and a second
Ctrl-C stops at once (``StopNow``): a bot that loops forever must not make the process deaf to
Ctrl-C. Used by ``play`` (a chunk in a worker thread) and ``game_pool`` (a search run's threads).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cardsim.core.errors import StopNow

NOTE_AFTER_SECONDS = 1.0
NOTE = "interrupted: saving the games in flight first (Ctrl-C again to stop at once)"


class CtrlC:
    """What the waiting thread has heard: call ``heard()`` on each ``KeyboardInterrupt`` and
    ``tick(notify)`` after each wait."""

    def __init__(self) -> None:
        self.at: float | None = None  # when the first Ctrl-C came
        self.noted = False

    @property
    def interrupted(self) -> bool:
        return self.at is not None

    def heard(self) -> None:
        """A Ctrl-C: the first is remembered, the second raises ``StopNow``."""
        if self.at is not None:
            raise StopNow from None
        self.at = time.monotonic()

    def tick(self, notify: Callable[[str], None] | None) -> None:
        """Say once that the run is waiting for its games, a second after the first Ctrl-C."""
        if (
            self.at is not None
            and not self.noted
            and notify is not None
            and time.monotonic() - self.at > NOTE_AFTER_SECONDS
        ):
            self.noted = True
            notify(NOTE)
