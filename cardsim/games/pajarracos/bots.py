"""Pajarracos bots: compiled functions with the core bot signature
``bot(obs, legal, n_legal, params, rng) -> index into legal`` (``cardsim.core.bots``).

``obs`` is the public table, the bot's own hand and room for the bot (``cards.py``:
``[0, PUBLIC_END)``, ``OBS_HAND``, ``OBS_SCRATCH``); the acting seat is ``obs[H_SEAT]``. A turn's
action arrives as a sequence of decisions (``engine.py`` docstring): the first part in the ACTION
phase (a whole fruit play, or the first crow, scarecrow or discarded card), then a crow for a
juicy card, further crows / scarecrows / discards, or STOP.

- ``random``: uniform over the legal decisions of each step. So a complete action is not uniform
  over complete actions: each step's choices are equally likely (a fruit play is one decision,
  chosen among all (kind, orchard, cards) plays; placing two crows takes two decisions). Declining
  an extra turn (``C_DECLINE``, R18, A17) is one more decision of the extra turn's list, as likely
  as each action's first part.
- The other bots share one weighted evaluation (``decision_value``): every legal code gets the
  projected change it makes, at the end of the next turn of each seat involved, in
  own score (W_OWN), the leader's and the other opponents' scores (W_HARM_LEADER, W_HARM_OTHERS:
  crows that will eat there; W_GIFT: fruit played into their orchards), an extra turn (W_EXTRA), a
  protected tree (W_PROTECT, per fruit card it shelters), cards spent (W_CARDS) and scarecrows
  spent (W_SCARECROW), a crow card settling on an opponent's tree for more than one meal
  (W_LANDING, negative on its own trees). STOP is worth W_STOP. Declining an extra turn
  (``C_DECLINE``, listed with the extra turn's actions) changes nothing on the table and keeps the
  cards: it is worth W_DECLINE (0 for every built-in bot), so a bot declines exactly when no action
  of the extra turn is worth more than doing nothing (say only discards of cards it values, or a
  juicy card that would pull a crow onto its own tree). The bot takes the best value; ties are
  broken uniformly at random. A juicy card is valued with the best crow card it may attract
  (``F_JUICY_OWN_CROWS``, A4). A shoo-to that ends the action (``F_SHOO_TO_ENDS``, R19, A11) is
  worth less by the shoo-outs it forgoes on the bot's other attacked trees, so a bot that could
  still shoo those crows out does that first.
  - ``greedy``: own score only: the action that most improves its own score by the end of the turn.
  - ``crow-attacker``: crows (flocks first) onto the leader's largest tree; juicy fruit onto
    opponents' trees to pull crows there.
  - ``defender``: protects its largest tree, shoos crows out for extra turns.
  - ``strategist``: the tuned weighting (its ``params``), stronger than each of the above.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, low_bit_index
from cardsim.core.bots import Bot
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.rng import randint
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos.state import seat_trees, tree_at

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
W_LANDING = 9  # a crow card staying on an opponent's tree after its first meal (minus on own)
W_DECLINE = 10  # declining an extra turn (R18, A17), against 0 for doing nothing else
PARAM_NAMES = (
    "own", "harm_leader", "harm_others", "gift", "extra_turn", "protect", "cards", "scarecrow",
    "stop", "landing", "decline",
)  # fmt: skip

GREEDY_PARAMS = (1.0, 0.0, 0.0, 0.001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
ATTACKER_PARAMS = (1.0, 3.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 2.0, 0.0)
DEFENDER_PARAMS = (1.0, 0.0, 0.0, 0.5, 3.0, 0.5, 0.0, 0.0, 0.25, 1.0, 0.0)
STRATEGIST_PARAMS = (1.0, 1.0, 0.56, 0.44, 7.7, 0.12, 0.03, 0.48, 0.14, 1.0, 0.0)  # fmt: skip
# (a rounded result of analysis/tune_pajarracos_strategist.py)


@njit(**HOT_RULES_JIT)
def after_meal(size, crow):
    """A tree's size once its crow card has eaten at its owner's next end of turn (R12, R13).
    Written without branches: the crow on a tree is unpredictable, a mispredicted branch costs
    more than the arithmetic. ``crow`` is also the number of cards a lone crow eats (NO_CROW 0,
    LONE 1), and a flock leaves nothing."""
    return max(size - crow, 0) * (crow != C.FLOCK_ON)


# The table as the bots see it: per tree its projected size (after its crow's next meal), and per
# seat the projected fruit count, the two largest projected trees and the projected score.
T_PROJ = 0  # [N_TREES]
T_FRUIT = T_PROJ + C.N_TREES  # [MAX_PLAYERS]
T_TOP1 = T_FRUIT + C.MAX_PLAYERS  # [MAX_PLAYERS]
T_TOP2 = T_TOP1 + C.MAX_PLAYERS  # [MAX_PLAYERS] the largest once one largest tree is taken away
T_BASE = T_TOP2 + C.MAX_PLAYERS  # [MAX_PLAYERS] projected score (R25)
T_LEN = T_BASE + C.MAX_PLAYERS  # kept in the observation's scratch space (cards.OBS_SCRATCH)
assert T_LEN <= C.SCRATCH_LEN


@njit(**RULES_JIT)
def project_seat(obs, table, seat):
    """``seat``'s projected trees and score into ``table`` (the values below are then O(1) per
    legal code)."""
    row = T_PROJ + seat * C.MAX_KINDS
    t = tree_at(seat, 0)
    fruit = 0
    top1 = 0
    top2 = 0
    for kind in range(C.MAX_KINDS):
        size = after_meal(
            obs[as_index(t + kind + C.TREE_SIZE)], obs[as_index(t + kind + C.TREE_CROW)]
        )
        table[as_index(row + kind)] = size
        fruit += size
        top2 = max(top2, min(top1, size))  # the second largest (= top1 when two tie)
        top1 = max(top1, size)
    table[as_index(T_FRUIT + seat)] = fruit
    table[as_index(T_TOP1 + seat)] = top1
    table[as_index(T_TOP2 + seat)] = top2
    table[as_index(T_BASE + seat)] = fruit + top1


@njit(**RULES_JIT)
def project_rest(obs, table, projected):
    """Every seat not in the bit mask ``projected`` into ``table``: the whole table, for the
    values that read any seat (crow moves, the leader). Returns the mask of every seat."""
    for seat in range(obs[L.H_N_PLAYERS]):
        if (projected >> seat & 1) == 0:
            project_seat(obs, table, seat)
    return whole_table(obs)


@njit(**HOT_RULES_JIT)
def whole_table(obs):
    """The mask of ``project_rest``'s work: every seat projected."""
    return (1 << obs[L.H_N_PLAYERS]) - 1


