"""Piepmatz compiled engine: deal, legal decisions, apply, phases B and C, final discard, scoring.

Every rule cites ``piepmatz.md``. The state layout and decision codes are in ``cards.py``; the
rules vector in ``rules.py`` (which already applies the 2-player removal of the "3+" cards); the
play loop that calls these kernels is ``cardsim.core.kernel``.

Chance (the game's ``rng`` stream, ``cardsim.core.rng``), in this order:

1. at the deal: the start player, ``randint(n_players)``, when ``first_player`` is random (R7, A23);
2. the feeder deck: its cards in code order (``seed_counts`` worth 1, then 2, then 3, then the
   crows, then the squirrels), ``shuffle``d; index 0 is the bottom, the last index the top (R3);
3. the column (R3, A1): cards from the top; a seed card goes to the lowest empty position, a bad
   card is set aside, until the column holds ``seed_column_size`` seed cards; if any bad card was
   set aside, the set-aside cards go on top of the deck in the order drawn and the whole deck is
   ``shuffle``d again;
4. 2 players with ``two_player_removed_species`` random: ``randint(species)`` is removed (R4, A2);
5. the bird deck: the birds of the species in the game in code order (``cards.py``), ``shuffle``d;
   one bird from the top onto each perch 0, 1, ... (R4); ``hand_size`` rounds of one card each,
   clockwise from the start player (R5); ``queue_size`` cards face up as the queue (R6);
6. during play, squirrels (R21, A11): for each stolen card, ``randint(pile size)`` picks the
   card at that index of the pile listed by value (its 1-point cards, then 2, then 3); and with
   ``crow_victim`` random (A10's alternative) each crow: ``randint(victims)`` picks the victim at
   that index of the CROW decision's legal list.

Decisions (a phase lists its legal codes in ascending code order; one legal code is applied without
asking a bot, ``core/kernel.py``):

- PLAY (R9, A4): ``play_code(bird, perch)`` for every hand card (ascending) and every perch.
- KEEP (R24, A13, A14): ``C_NO_KEEP``, then ``C_KEEP + bird`` for every hand card whose strength is
  at most the strength of the card just played. Offered after a failed first comparison when such a
  card exists (with ``keep_option_after_chain`` also when a chain ends).
- CROW (R20, A10): ``C_CROW + bird`` for every bird of the collection in a species with the most
  birds (the bird just collected counts).
- DRAW (R25, A15): ``C_DRAW + bird`` for every queue card, then ``C_DRAW_DECK`` while the bird deck
  is not empty; one card per decision, until the hand holds ``hand_size``; the queue is refilled from
  the deck after each queue card taken (the new card goes to the queue's end). With neither, the
  hand stays short (A16 play_on) or the end is triggered (A16 trigger_end).
- DISCARD (R31, A19): the final discard, one card per decision, each card a higher code than the
  seat's last one (so each set of cards once): ``C_DISCARD + bird`` for every hand card above the
  last discarded one that leaves enough higher cards for the discards still due. A seat with ``n``
  cards discards ``max(0, n - (hand_size - final_discard))`` (A16). Seats discard in turn order from
  the start player; the table does not change until every seat is done (the discards are secret:
  the public hand counts keep their value), then every hand joins its collection.

Phase B (R11-R23): the row's ground total against its perched bird; while it is greater, step 1
takes the seed card at position ``d`` (and a bad card beside it, A7 option for a lone one) or, with
``d`` above ``seed_column_size``, the feeder deck's top card (R16; an empty deck triggers the end,
R17, A9); step 2 the perched bird joins the collection; step 3 a crow (a CROW decision) or a
squirrel (chance) acts; step 4 the strongest ground bird (``promote_by``, ties to the perch, R22,
A21) moves up and the others close up. During a CROW decision the perch is empty (-1).
Phase C: draws, then the column is refilled (R26-R28); the turn passes. The end (R29, A17) is
triggered by an attempted draw from the empty feeder deck (``end_trigger`` deck_emptied: by the
draw that empties it); the round completes (R30, A18): the game ends after the turn of the seat
before the start player, then R31 and scoring. A turn starts with an empty hand only when the bird
supply is gone: it skips phases A and B; if every hand and the supply are empty the game ends at
once (A16).

The turn cap (a safeguard, not a rule) ends the game after a turn that reaches it, even one that
also ends the final round; no bot is asked then: each seat discards its lowest-coded cards, then
R32-R36 score the game.

After every decision the engine writes the deciding seat's view (its hand, every scoring pile as
it knows it and the cards it saw enter each, A22, and its own final discards, R31) after the public
table: a bot's observation is the state's prefix. The public table also keeps what every player
saw that the table no longer shows (the crows' victims, the bad cards drawn, the birds taken from
the queue into a hand, the squirrels' log): a search bot's determinizer reads only the prefix
(``determinize.py``, docs/search.md).

Speed: the functions a turn runs through (``advance`` and what it calls on the way to the next
decision: play, chain, crow, keep, draw, settle, the column and queue refills, the turn's end and
start; ``legal`` and ``show_view``) are ``INLINE_JIT``: LLVM inlines them into ``step`` and so
into the play loop. As calls, each passed ``state`` and ``rules`` as seven words apiece. Replaying
2,000 recorded 4-player planner games through ``deal``/``step`` (same games), alternated, min of
15: 337 -> 257 ns of process CPU per turn (load 2.7); the cold compile did not grow (``cardsim
run piepmatz -n 100 -p 4`` from an empty cache: 34.4 s wall against 39.7 for the code before,
load 2.7-3.0).

Files: ``state.py`` (the table, the deal and the moves the rules are made of), ``scoring.py``
(the game's end and scoring); here a turn's phases (A: play, B: resolve, C: draw), the legal decisions,
the views and the kernels.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.kernel import end_turn_cap_reached, first_class_kernels
from cardsim.core.rng import randint
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import rules as R
from cardsim.games.piepmatz.scoring import (
    discard,
    discards_due,
    end_reason_of,
    finish_game,
    next_discarder,
    turn_cap_end,
)
from cardsim.games.piepmatz.state import (
    collect,
    count,
    deal_birds,
    deal_feeder,
    draw_bird,
    draw_feeder,
    empty_perch,
    ground_total,
    hand_add,
    hand_card,
    hand_len,
    hand_remove,
    perched_strength,
    pop_column,
    promote,
    refill_column,
    refill_queue,
    release,
    row_append,
    seat_at,
    squirrel,
    strength,
    take_bad,
    take_seed,
    trigger,
    whole,
)


@njit(**RULES_JIT)
def setup(state, rules, n_players, rng):
    """Deal a new game into a zeroed ``state`` (R2-R7)."""
    state[L.H_N_PLAYERS] = n_players
    state[L.H_END_REASON] = -1
    state[C.F_TRIGGER_TURN] = -1
    state[C.F_PLAYED] = -1
    state[C.F_PLAYED_PERCH] = -1
    state[C.F_LAST_DISCARD] = -1
    for s in range(C.MAX_STRENGTH):
        state[C.F_BIRD_POINTS + s] = rules[R.R_BIRD_POINTS + s]
    state[C.F_PAIR_POINTS] = rules[R.R_PAIR_POINTS]
    state[C.F_COLUMN_SIZE] = rules[R.R_COLUMN_SIZE]
    state[C.F_PUBLIC_PILES] = rules[R.R_PUBLIC_PILES]
    state[C.F_REVEAL_ALL] = rules[R.R_REVEAL_ALL]
    first = rules[R.R_FIRST_PLAYER]
    if first < 0:
        first = randint(rng, n_players)  # R7, A23
    state[L.H_FIRST] = first
    deal_feeder(state, rules, rng)
    deal_birds(state, rules, n_players, rng)
    start_turn(state, rules, first)
    settle(state, rules)
    show_view(state)


# Turn flow -------------------------------------------------------------------------------------------


@njit(**INLINE_JIT)
def start_turn(state, rules, seat):
    """A seat's turn: phase A, or phase C at once with an empty hand; the game ends at once when
    every hand and the bird supply are empty (A16)."""
    state[L.H_SEAT] = seat
    state[C.F_PLAYED] = -1
    state[C.F_PLAYED_PERCH] = -1
    if hand_len(state, seat) > 0:
        state[L.H_PHASE] = C.PHASE_PLAY
        return
    if state[C.F_BIRDS_LEFT] == 0 and state[C.F_QUEUE_LEN] == 0:
        empty = True
        for other in range(state[L.H_N_PLAYERS]):
            empty = empty and hand_len(state, other) == 0
        if empty:
            finish_game(state, rules, C.END_NO_CARDS)
            return
    state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def end_turn(state, rules):
    """The turn is over: the turn cap, the last turn of the final round (R30, A18), or the next
    seat clockwise (R8)."""
    state[L.H_TURNS] += 1
    seat = whole(state[L.H_SEAT])
    n_players = state[L.H_N_PLAYERS]
    if end_turn_cap_reached(state):
        turn_cap_end(state, rules)
        return
    if state[L.H_TRIGGERED] and next_seat(seat, n_players) == state[L.H_FIRST]:
        next_discarder(state, rules, end_reason_of(state), 0)
        return
    start_turn(state, rules, next_seat(seat, n_players))


@njit(**HOT_RULES_JIT)
def next_seat(seat, n_players):
    """The seat clockwise of ``seat`` (R8), by a select: ``%`` of the int32 player count was a
    division at every turn's end."""
    seat += 1
    return 0 if seat == n_players else seat


