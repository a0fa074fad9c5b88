"""Playing a search run's chunks on worker threads that carry on across the chunks' ends.

A game with a search bot takes a tenth of a second to seconds, and the games of a chunk end
unevenly: played chunk by chunk (``specialize.run_chunk``), every thread but the last waits at
each chunk's end for the chunk's last game, a fifth of a thread lost at 4 games a thread
(benchmarks/bench_search.py). Here the threads live as long as the run and take their next games
from the next chunk as soon as the current one has none left to hand out, so only the run's own
end waits. The chunks still come out whole and in order (a chunk may also be handed out once
before its turn, to be saved: below); which thread plays a game never changes its result (each
game draws from its own streams).

How far the threads run ahead is bounded by what a kill would lose: at most ``1 + AHEAD`` chunks
open and not yet saved. A caller that saves chunks only in order (``chunks()`` without ``early``)
keeps them within the chunk after its current one, as ``play.iter_chunks``'s prefetch does. One
long game then holds both threads: the other finishes the next chunk and waits (Piña Pirata, a
game of 146 s in 400: 1.18x on 2 threads where 1.89x was possible). A caller that can save a
chunk out of order (a dataset's parts may leave gaps; a resume fills them), or that keeps
nothing a kill could spare, passes ``early``: while it waits for the chunk due next, every later
chunk that is played whole is handed to ``early`` at once, and the window counts only the
chunks not yet handed there, so the other threads go on past a long game; what they hold in
memory for the in-order hand-over is bounded apart (``HELD_GAMES``).

The pool holds no lock while its threads wait for the caller, nor while the caller saves: a
caller that neither finishes nor closes its iterator (one kept alive by a traceback) leaves idle
threads behind, never a lock that would hang the next run.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from cardsim.core.errors import StopNow
from cardsim.core.interrupts import CtrlC
from cardsim.core.specialize import MIN_SEARCH_SHARE, share_end

AHEAD = 1  # unsaved chunks the threads may open beyond the one the caller waits for or holds
# games of the chunks the caller has not yet taken in order that the threads may hold at once
# when the chunks after a long game are saved early (a chunk of a search run holds 16 games)
HELD_GAMES = 1 << 12
WAKE_SECONDS = 0.1  # the caller's wait between looks at Ctrl-C


@dataclass
class OpenChunk:
    """A chunk being played: its outputs and which of its games are handed out and back."""

    first: int  # the run's index of its first game
    game_out: np.ndarray
    seat_out: np.ndarray
    faults: np.ndarray  # a row per thread (play.iter_chunks reads the first fault)
    claimed: int = 0  # games handed out (in order: 0 .. claimed - 1)
    returned: int = 0  # games of the shares that ended
    decisions: int = 0
    index: int = 0  # the chunk's place in the plan
    faulted: bool = False
    saving: bool = False  # handed to ``early`` (out of order)
    saved: bool = False  # ``early`` has saved it

    @property
    def n(self) -> int:
        return self.game_out.shape[0]

    def settled(self, stopped: bool) -> bool:
        """Every share handed out has ended, and no more will be (all handed out, a fault in it,
        or the pool stopped handing out)."""
        ended = self.returned == self.claimed
        return ended and (self.claimed == self.n or self.faulted or stopped)

    @property
    def whole(self) -> bool:
        """Every game played, none faulted: a chunk that may be saved out of order."""
        return self.returned == self.n and not self.faulted


class GamePool:
    """``n_threads`` worker threads playing the chunks ``plan`` yields (``(first, n)`` pairs, in
    order) with ``run_block`` (a play loop's: ``specialize``); ``chunks()`` gives them back whole,
    in order.

    ``run_block(*args, first, lo, hi, game_out, seat_out, fault_row, *buffers)`` plays a share
    and returns its decisions (-1 after a bot's fault); ``buffers(game_cols, seat_cols)`` makes a
    thread's buffers once; ``allocate(first, n)`` makes a chunk's outputs ``(game_out, seat_out,
    faults)``, a fault row per thread."""

    def __init__(
        self,
        run_block: Callable[..., int],
        n_threads: int,
        args: tuple,
        buffers: Callable[[int, int], tuple],
        plan: Iterator[tuple[int, int]],
        allocate: Callable[[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> None:
        self.run_block = run_block
        self.args = args
        self.buffers = buffers
        self.plan = plan
        self.allocate = allocate
        self.cond = threading.Condition()
        self.open: list[OpenChunk] = []  # opened and not yet handed to the caller, in order
        self.opened = 0  # chunks opened so far
        self.released = 0  # chunks the caller has finished with
        self.planned_all = False
        self.limit: int | None = None  # after a Ctrl-C: open no chunk past this many
        self.stopped = False  # no more games handed out (a fault, an error, the caller left)
        self.error: BaseException | None = None
        self.n_workers = int(n_threads)
        for w in range(self.n_workers):
            threading.Thread(target=self.work, args=(w,), name="cardsim-pool", daemon=True).start()

    # -- the workers ------------------------------------------------------------------------------

    def work(self, w: int) -> None:
        try:
            buffers = None
            while (share := self.claim()) is not None:
                chunk, lo, hi = share
                if buffers is None:  # a search bot's rows are the size of the chunk's
                    buffers = self.buffers(chunk.game_out.shape[1], chunk.seat_out.shape[2])
                decisions = self.run_block(
                    *self.args, chunk.first, lo, hi, chunk.game_out, chunk.seat_out,
                    chunk.faults[w], *buffers,
                )  # fmt: skip
                self.give_back(chunk, hi - lo, decisions)
        except BaseException as exc:  # handed to the caller
            with self.cond:
                self.error = self.error or exc
                self.stopped = True
                self.cond.notify_all()

    def claim(self) -> tuple[OpenChunk, int, int] | None:
        """The next share: consecutive games of the first open chunk with games left, opening the
        next chunk of the plan when the window allows; None when the pool is done."""
        with self.cond:
            while True:
                if self.stopped:
                    return None
                for chunk in self.open:
                    if self.limit is not None and chunk.index >= self.limit:
                        break  # after a Ctrl-C: only the chunk the caller waits for
                    if chunk.claimed < chunk.n:
                        return self.share_of(chunk)
                if self.planned_all:
                    return None
                if self.may_open():
                    following = next(self.plan, None)
                    if following is None:
                        self.planned_all = True
                        self.cond.notify_all()  # the caller may be waiting for the end
                        return None
                    first, n = following
                    self.open.append(OpenChunk(first, *self.allocate(first, n), index=self.opened))
                    self.opened += 1
                    continue
                self.cond.wait()

    def may_open(self) -> bool:
        if self.limit is not None and self.opened >= self.limit:
            return False
        saved = sum(chunk.saved for chunk in self.open)
        if self.opened - self.released - saved >= 1 + AHEAD:
            return False  # a kill would lose more than the window's games
        held = sum(chunk.n for chunk in self.open)
        # the caller's current chunk and the next are always allowed (saved or not)
        return self.opened < self.released + 1 + AHEAD or held < HELD_GAMES

    def share_of(self, chunk: OpenChunk) -> tuple[OpenChunk, int, int]:
        lo = chunk.claimed
        hi = share_end(lo, chunk.n, self.n_workers, MIN_SEARCH_SHARE)
        chunk.claimed = hi
        return chunk, lo, hi

    def give_back(self, chunk: OpenChunk, games: int, decisions: int) -> None:
        with self.cond:
            chunk.returned += games
            if decisions < 0:  # a bot's fault: the first of its share, recorded in faults
                chunk.faulted = True
                self.stopped = True  # no thread takes more games after a fault
            else:
                chunk.decisions += int(decisions)
            self.cond.notify_all()

    # -- the caller ------------------------------------------------------------------------------

    def chunks(
        self,
        notify: Callable[[str], None] | None = None,
        early: Callable[[OpenChunk], None] | None = None,
    ) -> Iterator[tuple]:
        """``(chunk, interrupted)`` for each chunk of the plan, in order, once all its games are
        played (or a fault stopped it: its ``faults`` say which). A first Ctrl-C lets the chunk
        the caller waits for finish, gives it with ``interrupted`` and ends; a second one raises
        ``StopNow`` at once (the threads finish their games in the background).

        ``early(chunk)``, called on the caller's thread while it waits, saves a later chunk that
        is played whole before its turn; the chunk still comes in order afterwards."""
        try:
            while (chunk := self.next_settled(notify, early)) is not None:
                interrupted = self.limit is not None
                yield chunk, interrupted
                with self.cond:
                    self.released += 1
                    self.cond.notify_all()
                if interrupted or chunk.faulted:
                    return
        finally:
            with self.cond:
                self.stopped = True
                self.cond.notify_all()

    def next_settled(
        self,
        notify: Callable[[str], None] | None,
        early: Callable[[OpenChunk], None] | None = None,
    ) -> OpenChunk | None:
        ctrl_c = CtrlC()
        while True:
            try:
                with self.cond:
                    if self.error is not None:
                        raise self.error
                    if self.open and self.open[0].settled(self.stopped):
                        return self.open.pop(0)
                    if not self.open and self.planned_all:
                        return None
                    ahead = self.whole_ahead() if early is not None else []
                    if not ahead:
                        self.cond.wait(WAKE_SECONDS)
                for chunk in ahead:  # saved without the lock: the threads play on meanwhile
                    early(chunk)
                    with self.cond:
                        chunk.saved = True
                        self.cond.notify_all()  # the window may open
                ctrl_c.tick(notify)  # a Ctrl-C while the note is printed counts too
            except KeyboardInterrupt:
                with self.cond:
                    try:
                        ctrl_c.heard()
                    except StopNow:
                        self.stopped = True
                        self.cond.notify_all()
                        raise
                    # finish the chunk waited for (opened, or the next to open), nothing after
                    self.limit = self.released + 1
                    self.cond.notify_all()

    def whole_ahead(self) -> list[OpenChunk]:
        """The chunks after the one due next that are played whole and not yet saved, marked as
        being saved (under the lock)."""
        ahead = [chunk for chunk in self.open[1:] if chunk.whole and not chunk.saving]
        for chunk in ahead:
            chunk.saving = True
        return ahead