@njit(**HOT_RULES_JIT)
def score_with(table, seat, kind, size):
    """``seat``'s projected score if its tree ``kind`` ends its next turn with ``size`` cards."""
    old = table[as_index(T_PROJ + seat * C.MAX_KINDS + kind)]
    others = table[as_index(T_TOP1 + seat)]
    if old == others:
        others = table[as_index(T_TOP2 + seat)]  # the tree changed was a largest one
    return table[as_index(T_FRUIT + seat)] - old + size + max(others, size)


@njit(**HOT_RULES_JIT)
def change_with(table, seat, kind, size):
    return score_with(table, seat, kind, size) - table[as_index(T_BASE + seat)]


@njit(**RULES_JIT)
def change_with_two(table, seat, kind_a, size_a, kind_b, size_b):
    """Projected score change of ``seat`` with two of its trees changed (a crow moving within
    one orchard)."""
    fruit = 0
    largest = 0
    for kind in range(C.MAX_KINDS):
        size = table[T_PROJ + seat * C.MAX_KINDS + kind]
        if kind == kind_a:
            size = size_a
        elif kind == kind_b:
            size = size_b
        fruit += size
        largest = max(largest, size)
    return fruit + largest - table[T_BASE + seat]


@njit(**RULES_JIT)
def leader_of(table, me, n_players):
    """The opponent with the highest projected score; ties go to the first after ``me`` in turn
    order (never to a fixed seat number, which would be a seat bias)."""
    best = -1
    leader = -1
    seat = me
    for _ in range(1, n_players):
        seat += 1
        seat -= n_players if seat == n_players else 0  # the next seat, without a division
        if table[T_BASE + seat] > best:
            best = table[T_BASE + seat]
            leader = seat
    return leader


