"""A second Ctrl-C stops a waiting run at once wherever in its wait it lands, the note about the
games in flight included (core/interrupts.py). CI once saw a second Ctrl-C that came while the
note was printed end the run as a plain interruption, not ``StopNow``."""

from __future__ import annotations

import _thread
import threading

from cardsim.core import interrupts
from cardsim.core.errors import StopNow
from cardsim.core.play import call_interruptibly
from tests.test_game_pool import StandIn, pool_of


def raised_by(fn) -> BaseException | None:
    """What ``fn()`` raised, KeyboardInterrupt included (caught here so that pytest does not
    take it for the user's own Ctrl-C)."""
    try:
        fn()
    except BaseException as exc:
        return exc
    return None


def second_ctrl_c_in_the_note(monkeypatch, noted: threading.Event):
    """Plant a first Ctrl-C 50 ms from now and a note due at once with a second Ctrl-C inside
    it (``noted`` is set then): ``(the lines noted, notify)``."""
    assert threading.current_thread() is threading.main_thread()  # signals reach this thread
    monkeypatch.setattr(interrupts, "NOTE_AFTER_SECONDS", 0.0)
    said: list[str] = []

    def notify(line: str) -> None:
        said.append(line)
        noted.set()
        raise KeyboardInterrupt  # the second Ctrl-C, while the note is being printed

    threading.Timer(0.05, _thread.interrupt_main).start()
    return said, notify


def until(event: threading.Event):
    """A stand-in's game seconds: game 0 lasts until ``event`` (so that the planted Ctrl-C
    always comes while the caller waits for it), the others a millisecond."""

    def seconds(game: int) -> float:
        if game == 0:
            assert event.wait(30)
        return 0.001

    return seconds


def test_a_call_in_a_worker_thread(monkeypatch):
    noted = threading.Event()
    said, notify = second_ctrl_c_in_the_note(monkeypatch, noted)
    try:
        exc = raised_by(lambda: call_interruptibly(noted.wait, 30, notify=notify))
    finally:
        noted.set()
    assert isinstance(exc, StopNow), repr(exc)
    assert said == [interrupts.NOTE]


def test_a_search_runs_pool(monkeypatch):
    noted = threading.Event()
    said, notify = second_ctrl_c_in_the_note(monkeypatch, noted)
    pool = pool_of(StandIn(seconds=until(noted)), 8, 4)
    exc = raised_by(lambda: list(pool.chunks(notify)))
    assert isinstance(exc, StopNow), repr(exc)
    assert said == [interrupts.NOTE]


def test_without_a_second_ctrl_c_the_games_in_flight_finish(monkeypatch):
    # the counterpart: a note that prints cleanly lets the chunk end and reports it interrupted
    monkeypatch.setattr(interrupts, "NOTE_AFTER_SECONDS", 0.0)
    noted = threading.Event()
    said: list[str] = []

    def notify(line: str) -> None:
        said.append(line)
        noted.set()

    threading.Timer(0.05, _thread.interrupt_main).start()
    pool = pool_of(StandIn(seconds=until(noted)), 40, 4)
    got = []
    exc = raised_by(lambda: got.extend(pool.chunks(notify)))
    assert exc is None
    assert [(c.first, interrupted) for c, interrupted in got] == [(0, True)]
    assert said == [interrupts.NOTE]