@njit(**INLINE_JIT)
def settle(state, rules):
    """Run phase C (R25-R28) and the turns that follow until a decision is pending: a DRAW while
    the hand is short and a bird is there; then the column, the end of the turn, the next turn
    (which may skip to phase C with an empty hand, A16). A loop, not calls between the turn
    functions: numba compiles no mutual recursion."""
    while state[L.H_OVER] == 0 and state[L.H_PHASE] == C.PHASE_C:
        seat = whole(state[L.H_SEAT])
        if hand_len(state, seat) < rules[R.R_HAND_SIZE]:
            if state[C.F_QUEUE_LEN] > 0 or state[C.F_BIRDS_LEFT] > 0:
                state[L.H_PHASE] = C.PHASE_DRAW
                return
            if rules[R.R_BIRDS_TRIGGER]:
                trigger(state, C.TRIGGER_BIRDS)  # A16 trigger_end
        refill_column(state, rules)
        end_turn(state, rules)


@njit(**HOT_RULES_JIT)
def keep_candidates(state, seat):
    """Hand cards the R24 option may add: strength at most the played card's (A14)."""
    limit = strength(state[C.F_PLAYED])
    n = 0
    for i in range(hand_len(state, seat)):
        n += strength(hand_card(state, seat, i)) <= limit
    return n