@njit(**HOT_RULES_JIT)
def weigh_seat(params, me, leader, seat, change):
    """Weighted value of ``seat``'s projected score changing by ``change``."""
    if seat == me:
        return params[W_OWN] * change
    if change > 0:
        return -params[W_GIFT] * change
    if seat == leader:
        return -params[W_HARM_LEADER] * change
    return -params[W_HARM_OTHERS] * change


@njit(**HOT_RULES_JIT)
def landing(params, me, seat):
    """Value of a crow card settling on ``seat``'s trees beyond its first meal (the projection
    sees one meal; a crow left alone eats every turn, R12)."""
    return params[W_LANDING] if seat != me else -params[W_LANDING]


@njit(**HOT_RULES_JIT)
def crow_move_value(obs, table, params, me, leader, source, seat, kind, size):
    """Value of the crow card on tree ``source`` flying to ``seat``'s tree ``kind`` (which will
    hold ``size`` fruit cards) (R10, R19): the source tree's owner is relieved, the target hurt."""
    src_seat = source // C.MAX_KINDS
    src_kind = source % C.MAX_KINDS
    src_size = obs[tree_at(src_seat, src_kind) + C.TREE_SIZE]
    crow = obs[tree_at(src_seat, src_kind) + C.TREE_CROW]
    if src_seat == seat:
        change = change_with_two(table, seat, kind, after_meal(size, crow), src_kind, src_size)
        return weigh_seat(params, me, leader, seat, change)
    relief = change_with(table, src_seat, src_kind, src_size)
    hurt = change_with(table, seat, kind, after_meal(size, crow))
    stay = landing(params, me, seat) - landing(params, me, src_seat)
    return (
        weigh_seat(params, me, leader, src_seat, relief)
        + weigh_seat(params, me, leader, seat, hurt)
        + stay
    )


@njit(**RULES_JIT)
def best_crow_move(obs, table, params, me, leader, seat, kind, size):
    """Value of the best crow card a juicy card on ``seat``'s tree ``kind`` may attract (R10; A4:
    off the bot's own trees only if ``F_JUICY_OWN_CROWS``); -1e18 if there is none."""
    best = -1e18
    crowed = obs[C.F_CROWED_TREES]
    if obs[C.F_JUICY_OWN_CROWS] == 0:
        crowed &= ~seat_trees(me)
    while crowed:
        source = low_bit_index(crowed)  # the lowest crowed tree
        crowed &= crowed - 1
        value = crow_move_value(obs, table, params, me, leader, source, seat, kind, size)
        best = max(best, value)
    return best


@njit(**HOT_RULES_JIT)
def fruit_value(obs, table, params, me, leader, target, kind, ordinary, juicy):
    """Value of playing ``ordinary`` + ``juicy`` cards of ``kind`` into ``target``'s orchard."""
    size = obs[tree_at(target, kind) + C.TREE_SIZE] + ordinary + juicy
    value = params[W_CARDS] * (ordinary + juicy)
    if juicy > 0 and obs[C.F_CROWS_ON_TREES] > 0:  # a crow card will fly there (R10) ...
        move = best_crow_move(obs, table, params, me, leader, target, kind, size)
        if move > -1e17:  # ... unless every crow is on the bot's own trees and may not (A4)
            return value + move
    return value + weigh_seat(params, me, leader, target, change_with(table, target, kind, size))


@njit(**HOT_RULES_JIT)
def project_top1(obs, table, seat):
    """``seat``'s largest projected tree (``project_seat``'s ``T_TOP1``) without the rest of its
    row: all that a fruit play's value needs of the table (``fruit_change``)."""
    t = tree_at(seat, 0)
    top1 = 0
    for kind in range(C.MAX_KINDS):
        size = obs[as_index(t + kind + C.TREE_SIZE)]
        top1 = max(top1, after_meal(size, obs[as_index(t + kind + C.TREE_CROW)]))
    table[as_index(T_TOP1 + seat)] = top1


