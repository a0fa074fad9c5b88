"""Pajarracos bots: compiled functions with the core bot signature
``bot(obs, legal, n_legal, params, rng) -> index into legal`` (``cardsim.core.bots``).

``obs`` is the public table and the bot's own hand (``cards.py``: ``state[:PUBLIC_END]`` then
``OBS_HAND``); the acting seat is ``obs[H_SEAT]``. A turn's action arrives as a sequence of
decisions (``engine.py`` docstring): the first part in the ACTION phase, then counts, a crow for
a juicy card, further crows / scarecrows / discards, or STOP.

- ``random``: uniform over the legal decisions of each step. So a complete action is not uniform
  over complete actions: each step's choices are equally likely (e.g. "play fruit" is chosen in
  proportion to how many (kind, orchard) pairs are open, then a count uniformly).
- The other bots share one weighted evaluation (``decision_value``): every legal code gets the
  projected change it makes, at the end of the next turn of each seat involved, in
  own score (W_OWN), the leader's and the other opponents' scores (W_HARM_LEADER, W_HARM_OTHERS:
  crows that will eat there; W_GIFT: fruit played into their orchards), an extra turn (W_EXTRA), a
  protected tree (W_PROTECT, per fruit card it shelters), cards spent (W_CARDS) and scarecrows
  spent (W_SCARECROW). STOP is worth W_STOP. The bot takes the best value; ties are broken uniformly at
  random.
  - ``greedy``: own score only: the action that most improves its own score by the end of the turn.
  - ``crow-attacker``: crows (flocks first) onto the leader's largest tree; juicy fruit onto
    opponents' trees to pull crows there.
  - ``defender``: protects its largest tree, shoos crows out for extra turns.
  - ``strategist``: the tuned weighting (its ``params``), stronger than each of the above.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bots import Bot
from cardsim.core.jit import HOT_RULES_JIT, RULES_JIT
from cardsim.core.rng import randint
from cardsim.games.pajarracos import cards as C

# Weights (indices into params) ---------------------------------------------------------------------
W_OWN = 0  # per point of own projected score
W_HARM_LEADER = 1  # per point the strongest opponent loses
W_HARM_OTHERS = 2  # per point any other opponent loses
W_GIFT = 3  # per point given to an opponent (subtracted)
W_EXTRA = 4  # an extra turn earned
W_PROTECT = 5  # per fruit card a scarecrow shelters
W_CARDS = 6  # per card leaving the hand (cards are drawn back while the pile lasts)
W_SCARECROW = 7  # per scarecrow spent (subtracted)
W_STOP = 8  # ending a multi-part action
PARAM_NAMES = (
    "own", "harm_leader", "harm_others", "gift", "extra_turn", "protect", "cards", "scarecrow",
    "stop",
)  # fmt: skip

GREEDY_PARAMS = (1.0, 0.0, 0.0, 0.001, 0.0, 0.0, 0.0, 0.0, 0.0)
ATTACKER_PARAMS = (1.0, 3.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.5)
DEFENDER_PARAMS = (1.0, 0.0, 0.0, 0.5, 3.0, 0.5, 0.0, 0.0, 0.25)
STRATEGIST_PARAMS = (1.0, 0.6, 0.4, 0.8, 1.5, 0.15, 0.3, 0.6, 0.4)


@njit(**HOT_RULES_JIT)
def tree_at(seat, kind):
    return C.F_SEATS + seat * C.SEAT_LEN + kind


@njit(**RULES_JIT)
def projected(obs, seat, kind_a, size_a, crow_a, kind_b, crow_b):
    """``seat``'s score (R25) after its crows next eat (R12, R13), with its tree ``kind_a`` set
    to (``size_a``, ``crow_a``) and the crow of tree ``kind_b`` set to ``crow_b`` (-1: none)."""
    fruit = 0
    largest = 0
    for kind in range(C.MAX_KINDS):
        t = tree_at(seat, kind)
        size = obs[t + C.TREE_SIZE]
        crow = obs[t + C.TREE_CROW]
        if kind == kind_a:
            size = size_a
            crow = crow_a
        if kind == kind_b:
            crow = crow_b
        if crow == C.LONE:
            size = max(size - 1, 0)
        elif crow == C.FLOCK_ON:
            size = 0
        fruit += size
        largest = max(largest, size)
    return fruit + largest


@njit(**HOT_RULES_JIT)
def baseline(obs, seat):
    return projected(obs, seat, -1, 0, 0, -1, 0)


@njit(**RULES_JIT)
def leader_of(obs, me):
    """The opponent with the highest projected score; ties go to the first after ``me`` in turn
    order (never to a fixed seat number, which would be a seat bias)."""
    n_players = obs[L.H_N_PLAYERS]
    best = -1
    leader = -1
    for i in range(1, n_players):
        seat = (me + i) % n_players
        s = baseline(obs, seat)
        if s > best:
            best = s
            leader = seat
    return leader


@njit(**HOT_RULES_JIT)
def weigh_seat(obs, params, me, leader, seat, change):
    """Weighted value of ``seat``'s projected score changing by ``change``."""
    if seat == me:
        return params[W_OWN] * change
    if change > 0:
        return -params[W_GIFT] * change
    if seat == leader:
        return -params[W_HARM_LEADER] * change
    return -params[W_HARM_OTHERS] * change