@njit(**INLINE_JIT)
def offer_keep(state):
    """R24: the option when a hand card qualifies, else phase C."""
    if keep_candidates(state, state[L.H_SEAT]) > 0:
        state[L.H_PHASE] = C.PHASE_KEEP
    else:
        state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def chain(state, rules, rng):
    """R12-R23 from a compared row: repeat steps 1-5 while the ground total is greater. Returns
    early, perch empty, when a crow needs its CROW decision."""
    seat = whole(state[L.H_SEAT])
    perch = state[C.F_PLAYED_PERCH]
    row = C.F_ROWS + perch * C.MAX_ROW
    while True:
        total = ground_total(state, perch)
        perched = perched_strength(state, perch)
        if total <= perched:
            break
        d = total - perched  # R13
        bad = C.NO_CARD
        if d <= rules[R.R_COLUMN_SIZE]:
            seeds = state[C.F_SEED_LEN]
            if d <= seeds:
                take_seed(state, seat, pop_column(state, C.F_SEED_COL, C.F_SEED_LEN, d - 1))
                if d <= state[C.F_BAD_LEN]:  # R14: the bad card beside it comes too
                    bad = take_bad(state, rules, d - 1, seeds)
            elif rules[R.R_LONE_BAD] and d <= state[C.F_BAD_LEN]:  # A7 alternative
                bad = take_bad(state, rules, d - 1, 0)
        else:  # R16, R17
            card = draw_feeder(state, rules, C.TRIGGER_CHAIN_DRAW)
            if card != C.NO_CARD:
                count(state, seat, C.C_DECK_DRAWS, 1)
                if card < C.CROW:
                    take_seed(state, seat, card)
                else:
                    bad = card
                    state[C.F_BAD_DRAWN + card - C.CROW] += 1  # shown to all (R16)
        collect(state, seat, state[row])  # R18
        empty_perch(state, perch)
        count(state, seat, C.C_PROMOTIONS, 1)
        if bad == C.CROW:  # R19, R20: the player chooses the bird
            count(state, seat, C.C_CROWS, 1)
            state[seat_at(seat, C.CROWS_TAKEN)] += 1
            if not rules[R.R_CROW_RANDOM]:
                state[L.H_PHASE] = C.PHASE_CROW
                return
            chase_away(state, seat, random_crow_victim(state, seat, rng))  # A10's alternative
        if bad == C.SQUIRREL:  # R19, R21
            count(state, seat, C.C_SQUIRRELS, 1)
            state[seat_at(seat, C.SQUIRRELS_TAKEN)] += 1
            squirrel(state, rules, seat, rng)
        promote(state, rules, perch)  # R22
    if rules[R.R_KEEP_AFTER_CHAIN]:  # A13 alternative
        offer_keep(state)
    else:
        state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def play(state, rules, bird, perch, rng):
    """R9-R11, R24: the card at the end of the row, then the comparison."""
    seat = whole(state[L.H_SEAT])
    hand_remove(state, seat, bird, True)
    row_append(state, perch, bird)
    state[C.F_PLAYED] = bird
    state[C.F_PLAYED_PERCH] = perch
    if ground_total(state, perch) > perched_strength(state, perch):
        count(state, seat, C.C_CHAINS, 1)
        chain(state, rules, rng)
    else:
        offer_keep(state)