@njit(**HOT_RULES_JIT)
def fruit_change(size0, cards, top1):
    """``change_with`` of a tree of ``size0`` fruit cards that takes fruit (so has no crow: its
    projected size is its size, R8) growing by ``cards``, for an orchard whose largest projected
    tree is ``top1``: the fruit grows by ``cards``, the largest becomes ``max(top1, size0 +
    cards)`` (R25; ``top1`` counts this tree, and it only grows). Always at least ``cards``."""
    return cards + max(0, size0 + cards - top1)


@njit(**HOT_RULES_JIT)
def weigh_gain(params, me, seat, change):
    """``weigh_seat`` of a rise (``change`` > 0, as every fruit play's ``fruit_change``): W_OWN
    times the rise for the bot's own orchard, minus W_GIFT times it for another's. Written as a
    choice of integers, a weight's index and the rise's sign (``w * -c`` is ``-w * c`` exactly,
    IEEE products round symmetrically), not of the two weights: the target is unpredictable and a
    choice between two floats compiles to a branch."""
    other = seat != me
    weight = params[as_index(W_GIFT if other else W_OWN)]
    return weight * (-change if other else change)


@njit(**HOT_RULES_JIT)
def fruit_play(code):
    """(kind, target, ordinary, juicy) of a fruit play code (``cards.fruit_play``), for a code
    known to be one: the divisions are then unsigned."""
    orchard, cards = divmod(code - C.C_FRUIT, C.PLAY_SPAN)
    kind, target = divmod(orchard, C.MAX_PLAYERS)
    ordinary, juicy = divmod(cards, C.COUNT_BASE)
    return kind, target, ordinary, juicy


@njit(**HOT_RULES_JIT)
def plain_fruit_value(obs, table, params, me, kind, target, cards, topped):
    """``fruit_value`` of a play of ``cards`` cards that draws no crow, from the target's largest
    projected tree (``project_top1``, read on the target's first play: ``topped``, bit per
    seat, says whose is in the table). Returns (value, topped)."""
    if (topped >> target & 1) == 0:
        project_top1(obs, table, target)
        topped |= 1 << target
    size0 = obs[as_index(tree_at(target, kind) + C.TREE_SIZE)]
    change = fruit_change(size0, cards, table[as_index(T_TOP1 + target)])
    return params[W_CARDS] * cards + weigh_gain(params, me, target, change), topped


@njit(**HOT_RULES_JIT)
def gift_bound(params):
    """The most a fruit play into another orchard that draws no crow can be worth
    (``plain_fruit_value``): its owner's score rises by one to two points a card
    (``fruit_change``), each weighed -W_GIFT (``weigh_gain``), for 1 to ``2 * (COUNT_BASE - 1)``
    cards (what its code can hold)."""
    gift = params[W_GIFT]
    per_card = params[W_CARDS] - min(gift, 2 * gift)
    return max(per_card, per_card * (2 * (C.COUNT_BASE - 1)))


MIN_KEEP = 0.3  # the least ``card_keep_value`` gives a card (bounds a run of discards)


@njit(**HOT_RULES_JIT)
def card_keep_value(obs, card_type):
    """How much a hand card is worth keeping (for discards): fruit that can still grow a tree of
    the bot's own, crows, and scarecrows most."""
    me = obs[L.H_SEAT]
    if card_type < C.LONE_CROW:
        t = tree_at(me, card_type % C.JUICY)
        if obs[t + C.TREE_CROW] == C.NO_CROW and obs[t + C.TREE_SCARECROW] == 0:
            return 1.0 + 0.1 * obs[t + C.TREE_SIZE]
        return MIN_KEEP  # only useful in other orchards
    if card_type == C.SCARECROW:
        return 1.5
    return 1.2 if card_type == C.FLOCK else 0.8


