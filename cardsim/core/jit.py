"""Compile options shared by every rules engine and the play loop.

``RULES_JIT``: compiled, cached on disk, and without Numba's reference counting. Numba counts
references to every array handed to a function with an atomic add and a call; the rules of a card
game are hundreds of tiny reads and writes of one state vector, and those counts were most of the
time spent (measured: a Fruit Picking step went from ~50 ns to ~20 ns without them). Without
them, LLVM inlines most small helpers into their callers by itself.

``HOT_RULES_JIT`` also inlines at numba's level, which LLVM's inlining does not fully match
(15-20% on a Fruit Picking run). It is for the few small helpers on the per-decision path only:
inlining every helper cost 50 s of compile time for a few percent more.

The price of both: a function compiled this way must not allocate arrays, and an array it returns
must be one of its arguments and go back only to a caller compiled the same way (a
reference-counted caller would release the returned array once more than it was acquired: heap
corruption). Every function compiled with them follows that rule; the arrays a
game needs are allocated once per thread by the play loop (``specialize.py``).

The option is private to numba: ``tests/test_compiled_cache.py`` fails if a numba release drops
it or changes its meaning. The play loop, generated per ruleset and bots, calls the kernels
directly, and the option still halves the cost of a game: a Fruit Picking 2-player game with the
default bots took 8.2-8.8 us of process CPU with it and 18.6-19.2 us without it (the same package
with only this option removed, alternated A/B/A/B, minimum of 5 runs of 200,000 games, load ~3.4,
2026-12-01). So it stays.
"""

import contextlib
import threading

RULES_JIT = {"cache": True, "_nrt": False, "error_model": "numpy", "forceinline": False}

INLINE_JIT = {**RULES_JIT, "forceinline": True}
"""For the few functions the play loop calls once per turn or decision (a ruleset's ``step``, a
bot, and what they call from one place only): LLVM inlines them into their callers, so each call,
which passes every array as seven words (``step``'s five arrays: ~30), and the callee's prologue
are gone. Unlike numba's ``inline="always"`` (HOT_RULES_JIT, which types and
lowers the function again in each caller: +30-60 s of compile time when tried on ``step``),
``forceinline`` only marks the compiled function ``alwaysinline`` for LLVM: the cold compile of
Fruit Picking did not grow. Fruit Picking 2p random, process CPU per turn beside an independent
implementation (``benchmarks/bench_plain_fruit.py``): 1.18-1.25x its time before, 1.04-1.08x
after (2026-12-01, load 3-6). Fruit Picking's greedy bot is inlined the same way (its call passed
four arrays): 2p greedy 142-156 -> 133-150 ns per turn, process CPU, alternated (load 1.9-2.4),
cold compile unchanged within the noise. The purchase path (buy, refill and their helpers:
sets_mask, check_end_by_cards, slide_market, draw_card, can_pay_market_op, finish_refill) is
inlined too: the greedy bots buy often, and each purchase was a chain of
calls passing ``state`` and ``rules`` (2p greedy 110-116 -> 98-105 ns per turn, 2p random
unchanged at 70-74, process CPU, alternated, load 2.6-2.9; cold ``cardsim run fruit-picking
-n 1`` 19.7/18.6 -> 22.0/17.7 s user, within the noise). Piepmatz's
``step`` and its weighted bot with the two readings it makes once per decision: 4p planner
1186-1283 -> 1106-1163 ns per turn (5 alternated rounds, load 2.4-2.8), cold compile (serial) 31.5
and 34.9 -> 34.0 and 40.8 s user: about +10%, within its 30 s budget. Pajarracos's ``step`` and
bot gained 5-8% for +9 s (+30%) of cold compile, past its budget: not done there; later (2026-12-04)
the pieces inside them were, one call at a time: ``legal``, ``list_action``, ``apply``, ``advance``,
``play_fruit`` and ``pass_turn`` into ``step``, the weighted bot into the loop (callgrind, 4-player
greedy turn: 3,488 -> 3,112 instructions with the other changes of that series; cold compile
about +1-2 s user at load 3-5); later that evening ``step`` itself into the loop, with
``list_scarecrows``, ``end_turn`` and ``fruit_part_done`` into their callers (2,780 -> 2,598
instructions a turn; the cold compile of Pajarracos with greedy bots 12.9 s wall on the idle
machine, against 13.7 s for the code before it).

RULES_JIT says ``forceinline: False`` explicitly: numba's callees otherwise inherit the option
from the function being compiled when they are first compiled (``inherit_if_not_set``), which
would make their code depend on the order of compilation.
"""