@njit(**INLINE_JIT)
def chase_away(state, seat, bird):
    """R20: the crow's bird leaves ``seat``'s collection and the game, in everyone's sight."""
    release(state, seat, bird)
    species = whole(bird) // C.BIRDS_PER_SPECIES
    state[C.F_GONE + species] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)


@njit(**INLINE_JIT)
def crow(state, rules, bird, rng):
    """R20: the chosen bird leaves the game; the chain goes on with step 4."""
    chase_away(state, whole(state[L.H_SEAT]), bird)
    promote(state, rules, state[C.F_PLAYED_PERCH])
    chain(state, rules, rng)


@njit(**INLINE_JIT)
def keep(state, bird):
    """R24: the hand card joins the collection (or, ``C_NO_KEEP``, nothing does)."""
    if bird >= 0:
        seat = whole(state[L.H_SEAT])
        hand_remove(state, seat, bird, True)
        collect(state, seat, bird)
        count(state, seat, C.C_KEEPS, 1)
    state[L.H_PHASE] = C.PHASE_C


@njit(**INLINE_JIT)
def draw(state, rules, bird):
    """R25: a queue card (the queue closes up and is refilled) or, ``bird`` -1, the deck's top."""
    seat = whole(state[L.H_SEAT])
    if bird < 0:
        hand_add(state, seat, draw_bird(state))
    else:
        n = state[C.F_QUEUE_LEN]
        i = 0
        while state[C.F_QUEUE + i] != bird:
            i += 1
        species = whole(bird) // C.BIRDS_PER_SPECIES  # taken face up: a known hand card
        state[seat_at(seat, C.HAND_KNOWN + species)] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)
        for j in range(i, n - 1):
            state[C.F_QUEUE + j] = state[C.F_QUEUE + j + 1]
        state[C.F_QUEUE + n - 1] = 0
        state[C.F_QUEUE_LEN] = n - 1
        hand_add(state, seat, bird)
        refill_queue(state, rules)
    state[L.H_PHASE] = C.PHASE_C