@njit(**HOT_RULES_JIT)
def forgone_shoo_outs(obs, table, params, me, kind):
    """What a shoo-to from the bot's tree ``kind`` gives up when it ends the action at once
    (``F_SHOO_TO_ENDS``, R19, A11) while the hand holds another scarecrow: the relief of shooing
    out the crows on its other trees first, which they then keep eating."""
    if obs[C.F_SHOO_TO_ENDS] == 0 or obs[C.OBS_HAND + C.SCARECROW] < 2:
        return 0.0
    forgone = 0.0
    for other in range(C.MAX_KINDS):
        t = tree_at(me, other)
        if other != kind and obs[t + C.TREE_CROW] != C.NO_CROW:
            forgone += params[W_OWN] * change_with(table, me, other, obs[t + C.TREE_SIZE])
    return forgone


@njit(**HOT_RULES_JIT)
def decision_value(obs, table, params, code, me, leader):
    """Weighted value of one legal decision code (module docstring)."""
    if code == C.STOP:
        return params[W_STOP]
    if code < C.C_CROW:
        orchard, cards = divmod(code - C.C_FRUIT, C.PLAY_SPAN)
        kind, target = divmod(orchard, C.MAX_PLAYERS)
        ordinary, juicy = divmod(cards, C.COUNT_BASE)
        return fruit_value(obs, table, params, me, leader, target, kind, ordinary, juicy)
    if code < C.C_PROTECT:
        if params[W_HARM_LEADER] == 0 and params[W_HARM_OTHERS] == 0 and params[W_LANDING] == 0:
            return params[W_CARDS]  # a bot that weighs no harm (greedy): skip the projection
        crow = C.LONE + (code - C.C_CROW) // C.N_TREES
        tree = (code - C.C_CROW) % C.N_TREES
        seat, kind = tree // C.MAX_KINDS, tree % C.MAX_KINDS
        size = obs[tree_at(seat, kind) + C.TREE_SIZE]
        change = change_with(table, seat, kind, after_meal(size, crow))
        stay = landing(params, me, seat)
        return params[W_CARDS] + weigh_seat(params, me, leader, seat, change) + stay
    if code < C.C_DISCARD:
        value = params[W_CARDS] - params[W_SCARECROW]
        if code < C.C_SHOO_OUT:  # R16: shelters the tree from crows still to come
            size = obs[tree_at(me, code - C.C_PROTECT) + C.TREE_SIZE]
            return value + params[W_PROTECT] * size
        if code < C.C_SHOO_TO:  # R17, R18: the crow leaves; an extra turn unless a shoo-to
            kind = code - C.C_SHOO_OUT
            relief = change_with(table, me, kind, obs[tree_at(me, kind) + C.TREE_SIZE])
            extra = params[W_EXTRA] if obs[C.F_CTX_SHOO_TO] == 0 else 0.0
            return value + params[W_OWN] * relief + extra + params[W_LANDING]
        kind = (code - C.C_SHOO_TO) // C.N_TREES
        dest = (code - C.C_SHOO_TO) % C.N_TREES
        seat, dest_kind = dest // C.MAX_KINDS, dest % C.MAX_KINDS
        size = obs[tree_at(seat, dest_kind) + C.TREE_SIZE]
        lost_extra = params[W_EXTRA] if obs[C.F_CTX_SHOO_OUT] else 0.0  # R19 cancels it
        source = me * C.MAX_KINDS + kind
        move = crow_move_value(obs, table, params, me, leader, source, seat, dest_kind, size)
        return value - lost_extra + move - forgone_shoo_outs(obs, table, params, me, kind)
    if code < C.C_PASS:
        return params[W_CARDS] - card_keep_value(obs, code - C.C_DISCARD)
    if code == C.C_PASS:
        return 0.0
    if code == C.C_DECLINE:  # R18, A17: nothing happens, the cards stay in hand
        return params[W_DECLINE]
    target = obs[C.F_CTX_TARGET]
    kind = obs[C.F_CTX_KIND]
    size = obs[tree_at(target, kind) + C.TREE_SIZE]
    source = code - C.C_JUICY_CROW
    return crow_move_value(obs, table, params, me, leader, source, target, kind, size)


