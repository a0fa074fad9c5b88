"""The one compiled play loop and the parallel batch loop, shared by every ruleset.

A ruleset supplies four compiled functions with fixed signatures (``RULESET_SIGNATURES``) and the
loop below does the rest: turn cap, bot calls, termination and recording. The functions arrive as
Numba first-class function values, so this module is compiled once and cached on disk, whatever
the ruleset or bots, and a user's bot is a function pointer like any built-in one.

Contract of the ruleset functions (``state``: int32 vector whose header is ``layout.py``):

- ``deal(state, rules, n_players, rng, legal) -> n``: deal a new game into a zeroed ``state``;
  on return a decision is pending for ``state[H_SEAT]`` and its ``n >= 1`` legal decision codes
  are in ``legal[:n]``, in the ruleset's documented canonical order (n = 0: the game is over).
- ``step(state, rules, decision, rng, legal) -> n``: apply one legal decision, advance
  automatically (turn end, next seat, end of game) to the next pending decision and list its
  legal decisions as ``deal`` does. ``deal`` and ``step`` may apply forced decisions (a single
  legal one) themselves and return only at a real choice: calls dominate the loop's time.
- ``observe(state, seat, buf) -> obs``: what ``seat`` may see, as an int32 vector. A ruleset
  whose observation is a prefix of the state (``Ruleset.obs_is_state_prefix``) gets that prefix
  as ``buf`` and returns it untouched (the loop does not even call it); any other fills ``buf``
  and returns it.
- ``finalize(state, rules, game_row, seat_rows)``: scores, ranks, winners and counters of a
  finished game; the loop fills ``GAME_COLUMNS`` itself.

All four are compiled with ``jit.RULES_JIT`` (no reference counting, no allocation), like the play
loop itself; ``run_chunk`` allocates every array a game needs, once per thread.

Rules of the loop that every reference implementation mirrors:

- when only one decision is legal, it is applied without asking the bot (no bot randomness used);
- the ``decisions`` outcome column counts real choices (two or more legal decisions);
- the loop writes ``state[H_CAP_TURNS] = turn_cap * n_players`` before ``deal``; a ruleset ends
  the game with ``END_TURN_CAP`` when a turn ends with ``state[H_TURNS]`` at that count and the
  game not otherwise over (``end_turn_cap_reached``); the loop checks it again after every decision.
  The cap counts complete rounds, so it always falls on a round boundary.
"""

import numpy as np
from numba import njit, prange, types

from cardsim.core import layout as L
from cardsim.core.jit import HOT_RULES_JIT, RULES_JIT
from cardsim.core.rng import BOT_STREAM, CHANCE_STREAM, stream_start

_STATE = types.int32[::1]
_RULES = types.int32[::1]
_RNG = types.uint64[::1]

BOT_SIGNATURE = types.int64(
    types.int32[::1], types.int32[::1], types.int64, types.float64[::1], _RNG
)
"""``bot(obs, legal, n_legal, params, rng) -> index into legal[:n_legal]``."""

MAX_BOTS = 8
"""Distinct bots one run may seat; the bot tuple is padded to this width so that one compiled loop
serves every ruleset and every seating."""

RULESET_SIGNATURES = {
    "deal": types.int64(_STATE, _RULES, types.int64, _RNG, types.int32[::1]),
    "step": types.int64(_STATE, _RULES, types.int64, _RNG, types.int32[::1]),
    "observe": types.int32[::1](_STATE, types.int64, types.int32[::1]),
    "finalize": types.void(_STATE, _RULES, types.int32[::1], types.int32[:, ::1]),
}


KERNELS_TYPE = types.Tuple(
    [
        types.FunctionType(RULESET_SIGNATURES[name])
        for name in ("deal", "step", "observe", "finalize")
    ]
)
BOTS_TYPE = types.UniTuple(types.FunctionType(BOT_SIGNATURE), MAX_BOTS)

RUN_CHUNK_SIGNATURE = types.int64(
    KERNELS_TYPE,
    BOTS_TYPE,
    types.int16[:, ::1],
    types.float64[:, ::1],
    _RULES,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
    types.boolean,
    types.int64,
    types.int32[:, ::1],
    types.int32[:, :, ::1],
)


def first_class_kernels(deal, step, observe, finalize) -> tuple:
    """A ruleset's (deal, step, observe, finalize) as the play loop takes them: each compiled for
    its ``RULESET_SIGNATURES`` entry and closed to further compiling, which makes it a first-class
    function value, so that the loop is compiled (and cached) once for every ruleset and bot."""
    fns = (deal, step, observe, finalize)
    for fn, name in zip(fns, ("deal", "step", "observe", "finalize"), strict=True):
        if not fn.signatures:
            fn.compile(RULESET_SIGNATURES[name].args)
            fn.disable_compile()
    return fns