# Legal decisions ---------------------------------------------------------------------------------------


@njit(**HOT_RULES_JIT)
def list_plays(state, seat, out):
    """Every hand card on every perch (R9). Each card writes MAX_PERCHES codes, a fixed count
    LLVM writes as one vector store; those past the game's perches are overwritten by the next
    card's or lie past the list (MAX_LEGAL has room). As a loop over the game's perches, ~9
    instructions a play."""
    perches = state[C.F_PERCHES]
    n = 0
    for i in range(hand_len(state, seat)):
        code = C.C_PLAY + hand_card(state, seat, i) * C.MAX_PERCHES
        for perch in range(C.MAX_PERCHES):
            # as_index: numba's negative-index fix-up of a counter, 4 instructions a play
            out[as_index(n + perch)] = code + perch
        n += perches
    return n


@njit(**HOT_RULES_JIT)
def list_keeps(state, seat, out):
    limit = strength(state[C.F_PLAYED])
    out[0] = C.C_NO_KEEP
    n = 1
    for i in range(hand_len(state, seat)):
        bird = hand_card(state, seat, i)
        if strength(bird) <= limit:
            out[n] = C.C_KEEP + bird
            n += 1
    return n


@njit(**RULES_JIT)
def list_crow_victims(state, seat, out):
    most = 0
    for species in range(C.MAX_SPECIES):
        most = max(most, state[seat_at(seat, C.SPECIES_BIRDS + species)])
    n = 0
    for species in range(C.MAX_SPECIES):
        if state[seat_at(seat, C.SPECIES_BIRDS + species)] != most:
            continue
        mask = state[seat_at(seat, C.COLLECTION + species)]
        for bit in range(C.BIRDS_PER_SPECIES):
            if mask >> bit & 1:
                out[n] = C.C_CROW + species * C.BIRDS_PER_SPECIES + bit
                n += 1
    return n


@njit(**RULES_JIT)
def random_crow_victim(state, seat, rng):
    """A10's alternative: a bird drawn uniformly from those ``list_crow_victims`` lists, by its
    index in that (ascending) list."""
    most = 0
    for species in range(C.MAX_SPECIES):
        most = max(most, state[seat_at(seat, C.SPECIES_BIRDS + species)])
    n = 0
    for species in range(C.MAX_SPECIES):
        if state[seat_at(seat, C.SPECIES_BIRDS + species)] == most:
            n += most
    k = randint(rng, n)
    for species in range(C.MAX_SPECIES):
        if state[seat_at(seat, C.SPECIES_BIRDS + species)] != most:
            continue
        mask = state[seat_at(seat, C.COLLECTION + species)]
        for bit in range(C.BIRDS_PER_SPECIES):
            if mask >> bit & 1:
                if k == 0:
                    return species * C.BIRDS_PER_SPECIES + bit
                k -= 1
    return -1


@njit(**HOT_RULES_JIT)
def list_draws(state, out):
    n = 0
    for i in range(state[C.F_QUEUE_LEN]):  # insertion sort: ascending codes
        code = C.C_DRAW + state[C.F_QUEUE + i]
        j = n
        while j > 0 and out[j - 1] > code:
            out[j] = out[j - 1]
            j -= 1
        out[j] = code
        n += 1
    if state[C.F_BIRDS_LEFT] > 0:
        out[n] = C.C_DRAW_DECK
        n += 1
    return n


