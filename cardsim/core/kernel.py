"""The contract between the play loop and a ruleset, and the loop's shared pieces.

The play loop itself is generated and compiled per (ruleset, bots) by ``specialize.py``: the
ruleset's four functions and the bots are compile-time constants of that loop, called directly so
that LLVM can inline them, and the result is cached on disk under a key that covers every source
it comes from (``cache.py``). The loop owns turn cap, bot calls, the bot boundary and recording.

How a ruleset plugs in (``registry.Ruleset``):

- ``kernels()`` returns ``(deal, step, observe, finalize)``: four **module-level** ``@njit``
  functions (the generated loop imports them by ``py_func.__module__`` and ``__qualname__``; a
  closure or a function built at run time cannot be a compile-time constant). Build the tuple
  with ``play_kernels(deal, step, observe, finalize)``, which checks that. Compile them with
  ``jit.RULES_JIT`` and never call ``disable_compile`` on them.
- ``state_len``, ``legal_len``, ``obs_len``, ``obs_is_state_prefix`` size the loop's buffers.
- optionally ``blind_step()``: a ``step`` that may leave stale what only bots read (fields of a
  prefix observation that the rules derive for them). A loop whose bots are all the ruleset's
  own and declare ``Bot(reads_observation=False)`` (a uniform random bot) plays it instead of
  ``step`` (``specialize.plays_blind``); any other loop, and every bot from a file, plays ``step``.

Contract of the ruleset functions (``state``: int32 vector whose header is ``layout.py``; the
types are ``RULESET_SIGNATURES``):

- ``deal(state, rules, n_players, rng, legal) -> n``: deal a new game into a zeroed ``state``;
  on return a decision is pending for ``state[H_SEAT]`` and its ``n >= 1`` legal decision codes
  are in ``legal[:n]``, in the ruleset's documented canonical order (n = 0: the game is over).
- ``step(state, rules, decision, rng, legal) -> n``: apply one legal decision, advance
  automatically (turn end, next seat, end of game) to the next pending decision and list its
  legal decisions as ``deal`` does. ``deal`` and ``step`` may apply forced decisions (a single
  legal one) themselves and return only at a real choice: calls dominate the loop's time.
- ``observe(state, seat, buf) -> obs``: what ``seat`` may see, as an int32 vector of length
  ``obs_len``. A ruleset whose observation is a prefix of the state
  (``Ruleset.obs_is_state_prefix``) is never asked: its bots see ``state[:obs_len]``. Any other
  fills ``buf`` and returns it.
- ``finalize(state, rules, game_row, seat_rows)``: scores, ranks, winners and counters of a
  finished game; the loop fills ``GAME_COLUMNS`` itself.

All four are compiled with ``jit.RULES_JIT`` (no reference counting, no allocation); the loop
allocates every array a game needs, once per thread.

Rules of the loop that every reference implementation mirrors:

- when only one decision is legal, it is applied without asking the bot (no bot randomness used);
- the ``decisions`` outcome column counts real choices (two or more legal decisions);
- the loop writes ``state[H_CAP_TURNS] = turn_cap * n_players`` before ``deal``; a ruleset ends
  the game with ``END_TURN_CAP`` when a turn ends with ``state[H_TURNS]`` at that count and the
  game not otherwise over (``end_turn_cap_reached``); the loop checks it again after every decision.
  The cap counts complete rounds, so it always falls on a round boundary.

The bot boundary (``BOT_SIGNATURE``): a bot answers an index into ``legal[:n_legal]``; any other
answer stops the run (``FAULT_BAD_ANSWER``). A ruleset's built-in bots are trusted: they read the
live observation and legal list and may use the observation's documented scratch room. Any other
bot (a user's) is guarded: it gets its own copies of the observation (``obs_len`` entries: never
the rest of the state), of the legal list and of its parameters, is compiled with bounds checking,
and an exception it raises stops the run (``FAULT_RAISED``) instead of crossing the loop.
"""

from numba import njit, types

from cardsim.core import layout as L
from cardsim.core.jit import HOT_RULES_JIT, RULES_JIT

_STATE = types.int32[::1]
_RULES = types.int32[::1]
_RNG = types.uint64[::1]

BOT_SIGNATURE = types.int64(
    types.int32[::1], types.int32[::1], types.int64, types.float64[::1], _RNG
)
"""``bot(obs, legal, n_legal, params, rng) -> index into legal[:n_legal]``."""

