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
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import Iterable
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


def compiled_dir() -> Path:
    """This source tree's cache directory (numba's cache, the generated play loops)."""
    global _KEY
    if _KEY is None:
        _KEY = package_key()
    return cache_root() / f"numba-{_numba_version()}-{_KEY}"


def point_numba_cache() -> None:
    """Send numba's on-disk cache to ``compiled_dir()``; before any ``cache=True`` function is
    defined (numba reads the setting when a cached function is decorated)."""
    target = str(compiled_dir())
    os.environ["NUMBA_CACHE_DIR"] = target  # read when numba is imported, and by subprocesses
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba was imported first: it read the variable already
        config.CACHE_DIR = target


def clear() -> tuple[int, int]:
    """Remove every cardsim cache; returns (files, bytes) removed."""
    root = cache_root()
    if not root.exists():
        return 0, 0
    files = [p for p in root.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    shutil.rmtree(root)
    return len(files), size
