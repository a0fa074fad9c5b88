"""Where compiled code is kept, under a key that changes whenever a source it was built from does.

Numba's own on-disk cache checks only the timestamp of the file holding a function, not of the
files it calls: edit ``core/rng.py`` alone and every engine's cached code would be stale. So
cardsim points numba's cache (``NUMBA_CACHE_DIR``) at a directory named after a hash of every
source compiled code may come from (``COMPILED_SOURCES``: ``cardsim/core`` and ``cardsim/games``,
plus the numba and Python versions): any edit there gives a new, empty directory, and stale code
cannot be found. Specialized play loops (``specialize.py``) add the sources outside the package
they depend on (a ruleset defined elsewhere, a user's bot file) to their own key.

The root is ``$CARDSIM_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardsim``, else ``~/.cache/cardsim``;
``cardsim cache clear`` empties it. This module must not import numba (it runs when
``cardsim.core`` is imported, before any kernel is compiled).

Every edit of the sources starts a new directory, so old ones would pile up. A run that loads its
compiled loop marks its directory as used (the modification time of its ``last-use`` file; a
directory from before that marker counts its newest file) and, at most once a day, prunes the
root (``auto_prune``): a directory is removed when it is not the current one, was not used in the
last hour (another process may be running from it) and either was last used more than
``MAX_AGE_DAYS`` ago or is not among the ``KEEP`` most recently used others.
``CARDSIM_CACHE_AUTO_PRUNE=0`` turns that off; ``cardsim cache`` lists the directories and
``cardsim cache prune`` prunes now, with other limits if asked.

What cardsim deletes (issue 33): only what it made. Every directory cardsim makes under the root
holds a ``CACHEDIR.TAG`` (the Cache Directory Tagging Standard's signature, then a line naming
cardsim; backup tools skip such directories); a ``numba-*`` directory of an earlier version is
known by its ``last-use`` file. ``clear`` and ``prune`` remove those directories (and the root's
``.last-prune`` stamp), never another file or directory, however it is named, and say what they
removed and what they left.

What cardsim loads (issue 33): numba's cache files are pickles and the generated play loops are
Python modules, so whoever can write the cache can run code in every cardsim process. Like pip
and ssh, cardsim loads nothing from a cache directory (the root, this tree's directory and the
directories in it) that is not owned by the user (or by root) or that other users may write
(group-writable is allowed only for the user's own private group): ``point_numba_cache`` then
points numba and the generated loops at a new private directory for this process (everything
compiles again), and says so in one line with the fix (``chmod go-w DIR``, or another
``CARDSIM_CACHE_DIR``).
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # cardsim/
COMPILED_SOURCES = ("core", "games")
"""Subpackages of cardsim holding every source compiled code may come from (analysis/, charts/,
cli/ never import numba)."""


def cache_root() -> Path:
    """The directory holding every cardsim cache (one subdirectory per source hash)."""
    explicit = os.environ.get("CARDSIM_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "cardsim"


def hash_files(paths: Iterable[Path], digest=None):
    """sha256 over (name, contents) of ``paths`` in sorted order."""
    digest = digest or hashlib.sha256()
    for path in sorted(Path(p) for p in paths):
        digest.update(str(path).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest


def python_sources(directory: Path, recursive: bool = True) -> list[Path]:
    """The ``.py`` files of ``directory`` (and of its subdirectories when ``recursive``)."""
    pattern = "**/*.py" if recursive else "*.py"
    return [p for p in Path(directory).glob(pattern) if p.is_file()]


def _numba_version() -> str:
    try:
        return version("numba")
    except PackageNotFoundError:  # pragma: no cover - numba is a dependency
        return "unknown"


def package_key() -> str:
    """Hash of cardsim's compiled sources, the numba version and the Python version."""
    digest = hashlib.sha256(f"numba {_numba_version()} python {sys.version}".encode())
    for sub in COMPILED_SOURCES:
        for path in sorted(python_sources(PACKAGE_DIR / sub)):
            digest.update(str(path.relative_to(PACKAGE_DIR)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


_KEY = None
_PRIVATE: Path | None = None  # this process's own cache, when the configured one is unsafe
UNSAFE: str | None = None  # why the configured cache is not used (one line), if it is not


def compiled_dir() -> Path:
    """This source tree's cache directory (numba's cache, the generated play loops)."""
    global _KEY
    if _KEY is None:
        _KEY = package_key()
    base = _PRIVATE if _PRIVATE is not None else cache_root()
    return base / f"numba-{_numba_version()}-{_KEY}"


def point_numba_cache() -> None:
    """Send numba's on-disk cache to ``compiled_dir()``; before any ``cache=True`` function is
    defined (numba reads the setting when a cached function is decorated). A cache directory
    that is not safe to load from (``cache_problem``) is left alone: this process compiles into
    a private directory of its own instead, and says why in one line on stderr."""
    problem = cache_problem()
    if problem is not None:
        _use_private_cache(problem)
    target = str(compiled_dir())
    os.environ["NUMBA_CACHE_DIR"] = target  # read when numba is imported, and by subprocesses
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba was imported first: it read the variable already
        config.CACHE_DIR = target


def _use_private_cache(problem: str) -> None:
    global _PRIVATE, UNSAFE
    if _PRIVATE is None:
        _PRIVATE = Path(tempfile.mkdtemp(prefix="cardsim-private-cache-"))  # mode 0700
        atexit.register(shutil.rmtree, _PRIVATE, True)
    UNSAFE = problem
    try:
        sys.stderr.write(f"cardsim: warning: {problem}\n")
    except (OSError, ValueError):
        pass


# What cardsim loads from: the ownership and permission rule ---------------------------------


def _user_ids() -> tuple[int, ...]:
    """Owners a cache directory may have: the user, and root (who can change anything anyway)."""
    return (os.getuid(), 0)


def _private_group(gid: int) -> bool:
    """The user's own group (named after the user, no other member): group-writable is safe."""
    try:
        import grp
        import pwd

        group = grp.getgrgid(gid)
        return group.gr_name == pwd.getpwuid(os.getuid()).pw_name and not group.gr_mem
    except (ImportError, KeyError):
        return False


def _owner_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"uid {uid}"


def directory_problem(path: Path) -> str | None:
    """Why compiled code must not be loaded from the directory ``path`` (one line with the fix),
    or ``None``: it does not exist, or it is owned by the user (or root) and no one else may
    write it."""
    try:
        info = path.stat()
    except OSError:
        return None
    if info.st_uid not in _user_ids():
        return (
            f"compiled code is not loaded from {str(path)!r}: it belongs to "
            f"{_owner_name(info.st_uid)}, not to you ({_owner_name(os.getuid())}), and cardsim "
            "runs the code it finds there; this run compiles into a private directory instead. "
            "Fix: set CARDSIM_CACHE_DIR to a directory of your own"
        )
    others = info.st_mode & stat.S_IWOTH
    group = info.st_mode & stat.S_IWGRP and not _private_group(info.st_gid)
    if others or group:
        who = "every user" if others else "its group"
        return (
            f"compiled code is not loaded from {str(path)!r}: {who} may write it "
            f"(mode {stat.S_IMODE(info.st_mode):04o}), and cardsim runs the code it finds there; "
            f"this run compiles into a private directory instead. Fix: chmod go-w {str(path)!r} "
            "(or set CARDSIM_CACHE_DIR to a directory of your own)"
        )
    return None


def cache_problem() -> str | None:
    """The first ``directory_problem`` of the root, this tree's directory and the directories
    in it (where numba's cache index files and the generated loops are loaded from)."""
    root = cache_root()
    mine = root / compiled_dir().name
    for directory in (root, mine):
        problem = directory_problem(directory)
        if problem is not None:
            return problem
    if mine.is_dir():
        for inside, subdirs, _ in os.walk(mine):
            for name in subdirs:
                problem = directory_problem(Path(inside) / name)
                if problem is not None:
                    return problem
    return None


# What cardsim deletes: only directories it made ------------------------------------------------

TAG = "CACHEDIR.TAG"  # in every directory cardsim makes under the root
TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"  # bford.info/cachedir
TAG_TEXT = (
    f"{TAG_SIGNATURE}\n"
    "# Compiled code made by cardsim: `cardsim cache clear` removes this directory.\n"
    "# About cache directory tags: https://bford.info/cachedir/\n"
)


def make_dir(path: Path) -> Path:
    """Make (if needed) a directory of the cache and tag it as cardsim's; best effort for the
    tag (a read-only cache still loads)."""
    path.mkdir(parents=True, exist_ok=True)
    tag = path / TAG
    if not tag.is_file():
        try:
            temporary = path / f".{TAG}.{os.getpid()}.tmp"
            temporary.write_text(TAG_TEXT)
            os.replace(temporary, tag)
        except OSError:
            pass
    return path


def is_ours(path: Path) -> bool:
    """Whether cardsim made the directory ``path`` (its tag, or, for a ``numba-*`` directory of
    an earlier version, its ``last-use`` file). A symbolic link is never ours to follow."""
    if path.is_symlink() or not path.is_dir():
        return False
    try:
        text = (path / TAG).read_text(errors="replace")
        if text.startswith(TAG_SIGNATURE) and "cardsim" in text:
            return True
    except OSError:
        pass
    return path.name.startswith(DIR_PREFIX) and (path / LAST_USE).is_file()


@dataclass(frozen=True)
class Cleared:
    """What ``clear`` did: the directories removed (name, files, bytes), the entries left."""

    removed: list[tuple[str, int, int]]
    left: list[str]

    @property
    def files(self) -> int:
        return sum(n for _, n, _ in self.removed)

    @property
    def size(self) -> int:
        return sum(b for _, _, b in self.removed)


def clear(root: Path | None = None) -> Cleared:
    """Remove every directory cardsim made under the root (``is_ours``) and its prune stamp;
    every other entry stays, named in ``left``."""
    root = cache_root() if root is None else Path(root)
    removed, left = [], []
    try:
        children = sorted(root.iterdir())
    except OSError:  # no cache yet
        return Cleared([], [])
    for child in children:
        if is_ours(child):
            found = _files(child)
            removed.append((child.name, len(found), sum(_size(f) for f in found)))
            remove_dir(child)
        elif child.name == PRUNE_STAMP and child.is_file() and not child.is_symlink():
            child.unlink(missing_ok=True)
        else:
            left.append(child.name)
    return Cleared(removed, left)


# Old directories: listing and pruning ----------------------------------------------------------

DIR_PREFIX = "numba-"
LAST_USE = "last-use"  # in each directory: its modification time is the directory's last use
PRUNE_STAMP = ".last-prune"  # in the root: when the automatic pruning last ran
MAX_AGE_DAYS = 30.0  # automatic pruning: a directory unused for longer goes
KEEP = 5  # automatic pruning: besides the current one, at most this many directories stay
IN_USE_SECONDS = 3600.0  # a directory used this recently is never pruned (a run may be using it)
AUTO_PRUNE_EVERY = 86400.0  # seconds between automatic prunings
_MARK_EVERY = 60.0  # a long process re-marks its directory at most once a minute

_marked: dict[Path, float] = {}


@dataclass(frozen=True)
class CacheDir:
    """One directory of compiled code under the root."""

    path: Path
    size: int  # bytes
    last_used: float  # seconds since the epoch
    current: bool  # the directory of this source tree

    @property
    def name(self) -> str:
        return self.path.name


def mark_used(directory: Path | None = None) -> None:
    """Record that ``directory`` (this source tree's) is in use now: cheap, best effort."""
    directory = Path(directory) if directory is not None else compiled_dir()
    now = time.time()
    if now - _marked.get(directory, -_MARK_EVERY) < _MARK_EVERY:
        return
    try:
        make_dir(directory)
        marker = directory / LAST_USE
        marker.touch()
        os.utime(marker, (now, now))
        _marked[directory] = now
    except OSError:  # a read-only cache: compiled code may still load from it
        pass


def _files(path: Path) -> list[Path]:
    try:
        return [p for p in path.rglob("*") if p.is_file()]
    except OSError:
        return []


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # removed meanwhile
        return 0.0


def last_used(path: Path, files: list[Path] | None = None) -> float:
    """When ``path`` was last used: its marker, else (made before the marker existed) the newest
    of the directory and its files."""
    marker = path / LAST_USE
    if marker.is_file():
        return _mtime(marker)
    files = _files(path) if files is None else files
    return max([_mtime(path)] + [_mtime(f) for f in files])


def cache_dirs(root: Path | None = None) -> list[CacheDir]:
    """The directories of compiled code under the root, most recently used first."""
    root = cache_root() if root is None else Path(root)
    current = compiled_dir() if root == cache_root() else None
    found = []
    try:
        children = [p for p in root.iterdir() if p.name.startswith(DIR_PREFIX) and is_ours(p)]
    except OSError:  # no cache yet
        return []
    for path in children:
        files = _files(path)
        size = sum(_size(f) for f in files)
        found.append(CacheDir(path, size, last_used(path, files), path == current))
    return sorted(found, key=lambda d: (not d.current, -d.last_used, d.name))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def prune_plan(
    dirs: list[CacheDir],
    max_age_days: float | None = MAX_AGE_DAYS,
    keep: int | None = KEEP,
    now: float | None = None,
    in_use_seconds: float = IN_USE_SECONDS,
) -> tuple[list[CacheDir], list[CacheDir]]:
    """(to remove, kept only because in use) among ``dirs``: every directory but the current
    one that was last used more than ``max_age_days`` ago or is not among the ``keep`` most
    recently used others; of those, the ones used within ``in_use_seconds`` stay. ``None``: no
    limit of that kind."""
    now = time.time() if now is None else now
    others = sorted((d for d in dirs if not d.current), key=lambda d: -d.last_used)
    remove, in_use = [], []
    for rank, d in enumerate(others):
        too_old = max_age_days is not None and now - d.last_used > max_age_days * 86400
        too_many = keep is not None and rank >= keep
        if too_old or too_many:
            (in_use if now - d.last_used < in_use_seconds else remove).append(d)
    return remove, in_use


def remove_dir(path: Path) -> None:
    """Remove a cache directory: renamed aside first (one atomic step, so no process finds a
    half-removed directory under the name it looks for), then deleted."""
    aside = path.with_name(f".removing-{path.name}-{os.getpid()}")
    try:
        os.replace(path, aside)
    except OSError:
        return  # gone already, or not ours to remove
    shutil.rmtree(aside, ignore_errors=True)


def prune(
    max_age_days: float | None = MAX_AGE_DAYS,
    keep: int | None = KEEP,
    dry_run: bool = False,
    root: Path | None = None,
) -> tuple[list[CacheDir], list[CacheDir]]:
    """Prune the root now (``prune_plan``); returns (removed or to remove, kept because in
    use)."""
    remove, in_use = prune_plan(cache_dirs(root), max_age_days, keep)
    if not dry_run:
        for d in remove:
            remove_dir(d.path)
    return remove, in_use


def auto_prune(now: float | None = None) -> list[CacheDir]:
    """The automatic pruning, at most once every ``AUTO_PRUNE_EVERY`` seconds per root (unless
    ``CARDSIM_CACHE_AUTO_PRUNE=0``); returns what it removed. Never fails a run."""
    if os.environ.get("CARDSIM_CACHE_AUTO_PRUNE", "1").strip() in ("0", "false", "no", "off"):
        return []
    now = time.time() if now is None else now
    stamp = cache_root() / PRUNE_STAMP
    if now - _mtime(stamp) < AUTO_PRUNE_EVERY:
        return []
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
        os.utime(stamp, (now, now))
        removed, _ = prune()
    except OSError:
        return []
    return removed