@njit(**HOT_RULES_JIT)
def end_turn_cap_reached(state):
    """End the game by the turn cap if it is reached (A18-style safeguard); True if it ended."""
    if state[L.H_OVER] == 0 and state[L.H_TURNS] >= state[L.H_CAP_TURNS]:
        state[L.H_OVER] = 1
        state[L.H_END_REASON] = L.END_TURN_CAP
        return True
    return False


@njit(**RULES_JIT)
def play_game(
    fns,
    bots,
    seat_bot,
    bot_params,
    rules,
    n_players,
    turn_cap,
    seed,
    game,
    state,
    legal,
    obs_buf,
    obs_is_state_prefix,
    chance,
    bot_rng,
    game_row,
    seat_rows,
):
    """Play game number ``game`` of the run seeded ``seed`` and write its outcome rows.

    ``fns`` = (deal, step, observe, finalize); ``bots[seat_bot[s]]`` decides for seat s
    with parameters ``bot_params[seat_bot[s]]``; ``chance`` and ``bot_rng`` are 1-element uint64
    arrays for the game's two random streams. Returns the number of decisions taken.
    """
    deal, step, observe, finalize = fns
    chance[0] = stream_start(seed, game, CHANCE_STREAM)
    bot_rng[0] = stream_start(seed, game, BOT_STREAM)
    for i in range(state.shape[0]):
        state[i] = 0
    cap_turns = turn_cap * n_players
    state[L.H_CAP_TURNS] = cap_turns
    n = deal(state, rules, n_players, chance, legal)
    decisions = 0
    bad_answers = 0
    while state[L.H_OVER] == 0:
        choice = 0
        if n > 1:
            decisions += 1
            seat = state[L.H_SEAT]
            b = seat_bot[seat]
            obs = obs_buf  # the state's public prefix, kept up to date by the rules themselves
            if not obs_is_state_prefix:
                obs = observe(state, seat, obs_buf)
            choice = bots[b](obs, legal, n, bot_params[b], bot_rng)
            if choice < 0 or choice >= n:
                choice = 0  # counted, and the runner refuses the run: never trusted
                bad_answers += 1
        n = step(state, rules, legal[choice], chance, legal)
        end_turn_cap_reached(state)
    finalize(state, rules, game_row, seat_rows)
    game_row[L.G_N_PLAYERS] = n_players
    game_row[L.G_FIRST_SEAT] = state[L.H_FIRST]
    game_row[L.G_TURNS] = state[L.H_TURNS]
    game_row[L.G_END_REASON] = state[L.H_END_REASON]
    game_row[L.G_TURN_CAP_HIT] = 1 if state[L.H_END_REASON] == L.END_TURN_CAP else 0
    game_row[L.G_DECISIONS] = decisions
    game_row[L.G_BAD_BOT_ANSWERS] = bad_answers
    return decisions


@njit(RUN_CHUNK_SIGNATURE, cache=True, parallel=True, nogil=True)
def run_chunk(
    fns,
    bots,
    seat_bot_table,
    bot_params,
    rules,
    n_players,
    turn_cap,
    seed,
    first_game,
    state_len,
    legal_len,
    obs_len,
    obs_is_state_prefix,
    n_threads,
    game_out,
    seat_out,
):
    """Play games ``first_game .. first_game + len(game_out) - 1`` in parallel.

    Game ``i`` seats bots by row ``i % len(seat_bot_table)`` of ``seat_bot_table`` (one row for a
    plain run; every seat rotation for a strategy comparison). Returns total decisions taken.
    """
    n_games = game_out.shape[0]
    n_rows = seat_bot_table.shape[0]
    n_workers = max(1, min(n_threads, n_games))
    decisions = np.zeros(n_workers, np.int64)
    # One block of games per thread, with its game buffers allocated once: which thread plays a
    # game never matters, since each game draws from its own streams.
    for w in prange(n_workers):
        state = np.empty(state_len, np.int32)
        legal = np.empty(legal_len, np.int32)
        obs_buf = state[:obs_len] if obs_is_state_prefix else np.empty(obs_len, np.int32)
        streams = np.empty(2, np.uint64)
        chance = streams[0:1]
        bot_rng = streams[1:2]
        for g in range(w * n_games // n_workers, (w + 1) * n_games // n_workers):
            game = first_game + g
            decisions[w] += play_game(
                fns,
                bots,
                seat_bot_table[game % n_rows],
                bot_params,
                rules,
                n_players,
                turn_cap,
                seed,
                game,
                state,
                legal,
                obs_buf,
                obs_is_state_prefix,
                chance,
                bot_rng,
                game_out[g],
                seat_out[g],
            )
    return decisions.sum()
