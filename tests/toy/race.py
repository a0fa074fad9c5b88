"""Race to 21, a toy ruleset for testing the core with hidden information.

Each seat is dealt a secret bonus card (1..3) that only it sees. In turn, a seat adds 1, 2 or 3 to
a shared total; the seat whose addition brings the total to ``target`` or beyond wins, and its
score is its secret bonus. ``finalize`` reports the total and who reached it.

State (int32): core header, then TOTAL, TARGET, SECRETS[MAX_PLAYERS] (hidden), ADDED[MAX_PLAYERS].
Observation: the header, TOTAL, TARGET, and the observer's own secret in SECRET_SEEN.
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bots import Bot
from cardsim.core.jit import RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached, play_kernels
from cardsim.core.options import RuleOption
from cardsim.core.registry import Ruleset
from cardsim.core.rng import randint

MAX_PLAYERS = 3
TOTAL = L.HEADER_LEN
TARGET = TOTAL + 1
SECRETS = TARGET + 1
ADDED = SECRETS + MAX_PLAYERS
STATE_LEN = ADDED + MAX_PLAYERS
SECRET_SEEN = TARGET + 1  # in the observation only
OBS_LEN = SECRET_SEEN + 1
END_REACHED = 1


@njit(**RULES_JIT)
def deal(state, rules, n_players, rng, out):
    state[L.H_N_PLAYERS] = n_players
    state[L.H_END_REASON] = -1
    state[TARGET] = rules[0]
    for seat in range(n_players):
        state[SECRETS + seat] = 1 + randint(rng, 3)
    state[L.H_FIRST] = randint(rng, n_players)
    state[L.H_SEAT] = state[L.H_FIRST]
    for i in range(3):
        out[i] = i + 1
    return 3


@njit(**RULES_JIT)
def step(state, rules, decision, rng, out):
    seat = state[L.H_SEAT]
    state[TOTAL] += decision
    state[ADDED + seat] += decision
    state[L.H_TURNS] += 1
    if state[TOTAL] >= state[TARGET]:
        state[L.H_OVER] = 1
        state[L.H_END_REASON] = END_REACHED
        return 0
    if end_turn_cap_reached(state):
        return 0
    state[L.H_SEAT] = (seat + 1) % state[L.H_N_PLAYERS]
    return 3


@njit(**RULES_JIT)
def observe(state, seat, buf):
    for i in range(SECRET_SEEN):
        buf[i] = state[i]
    buf[SECRET_SEEN] = state[SECRETS + seat]  # only one's own secret
    return buf


@njit(**RULES_JIT)
def finalize(state, rules, game_row, seat_rows):
    winner = state[L.H_SEAT] if state[L.H_END_REASON] == END_REACHED else -1
    for seat in range(state[L.H_N_PLAYERS]):
        row = seat_rows[seat]
        row[L.S_WIN] = 1 if seat == winner else 0
        row[L.S_RANK] = 1 if seat == winner or winner < 0 else 2
        row[L.S_SCORE] = state[SECRETS + seat] if seat == winner else 0
        row[len(L.SEAT_COLUMNS)] = state[ADDED + seat]
    game_row[len(L.GAME_COLUMNS)] = state[TOTAL]


@njit(**RULES_JIT)
def cautious_bot(obs, legal, n_legal, params, rng):
    """adds its secret if that does not give the next seat an easy finish, else 1"""
    left = obs[TARGET] - obs[TOTAL]
    if left <= 3:
        return left - 1  # finish now
    want = obs[SECRET_SEEN]
    return 0 if left - want <= 3 else want - 1


@njit(**RULES_JIT)
def random_bot(obs, legal, n_legal, params, rng):
    """uniform"""
    return randint(rng, n_legal)


def _kernels():
    return play_kernels(deal, step, observe, finalize)


def _encode(values, n_players):
    return np.array([values["target"]], np.int32)


RULESET = Ruleset(
    name="toy-race",
    title="Race to 21 (test toy)",
    min_players=2,
    max_players=MAX_PLAYERS,
    default_players=2,
    options=(
        RuleOption("target", "int", 21, "total that ends the race", "toy", lo=4, hi=99),
        RuleOption("turn_cap", "int", 100, "safeguard", "toy", lo=1, hi=1000),
    ),
    encode_rules=_encode,
    check_rules=lambda values, n: None,
    kernels=_kernels,
    bots=lambda: {
        "random": Bot("random", random_bot, (), "uniform"),
        "cautious": Bot("cautious", cautious_bot, (), "plays its secret with care"),
    },
    default_bots=("random",),
    state_len=STATE_LEN,
    legal_len=3,
    obs_len=OBS_LEN,
    obs_is_state_prefix=False,
    game_counters=("total",),
    seat_counters=("added",),
    end_reasons=("turn_cap", "reached"),
)
