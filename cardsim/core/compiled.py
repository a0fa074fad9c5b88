"""Is a run's compiled code already cached on disk, and how long does compiling it take?

The CLI and ``cardsim.simulate`` ask this before they build a run, so that a first run says
"compiling the Fruit Picking engine..." at once instead of staying silent for half a minute
(``cardsim.cli.progress.compiling``), and so that the progress bar and the throughput clock start
only after the compile.

Contract (the only three calls the CLI makes; the engine's cache may answer them better):

- ``compile_needed(ruleset, bot_files, bots) -> bool``: whether this machine has compiled the
  ruleset's engine with these bots (names as given to ``--bots``; the play loop is compiled per
  ruleset and bots) and the user's bot files, for the current sources;
- ``expected_seconds(ruleset) -> int | None``: what compiling took the last time on this machine,
  None if it never compiled here (a figure measured elsewhere would be wrong by 2-5x on a loaded
  machine: the one benchmark of compile times is ``benchmarks/bench_engines.py``);
- ``record(ruleset, bot_files, seconds, bots)``: a compile finished; remember it.

The record is a small JSON file in this source tree's compile cache (``cache.compiled_dir()``,
whose name is a hash of every source compiled code comes from, numba's and Python's versions: an
edit there starts an empty directory, so the next run says it compiles again), keyed by the
ruleset, the bots and the bot files' contents. ``cardsim cache clear`` removes it with the
compiled code. It is only a notice: a wrong answer costs a missing or a needless line, never a
wrong result.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from cardsim.core import cache

STAMP_NAME = "cardsim-compiled.json"


def cache_dir() -> Path:
    """The compile cache of this source tree (numba's cache and the play loops live there)."""
    return cache.compiled_dir()


def cache_key(ruleset, bot_files: Iterable[str] = (), bots: Iterable[str] = ()) -> str:
    """The ruleset, the bots seated (the ruleset's default ones when none is named) and each bot
    file's contents (the package's own sources are in ``cache_dir()``'s name)."""
    names = sorted({b.strip() for b in bots if b.strip()}) or sorted(ruleset.default_bots)
    digest = hashlib.sha256(f"{ruleset.name}|{','.join(names)}".encode())
    for path in sorted(str(Path(p).resolve()) for p in bot_files):
        digest.update(path.encode())
        try:
            digest.update(Path(path).read_bytes())
        except OSError:  # a missing file is reported by the run itself, with its own message
            digest.update(b"missing")
    return digest.hexdigest()[:32]


def _stamps() -> dict:
    try:
        data = json.loads((cache_dir() / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def compile_needed(ruleset, bot_files: Iterable[str] = (), bots: Iterable[str] = ()) -> bool:
    return cache_key(ruleset, bot_files, bots) not in _stamps().get("compiled", {})


def expected_seconds(ruleset) -> int | None:
    last = _stamps().get("seconds", {}).get(ruleset.name)
    if isinstance(last, int | float) and last > 0:
        return max(1, round(last))
    return None


def record(ruleset, bot_files: Iterable[str], seconds: float, bots: Iterable[str] = ()) -> None:
    """Remember that this compile is done (best effort: a read-only cache just stays silent)."""
    stamps = _stamps()
    compiled = stamps.setdefault("compiled", {})
    compiled[cache_key(ruleset, bot_files, bots)] = ruleset.name
    if len(compiled) > 200:  # old source versions: keep the newest entries only
        stamps["compiled"] = dict(list(compiled.items())[-200:])
    stamps.setdefault("seconds", {})[ruleset.name] = round(seconds, 1)
    path = cache_dir() / STAMP_NAME
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(stamps))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
