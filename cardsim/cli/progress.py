"""What a command shows on stderr while it works: the compile notice and the progress bar.

- ``compiling(game, bot_files, quiet)`` wraps the building of a run (the engine and bots compile
  there on a first run): it says "compiling the Fruit Picking engine (first run only, ~12 s)..."
  before the work starts, "done in 11 s" after it, and records how long it took
  (``cardsim.core.compiled``). Nothing is said when the compiled code is already cached.
- ``progress_bar(total, initial, quiet)``: a tqdm bar on stderr, only when stderr is a terminal
  (a log or a pipe gets no bar lines) and only once the run has taken more than a second.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator
from time import perf_counter

import click


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stderr
        return False


@contextlib.contextmanager
def compiling(
    game: str, bot_files: Iterable[str] = (), quiet: bool = False, bots: str | Iterable[str] = ()
) -> Iterator[None]:
    """Announce, time and record the compile that building a run of ``game`` may trigger.

    On a terminal the notice comes first and is completed with "done in N s" (or erased if the
    run's input turns out to be wrong, so that the error stays one line); in a log or a pipe, one
    line after the compile says what it took.
    """
    from cardsim.core import compiled, registry

    ruleset = registry.get(game)  # an unknown game is an error before any notice
    bot_files = list(bot_files)
    bots = bots.split(",") if isinstance(bots, str) else list(bots)
    if not compiled.compile_needed(ruleset, bot_files, bots):
        yield
        return
    what = f"the {ruleset.short_title} engine" + (" and your bots" if bot_files else "")
    live = not quiet and stderr_is_terminal()
    if live:
        expected = compiled.expected_seconds(ruleset)
        click.echo(f"compiling {what} (first run only, ~{expected} s)…", err=True, nl=False)
    t0 = perf_counter()
    try:
        yield
    except BaseException:
        if live:
            # erase the notice, so that the error is the one line (color=True keeps the escape)
            click.echo("\r\x1b[K", err=True, nl=False, color=True)
        raise
    seconds = perf_counter() - t0
    compiled.record(ruleset, bot_files, seconds, bots)
    if live:
        click.echo(f" done in {seconds:.0f} s" if seconds >= 1 else " done", err=True)
    elif not quiet and seconds >= 1:  # under a second: it was all in numba's cache after all
        click.echo(f"compiled {what} in {seconds:.0f} s (first run only)", err=True)


class _NoBar:
    """The progress bar where none is shown (a log, a pipe, ``--quiet``): takes the updates."""

    disable = True  # as tqdm says of a disabled bar

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def update(self, n: int = 1) -> None:
        pass


def progress_bar(total: int, initial: int = 0, quiet: bool = False):
    """Progress on stderr (a terminal only), shown once the run has taken more than a second."""
    if quiet or not stderr_is_terminal():
        return _NoBar()  # tqdm is not even imported
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        unit_scale=True,
        delay=1.0,
        file=sys.stderr,
        leave=False,
        dynamic_ncols=True,
    )
