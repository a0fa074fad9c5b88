"""Fruit Picking compiled engine: setup, legal decisions, apply, observe, finalize.

Every rule cites ``fruit-picking.md``. The state layout is in ``cards.py``; the rules vector in
``rules.py``; the play loop that calls these kernels is ``cardsim.core.kernel``.

Chance (the game's ``rng`` stream, ``cardsim.core.rng``), all of it at setup, in this order:

1. the initial player: ``randint(n_players)`` when ``first_player`` is random (R2, A19);
2. the farm order: ``shuffle`` of ``FARM_CARDS`` (rain, pineapple, grapes, cherry, banana,
   strawberry) when ``farm_order`` is random; positions 1..6 take the shuffled list in order (A16);
3. the market deck: ``shuffle`` of card ids ``0 .. 5*per_kind - 1``; the result is the stack from
   bottom (index 0) to top (last index) (R5).

Then each seat places its setup seeds (R3, R4) and the market fills slot ``n_slots - 1`` (+0),
then ``n_slots - 2``, ... down to slot 0 (+3) from the top of the stack (R5; empty slots stay at
the +3 end, A6), each draw firing the umbrella mark under V1 (A13: storage then holds 12). If the
stack is empty after setup, the end is triggered at once (trigger seat -1) and the first round is
played out.

Turn flow (``apply`` advances automatically between decisions):

- Start of a turn: if positions 1..6 hold no seed, the "no seeds" rule runs (R7, A11) and the turn
  ends; otherwise a PLANT decision is pending. ``no_seed_rule`` picks its procedure: 2014 (up to
  ``no_seed_refill`` seeds from the House to storage, then one seed from storage on each of
  positions 1..no_seed_refill while storage lasts) or 2020 (one seed on each of those positions,
  from storage, or from the House once storage is empty).
- PLANT p: pick up all seeds of position p and plant them one per card clockwise, the House
  included (R8), skipping p itself when lapping only under ``skip_origin_when_lapping`` (A4). The
  last card is the target (R9). A House target counts a House repeat and asks for PLANT again
  (R10), or runs the R7 procedure if positions 1..6 are now empty (A3). Otherwise TARGET is
  pending.
- TARGET: WATER (R12; the only choice on Rain, A5) or BUY_SLOT + s for every slot s, in order,
  holding a card of the target's fruit whose price the House can pay (R13, R15, A5).
- BUY: pay the price from the House to storage and return the target's seeds to storage (R16);
  take the card (R17); check sets (R20, A1) and, under V3, the card count (A15); slide the market
  away from the stack and refill slot 0 from the top (R18, A6). Under V2, when the stack holds 2+
  cards and the buyer can pay, a MARKET_OP decision comes first (V2, A14), then OP_CHOOSE. The
  stack trigger is checked once the refill is complete (A7).
- End of a turn: turns += 1; if the end is triggered and the seat is the last of the round (the
  one before the initial player) the game is over (R21, A12); else the turn cap (A18), else the
  next seat clockwise starts its turn (R19).

The first trigger gives the end reason. ``finalize`` decides winners by R22 (A8, A9, A10, A15);
with ``tiebreak_fruits=set_cards`` (A9) the first tie-break counts, for a player who completed a
set, the fruits of the best choice of a set their cards contain and of the cards forming it (the
bought cards' ids are kept in ``F_CARD_OWNER`` for this); anyone else counts all their cards.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached, play_kernels
from cardsim.core.rng import randint, shuffle
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import rules as R


@njit(**HOT_RULES_JIT)
def seat_base(seat):
    """Index of a seat's public block (cards.py ``F_SEATS``)."""
    return C.F_SEATS + seat * C.SEAT_LEN


@njit(**HOT_RULES_JIT)
def counter_index(seat, counter):
    """Index of one of a seat's counters (cards.py ``F_COUNTERS``)."""
    return C.F_COUNTERS + seat * C.N_COUNTERS + counter