@njit(**HOT_RULES_JIT)
def table_seats(code, me, whole):
    """The seats whose rows of the projected table ``decision_value`` of ``code`` reads (bit
    mask): none for a protection (the tree's size only, R16), the bot's own for a shoo-out (its
    relief, R17), ``whole`` for the others that read the table (``reads_table``: a crow's
    target, a shoo-to's destination)."""
    if C.C_PROTECT <= code < C.C_SHOO_OUT:
        return 0
    if C.C_SHOO_OUT <= code < C.C_SHOO_TO:
        return 1 << me
    return whole if reads_table(code) else 0


@njit(**RULES_JIT)
def project_seats(obs, table, projected, seats):
    """The seats of the bit mask ``seats`` not in ``projected`` into ``table``; returns the mask
    of the seats projected now."""
    todo = seats & ~projected
    while todo:
        project_seat(obs, table, low_bit_index(todo))  # the lowest seat left
        todo &= todo - 1
    return projected | seats


@njit(**HOT_RULES_JIT)
def reads_table(code):
    """``decision_value`` of ``code`` reads the projected table (STOP, discards, a pass and
    declining do not)."""
    return (C.STOP < code < C.C_DISCARD) | (C.C_JUICY_CROW <= code < C.C_DECLINE)


@njit(**INLINE_JIT)  # into the play loop
def weighted_bot(obs, legal, n_legal, params, rng):
    """The best legal decision by ``decision_value``; ties broken uniformly at random (a fixed
    order would favour, say, crows on the lowest seat's trees: a seat bias, not a strategy)."""
    return best_decision(
        obs, obs[C.OBS_SCRATCH : C.OBS_SCRATCH + T_LEN], legal, n_legal, params, rng
    )


@njit(**HOT_RULES_JIT)
def consider(value, i, best, best_value, ties, rng):
    """The running best after decision ``i`` worth ``value``: (best, best_value, ties). Ties are
    broken uniformly at random by reservoir sampling."""
    if value > best_value + 1e-9:
        return i, value, 1
    if value > best_value - 1e-9:
        ties += 1
        if randint(rng, ties) == 0:
            best = i
    return best, best_value, ties


SKIP_MARGIN = 1e-6
"""A run or block of codes is skipped only when a bound of its values lies this far below the
running best's tie window, far above the rounding of the values it bounds."""


@njit(**HOT_RULES_JIT)
def below_ties(bound, best_value):
    """No value up to ``bound`` can tie or beat ``best_value`` (``consider``): its codes would
    change nothing and draw nothing, so they need not be valued one by one."""
    return bound < best_value - 1e-9 - SKIP_MARGIN


@njit(**HOT_RULES_JIT)
def run_end(legal, n_legal, i, end_code, longest):
    """Index of the first legal code from ``i`` on that is ``end_code`` or higher, when at most
    ``longest`` (a constant) codes from ``i`` on are below it: a run of one kind of code. The
    codes ascend: a binary search in steps of a power of two down to one, with no branch (a
    scan's exit, once per run, was a mispredicted branch; a loop while the range is wider than
    one compiled to a branch per step). A probe past the list reads its last code instead: if
    that one is below ``end_code`` too, the run ends the list, and the search ends past it."""
    step = 1
    while step <= longest:
        step <<= 1
    last = i - 1  # the last code known below end_code (none yet)
    while step > 1:  # (LLVM unrolls this loop of a constant count: its choices stay cmovs)
        step >>= 1
        probe = last + step
        last = probe if legal[as_index(min(probe, n_legal - 1))] < end_code else last
    return min(last + 1, n_legal)


@njit(**INLINE_JIT)  # (three calls: LLVM left it a call, ~30 instructions each)
def consider_run(value, i, end, best, best_value, ties, rng):
    """``consider`` for codes ``i`` to ``end`` - 1, all worth ``value``: nothing to do when the
    value cannot tie the running best; else the first one is the best or ties it, and so each
    later one ties it (``consider``'s middle case: a draw), unless the value is so large that
    ``best_value - 1e-9`` rounds to itself (then, as in ``consider``, nothing)."""
    if value > best_value - 1e-9 and i < end:
        best, best_value, ties = consider(value, i, best, best_value, ties, rng)
        if value > best_value - 1e-9:
            for k in range(i + 1, end):
                ties += 1
                if randint(rng, ties) == 0:
                    best = k
    return best, best_value, ties


