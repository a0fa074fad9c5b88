"""The compiled-code cache cannot go stale (cache.py, specialize.py), a second run compiles
nothing, and the one private numba option the kernels rely on still means what jit.py says.

Edits are made to a copy of the package in a temporary directory, played in subprocesses with
their own cache directory, on the toy ruleset (tests/toy/race.py: small, so quick to compile).
"""

from __future__ import annotations

import dataclasses
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
from cardsim.core.bots import with_params

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


SEAT_TOY = """
import hashlib, json, sys
from cardsim.core import registry, runner, specialize
registry._BUILTIN["toy-race"] = "tests.toy.race:RULESET"
sent = []  # bots this process had a child process compile
start = specialize._start_bot_compile
def recording(bots):
    sent.extend(b.name for b in bots)
    return start(bots)
specialize._start_bot_compile = recording
spec = runner.make_spec("toy-race", 200, 2, sys.argv[1].split(","), {}, seed=5)
built_before = specialize._paths(spec)[2].exists()
digest = hashlib.sha256()
for chunk in runner.iter_chunks(spec):
    digest.update(chunk.game_out.tobytes() + chunk.seat_out.tobytes() + chunk.seat_bot.tobytes())
print(json.dumps({"hash": digest.hexdigest(), "sent": sent, "built_before": built_before}))
"""


def _seat_toy(bots: str, cache_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["CARDSIM_CACHE_DIR"] = str(cache_dir)
    env[specialize.PARALLEL_COMPILE_ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", SEAT_TOY, bots], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_seatings_of_the_same_bots_share_a_loop_and_compiled_bots_are_not_compiled_again(
    tmp_path,
):
    """specialize.loop_slots: a loop per set of bot functions, not per order; check_bots: a bot
    already in the cache is loaded, not compiled again in a child process (which starts from an
    empty cache of its own)."""
    cache_dir = tmp_path / "cache"
    first = _seat_toy("random,cautious", cache_dir)
    assert sorted(first["sent"]) == ["cautious", "random"] and not first["built_before"]
    swapped = _seat_toy("cautious,random", cache_dir)
    assert swapped["built_before"] and swapped["sent"] == []  # the same loop, nothing compiled
    assert swapped["hash"] != first["hash"]  # the seats changed places: other games
    alone = _seat_toy("random", cache_dir)  # a new loop, its bot compiled already
    assert not alone["built_before"] and alone["sent"] == []
    again = _seat_toy("random,cautious", tmp_path / "fresh-cache")
    assert again["hash"] == first["hash"]


def test_a_seating_plays_the_same_games_whatever_order_its_bots_are_named_in():
    """The loop holds each bot function once (specialize.loop_slots) and reads a seated bot's
    parameters by its place in the run: the planner (parameters of its own) in seat 0 and random
    in seat 1 play the same games whether the run names them planner,random or random,planner;
    every mixed seating of Fruit Picking's built-in bots, two planners with different parameters
    included, shares that loop, and each planner plays with its own parameters."""
    fruit = registry.get("fruit-picking")
    builtin = fruit.bots()
    # parameters of its own: a loop reading the built-in's defaults would play other games
    planner = with_params([builtin["planner"]], {"planner": {"buy": -5, "finish": 0}})[0]
    named = runner.make_spec("fruit-picking", 40, 2, seat_bots=[planner, builtin["random"]], seed=4)
    swapped = dataclasses.replace(
        named, bots=(named.bots[1], named.bots[0]), seat_bot_table=np.array([[1, 0]], np.int16)
    )
    loop = specialize.loop_for(named)
    assert specialize.loop_for(swapped) is loop
    others = runner.make_spec("fruit-picking", 40, 3, ["greedy", "random", "greedy"], seed=4)
    assert specialize.loop_for(others) is loop
    # every built-in bot but the search bot, which a loop gets only where it is seated
    assert len(specialize.loop_slots(named)[0]) == len(
        [b for b in builtin.values() if not b.search]
    )
    assert specialize.loop_for(runner.make_spec("fruit-picking", 4, 2, ["random"])) is not loop

    def seats(spec):
        return np.concatenate([c.seat_out for c in runner.iter_chunks(spec)])

    np.testing.assert_array_equal(seats(named), seats(swapped))
    default = dataclasses.replace(named, bots=(builtin["planner"], named.bots[1]))
    assert not np.array_equal(seats(named), seats(default))  # the parameters do matter
    other_way = dataclasses.replace(named, seat_bot_table=np.array([[1, 0]], np.int16))
    assert not np.array_equal(seats(named), seats(other_way))  # the seats do matter


def test_bots_of_one_function_share_it_in_the_loop_each_with_its_own_parameters():
    """Pajarracos' greedy and defender are one function with other weights: the loop holds it
    once (with random, the ruleset's other built-in function) and each seat's bot plays with its
    own parameter row, whatever order the run names the bots in."""
    builtin = registry.get("pajarracos").bots()
    greedy, defender = builtin["greedy"], builtin["defender"]
    assert greedy.fn is defender.fn and greedy.params != defender.params
    spec = runner.make_spec("pajarracos", 30, 3, seat_bots=[greedy, defender, defender], seed=2)
    functions, _, bot_code = specialize.loop_slots(spec)
    assert [b.fn for b in functions] == [builtin["random"].fn, greedy.fn]
    assert list(bot_code) == [1, 1]
    renamed = dataclasses.replace(
        spec, bots=(defender, greedy), seat_bot_table=np.array([[1, 0, 0]], np.int16)
    )
    flipped = dataclasses.replace(spec, seat_bot_table=np.array([[1, 0, 0]], np.int16))

    def seats(s):
        return np.concatenate([c.seat_out for c in runner.iter_chunks(s)])

    assert specialize.loop_for(renamed) is specialize.loop_for(spec)
    np.testing.assert_array_equal(seats(spec), seats(renamed))
    assert not np.array_equal(seats(spec), seats(flipped))  # each seat's weights matter


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
        for mode in ("refresh", "skip")  # the first compiles the loop if the cache lacks it
    }
    assert out["skip"][0] == out["refresh"][0]  # the same games
    assert out["skip"][1:] == ["False", "10"]
    assert out["refresh"][1:] == ["True", "10"]