@njit(**HOT_RULES_JIT)
def position_of_kind(state, kind):
    """Farm position (1..6) of the card of ``kind``; -1 if the farm has none."""
    for p in range(1, C.N_POSITIONS):
        if state[C.F_FARM_KIND + p] == kind:
            return p
    return -1


@njit(**INLINE_JIT)
def sets_mask(state, base):
    """Bits SET_* of the sets contained in a seat's market cards (fruit-picking.md R20, A1)."""
    n_one = 0  # kinds owned at least once
    n_two = 0  # kinds owned at least twice
    n_three = 0
    most = 0
    for k in range(C.N_FRUIT_KINDS):
        c = state[base + C.SEAT_OWNED + k]
        n_one += c >= 1
        n_two += c >= 2
        n_three += c >= 3
        most = max(most, c)
    mask = 0
    if n_one == C.N_FRUIT_KINDS:
        mask |= C.SET_VARIETY  # five kinds of fruits
    if most >= 4:
        mask |= C.SET_GREEDY  # four identical fruits
    if n_two >= 3:
        mask |= C.SET_SMILEY  # three distinct pairs
    if n_three >= 1 and n_two >= 2:
        mask |= C.SET_FAMILY  # a three of a kind and a pair (of another kind)
    return mask


@njit(**HOT_RULES_JIT)
def trigger_end(state, seat, reason):
    """Trigger the end of the game (R21); the first trigger gives the end reason."""
    if state[L.H_TRIGGERED] == 0:
        state[L.H_TRIGGERED] = 1
        state[C.F_TRIGGER_SEAT] = seat
        state[C.F_TRIGGER_REASON] = reason


# Market ------------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def set_slot(state, rules, slot, card):
    """Put ``card`` (or -1) in a market slot with its kind and price (R15)."""
    state[C.F_MARKET_CARD + slot] = card
    if card < 0:
        state[C.F_MARKET_KIND + slot] = -1
        state[C.F_MARKET_PRICE + slot] = 0
    else:
        state[C.F_MARKET_KIND + slot] = card // rules[R.R_PER_KIND]
        state[C.F_MARKET_PRICE + slot] = rules[R.R_CARD_FRUITS + card] + rules[R.R_SURCHARGE + slot]


@njit(**RULES_JIT)
def fire_umbrella(state, rules, card):
    """V1, A13: every player moves seeds from storage onto their own farm card of that fruit."""
    kind = card // rules[R.R_PER_KIND]
    pos = position_of_kind(state, kind)
    want = state[C.F_FARM_WATER + pos]
    state[C.F_UMBRELLA_TRIGGERS] += 1
    for seat in range(state[L.H_N_PLAYERS]):
        base = seat_base(seat)
        moved = min(want, state[base + C.SEAT_STORAGE])
        state[base + C.SEAT_STORAGE] -= moved
        state[base + C.SEAT_SEEDS + pos] += moved
        state[counter_index(seat, C.C_UMBRELLA_SEEDS)] += moved


@njit(**INLINE_JIT)
def draw_card(state, rules, entering_market):
    """Draw the top card of the stack, firing its umbrella mark as V1/A13 say."""
    state[C.F_STACK_LEFT] -= 1
    card = state[C.F_STACK + state[C.F_STACK_LEFT]]
    if rules[R.R_UMBRELLA] and rules[R.R_CARD_UMBRELLA + card]:
        if entering_market or rules[R.R_UMBRELLA_ANY_DRAW]:
            fire_umbrella(state, rules, card)
    return card


@njit(**INLINE_JIT)
def slide_market(state, rules, bought_slot):
    """R18, A6: cards between the stack and the gap move one slot away from the stack."""
    for s in range(bought_slot, 0, -1):
        set_slot(state, rules, s, state[C.F_MARKET_CARD + s - 1])
    set_slot(state, rules, 0, -1)


