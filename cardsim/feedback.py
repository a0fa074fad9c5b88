"""What cardsim shows on stderr while it works: the compile feedback and the progress bar.

A first run of a game compiles its engine and bots for tens of seconds; nothing of that time may
be silent, wherever cardsim runs:

- on a terminal, a spinner with the elapsed seconds (rich), erased when the compile ends and
  replaced by one line saying how long it took (or by the error, which stays one line);
- in a log or a pipe (and under ``--quiet``, where nothing moves), one line when numba starts
  compiling and one when the compile ends, with its duration;
- in a notebook (``cardsim.simulate``), a tqdm.auto widget whose elapsed time runs.

Nothing is shown when the compiled code is already cached (``cardsim.core.compiled``).

``progress_bar(total, initial, quiet)`` is the games' bar: tqdm on stderr, only on a terminal (a
log or a pipe gets no bar lines) and only once the run has taken more than a second.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterable, Iterator
from time import perf_counter

# how a compile is shown: "auto" (a spinner on a terminal, else two lines), "lines" (two lines
# even on a terminal: --quiet), "notebook" (a tqdm.auto widget), "off" (nothing)
STYLES = ("auto", "lines", "notebook", "off")


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # closed or replaced stderr
        return False


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (IPython is never imported to find out)."""
    if "IPython" not in sys.modules:
        return False
    shell = sys.modules["IPython"].get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


def say(line: str) -> None:
    """One line on stderr, even when stderr itself is gone (then nothing)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _cardsims_own(compile_event) -> bool:
    """Whether a ``numba:compile`` event compiles cardsim's code (its engines, bots and play
    loops), not a user's bot, which is compiled first to check that it fits the bot signature
    (a bot that does not is a mistake in the input, and stays one line)."""
    from cardsim.core.bots import USER_MODULE_PREFIX

    dispatcher = (compile_event.data or {}).get("dispatcher")
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    if module.startswith(USER_MODULE_PREFIX):
        return False
    return module == "cardsim" or module.startswith(("cardsim.", "cardsim_"))


class _Lines:
    """A log or a pipe: one line when the compile starts, one when it ends.

    Nothing printed can be taken back there, so the first line waits for numba to compile
    cardsim's code for real (its ``numba:compile`` event, sent on a cache miss only): a mistake
    in the input found before stays one line, and a compile that turns out to be all in
    numba's cache says nothing at all."""

    def __init__(self, what: str, hint: str) -> None:
        self.what, self.hint = what, hint
        self.said = False
        self.listener = None

    def start(self) -> None:
        from numba.core import event  # numba is loaded by what follows anyway

        lines = self

        class FirstCompile(event.Listener):
            def on_start(self, started) -> None:
                if not lines.said and _cardsims_own(started):
                    lines.said = True
                    say(f"compiling {lines.what} (first run only{lines.hint})…")

            def on_end(self, _ended) -> None:
                pass

        self.listener = FirstCompile()
        event.register("numba:compile", self.listener)

    def _stop_listening(self) -> None:
        if self.listener is not None:
            from numba.core import event

            event.unregister("numba:compile", self.listener)
            self.listener = None

    def done(self, seconds: float) -> None:
        self._stop_listening()
        if self.said:
            say(f"compiled {self.what} in {seconds:.0f} s")

    def failed(self) -> None:
        self._stop_listening()  # the error that follows says what went wrong


class _Spinner(_Lines):
    """A terminal: a spinner with the elapsed seconds at once (erased if the input turns out
    wrong, so that the error stays one line), replaced by one line at the end."""

    def start(self) -> None:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("compiling {task.description}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,  # erased when it stops: what stays is one line, done or error
        )
        self.progress.add_task(f"{self.what} (first run only{self.hint})", total=None)
        self.progress.start()

    def done(self, seconds: float) -> None:
        self.progress.stop()
        if seconds >= 1:  # under a second it was all in numba's cache: nothing to report
            say(f"compiled {self.what} in {seconds:.0f} s")

    def failed(self) -> None:
        self.progress.stop()


class _NotebookBar(_Lines):
    """A notebook: a tqdm.auto widget; a thread refreshes it so that its elapsed time runs
    while the compile holds the interpreter in numba (which releases the GIL in LLVM)."""

    def start(self) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(total=None, bar_format="{desc} {elapsed}", file=sys.stderr)
        self.bar.set_description_str(f"compiling {self.what} (first run only{self.hint})")
        self.stop = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)
        self.ticker.start()

    def _tick(self) -> None:
        while not self.stop.wait(0.5):
            self.bar.refresh()

    def _close(self, text: str) -> None:
        self.stop.set()
        self.ticker.join()
        self.bar.set_description_str(text)
        self.bar.close()

    def done(self, seconds: float) -> None:
        self._close(f"compiled {self.what} in {seconds:.0f} s")

    def failed(self) -> None:
        self._close(f"compiling {self.what}: stopped")


class _Silent(_Lines):
    def start(self) -> None:
        pass

    def done(self, seconds: float) -> None:
        pass

    def failed(self) -> None:
        pass


def _shown(style: str, what: str, hint: str) -> _Lines:
    if style not in STYLES:
        raise ValueError(f"compile feedback style {style!r}: one of {', '.join(STYLES)}")
    if style == "off":
        return _Silent(what, hint)
    if style == "notebook":
        return _NotebookBar(what, hint)
    if style == "auto" and stderr_is_terminal():
        return _Spinner(what, hint)
    return _Lines(what, hint)


@contextlib.contextmanager
def compiling(
    game: str,
    bot_files: Iterable[str] = (),
    bots: str | Iterable[str] = (),
    style: str = "auto",
) -> Iterator[bool]:
    """Show, time and record the compile that building a run of ``game`` with ``bots`` (names
    as ``--bots`` takes them) and ``bot_files`` may trigger. Yields whether a compile was due."""
    from cardsim.core import compiled, registry

    ruleset = registry.get(game)  # an unknown game is an error before any notice
    bot_files = list(bot_files)
    bots = bots.split(",") if isinstance(bots, str) else list(bots)
    if not compiled.compile_needed(ruleset, bot_files, bots):
        yield False
        return
    what = f"the {ruleset.short_title} engine" + (" and your bots" if bot_files else "")
    last = compiled.expected_seconds(ruleset)
    shown = _shown(style, what, f", {last} s last time" if last else "")
    shown.start()
    t0 = perf_counter()
    try:
        yield True
    except BaseException:
        shown.failed()
        raise
    seconds = perf_counter() - t0
    compiled.record(ruleset, bot_files, seconds, bots)
    shown.done(seconds)


class _NoBar:
    """The progress bar where none is shown (a log, a pipe, ``--quiet``): takes the updates."""

    disable = True  # as tqdm says of a disabled bar

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, initial: int = 0, quiet: bool = False, notebook: bool = False):
    """Progress on stderr (a terminal only; a tqdm.auto widget with ``notebook``), shown once
    the run has taken more than a second."""
    if notebook:
        from tqdm.auto import tqdm
    elif quiet or not stderr_is_terminal():
        return _NoBar()  # tqdm is not even imported
    else:
        from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit="game",
        unit_scale=True,
        delay=0 if notebook else 1.0,
        file=sys.stderr,
        leave=notebook,
        dynamic_ncols=True,
    )