HOT_RULES_JIT = {**RULES_JIT, "inline": "always"}


def _blas_assumed() -> None:
    """Stands in for numba's ``ensure_blas`` while ``numba.np.arraymath`` is imported."""


def defer_blas_check() -> bool:
    """Keep numba from importing ``scipy.linalg`` when its CPU target loads.

    Loading any compiled function (even from the cache) imports ``numba.np.arraymath``, which
    asks at import whether a BLAS is there by importing ``scipy.linalg.cython_blas``: the whole
    ``scipy.linalg`` package, ~200 ms of a ~850 ms warm ``cardsim run`` start-up, for a play loop
    that never calls BLAS. scipy is a dependency of cardsim, so the answer is known: the check
    is skipped (``_HAVE_BLAS`` true) and numba's own ``ensure_blas`` is put back at once, so code
    that does use ``np.dot`` or ``np.linalg`` still imports scipy, and checks its integer width,
    when it is compiled. Returns whether the check was deferred (False when arraymath was already
    imported, or numba's internals changed: then nothing is touched).
    ``tests/test_compiled_cache.py`` checks both halves.
    """
    import sys

    if "numba.np.arraymath" in sys.modules:
        return False
    try:
        from numba.np import linalg
    except ImportError:
        return False
    real = getattr(linalg, "ensure_blas", None)
    if real is None:
        return False
    linalg.ensure_blas = _blas_assumed
    try:
        import numba.np.arraymath as arraymath
    finally:
        linalg.ensure_blas = real
    return getattr(arraymath, "_HAVE_BLAS", None) is True


defer_blas_check()


@contextlib.contextmanager
def cached_loads_without_refresh():
    """While cardsim's own compiled code (a play loop of a built-in ruleset and its own bots) is
    loaded from numba's cache: load it without the refresh of numba's CPU target that starts
    every cache load (``Cache.load_overload``), which imports and installs every registry of
    numba's implementations, ~75 modules (typed lists and dicts, random generators, cffi,
    polynomials, ...): ~110 ms of CPU of a ~0.9 s warm ``cardsim run`` start-up, for code that is
    machine code already. numba's runtime (NRT), which the refresh also starts, is started as
    before. A cache miss compiles as usual (numba's compiler refreshes the target itself), so
    only loads change, and only the calling thread's. Yields whether loads are changed (False,
    nothing touched, when numba's internals are not what this expects);
    ``tests/test_compiled_cache.py`` pins numba's ``load_overload`` and checks that a loop loads
    this way and plays the same games.
    """
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys
    except ImportError:
        yield False
        return
    cache_class = caching.Cache
    real = cache_class.__dict__.get("load_overload")
    needed = ("_load_overload", "_guard_against_spurious_io_errors")
    if real is None or not all(hasattr(cache_class, name) for name in needed):
        yield False
        return

    owner = threading.get_ident()

    def load_overload(self, sig, target_context):
        if threading.get_ident() != owner:  # another thread's load: numba's own way
            return real(self, sig, target_context)
        rtsys.initialize(target_context)  # what the skipped refresh would have started
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # the guard swallowed an error: compiled as usual

    cache_class.load_overload = load_overload
    try:
        yield True
    finally:
        cache_class.load_overload = real