@njit(**RULES_JIT)
def put_on_bottom(state, card):
    """V2: the card not chosen goes to the bottom of the stack (index 0)."""
    for i in range(state[C.F_STACK_LEFT], 0, -1):
        state[C.F_STACK + i] = state[C.F_STACK + i - 1]
    state[C.F_STACK] = card
    state[C.F_STACK_LEFT] += 1
    state[C.F_CARD_OWNER + card] = -2 - state[C.F_BOTTOM_PUTS]  # public (cards.py, A14)
    state[C.F_BOTTOM_PUTS] += 1


# Setup -------------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def setup(state, rules, n_players, rng):
    """Deal a new game (R1-R5) into a zeroed state, in the chance order of the module docstring."""
    state[L.H_N_PLAYERS] = n_players
    state[L.H_END_REASON] = -1
    state[C.F_TARGET] = -1
    state[C.F_OP_CARD_A] = -1
    state[C.F_OP_CARD_B] = -1
    state[C.F_TRIGGER_SEAT] = -1
    state[C.F_TRIGGER_REASON] = -1
    state[C.F_SKIP_ORIGIN] = rules[R.R_SKIP_ORIGIN]
    state[C.F_PER_KIND] = rules[R.R_PER_KIND]
    state[C.F_OP_COST] = rules[R.R_OP_COST]
    n_slots = rules[R.R_SLOTS]
    state[C.F_N_SLOTS] = n_slots
    # R2, A19: the initial player
    first = rules[R.R_FIRST_PLAYER]
    if first < 0:
        first = randint(rng, n_players)
    state[L.H_FIRST] = first
    # R2, A16: the farm order, shared by every player (House at position 0)
    state[C.F_FARM_KIND] = C.HOUSE
    for i in range(6):
        state[C.F_FARM_KIND + 1 + i] = (
            C.FARM_CARDS[i] if rules[R.R_FARM_RANDOM] else rules[R.R_FARM_ORDER + i]
        )
    if rules[R.R_FARM_RANDOM]:
        shuffle(rng, state[C.F_FARM_KIND + 1 : C.F_FARM_KIND + C.N_POSITIONS], 6)
    for p in range(C.N_POSITIONS):
        state[C.F_FARM_WATER + p] = rules[R.R_FARM_WATER + state[C.F_FARM_KIND + p]]
    # R5: shuffle the market deck; the stack runs from bottom (index 0) to top
    n_cards = C.N_FRUIT_KINDS * rules[R.R_PER_KIND]
    for card in range(n_cards):
        state[C.F_STACK + card] = card
    for card in range(C.MAX_CARDS):
        state[C.F_CARD_OWNER + card] = -1
    shuffle(rng, state[C.F_STACK : C.F_STACK + n_cards], n_cards)
    state[C.F_STACK_LEFT] = n_cards
    # R3, R4: storage and the setup seeds on positions 1, 2, 3
    for seat in range(n_players):
        base = seat_base(seat)
        left = rules[R.R_SEEDS]
        for i in range(6):
            state[base + C.SEAT_SEEDS + 1 + i] = rules[R.R_SETUP_SEEDS + i]
            left -= rules[R.R_SETUP_SEEDS + i]
        state[base + C.SEAT_STORAGE] = left
    # R5: fill the market from the +0 end toward the stack (umbrellas fire even now, V1); with
    # fewer cards than slots the empty slots are then at the +3 end, where A6 keeps them
    for s in range(C.MAX_SLOTS):
        set_slot(state, rules, s, -1)
    for s in range(n_slots - 1, -1, -1):
        if state[C.F_STACK_LEFT] > 0:
            set_slot(state, rules, s, draw_card(state, rules, True))
    if state[C.F_STACK_LEFT] == 0:
        trigger_end(state, -1, C.END_STACK_EXHAUSTED)  # A7: the last card was drawn at setup
    state[L.H_SEAT] = first
    start_turn(state, rules)


# Turns -------------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def farm_is_empty(state, base):
    """True when no farm card but the House holds a seed (R7)."""
    for p in range(1, C.N_POSITIONS):
        if state[base + C.SEAT_SEEDS + p] > 0:
            return False
    return True


