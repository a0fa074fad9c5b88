"""Fruit Picking bots: compiled functions with the core bot signature
``bot(obs, legal, n_legal, params, rng) -> index into legal`` (``cardsim.core.bots``).

``obs`` is the public state (``cards.py`` layout, up to ``PUBLIC_END``); the acting seat is
``obs[H_SEAT]``. Planting previews (``planting_end``, ``seeds_after``) compute where a planting
ends arithmetically, as the engine plants (fruit-picking.md R8, R9, A4), without copying the farm.

- ``random``: uniform over the legal decisions.
- ``greedy``: buys whenever it can (the card with most fruits, then the cheaper), otherwise the
  planting that waters most.
- ``planner``: scores every legal planting with a weighted evaluation (weights in ``params``): the
  progress a purchase makes toward the nearest set, money (House seeds) and tempo.
  With the market operation (V2) it pays when it keeps ``op_reserve`` House seeds, and puts on
  the market the drawn card that helps it most against its best-placed opponent.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bots import Bot
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.rng import randint
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking.engine import position_of_kind


@njit(**HOT_RULES_JIT)
def planting_end(origin, hand, skip_origin):
    """Where ``hand`` seeds planted from ``origin`` end, and how many land on the House
    (R8, R9, A4). Returns (target, house_gain); no farm copy needed.

    Seed j (1-based) lands ``j`` cards on or, when lapping skips the origin (A4), on the
    ``(j - 1) % 6 + 1``-th of the six other cards.
    """
    if skip_origin:
        target = (origin + (hand - 1) % 6 + 1) % C.N_POSITIONS
        house_offset = C.N_POSITIONS - origin  # the House is this many cards on
        gain = hand // 6 + (1 if hand % 6 >= house_offset else 0)
        return target, gain
    return (origin + hand) % C.N_POSITIONS, (origin + hand) // C.N_POSITIONS


@njit(**HOT_RULES_JIT)
def seeds_after(obs, seat, origin, position):
    """Seeds on ``position`` of ``seat``'s farm after planting from ``origin`` (R8, A4)."""
    seeds = C.F_SEATS + seat * C.SEAT_LEN + C.SEAT_SEEDS
    hand = obs[seeds + origin]
    d = (position - origin) % C.N_POSITIONS  # cards from the origin to the position
    if obs[C.F_SKIP_ORIGIN]:
        if d == 0:
            return 0
        return obs[seeds + position] + ((hand - d) // 6 + 1 if hand >= d else 0)
    if d == 0:
        return hand // C.N_POSITIONS
    return obs[seeds + position] + ((hand - d) // C.N_POSITIONS + 1 if hand >= d else 0)


@njit(**HOT_RULES_JIT)
def preview_planting(obs, seat, origin):
    """(target, house_gain) of ``seat`` planting from ``origin`` now."""
    hand = obs[C.F_SEATS + seat * C.SEAT_LEN + C.SEAT_SEEDS + origin]
    return planting_end(origin, hand, obs[C.F_SKIP_ORIGIN])


@njit(**HOT_RULES_JIT)
def best_buy_slot(obs, kind, money):
    """The cheapest slot holding a card of ``kind`` that ``money`` House seeds can pay (R13,
    R15), -1 if none."""
    best = -1
    for s in range(obs[C.F_N_SLOTS]):
        if obs[C.F_MARKET_KIND + s] == kind and obs[C.F_MARKET_PRICE + s] <= money:
            if best < 0 or obs[C.F_MARKET_PRICE + s] < obs[C.F_MARKET_PRICE + best]:
                best = s
    return best


_DIV_7 = 9363  # ceil(2**16 / 7): (x * _DIV_7) >> 16 == x // 7 for 0 <= x < 13110
assert C.N_POSITIONS == 7  # greedy_bot divides by N_POSITIONS with _DIV_7

_PRICE_BITS = 6  # prices stay below 2**6 (fruits and surcharge are at most 9 each)
_PRICE_MASK = (1 << _PRICE_BITS) - 1


@njit(**HOT_RULES_JIT)
def cheapest_prices(obs):
    """The cheapest market price of each fruit kind, packed 6 bits a kind (63: none) so that a
    bot can look one up per planting without a loop or an array."""
    packed = (1 << (_PRICE_BITS * C.N_FRUIT_KINDS)) - 1
    for s in range(obs[C.F_N_SLOTS]):
        kind = obs[C.F_MARKET_KIND + s]
        if kind >= 0:
            shift = _PRICE_BITS * kind
            if obs[C.F_MARKET_PRICE + s] < (packed >> shift) & _PRICE_MASK:
                packed = (packed & ~(_PRICE_MASK << shift)) | (obs[C.F_MARKET_PRICE + s] << shift)
    return packed


@njit(**HOT_RULES_JIT)
def cheapest_price(packed, kind):
    """Look up one kind in ``cheapest_prices``."""
    return (packed >> (_PRICE_BITS * kind)) & _PRICE_MASK


@njit(**RULES_JIT)
def random_bot(obs, legal, n_legal, params, rng):
    """Uniform over the legal decisions."""
    return randint(rng, n_legal)


@njit(**HOT_RULES_JIT)
def position_tables(obs, storage):
    """What the greedy bot looks up per farm position, packed 8 bits a position (House = 0):
    the cheapest market price of the position's fruit (``cheapest_prices``: 63 when the market
    has none; 255 for Rain and the House, never bought) and 1 + the seeds a watering there adds
    (``min(fruits, storage)``; 0 for the House). Built once per decision, so that each planting
    is looked up with a shift instead of a chain of loads."""
    cheapest = cheapest_prices(obs)
    prices = 255
    values = 0
    for p in range(1, C.N_POSITIONS):
        kind = obs[C.F_FARM_KIND + p]
        price = cheapest_price(cheapest, kind) if kind < C.N_FRUIT_KINDS else 255
        prices |= price << (8 * p)
        values |= (min(obs[C.F_FARM_WATER + p], storage) + 1) << (8 * p)
    return prices, values


@njit(**INLINE_JIT)
def greedy_bot(obs, legal, n_legal, params, rng):
    """Buys whenever it can (the cheapest card), otherwise the planting that waters most."""
    phase = obs[L.H_PHASE]
    seat = obs[L.H_SEAT]
    if phase == C.PHASE_TARGET:
        choice = 0  # WATER
        best_price = 1 << 30
        for i in range(1, n_legal):
            price = obs[C.F_MARKET_PRICE + legal[i] - C.BUY_SLOT]
            if price < best_price:
                best_price = price
                choice = i
        return choice
    if phase != C.PHASE_PLANT:
        return 0  # V2: no market operation; keep the first card
    base = C.F_SEATS + seat * C.SEAT_LEN
    money = obs[base + C.SEAT_SEEDS]  # House seeds (at most seeds_per_player <= 40 < 63)
    prices, values = position_tables(obs, obs[base + C.SEAT_STORAGE])
    skip_origin = obs[C.F_SKIP_ORIGIN]
    best, best_value = 0, -1  # values here are 1 + seeds watered, 0 for a House target
    for i in range(n_legal):
        origin = legal[i]
        hand = obs[base + C.SEAT_SEEDS + origin]
        if skip_origin:
            target, house_gain = planting_end(origin, hand, skip_origin)
        else:  # planting_end's (origin + hand) // 7 and % 7, as a multiply and a shift: exact
            # for 0 <= end < 13110 (a seat owns at most 40 seeds: fruit-picking.md R1, parameters)
            end = origin + hand
            house_gain = (end * _DIV_7) >> 16
            target = end - C.N_POSITIONS * house_gain
        shift = 8 * target
        if (prices >> shift) & 255 <= money + house_gain:
            return i  # a purchase beats any watering, and the first one found is taken
        value = (values >> shift) & 255  # a House target (planting again) is worth least
        if value > best_value:
            best, best_value = i, value
    return best


@njit(**RULES_JIT)
def distance_to_set(obs, seat, extra_kind):
    """Cards still missing for the nearest of the four sets (R20), and for all four together,
    counting one more card of ``extra_kind`` (-1: none) than ``seat`` owns. Returns (nearest,
    total)."""
    owned = C.F_SEATS + seat * C.SEAT_LEN + C.SEAT_OWNED
    missing_variety = 0
    most = 0
    pair_total = 0  # sum over kinds of the cards missing for a pair
    pair_first = 0  # the two largest of those (Smiley takes the three smallest of five)
    pair_second = 0
    for k in range(C.N_FRUIT_KINDS):
        c = obs[owned + k] + (1 if k == extra_kind else 0)
        missing_variety += c == 0
        most = max(most, c)
        need = max(0, 2 - c)
        pair_total += need
        if need > pair_first:
            pair_second = pair_first
            pair_first = need
        elif need > pair_second:
            pair_second = need
    smiley = pair_total - pair_first - pair_second
    family = 5
    for i in range(C.N_FRUIT_KINDS):  # a three of one kind and a pair of another
        ci = obs[owned + i] + (1 if i == extra_kind else 0)
        for j in range(C.N_FRUIT_KINDS):
            if i != j:
                cj = obs[owned + j] + (1 if j == extra_kind else 0)
                family = min(family, max(0, 3 - ci) + max(0, 2 - cj))
    greedy = max(0, 4 - most)
    nearest = min(missing_variety, greedy, smiley, family)
    return nearest, missing_variety + greedy + smiley + family


# planner weights (params), by index
W_SET_PROGRESS = 0  # per card of distance to the nearest set closed by a purchase
W_FRUITS = 1  # per printed fruit bought (tie-break 1)
W_PRICE = 2  # per seed of price paid
W_MONEY = 3  # per seed landing on the House (future purchases)
W_WATER = 4  # per seed added by watering
W_HOUSE_TARGET = 5  # a planting ending on the House (the turn goes on)
W_NEXT_BUY = 6  # per planting that could buy a needed card next turn
W_FINISH = 7  # a purchase that completes a set
W_BREADTH = 8  # per card of distance closed, summed over all four sets (keeps options open)
W_BUY = 9  # any purchase: the market moves and the end comes nearer
W_OP_RESERVE = 10  # V2: House seeds kept after paying for a market operation (uses it if it can)
W_OP_DENY = 11  # V2: weight of the best opponent's progress when choosing the card to keep


@njit(**RULES_JIT)
def buy_value(obs, seat, slot, params):
    """Weighted value of buying the card in ``slot``: progress toward a set, its fruits, price."""
    kind = obs[C.F_MARKET_KIND + slot]
    price = obs[C.F_MARKET_PRICE + slot]
    before, before_all = distance_to_set(obs, seat, -1)
    after, after_all = distance_to_set(obs, seat, kind)
    fruits = obs[
        C.F_FARM_WATER + position_of_kind(obs, kind)
    ]  # market cards print as the farm (A2)
    value = params[W_SET_PROGRESS] * (before - after) + params[W_BREADTH] * (before_all - after_all)
    value += params[W_FRUITS] * fruits - params[W_PRICE] * price + params[W_BUY]
    if after == 0:
        value += params[W_FINISH]
    return value


@njit(**RULES_JIT)
def next_turn_buys(obs, seat, origin, money):
    """After planting from ``origin``: how many plantings next turn could buy a card that brings
    ``seat`` closer to a set (tempo), with ``money`` on the House."""
    count = 0
    before, _ = distance_to_set(obs, seat, -1)
    for p in range(1, C.N_POSITIONS):
        hand = seeds_after(obs, seat, origin, p)
        if hand == 0:
            continue
        target, gain = planting_end(p, hand, obs[C.F_SKIP_ORIGIN])
        kind = obs[C.F_FARM_KIND + target]
        if target == 0 or kind >= C.N_FRUIT_KINDS:
            continue
        if (
            best_buy_slot(obs, kind, money + gain) >= 0
            and distance_to_set(obs, seat, kind)[0] < before
        ):
            count += 1
    return count


@njit(**RULES_JIT)
def op_card_value(obs, seat, kind, params):
    """V2: the worth of putting a card of ``kind`` on the market (slot 0, the dearest): how far it
    would bring ``seat`` toward a set, minus, weighted, how far it would bring the opponent it
    helps most (they move first)."""
    mine = distance_to_set(obs, seat, -1)[0] - distance_to_set(obs, seat, kind)[0]
    theirs = 0
    for other in range(obs[L.H_N_PLAYERS]):
        if other != seat:
            gain = distance_to_set(obs, other, -1)[0] - distance_to_set(obs, other, kind)[0]
            theirs = max(theirs, gain)
    return mine - params[W_OP_DENY] * theirs


@njit(**RULES_JIT)
def planner_bot(obs, legal, n_legal, params, rng):
    """Plans toward the nearest set and values tempo: weighted evaluation of every legal choice."""
    phase = obs[L.H_PHASE]
    seat = obs[L.H_SEAT]
    base = C.F_SEATS + seat * C.SEAT_LEN
    storage = obs[base + C.SEAT_STORAGE]
    if phase == C.PHASE_TARGET:
        target = obs[C.F_TARGET]
        best, best_value = 0, params[W_WATER] * min(obs[C.F_FARM_WATER + target], storage)
        for i in range(1, n_legal):
            value = buy_value(obs, seat, legal[i] - C.BUY_SLOT, params)
            if value > best_value:
                best, best_value = i, value
        return best
    if phase == C.PHASE_MARKET_OP:  # V2: legal = DECLINE, USE
        spare = obs[base + C.SEAT_SEEDS] - obs[C.F_OP_COST]
        return 1 if spare >= params[W_OP_RESERVE] else 0
    if phase == C.PHASE_OP_CHOOSE:  # V2: first or second drawn card to the market
        a = op_card_value(obs, seat, obs[C.F_OP_CARD_A] // obs[C.F_PER_KIND], params)
        b = op_card_value(obs, seat, obs[C.F_OP_CARD_B] // obs[C.F_PER_KIND], params)
        return 1 if b > a else 0
    money = obs[base + C.SEAT_SEEDS]
    best, best_value = 0, -1e18
    for i in range(n_legal):
        origin = legal[i]
        target, gain = preview_planting(obs, seat, origin)
        value = params[W_MONEY] * gain
        if target == 0:
            value += params[W_HOUSE_TARGET]
        else:
            kind = obs[C.F_FARM_KIND + target]
            action = params[W_WATER] * min(obs[C.F_FARM_WATER + target], storage)
            slot = best_buy_slot(obs, kind, money + gain) if kind < C.N_FRUIT_KINDS else -1
            if slot >= 0:
                action = max(action, buy_value(obs, seat, slot, params))
            value += action + params[W_NEXT_BUY] * next_turn_buys(obs, seat, origin, money + gain)
        if value > best_value:
            best, best_value = i, value
    return best


PLANNER_PARAMS = (10.0, 0.0, 0.6, 0.8, 0.5, -0.5, 1.5, 20.0, 2.0, 1.0, 2.0, 0.5)
PLANNER_PARAM_NAMES = (
    "set_progress", "fruits", "price", "money", "water", "house_target", "next_buy", "finish",
    "breadth", "buy", "op_reserve", "op_deny",
)  # fmt: skip

BUILTIN = {
    "random": Bot("random", random_bot, (), "uniform over the legal decisions"),
    "greedy": Bot(
        "greedy",
        greedy_bot,
        (),
        "buys whenever it can (cheapest card), otherwise the planting that waters most",
    ),
    "planner": Bot(
        "planner",
        planner_bot,
        PLANNER_PARAMS,
        "plans toward the nearest set and values tempo (weighted evaluation)",
        PLANNER_PARAM_NAMES,
    ),
}