@njit(**HOT_RULES_JIT)
def list_discards(state, rules, seat, out):
    due = discards_due(state, rules, seat)
    size = hand_len(state, seat)
    last = state[C.F_LAST_DISCARD]
    n = 0
    for i in range(size):
        bird = hand_card(state, seat, i)
        if bird > last and size - i >= due:
            out[n] = C.C_DISCARD + bird
            n += 1
    return n


@njit(**INLINE_JIT)
def legal(state, rules, out):
    """The pending decision's legal codes in ``out``, ascending; returns how many."""
    seat = whole(state[L.H_SEAT])
    phase = state[L.H_PHASE]
    if phase == C.PHASE_PLAY:
        return list_plays(state, seat, out)
    if phase == C.PHASE_KEEP:
        return list_keeps(state, seat, out)
    if phase == C.PHASE_CROW:
        return list_crow_victims(state, seat, out)
    if phase == C.PHASE_DRAW:
        return list_draws(state, out)
    return list_discards(state, rules, seat, out)


# Applying decisions ------------------------------------------------------------------------------------


@njit(**INLINE_JIT)
def show_view(state):
    """The deciding seat's own view after the public table (cards.py): its hand and the scoring
    piles as it knows them (A22: its own always; the others' cards seen entering them, card for
    card where it drew the squirrel's cards, its left neighbour's pile, or all are revealed).

    The piles are written when the deciding seat changes (``F_VIEW_PILES_FOR``), not at every
    decision: in a seat's turn only its own pile changes (R13, R16, R21), which ``take_seed``
    and ``squirrel`` write into its view as they go (``show_own_pile``). The engine alone, 4
    players, replaying recorded planner games: 8% less time per turn."""
    seat = whole(state[L.H_SEAT])
    n = hand_len(state, seat)
    state[C.F_ACTIVE_HAND_LEN] = n
    for i in range(C.MAX_HAND):  # a hand's places past its cards hold 0 (hand_remove)
        state[C.F_ACTIVE_HAND + i] = hand_card(state, seat, i)
    if state[C.F_VIEW_PILES_FOR] != seat + 1:
        state[C.F_VIEW_PILES_FOR] = seat + 1
        show_piles(state, seat)


@njit(**INLINE_JIT)
def show_piles(state, seat):
    """``show_view``'s scoring piles, as ``seat`` knows them (A22)."""
    n_players = state[L.H_N_PLAYERS]
    public = state[C.F_PUBLIC_PILES] != 0
    reveal_all = state[C.F_REVEAL_ALL] != 0
    right = seat - 1 if seat > 0 else n_players - 1  # the seat whose left neighbour it is
    for owner in range(C.MAX_PLAYERS):  # selects, not branches: they would mispredict
        present = owner < n_players
        exact = present & ((owner == seat) | (public & (reveal_all | (owner == right))))
        seen = present & public
        for v in range(C.SEED_VALUES):
            known = state[C.F_PILES + owner * C.SEED_VALUES + v]
            entered = state[C.F_ENTERED + owner * C.SEED_VALUES + v]
            value = known if exact else (entered if seen else 0)
            state[C.F_ACTIVE_PILES + owner * C.SEED_VALUES + v] = value
            own = present & (owner == seat)
            state[C.F_ACTIVE_ENTERED + owner * C.SEED_VALUES + v] = entered if seen | own else 0
        state[C.F_ACTIVE_EXACT + owner] = 1 if exact else 0