@njit(**RULES_JIT)
def no_seeds_rule(state, rules, seat):
    """R7, A11: 1 seed on each of positions 1..3 (``no_seed_refill``). 2014 wording: House seeds
    back to storage first, then the seeds come from storage; 2020: from storage, and from the
    House only once storage is empty."""
    base = seat_base(seat)
    refill = rules[R.R_NO_SEED_REFILL]
    if rules[R.R_NO_SEED_2020] == 0:
        back = min(refill, state[base + C.SEAT_SEEDS])
        state[base + C.SEAT_SEEDS] -= back
        state[base + C.SEAT_STORAGE] += back
    for p in range(1, refill + 1):
        if state[base + C.SEAT_STORAGE] > 0:
            state[base + C.SEAT_STORAGE] -= 1
            state[base + C.SEAT_SEEDS + p] += 1
        elif rules[R.R_NO_SEED_2020] and state[base + C.SEAT_SEEDS] > 0:
            state[base + C.SEAT_SEEDS] -= 1  # 2020: the House makes up for a short storage
            state[base + C.SEAT_SEEDS + p] += 1
    state[counter_index(seat, C.C_NO_SEED_TURNS)] += 1


@njit(**HOT_RULES_JIT)
def start_turn(state, rules):
    """Begin the acting seat's turn: the R7 check first (R6), else a planting decision."""
    while state[L.H_OVER] == 0:
        seat = state[L.H_SEAT]
        if not farm_is_empty(state, seat_base(seat)):
            state[L.H_PHASE] = C.PHASE_PLANT
            return
        no_seeds_rule(state, rules, seat)  # R7 ends the turn: next seat
        finish_turn(state)


@njit(**HOT_RULES_JIT)
def finish_turn(state):
    """R19, R21, A18: count the turn; end the game after the round's last seat, else pass on."""
    state[L.H_TURNS] += 1
    state[C.F_TARGET] = -1
    seat = state[L.H_SEAT]
    following = seat + 1 if seat + 1 < state[L.H_N_PLAYERS] else 0  # clockwise (no division)
    # the round ends with "the player to the right of the initial player": the one before them
    if state[L.H_TRIGGERED] and following == state[L.H_FIRST]:
        state[L.H_OVER] = 1
        state[L.H_END_REASON] = state[C.F_TRIGGER_REASON]
    elif not end_turn_cap_reached(state):
        state[L.H_SEAT] = following


@njit(**HOT_RULES_JIT)
def end_turn(state, rules):
    """End the acting seat's turn and start the next one (R19, R6)."""
    finish_turn(state)
    start_turn(state, rules)


@njit(**HOT_RULES_JIT)
def plant(state, origin, skip_origin, seat):
    """R8, R9, A4: plant all seeds of ``origin`` one per card clockwise; return the target.

    Seed j (1-based) lands j cards on, so each full lap of 7 seeds puts one on every card, the
    origin included (A4 default), and the rest go one each to the next cards. When lapping skips
    the origin (A4 option), a lap is the 6 other cards.
    """
    base = seat_base(seat) + C.SEAT_SEEDS
    hand = state[base + origin]
    state[base + origin] = 0
    cards = C.N_POSITIONS - 1 if skip_origin else C.N_POSITIONS
    laps, rest = 0, hand
    if hand >= cards:  # rare: most plantings carry fewer seeds than a lap
        laps, rest = hand // cards, hand % cards
        for p in range(C.N_POSITIONS):
            if p != origin or not skip_origin:
                state[base + p] += laps
    pos = origin
    for _ in range(rest):  # rest < cards, so these never reach the origin again
        pos = pos + 1 if pos + 1 < C.N_POSITIONS else 0
        state[base + pos] += 1
    if skip_origin:
        return (origin + (hand - 1) % cards + 1) % C.N_POSITIONS
    return (origin + hand) % C.N_POSITIONS


