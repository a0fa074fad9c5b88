"""The compiled-code cache cannot go stale (cache.py, specialize.py), a second run compiles
nothing, and the one private numba option the kernels rely on still means what jit.py says.

Edits are made to a copy of the package in a temporary directory, played in subprocesses with
their own cache directory, on the toy ruleset (tests/toy/race.py: small, so quick to compile).
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import cardsim
from cardsim.core import cache, registry, runner, specialize

ROOT = Path(__file__).resolve().parent.parent

PLAY_TOY = """
import hashlib, json
import cardsim
from cardsim.core import registry, runner, specialize
registry._BUILTIN["toy-race"] = "tests.toy.race:RULESET"
spec = runner.make_spec("toy-race", 300, 2, ["random"], {}, seed=3)
digest = hashlib.sha256()
for chunk in runner.iter_chunks(spec):
    digest.update(chunk.game_out.tobytes() + chunk.seat_out.tobytes())
from tests.toy import race
stats = specialize.loop_for(spec).run_block.stats
print(json.dumps({
    "hash": digest.hexdigest(),
    "cache_hits": sum(stats.cache_hits.values()),
    "kernels_compiled": sum(len(f.signatures) for f in (race.deal, race.step, race.random_bot)),
    "package": cardsim.__file__,
}))
"""


def _play_copy(copy: Path, cache_dir: Path, parallel: bool = True) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["CARDSIM_CACHE_DIR"] = str(cache_dir)
    env[specialize.PARALLEL_COMPILE_ENV] = "1" if parallel else "0"
    env["PYTHONPATH"] = os.pathsep.join([str(copy), str(ROOT)])
    done = subprocess.run(
        [sys.executable, "-c", PLAY_TOY], env=env, capture_output=True, text=True, cwd=copy
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["package"].startswith(str(copy))  # the copy, not the installed package
    return result


def test_an_edit_to_a_called_module_is_seen_and_a_second_run_compiles_nothing(tmp_path):
    """Numba alone would keep running the cached code after an edit to core/rng.py (it checks
    only the timestamp of the file holding each function); cardsim's cache key sees it."""
    copy = tmp_path / "src"
    shutil.copytree(
        Path(cardsim.__file__).parent,
        copy / "cardsim",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    first = _play_copy(copy, tmp_path / "cache")
    again = _play_copy(copy, tmp_path / "cache")
    assert again["hash"] == first["hash"]
    assert again["cache_hits"] >= 1 and again["kernels_compiled"] == 0  # loaded, not compiled

    rng = copy / "cardsim" / "core" / "rng.py"
    text = rng.read_text()
    draw = "return np.int64((x * np.uint64(n)) >> _S32)"
    assert draw in text
    rng.write_text(text.replace(draw, "return np.int64(n - 1 - ((x * np.uint64(n)) >> _S32))"))
    edited = _play_copy(copy, tmp_path / "cache")
    # bots compiled here rather than in a child process (specialize.check_bots): same games
    fresh = _play_copy(copy, tmp_path / "empty-cache", parallel=False)
    assert edited["hash"] != first["hash"]
    assert edited["hash"] == fresh["hash"]


BOT_V1 = """
from numba import njit

@njit
def mine(obs, legal, n_legal, params, rng):
    return 0
"""


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(registry._BUILTIN, "toy-race", "tests.toy.race:RULESET")


def test_an_edit_to_a_users_bot_file_is_seen(toy, tmp_path):
    bot_file = tmp_path / "mine.py"

    def play():
        spec = runner.make_spec("toy-race", 50, 2, ["mine"], {}, 1, bot_files=[bot_file])
        out = np.concatenate([c.game_out for c in runner.iter_chunks(spec)])
        return out, specialize.loop_for(spec)

    bot_file.write_text(BOT_V1)
    first, first_loop = play()
    bot_file.write_text(BOT_V1.replace("return 0", "return n_legal - 1"))
    second, second_loop = play()
    assert first_loop is not second_loop
    assert not np.array_equal(first, second)
    bot_file.write_text(BOT_V1)
    third, third_loop = play()
    assert third_loop is first_loop and np.array_equal(first, third)


def test_the_cache_lives_under_a_key_of_the_sources(monkeypatch, tmp_path):
    key = cache.package_key()
    assert cache.compiled_dir().name.endswith(key)
    assert os.environ["NUMBA_CACHE_DIR"] == str(cache.compiled_dir())
    monkeypatch.setenv("CARDSIM_CACHE_DIR", str(tmp_path / "c"))
    assert cache.cache_root() == tmp_path / "c"


def test_cache_clear_removes_everything(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from cardsim.cli.main import cli

    monkeypatch.setenv("CARDSIM_CACHE_DIR", str(tmp_path / "c"))
    (tmp_path / "c" / "x").mkdir(parents=True)
    (tmp_path / "c" / "x" / "f.nbi").write_bytes(b"1234")
    result = CliRunner().invoke(cli, ["cache", "clear"])
    assert result.exit_code == 0, result.output
    assert "removed 1 files" in result.output
    assert not (tmp_path / "c").exists()


# jit.RULES_JIT relies on numba's private ``_nrt=False`` (compile without reference counting).
# If a numba release drops or changes it, these fail, and jit.py must be revisited.


def _callee(a):
    return a[0]


def _ir(nrt: bool) -> str:
    callee = njit(_nrt=nrt)(_callee)

    @njit(_nrt=nrt)
    def caller(a):
        return callee(a) + callee(a[1:])

    caller(np.zeros(3, np.int32))
    return "\n".join(caller.inspect_llvm().values())


def test_the_private_nrt_option_still_removes_reference_counting():
    assert "NRT_incref" in _ir(True) or "NRT_decref" in _ir(True)
    plain = _ir(False)
    assert "NRT_incref" not in plain and "NRT_decref" not in plain


def test_without_reference_counting_a_new_array_cannot_be_returned():
    """jit.py's rule: a function compiled so returns only arrays it was given."""

    @njit(_nrt=False)
    def allocates(n):
        return np.zeros(n)

    with pytest.raises(Exception, match="Only accept returning of array passed into the function"):
        allocates(3)


def test_inline_jit_marks_alwaysinline_and_rules_jit_callees_do_not_inherit_it():
    """jit.INLINE_JIT (Fruit Picking's step and greedy bot) is numba's ``forceinline``, which a
    callee first compiled from such a function inherits unless it says otherwise: RULES_JIT does."""
    from cardsim.core.jit import INLINE_JIT, RULES_JIT

    def uncached(options):
        return {k: v for k, v in options.items() if k != "cache"}

    callee = njit(**uncached(RULES_JIT))(_callee)
    inherits = njit(_nrt=False)(lambda a: a[1])

    @njit(**uncached(INLINE_JIT))
    def inlined(a):
        return callee(a) + inherits(a)

    inlined(np.zeros(3, np.int32))
    (compiled,) = inlined.overloads.values()
    assert compiled.fndesc.inline and "alwaysinline" in "\n".join(inlined.inspect_llvm().values())
    assert not next(iter(callee.overloads.values())).fndesc.inline
    assert next(iter(inherits.overloads.values())).fndesc.inline  # why RULES_JIT says False


DEFERRED_BLAS = """
import sys
import numpy as np
from numba import njit
from cardsim.core import jit
njit(lambda a: a[0] + 1)(np.zeros(2))  # loads the CPU target, as loading the play loop does
loaded = "scipy.linalg" in sys.modules
from numba.np import arraymath
dot = njit(lambda a: np.dot(a, a))(np.arange(3.0))
print(loaded, arraymath._HAVE_BLAS, dot, "scipy.linalg" in sys.modules)
"""


def test_the_blas_check_is_deferred_and_np_dot_still_compiles():
    """jit.defer_blas_check: loading compiled code no longer imports scipy.linalg (~200 ms of a
    warm start-up); a function using np.dot still compiles with BLAS, importing scipy then. Fails
    when a numba release changes what the deferral relies on (arraymath's check at import)."""
    out = subprocess.run(
        [sys.executable, "-c", DEFERRED_BLAS], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True", "5.0", "True"]


OWN_LOOP_LOAD = """
import contextlib, hashlib, sys
import numpy as np
from numba import njit
from cardsim.core import jit, runner
if sys.argv[1] == "refresh":  # numba's own way, for comparison
    jit.cached_loads_without_refresh = contextlib.nullcontext
spec = runner.make_spec("fruit-picking", 300, 2, ["greedy"], {}, seed=3)
rows = b"".join(c.game_out.tobytes() + c.seat_out.tobytes() for c in runner.iter_chunks(spec))
registries = "numba.typed.typedlist" in sys.modules  # imported by numba's refresh only
compiled = njit(lambda n: np.arange(n).sum())(5)  # a compile after it still finds everything
print(hashlib.sha256(rows).hexdigest()[:16], registries, compiled)
"""


def test_cardsims_own_loop_loads_without_numbas_registries_and_plays_the_same_games():
    """jit.cached_loads_without_refresh: a built-in loop loads from the cache without numba's
    registries (~110 ms of a warm start-up), plays the same games as when numba refreshes its
    target first, and code compiled afterwards still works. Fails when a numba release changes
    the load it replaces (``Cache.load_overload``: a refresh, then ``_load_overload``)."""
    from numba.core import caching

    source = inspect.getsource(caching.Cache.load_overload)
    assert "target_context.refresh()" in source
    assert "return self._load_overload(sig, target_context)" in source
    out = {
        mode: subprocess.run(
            [sys.executable, "-c", OWN_LOOP_LOAD, mode], capture_output=True, text=True, check=True
        ).stdout.split()
        for mode in ("skip", "refresh")
    }
    assert out["skip"][0] == out["refresh"][0]  # the same games
    assert out["skip"][1:] == ["False", "10"]
    assert out["refresh"][1:] == ["True", "10"]