@njit(**INLINE_JIT)
def advance(state, rules, code, rng):
    """Apply one legal decision and run the rules to the next pending decision."""
    code = whole(code)
    if code < C.C_NO_KEEP:
        play(state, rules, (code - C.C_PLAY) // C.MAX_PERCHES, code % C.MAX_PERCHES, rng)
    elif code < C.C_CROW:
        keep(state, code - C.C_KEEP)  # C_NO_KEEP gives -1
    elif code < C.C_DRAW:
        crow(state, rules, code - C.C_CROW, rng)
    elif code < C.C_DISCARD:
        draw(state, rules, code - C.C_DRAW if code < C.C_DRAW_DECK else -1)
    else:
        discard(state, rules, code - C.C_DISCARD)
    settle(state, rules)


@njit(**RULES_JIT)
def apply(state, rules, code, rng):
    """``advance``, then the deciding seat's view."""
    advance(state, rules, code, rng)
    show_view(state)


# The kernel contract ---------------------------------------------------------------------------------


@njit(**RULES_JIT)
def deal(state, rules, n_players, rng, out):
    """``setup``, then the legal decisions of the first real choice (core loop contract)."""
    setup(state, rules, n_players, rng)
    if state[L.H_OVER]:
        return 0
    n = legal(state, rules, out)
    return n if n > 1 else step(state, rules, out[0], rng, out)


@njit(**INLINE_JIT)
def step(state, rules, decision, rng, out):
    """``apply``, then forced decisions until the next real choice (core loop contract). The
    deciding seat's view is written once, for the choice a bot is asked (no bot sees the states
    a forced decision passes through)."""
    while True:
        advance(state, rules, decision, rng)
        if state[L.H_OVER]:
            return 0
        n = legal(state, rules, out)
        if n > 1:
            show_view(state)
            return n
        decision = out[0]


@njit(**RULES_JIT)
def observe(state, seat, buf):
    """The public table and ``seat``'s own view into ``buf`` (for tools: the play loop hands bots
    the state's prefix, whose view is the deciding seat's)."""
    saved = state[L.H_SEAT]
    state[L.H_SEAT] = seat
    show_view(state)
    for i in range(C.OBS_LEN):
        buf[i] = state[i]
    state[L.H_SEAT] = saved
    buf[L.H_SEAT] = saved
    show_view(state)
    if seat != saved:  # the discarder's own discards are its secret (R31, A19)
        for species in range(C.MAX_SPECIES):
            buf[C.F_ACTIVE_DISCARDED + species] = 0
    for i in range(C.OBS_SCRATCH, C.OBS_LEN):
        buf[i] = 0
    return buf


@njit(**RULES_JIT)
def finalize(state, rules, game_row, seat_rows):
    """Scores, ranks, winners (R36: points, then pairs; still tied: a shared win) and counters."""
    n_players = state[L.H_N_PLAYERS]
    extra = len(L.SEAT_COLUMNS)
    for seat in range(n_players):
        row = seat_rows[seat]
        row[L.S_SCORE] = state[C.F_SCORE + seat]
        for c in range(C.N_COUNTERS):
            row[extra + c] = state[C.F_COUNTERS + seat * C.N_COUNTERS + c]
    for seat in range(n_players):
        key = seat_rows[seat, L.S_SCORE] * 64 + seat_rows[seat, extra + C.C_PAIRS]
        better = 0
        for other in range(n_players):
            if seat_rows[other, L.S_SCORE] * 64 + seat_rows[other, extra + C.C_PAIRS] > key:
                better += 1
        seat_rows[seat, L.S_RANK] = better + 1
        seat_rows[seat, L.S_WIN] = 1 if better == 0 else 0
    g = len(L.GAME_COLUMNS)
    game_row[g + 0] = state[C.F_FEEDER_LEFT]
    game_row[g + 1] = state[C.F_TRIGGER]
    game_row[g + 2] = state[C.F_TRIGGER_TURN]
    game_row[g + 3] = state[C.F_BIRDS_LEFT]
    game_row[g + 4] = state[C.F_REMOVED_SPECIES]
    game_row[g + 5] = state[C.F_BAD_REMOVED]


PLAY_KERNELS = first_class_kernels(deal, step, observe, finalize)
"""(deal, step, observe, finalize) for ``cardsim.core.kernel``."""

KERNELS = (setup, legal, apply, observe, finalize)
"""The rules one call at a time, for tests and tools that drive a game from Python."""