@njit(**HOT_RULES_JIT)
def after_planting(state, rules, seat, target):
    """R10, A3: a House target means planting again; else the target decision (R11)."""
    if target == 0:
        state[counter_index(seat, C.C_HOUSE_REPEATS)] += 1
        if farm_is_empty(state, seat_base(seat)):
            no_seeds_rule(state, rules, seat)  # A3
            end_turn(state, rules)
        return
    state[C.F_TARGET] = target
    state[L.H_PHASE] = C.PHASE_TARGET


@njit(**HOT_RULES_JIT)
def water(state, seat):
    """R12, A5: add the target's fruits/raindrops from storage (fewer if storage runs short)."""
    base = seat_base(seat)
    target = state[C.F_TARGET]
    moved = min(state[C.F_FARM_WATER + target], state[base + C.SEAT_STORAGE])
    state[base + C.SEAT_STORAGE] -= moved
    state[base + C.SEAT_SEEDS + target] += moved
    state[counter_index(seat, C.C_WATERINGS)] += 1


@njit(**INLINE_JIT)
def check_end_by_cards(state, rules, seat):
    """R20, R21 (sets) and V3, A15 (cards owned) after a purchase."""
    base = seat_base(seat)
    mask = sets_mask(state, base)
    state[base + C.SEAT_SETS] = mask
    sets_in_use = rules[R.R_BEGINNERS] == 0 or rules[R.R_BEGINNER_SETS] == 1
    if sets_in_use and mask != 0 and state[base + C.SEAT_COMPLETED] == 0:
        state[base + C.SEAT_COMPLETED] = 1
        state[counter_index(seat, C.C_SET_TURN)] = state[L.H_TURNS] + 1
        for i in range(4):  # the set(s) this purchase completed, by type (SET_NAMES order)
            state[counter_index(seat, C.C_SET_VARIETY + i)] = (mask >> i) & 1
        trigger_end(state, seat, C.END_SET_COMPLETED)
    if rules[R.R_BEGINNERS] and state[base + C.SEAT_N_CARDS] >= rules[R.R_BEGINNER_CARDS]:
        trigger_end(state, seat, C.END_CARDS_BOUGHT)


