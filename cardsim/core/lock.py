"""One writer per results dataset: an exclusive lock on the dataset's directory (issue 33).

Two processes writing one dataset at once (two ``--resume`` with different chunk sizes) wrote
overlapping parts, and a resume deleted the other run's temporary part under its feet. So every
writer (``cardsim run --out``, ``--resume``, the client of a cluster run, ``Results.save``) holds
``DatasetLock`` on the directory for the whole write, from before its first check to after its
last file:

- the lock is ``flock(LOCK_EX)`` on ``PATH/.cardsim-lock`` (created once, never deleted: a lock
  file removed while another process has it open would let two writers lock two different files);
- the kernel drops a lock when its process ends, however it ends, so a lock left by a process
  killed with SIGKILL never blocks anyone: there is no stale lock to break;
- the holder writes who it is into the lock file (JSON: pid, host, start time, command) once it
  holds the lock, and empties it when it lets go, so a refused writer can name it;
- a reader never takes the lock to read (parts are complete files, written aside and renamed); it
  asks ``writer_of`` whether a run is writing, with a shared lock tried and dropped at once. A
  writer that finds the lock taken retries for ``WAIT_SECONDS`` before refusing, so such a probe
  (microseconds) never turns a writer away.

No numba, no pandas here: a command checks the lock before it loads anything heavy.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import sys
import time
from pathlib import Path

from cardsim.core.errors import CardsimError

LOCK_FILE = ".cardsim-lock"
WAIT_SECONDS = 2.0  # a writer waits this long for a lock held by a reader's probe
POLL_SECONDS = 0.02
COMMAND_CHARS = 120  # of the holder's command line, as a refused writer shows it


def _quote(path: Path) -> str:
    return repr(str(path))


def _command() -> str:
    """This process's command line, short: ``cardsim run fruit-picking -n 9000 --out r``."""
    argv = sys.argv or [""]
    words = [Path(argv[0]).name, *argv[1:]]  # a script: `cardsim run ...`
    if words[0] in ("", "-", "-c", "main.py", "__main__.py"):  # python -m / -c: as started
        original = list(getattr(sys, "orig_argv", None) or ["python"])
        words = [Path(original[0]).name, *original[1:]]
        if words[1:3] == ["-m", "cardsim.cli.main"]:
            words[:3] = ["cardsim"]
    text = " ".join(words)
    return text if len(text) <= COMMAND_CHARS else text[: COMMAND_CHARS - 3] + "..."


def _holder_record() -> bytes:
    record = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "command": _command(),
    }
    return (json.dumps(record) + "\n").encode()


def _describe(fd: int) -> str:
    """Who holds the lock, from the lock file ``fd``: ``pid 123 on host since ...: command``."""
    try:
        record = json.loads(os.pread(fd, 4096, 0) or b"null")
        return (
            f"pid {int(record['pid'])} on {record['host']} since {record['since']}: "
            f"{record['command']}"
        )
    except (OSError, ValueError, TypeError, KeyError):
        return "a process that has not said who it is yet"


class DatasetLock:
    """The exclusive lock of one dataset directory; ``acquire`` it, ``release`` it (both
    idempotent; also a context manager). The lock is per open file, so two ``DatasetLock`` of
    one directory exclude each other even in one process."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.created = False  # acquire made the directory (release removes it if still empty)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, create: bool = False, wait: float = WAIT_SECONDS) -> DatasetLock:
        """Take the lock, making the directory first when ``create`` and it does not exist; a
        one-line ``CardsimError`` naming the directory and the holder if another process holds
        it after ``wait`` seconds."""
        if self._fd is not None:
            return self
        if create and not self.path.exists():
            try:
                self.path.mkdir()
                self.created = True
            except FileExistsError:
                pass
            except OSError as exc:
                raise CardsimError(f"cannot create {_quote(self.path)}: {exc.strerror}") from None
        try:
            fd = os.open(self.path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            self._remove_if_created()
            raise CardsimError(f"cannot lock {_quote(self.path)}: {exc.strerror}") from None
        try:
            self._wait_for(fd, wait)
            os.ftruncate(fd, 0)
            os.pwrite(fd, _holder_record(), 0)
        except BaseException:
            os.close(fd)
            self._remove_if_created()
            raise
        self._fd = fd
        return self

    def _wait_for(self, fd: int, wait: float) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise CardsimError(
                        f"results dataset {_quote(self.path)} is being written by another "
                        f"process ({_describe(fd)}): wait until it ends, or write elsewhere"
                    ) from None
                time.sleep(POLL_SECONDS)
            except OSError as exc:  # e.g. ENOLCK: a file system without locks
                raise CardsimError(
                    f"cannot lock {_quote(self.path)}: {exc.strerror} (a results dataset needs "
                    "a file system with file locks)"
                ) from None

    def release(self) -> None:
        """Let go (the lock file stays, emptied); a directory ``acquire`` made and nothing else
        filled is removed again, so a run refused after taking the lock leaves no trace."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            self._remove_if_created()  # while still held: nobody else can be using it
        finally:
            os.close(fd)  # closing drops the lock

    def _remove_if_created(self) -> None:
        if not self.created:
            return
        with contextlib.suppress(OSError):
            if os.listdir(self.path) in ([], [LOCK_FILE]):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path / LOCK_FILE)
                os.rmdir(self.path)
                self.created = False

    def __enter__(self) -> DatasetLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def writer_of(path: str | Path) -> str | None:
    """Who is writing the dataset ``path`` now (``pid ... on host since ...: command``), or
    ``None`` when nobody is (no lock file, or a lock left by a process that has ended). Takes
    the shared lock for an instant to tell; never waits."""
    try:
        fd = os.open(Path(path) / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                return _describe(fd)
            return None  # no locks on this file system: nobody can be told apart
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def is_lock_file(name: str) -> bool:
    """Whether a directory entry is the lock (not a file of the dataset)."""
    return name == LOCK_FILE