@njit(**INLINE_JIT)  # into weighted_bot and so into the play loop
def best_decision(obs, table, legal, n_legal, params, rng):
    """``weighted_bot`` with its scratch ``table``. The legal codes come in ascending order: STOP,
    the fruit plays, then the rest in runs of one kind of decision. The fruit plays, most of the
    codes and nearly all of them one-code blocks, are valued in a loop of their own from a few
    integers each (``fruit_change``); in the rest, what a run's codes share is read once per run.
    The values are ``decision_value``'s, code by code, and it is written once: each inlined copy
    of it costs seconds of compile time.

    A run of codes whose values are all below the running best's tie window is skipped whole
    (``below_ties``), and so is each fruit play into another orchard that draws no crow once the
    best is above all of them (``gift_bound``): such codes change nothing and draw nothing, so the
    choice and the random draws are those of valuing every code (tests/test_pajarracos_bots.py
    compares the two at every decision of many games)."""
    me = obs[L.H_SEAT]
    # The table is projected seat by seat as the values need it (``projected``: bit per seat).
    projected = 0
    whole = whole_table(obs)
    leader = -1  # the leader only chooses between the two harm weights (weigh_seat)
    if params[W_HARM_LEADER] != params[W_HARM_OTHERS]:
        projected = project_rest(obs, table, projected)
        leader = leader_of(table, me, obs[L.H_N_PLAYERS])
    best = 0
    best_value = -1e18
    ties = 0
    i = 0
    if legal[0] == C.STOP:
        best, best_value, ties = consider(params[W_STOP], 0, best, best_value, ties, rng)
        i = 1
    # fruit plays: code - C_FRUIT = (kind * MAX_PLAYERS + target) * PLAY_SPAN + ordinary *
    # COUNT_BASE + juicy; each needs its target's largest tree (T_TOP1)
    topped = projected
    juicy_crows = obs[C.F_CROWS_ON_TREES] > 0
    # Once the best is above every play into another orchard that draws no crow (below_ties),
    # such plays are not valued: for greedy, once one of its own plays is (4.6 of the 8.9 fruit
    # codes of a decision, 4 players)
    gifts_top = gift_bound(params)
    gifts_below = below_ties(gifts_top, best_value)
    while not juicy_crows and i < n_legal:  # no play draws a crow (R10): the values, no more
        code = legal[as_index(i)]
        if not C.C_FRUIT <= code < C.C_CROW:  # (both bounds: fruit_play's divisions unsigned)
            break
        kind, target, ordinary, juicy = fruit_play(code)
        if gifts_below and target != me:
            i += 1
            continue
        cards = ordinary + juicy
        v, topped = plain_fruit_value(obs, table, params, me, kind, target, cards, topped)
        best, best_value, ties = consider(v, i, best, best_value, ties, rng)
        gifts_below = below_ties(gifts_top, best_value)
        i += 1
    while juicy_crows and i < n_legal:
        code = legal[as_index(i)]
        if not C.C_FRUIT <= code < C.C_CROW:
            break
        kind, target, ordinary, juicy = fruit_play(code)
        move = -1e18
        if juicy > 0:  # a crow card will fly there (R10), unless A4 forbids
            if projected != whole:
                projected = project_rest(obs, table, projected)
                topped = projected
            size = obs[as_index(tree_at(target, kind) + C.TREE_SIZE)] + ordinary + juicy
            move = best_crow_move(obs, table, params, me, leader, target, kind, size)
        elif gifts_below and target != me:
            i += 1
            continue
        if move > -1e17:
            v = params[W_CARDS] * (ordinary + juicy) + move
        else:
            cards = ordinary + juicy
            v, topped = plain_fruit_value(obs, table, params, me, kind, target, cards, topped)
        best, best_value, ties = consider(v, i, best, best_value, ties, rng)
        gifts_below = below_ties(gifts_top, best_value)
        i += 1
    harm_free = params[W_HARM_LEADER] == 0 and params[W_HARM_OTHERS] == 0
    harm_free = harm_free and params[W_LANDING] == 0
    # shoo-tos: code - C_SHOO_TO = kind * N_TREES + destination tree (R19)
    src_kind = -1
    crow = 0
    head = relief = forgone = 0.0
    own_trees = (me * C.MAX_KINDS, me * C.MAX_KINDS + C.MAX_KINDS)  # (a shoo-to never goes there)
    while i < n_legal:
        code = legal[as_index(i)]
        if harm_free and C.C_CROW <= code < C.C_PROTECT:
            # every crow card placed is worth the same to a bot that weighs no harm: the run of
            # them changes nothing unless it comes near the best so far (then each one counts)
            end = run_end(legal, n_legal, i, C.C_PROTECT, C.C_PROTECT - C.C_CROW)
            best, best_value, ties = consider_run(
                params[W_CARDS], i, end, best, best_value, ties, rng
            )
            i = end
            continue
        elif params[W_PROTECT] == 0 and C.C_PROTECT <= code < C.C_SHOO_OUT:
            # R16: without a weight on the fruit sheltered, every protection is worth the same
            end = run_end(legal, n_legal, i, C.C_SHOO_OUT, C.MAX_KINDS)
            v = params[W_CARDS] - params[W_SCARECROW]
            best, best_value, ties = consider_run(v, i, end, best, best_value, ties, rng)
            i = end
            continue
        elif C.C_SHOO_TO <= code < C.C_DISCARD and not (
            own_trees[0] <= (code - C.C_SHOO_TO) % C.N_TREES < own_trees[1]
        ):
            skind, dest = divmod(code - C.C_SHOO_TO, C.N_TREES)
            seat, dest_kind = divmod(dest, C.MAX_KINDS)
            if skind != src_kind:  # the first shoo-to of this tree's crow
                src_kind = skind
                if (projected >> me & 1) == 0:
                    project_seat(obs, table, me)
                    projected |= 1 << me
                t = tree_at(me, skind)
                crow = obs[t + C.TREE_CROW]
                lost_extra = params[W_EXTRA] if obs[C.F_CTX_SHOO_OUT] else 0.0  # R19 cancels it
                head = params[W_CARDS] - params[W_SCARECROW] - lost_extra
                relief = weigh_seat(
                    params, me, leader, me, change_with(table, me, skind, obs[t + C.TREE_SIZE])
                )
                forgone = forgone_shoo_outs(obs, table, params, me, skind)
                if harm_free:
                    # the crow only lowers the destination's score, which this bot does not
                    # weigh: every destination is worth the same
                    end_code = C.C_SHOO_TO + (skind + 1) * C.N_TREES
                    end = run_end(legal, n_legal, i, end_code, C.N_TREES)
                    v = head + relief - forgone
                    best, best_value, ties = consider_run(v, i, end, best, best_value, ties, rng)
                    i = end
                    continue
            if projected != whole:
                projected = project_rest(obs, table, projected)
            size = obs[tree_at(seat, dest_kind) + C.TREE_SIZE]
            hurt = change_with(table, seat, dest_kind, after_meal(size, crow))
            stay = landing(params, me, seat) - landing(params, me, me)
            move = relief + weigh_seat(params, me, leader, seat, hurt) + stay  # crow_move_value
            v = head + move - forgone
        elif C.C_DISCARD <= code < C.C_PASS and below_ties(params[W_CARDS] - MIN_KEEP, best_value):
            i = run_end(legal, n_legal, i + 1, C.C_PASS, C.N_TYPES)  # R20: none comes near the best
            continue
        else:
            if projected != whole:
                projected = project_seats(obs, table, projected, table_seats(code, me, whole))
            v = decision_value(obs, table, params, code, me, leader)
        best, best_value, ties = consider(v, i, best, best_value, ties, rng)
        i += 1
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