@njit(**INLINE_JIT)
def buy(state, rules, seat, slot):
    """R13-R17: pay from the House, return the target's seeds, take the card."""
    base = seat_base(seat)
    target = state[C.F_TARGET]
    card = state[C.F_MARKET_CARD + slot]
    price = state[C.F_MARKET_PRICE + slot]
    state[base + C.SEAT_SEEDS] -= price  # R14, R16: House seeds are money ...
    state[base + C.SEAT_STORAGE] += price  # ... and go back to storage
    state[base + C.SEAT_STORAGE] += state[base + C.SEAT_SEEDS + target]  # R16
    state[base + C.SEAT_SEEDS + target] = 0
    state[C.F_TARGET] = -1  # the target has been used; a V2 decision may follow
    state[base + C.SEAT_OWNED + card // rules[R.R_PER_KIND]] += 1  # R17
    state[C.F_CARD_OWNER + card] = seat
    state[base + C.SEAT_FRUITS] += rules[R.R_CARD_FRUITS + card]
    state[base + C.SEAT_N_CARDS] += 1
    state[counter_index(seat, C.C_CARDS_BOUGHT)] += 1
    check_end_by_cards(state, rules, seat)
    slide_market(state, rules, slot)


@njit(**INLINE_JIT)
def can_pay_market_op(state, rules, seat):
    """V2, A14: the stack holds 2+ cards and the buyer can pay from the House (or storage)."""
    if not rules[R.R_MARKET_OP] or state[C.F_STACK_LEFT] < 2:
        return False
    where = C.SEAT_STORAGE if rules[R.R_OP_FROM_STORAGE] else C.SEAT_SEEDS
    return state[seat_base(seat) + where] >= rules[R.R_OP_COST]


@njit(**INLINE_JIT)
def refill(state, rules, seat):
    """R18: draw the top card into the leftmost empty slot, unless V2 asks the buyer first."""
    if state[C.F_STACK_LEFT] == 0:
        finish_refill(state, rules, seat)  # A6: slots stay empty
    elif can_pay_market_op(state, rules, seat):
        state[L.H_PHASE] = C.PHASE_MARKET_OP
    else:
        set_slot(state, rules, 0, draw_card(state, rules, True))
        finish_refill(state, rules, seat)


@njit(**INLINE_JIT)
def finish_refill(state, rules, seat):
    """A7: once the refill is complete, an empty stack triggers the end; the turn ends (R18)."""
    if state[C.F_STACK_LEFT] == 0:
        trigger_end(state, seat, C.END_STACK_EXHAUSTED)
    end_turn(state, rules)


@njit(**RULES_JIT)
def use_market_op(state, rules, seat):
    """V2, A14: pay, then draw two cards; the buyer then chooses which goes to the market."""
    base = seat_base(seat)
    cost = rules[R.R_OP_COST]
    if rules[R.R_OP_FROM_STORAGE]:
        state[base + C.SEAT_STORAGE] -= cost
        state[base + C.SEAT_OUT] += cost  # the paid seed leaves play (A14 alternative)
    else:
        state[base + C.SEAT_SEEDS] -= cost  # House seeds are money: back to storage
        state[base + C.SEAT_STORAGE] += cost
    state[counter_index(seat, C.C_MARKET_OPS)] += 1
    state[C.F_OP_CARD_A] = draw_card(state, rules, False)
    state[C.F_OP_CARD_B] = draw_card(state, rules, False)
    state[L.H_PHASE] = C.PHASE_OP_CHOOSE


@njit(**RULES_JIT)
def keep_drawn_card(state, rules, seat, which):
    """V2: one drawn card to the market (its umbrella fires now if only entering counts, A13),
    the other to the bottom of the stack."""
    kept = state[C.F_OP_CARD_A] if which == 0 else state[C.F_OP_CARD_B]
    other = state[C.F_OP_CARD_B] if which == 0 else state[C.F_OP_CARD_A]
    state[C.F_OP_CARD_A] = -1
    state[C.F_OP_CARD_B] = -1
    if rules[R.R_UMBRELLA] and rules[R.R_CARD_UMBRELLA + kept] and not rules[R.R_UMBRELLA_ANY_DRAW]:
        fire_umbrella(state, rules, kept)
    set_slot(state, rules, 0, kept)
    put_on_bottom(state, other)
    finish_refill(state, rules, seat)


# The kernel interface (cardsim.core.kernel) ------------------------------------------------------


@njit(**HOT_RULES_JIT)
def legal(state, out):
    """Legal decision codes of the pending decision, in canonical order (cards.py)."""
    phase = state[L.H_PHASE]
    seat = state[L.H_SEAT]
    base = seat_base(seat)
    n = 0
    # Each candidate is written, and kept by advancing n only when legal: no branch to mispredict
    # (seeds and market cards are random, so a branch per candidate was often mispredicted:
    # 66 -> 54 ns per turn, 2p random). n stays below MAX_LEGAL: 6 positions; 1 + MAX_SLOTS codes.
    if phase == C.PHASE_PLANT:
        for p in range(1, C.N_POSITIONS):  # R8: any card but the House holding a seed
            out[n] = p
            n += state[base + C.SEAT_SEEDS + p] > 0
    elif phase == C.PHASE_TARGET:
        out[0] = C.WATER  # A5: watering is always allowed
        n = 1
        kind = state[C.F_FARM_KIND + state[C.F_TARGET]]
        money = state[base + C.SEAT_SEEDS]
        for s in range(state[C.F_N_SLOTS]):  # R13, A5: same fruit, any slot, price payable
            out[n] = C.BUY_SLOT + s
            n += (state[C.F_MARKET_KIND + s] == kind) & (state[C.F_MARKET_PRICE + s] <= money)
    else:  # PHASE_MARKET_OP: DECLINE, USE; PHASE_OP_CHOOSE: first card, second card
        out[0] = 0
        out[1] = 1
        n = 2
    return n


@njit(**HOT_RULES_JIT)
def apply(state, rules, decision, rng):
    """Apply one legal decision and advance to the next pending decision (module docstring)."""
    phase = state[L.H_PHASE]
    seat = state[L.H_SEAT]
    if phase == C.PHASE_PLANT:
        target = plant(state, decision, state[C.F_SKIP_ORIGIN], seat)
        after_planting(state, rules, seat, target)
    elif phase == C.PHASE_TARGET:
        if decision == C.WATER:
            water(state, seat)
            end_turn(state, rules)
        else:
            buy(state, rules, seat, decision - C.BUY_SLOT)
            refill(state, rules, seat)
    elif phase == C.PHASE_MARKET_OP:
        if decision == C.USE:
            use_market_op(state, rules, seat)
        else:
            set_slot(state, rules, 0, draw_card(state, rules, True))
            finish_refill(state, rules, seat)
    else:
        keep_drawn_card(state, rules, seat, decision)


@njit(**RULES_JIT)
def observe(state, seat, buf):
    """Everything but the stack order is public (A17): ``buf`` is ``state[:PUBLIC_END]`` already
    (``RULESET.obs_is_state_prefix``), so there is nothing to copy."""
    return buf


@njit(**RULES_JIT)
def farm_seeds(state, base):
    """Seeds on the 7 farm cards, House included (R22 second tie-break, A10)."""
    total = 0
    for p in range(C.N_POSITIONS):
        total += state[base + C.SEAT_SEEDS + p]
    return total


@njit(**RULES_JIT)
def qualifies(state, rules, base):
    """R22: completed a set; V3, A15: owns enough cards (or also a set, by option)."""
    if rules[R.R_BEGINNERS]:
        enough = state[base + C.SEAT_N_CARDS] >= rules[R.R_BEGINNER_CARDS]
        return enough or (rules[R.R_BEGINNER_SETS] == 1 and state[base + C.SEAT_COMPLETED] == 1)
    return state[base + C.SEAT_COMPLETED] == 1


@njit(**RULES_JIT)
def best_cards(state, rules, seat, kind, count):
    """The most printed fruits on ``count`` (1-4: a set needs at most 4 cards of one kind) of
    ``seat``'s cards of ``kind``; -1 if it owns fewer."""
    t0 = t1 = t2 = t3 = 0  # the four highest counts seen, highest first (no allocation here)
    have = 0
    per_kind = rules[R.R_PER_KIND]
    for card in range(kind * per_kind, (kind + 1) * per_kind):
        if state[C.F_CARD_OWNER + card] != seat:
            continue
        have += 1
        f = rules[R.R_CARD_FRUITS + card]
        if f > t0:
            t0, f = f, t0
        if f > t1:
            t1, f = f, t1
        if f > t2:
            t2, f = f, t2
        if f > t3:
            t3 = f
    if have < count:
        return -1
    return t0 + (t1 if count > 1 else 0) + (t2 if count > 2 else 0) + (t3 if count > 3 else 0)


@njit(**RULES_JIT)
def set_card_fruits(state, rules, seat):
    """A9 ``set_cards``: the most fruits on the cards forming one set the seat's cards contain
    (Variety 1 of each kind, Greedy 4 of a kind, Smiley 2 of each of 3 kinds, Family 3 of a kind
    and 2 of another, R20), the best choice of set and of cards; -1 if they contain none."""
    best = -1
    variety = 0
    for kind in range(C.N_FRUIT_KINDS):
        one = best_cards(state, rules, seat, kind, 1)
        variety = variety + one if one >= 0 and variety >= 0 else -1
        best = max(best, best_cards(state, rules, seat, kind, 4))  # Greedy
        three = best_cards(state, rules, seat, kind, 3)
        for other in range(C.N_FRUIT_KINDS):  # Family
            pair = best_cards(state, rules, seat, other, 2)
            if other != kind and three >= 0 and pair >= 0:
                best = max(best, three + pair)
    best = max(best, variety)
    for a in range(C.N_FRUIT_KINDS):  # Smiley: three kinds with a pair each
        pair_a = best_cards(state, rules, seat, a, 2)
        for b in range(a + 1, C.N_FRUIT_KINDS):
            pair_b = best_cards(state, rules, seat, b, 2)
            for c in range(b + 1, C.N_FRUIT_KINDS):
                pair_c = best_cards(state, rules, seat, c, 2)
                if pair_a >= 0 and pair_b >= 0 and pair_c >= 0:
                    best = max(best, pair_a + pair_b + pair_c)
    return best


@njit(**RULES_JIT)
def tiebreak_fruits(state, rules, seat):
    """R22's first tie-break: the fruits on all the seat's market cards, or (A9 ``set_cards``) on
    the cards of its best set when it completed one."""
    base = seat_base(seat)
    if rules[R.R_TIEBREAK_SET_CARDS] and state[base + C.SEAT_COMPLETED]:
        return set_card_fruits(state, rules, seat)
    return state[base + C.SEAT_FRUITS]


@njit(**RULES_JIT)
def seat_key(state, rules, seat):
    """(qualifies, tie-break fruits, farm seeds): R22 compares seats in this order (A9, A10)."""
    base = seat_base(seat)
    return (
        1 if qualifies(state, rules, base) else 0,
        tiebreak_fruits(state, rules, seat),
        farm_seeds(state, base),
    )


@njit(**RULES_JIT)
def finalize(state, rules, game_row, seat_rows):
    """R22, A8-A10, A15: score = fruits on market cards; winners and ranks; counters."""
    n = state[L.H_N_PLAYERS]
    any_qualified = False
    for seat in range(n):
        any_qualified = any_qualified or qualifies(state, rules, seat_base(seat))
    nobody_wins = not any_qualified and rules[R.R_NO_SET_WINNER_NONE] == 1  # A8 alternative
    for seat in range(n):
        key = seat_key(state, rules, seat)
        better = 0
        for other in range(n):
            if seat_key(state, rules, other) > key:
                better += 1
        row = seat_rows[seat]
        base = seat_base(seat)
        row[L.S_SCORE] = state[base + C.SEAT_FRUITS]  # the fruits on its cards (R22)
        row[L.S_RANK] = better + 1
        row[L.S_WIN] = 1 if better == 0 and not nobody_wins else 0
        extra = len(L.SEAT_COLUMNS)
        for c in range(C.N_COUNTERS):
            row[extra + c] = state[counter_index(seat, c)]
        row[extra + C.C_FRUITS] = state[base + C.SEAT_FRUITS]
        row[extra + C.C_FARM_SEEDS] = key[2]
        row[extra + C.C_TIEBREAK_FRUITS] = key[1]
        row[extra + C.C_SET_COMPLETED] = state[base + C.SEAT_COMPLETED]
    extra = len(L.GAME_COLUMNS)
    game_row[extra + 0] = state[C.F_TRIGGER_SEAT]
    game_row[extra + 1] = state[C.F_UMBRELLA_TRIGGERS]
    game_row[extra + 2] = state[C.F_STACK_LEFT]


@njit(**RULES_JIT)
def deal(state, rules, n_players, rng, out):
    """``setup``, then the legal decisions of the first real choice (core loop contract)."""
    setup(state, rules, n_players, rng)
    if state[L.H_OVER]:
        return 0
    n = legal(state, out)
    return n if n > 1 else step(state, rules, out[0], rng, out)


@njit(**INLINE_JIT)
def step(state, rules, decision, rng, out):
    """``apply``, then forced decisions (only one legal: a Rain target, a target with nothing to
    buy) until the next real choice, whose legal decisions it returns (core loop contract)."""
    while True:
        apply(state, rules, decision, rng)
        if state[L.H_OVER]:
            return 0
        n = legal(state, out)
        if n > 1:
            return n
        decision = out[0]


PLAY_KERNELS = play_kernels(deal, step, observe, finalize)
"""(deal, step, observe, finalize) for ``cardsim.core.kernel``."""

KERNELS = (setup, legal, apply, observe, finalize)
"""The rules one call at a time, for tests and tools that drive a game from Python."""