MAX_BOTS = 8
"""Distinct bots one run may seat (each is a branch of the specialized loop)."""

RULESET_SIGNATURES = {
    "deal": types.int64(_STATE, _RULES, types.int64, _RNG, types.int32[::1]),
    "step": types.int64(_STATE, _RULES, types.int64, _RNG, types.int32[::1]),
    "observe": types.int32[::1](_STATE, types.int64, types.int32[::1]),
    "finalize": types.void(_STATE, _RULES, types.int32[::1], types.int32[:, ::1]),
}


RUN_BLOCK_SIGNATURE = types.int64(
    types.int16[:, ::1],  # seat_bot_table: game i seats bots by row i % rows
    types.int64[::1],  # bot_code: which of the loop's bot functions each bot is
    types.float64[:, ::1],  # bot_params: one row per distinct bot
    _RULES,
    types.int64,  # n_players
    types.int64,  # turn_cap
    types.int64,  # seed
    types.int64,  # first_game
    types.int64,  # lo: the block's first row of the outputs
    types.int64,  # hi: one past its last row
    types.int32[:, ::1],  # game_out
    types.int32[:, :, ::1],  # seat_out
    types.int64[::1],  # fault_row: the thread's row of faults (FAULT_COLUMNS)
    _STATE,  # state, legal, bot_obs, bot_legal: the thread's game buffers
    types.int32[::1],
    types.int32[::1],
    types.int32[::1],
    types.float64[::1],  # bot_params_copy
    _RNG,  # streams: the game's chance and bot streams (2 entries)
)
"""``run_block(...) -> decisions`` of every specialized loop (``specialize.py``): one thread's
block of a chunk's games; ``specialize.run_chunk`` runs it on each share a thread takes."""

SEARCH_BUFFER_TYPES = (
    types.int32[:, ::1],  # tree: the node pool (core/ismcts.py T_* fields)
    types.float64[::1],  # tree_value: reward sums per node
    _STATE,  # sim_state: the determinized game an iteration plays
    types.int32[::1],  # sim_legal
    types.int32[::1],  # sim_game_row, sim_seat_rows: its outcome rows (finalize)
    types.int32[:, ::1],
    types.float64[::1],  # seat_reward
    _RNG,  # search_rng
)
RUN_BLOCK_SEARCH_SIGNATURE = types.int64(*RUN_BLOCK_SIGNATURE.args, *SEARCH_BUFFER_TYPES)
"""``run_block`` of a loop that seats a search bot: the thread's search buffers come last."""

BLOCK_JIT = {**RULES_JIT, "nogil": True}
"""``run_block``'s options: the rules' (no reference counting: its buffers come from the caller)
and it releases the GIL, so that one Python thread per core plays a block."""

# A bot fault stops a thread's block of games at the game where it happened; the runner reports
# the first one. Row of the ``faults`` array: FAULT_COLUMNS.
FAULT_NONE = 0
FAULT_BAD_ANSWER = 1  # the bot answered an index outside legal[:n] (value: the answer)
FAULT_RAISED = 2  # the bot raised an exception (guarded bots only)
FAULT_COLUMNS = ("kind", "bot", "seat", "game", "value", "n_legal")


def play_kernels(deal, step, observe, finalize) -> tuple:
    """A ruleset's ``(deal, step, observe, finalize)`` for ``Ruleset.kernels()``, checked to be
    module-level compiled functions that the generated play loop can import by name."""
    from numba.core.registry import CPUDispatcher

    fns = (deal, step, observe, finalize)
    for fn, name in zip(fns, ("deal", "step", "observe", "finalize"), strict=True):
        if not isinstance(fn, CPUDispatcher):
            raise TypeError(f"the ruleset's {name} must be an @njit function, got {fn!r}")
        if "<locals>" in fn.py_func.__qualname__:
            raise TypeError(f"the ruleset's {name} must be defined at module level")
    return fns


first_class_kernels = play_kernels
"""The earlier name of ``play_kernels`` (the loop no longer takes function pointers)."""


@njit(**HOT_RULES_JIT)
def end_turn_cap_reached(state):
    """End the game by the turn cap if it is reached (A18-style safeguard); True if it ended."""
    if state[L.H_OVER] == 0 and state[L.H_TURNS] >= state[L.H_CAP_TURNS]:
        state[L.H_OVER] = 1
        state[L.H_END_REASON] = L.END_TURN_CAP
        return True
    return False
