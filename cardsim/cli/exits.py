"""How a command ends when it cannot end normally: the exit codes of an interrupt and of a closed
output pipe, and ending the process at once.

Shared by the command group (``main.py``) and the commands that stop early (``run``, ``tune``,
``ladder``); standard library only, so ``cardsim --help`` stays light.
"""

from __future__ import annotations

import os
import sys

EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # as a shell reports a process ended by SIGPIPE


def quiet_stdout() -> None:
    """After a broken pipe: send what is left of stdout nowhere, so that Python's own flush at
    exit does not print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def end_now(code: int) -> None:
    """End the process with ``code`` at once, stdout and stderr flushed, without Python's
    teardown (every file a command writes is complete on disk when it is closed)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