@njit(**RULES_JIT)
def crow_move_value(obs, params, me, leader, source, seat, kind, size):
    """Value of the crow card on tree ``source`` flying to ``seat``'s tree ``kind`` (which will
    hold ``size`` fruit cards) (R10, R19): the source tree's owner is relieved, the target hurt."""
    src_seat = source // C.MAX_KINDS
    src_kind = source % C.MAX_KINDS
    crow = obs[tree_at(src_seat, src_kind) + C.TREE_CROW]
    if src_seat == seat:  # within one orchard: one projection with both trees changed
        change = projected(obs, seat, kind, size, crow, src_kind, C.NO_CROW) - baseline(obs, seat)
        return weigh_seat(obs, params, me, leader, seat, change)
    relief = projected(obs, src_seat, -1, 0, 0, src_kind, C.NO_CROW) - baseline(obs, src_seat)
    hurt = projected(obs, seat, kind, size, crow, -1, 0) - baseline(obs, seat)
    return weigh_seat(obs, params, me, leader, src_seat, relief) + weigh_seat(
        obs, params, me, leader, seat, hurt
    )


@njit(**RULES_JIT)
def best_crow_move(obs, params, me, leader, seat, kind, size):
    """(value, source tree) of the best crow card for a juicy card on ``seat``'s tree (R10)."""
    best = -1e18
    source = -1
    for tree in range(obs[L.H_N_PLAYERS] * C.MAX_KINDS):
        if obs[tree_at(tree // C.MAX_KINDS, tree % C.MAX_KINDS) + C.TREE_CROW] != C.NO_CROW:
            v = crow_move_value(obs, params, me, leader, tree, seat, kind, size)
            if v > best:
                best = v
                source = tree
    return best, source


@njit(**RULES_JIT)
def fruit_value(obs, params, me, leader, target, kind, ordinary, juicy):
    """Value of playing ``ordinary`` + ``juicy`` cards of ``kind`` into ``target``'s orchard."""
    t = tree_at(target, kind)
    size = obs[t + C.TREE_SIZE] + ordinary + juicy
    value = params[W_CARDS] * (ordinary + juicy)
    if juicy > 0 and obs[C.F_CROWS_ON_TREES] > 0:  # a crow card will fly there (R10)
        return value + best_crow_move(obs, params, me, leader, target, kind, size)[0]
    change = projected(obs, target, kind, size, C.NO_CROW, -1, 0) - baseline(obs, target)
    return value + weigh_seat(obs, params, me, leader, target, change)


@njit(**RULES_JIT)
def best_count(obs, params, me, leader, target, kind):
    """The best (ordinary, juicy) play of ``kind`` into ``target`` from the hand, ignoring A2
    (used to value the ACTION choice; the count decision itself checks the legal list)."""
    best = -1e18
    o_best, j_best = 0, 0
    for ordinary in range(obs[C.OBS_HAND + C.FRUIT + kind] + 1):
        for juicy in range(obs[C.OBS_HAND + C.JUICY + kind] + 1):
            if ordinary + juicy > 0:
                v = fruit_value(obs, params, me, leader, target, kind, ordinary, juicy)
                if v > best:
                    best = v
                    o_best, j_best = ordinary, juicy
    return best, o_best, j_best


@njit(**RULES_JIT)
def card_keep_value(obs, card_type):
    """How much a hand card is worth keeping (for discards): fruit that can still grow a tree of
    the bot's own, crows while opponents have trees, scarecrows while crows are about."""
    me = obs[L.H_SEAT]
    if card_type < C.LONE_CROW:
        kind = card_type % C.JUICY
        t = tree_at(me, kind)
        if obs[t + C.TREE_CROW] == C.NO_CROW and obs[t + C.TREE_SCARECROW] == 0:
            return 1.0 + 0.1 * obs[t + C.TREE_SIZE]
        return 0.3  # only useful in other orchards
    if card_type == C.SCARECROW:
        return 1.5
    return 1.2 if card_type == C.FLOCK else 0.8


@njit(**RULES_JIT)
def decision_value(obs, params, code, me, leader):
    """Weighted value of one legal decision code (module docstring)."""
    if code == C.STOP:
        return params[W_STOP]
    if code < C.C_CROW:
        kind = (code - C.C_FRUIT) // C.MAX_PLAYERS
        target = (code - C.C_FRUIT) % C.MAX_PLAYERS
        return best_count(obs, params, me, leader, target, kind)[0]
    if code < C.C_PROTECT:
        crow = C.LONE + (code - C.C_CROW) // C.N_TREES
        tree = (code - C.C_CROW) % C.N_TREES
        seat, kind = tree // C.MAX_KINDS, tree % C.MAX_KINDS
        size = obs[tree_at(seat, kind) + C.TREE_SIZE]
        change = projected(obs, seat, kind, size, crow, -1, 0) - baseline(obs, seat)
        return params[W_CARDS] + weigh_seat(obs, params, me, leader, seat, change)
    if code < C.C_DISCARD:
        value = params[W_CARDS] - params[W_SCARECROW]
        if code < C.C_SHOO_OUT:  # R16: shelters the tree from crows still to come
            size = obs[tree_at(me, code - C.C_PROTECT) + C.TREE_SIZE]
            return value + params[W_PROTECT] * size
        if code < C.C_SHOO_TO:  # R17, R18: the crow leaves; an extra turn unless a shoo-to
            kind = code - C.C_SHOO_OUT
            relief = projected(obs, me, -1, 0, 0, kind, C.NO_CROW) - baseline(obs, me)
            extra = params[W_EXTRA] if obs[C.F_CTX_SHOO_TO] == 0 else 0.0
            return value + params[W_OWN] * relief + extra
        kind = (code - C.C_SHOO_TO) // C.N_TREES
        dest = (code - C.C_SHOO_TO) % C.N_TREES
        seat, dest_kind = dest // C.MAX_KINDS, dest % C.MAX_KINDS
        size = obs[tree_at(seat, dest_kind) + C.TREE_SIZE]
        lost_extra = params[W_EXTRA] if obs[C.F_CTX_SHOO_OUT] else 0.0  # R19 cancels it
        return (
            value
            - lost_extra
            + crow_move_value(
                obs, params, me, leader, me * C.MAX_KINDS + kind, seat, dest_kind, size
            )
        )
    if code < C.C_PASS:
        return params[W_CARDS] - card_keep_value(obs, code - C.C_DISCARD)
    if code == C.C_PASS:
        return 0.0
    if code < C.C_JUICY_CROW:
        n = code - C.C_COUNT
        return fruit_value(
            obs, params, me, leader, obs[C.F_CTX_TARGET], obs[C.F_CTX_KIND],
            n // C.COUNT_BASE, n % C.COUNT_BASE,
        )  # fmt: skip
    target = obs[C.F_CTX_TARGET]
    kind = obs[C.F_CTX_KIND]
    size = obs[tree_at(target, kind) + C.TREE_SIZE]
    return crow_move_value(obs, params, me, leader, code - C.C_JUICY_CROW, target, kind, size)


@njit(**RULES_JIT)
def weighted_bot(obs, legal, n_legal, params, rng):
    """The best legal decision by ``decision_value``; ties broken uniformly at random (a fixed
    order would favour, say, crows on the lowest seat's trees: a seat bias, not a strategy)."""
    me = obs[L.H_SEAT]
    leader = leader_of(obs, me)
    best = 0
    best_value = -1e18
    ties = 0
    for i in range(n_legal):
        v = decision_value(obs, params, legal[i], me, leader)
        if v > best_value + 1e-9:
            best_value = v
            best = i
            ties = 1
        elif v > best_value - 1e-9:
            ties += 1
            if randint(rng, ties) == 0:  # reservoir sampling: each tie equally likely
                best = i
    return best


@njit(**RULES_JIT)
def random_bot(obs, legal, n_legal, params, rng):
    """Uniform over the legal decisions."""
    return randint(rng, n_legal)


BUILTIN = {
    "random": Bot(
        "random", random_bot, (), "uniform over the legal decisions of each step of an action"
    ),
    "greedy": Bot(
        "greedy",
        weighted_bot,
        GREEDY_PARAMS,
        "the action that most improves its own score by the end of the turn",
        PARAM_NAMES,
    ),
    "crow-attacker": Bot(
        "crow-attacker",
        weighted_bot,
        ATTACKER_PARAMS,
        "crows onto the leader's largest tree, juicy fruit onto opponents",
        PARAM_NAMES,
    ),
    "defender": Bot(
        "defender",
        weighted_bot,
        DEFENDER_PARAMS,
        "protects its largest tree, shoos crows out for extra turns",
        PARAM_NAMES,
    ),
    "strategist": Bot(
        "strategist",
        weighted_bot,
        STRATEGIST_PARAMS,
        "weighs own score, harm to the leader, gifts, tempo and scarecrows (tuned weights)",
        PARAM_NAMES,
    ),
}
