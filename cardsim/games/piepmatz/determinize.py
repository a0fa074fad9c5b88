"""Piepmatz determinizer for search bots: a complete state drawn from what one seat knows.

What a seat knows (``docs/search.md``, "Determinization: Piepmatz"; piepmatz.md A15, A22): the
table (rows, queue, columns, collections, hand sizes, pile sizes and losses, the birds the crows
removed, ``F_GONE``, and the bad cards drawn, ``F_BAD_DRAWN``), the birds every seat took from the
queue and still holds (``HAND_KNOWN``), its own hand and final discards, and the scoring piles as
its view shows them (exact; or the cards seen entering; or, with private piles, nothing). Unseen
and dealt again uniformly here: the other hands' unknown cards and the bird deck (in any order);
the feeder deck's order; with private piles, the other piles' seed values and what the squirrels
took from them; with public piles and a pile the seat does not know card for card, which of the
cards that entered it its squirrels took (``F_SQUIRREL_LOG``: each squirrel again, from the cards
in the pile when it came).
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.jit import RULES_JIT
from cardsim.core.rng import randint, shuffle
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import rules as R
from cardsim.games.piepmatz.state import (
    bad_cards,
    hand_add,
    popcount,
    random_seed_value,
    seat_at,
)


@njit(**RULES_JIT)
def determinize(view, rules, rng, state):
    """A complete state consistent with ``view``, the observation of the seat ``view[H_SEAT]``
    that is to decide (int32 ``[OBS_LEN]``): the table and its view as in ``view``, the unseen
    birds and feeder cards dealt again uniformly where it cannot see. Reads nothing but ``view``
    and ``rules``; ``state`` (int32 ``[STATE_LEN]``) is written whole; the counters and the
    final score (bookkeeping no rule reads) are 0, but for those the table tells (``public_counts``)."""
    for i in range(C.STATE_LEN):
        state[i] = 0
    for i in range(C.F_SCRATCH):  # the table and the seat's view; the bot's room stays 0
        state[i] = view[i]
    seat = view[L.H_SEAT]
    state[C.F_PUBLIC_PILES] = rules[R.R_PUBLIC_PILES]
    state[C.F_REVEAL_ALL] = rules[R.R_REVEAL_ALL]
    state[C.F_VIEW_PILES_FOR] = seat + 1  # the view's piles are this seat's (engine.show_view)
    state[C.F_TRIGGER_TURN] = -1
    if view[L.H_TRIGGERED]:  # what triggered the end only names the end reason
        state[C.F_TRIGGER_TURN] = view[L.H_TURNS]
        supply = view[C.F_BIRDS_LEFT] + view[C.F_QUEUE_LEN]
        birds = rules[R.R_BIRDS_TRIGGER] != 0 and supply == 0
        state[C.F_TRIGGER] = C.TRIGGER_BIRDS if birds else C.TRIGGER_REFILL
    deal_birds_again(view, rules, rng, state)
    deal_feeder_again(view, rules, rng, state)
    public_counts(view, state)


@njit(**RULES_JIT)
def public_counts(view, state):
    """The bookkeeping the table tells: the bad cards the full column turned away (R27: drawn,
    yet neither in the column nor resolved) and each seat's bad-card counters."""
    removed = view[C.F_BAD_DRAWN] + view[C.F_BAD_DRAWN + 1] - bad_cards(view)
    for owner in range(view[L.H_N_PLAYERS]):
        crows = view[seat_at(owner, C.CROWS_TAKEN)]
        squirrels = view[seat_at(owner, C.SQUIRRELS_TAKEN)]
        removed -= crows + squirrels
        counters = C.F_COUNTERS + owner * C.N_COUNTERS
        state[counters + C.C_CROWS] = crows
        state[counters + C.C_SQUIRRELS] = squirrels
        state[counters + C.C_SQUIRREL_CARDS] = view[seat_at(owner, C.PILE_LOST)]
    state[C.F_BAD_REMOVED] = removed


# Birds -------------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def seen_birds(view, seat, species):
    """12-bit mask of the birds of ``species`` the seat can place: on the rows, in the queue, in
    a collection, removed by a crow, taken from the queue into a hand, its own hand and its own
    final discards."""
    mask = view[C.F_GONE + species] | view[C.F_ACTIVE_DISCARDED + species]
    for owner in range(view[L.H_N_PLAYERS]):
        mask |= view[seat_at(owner, C.COLLECTION + species)]
        mask |= view[seat_at(owner, C.HAND_KNOWN + species)]
    for perch in range(view[C.F_PERCHES]):
        for i in range(view[C.F_ROW_LEN + perch]):
            mask |= bit_of(view[C.F_ROWS + perch * C.MAX_ROW + i], species)
    for i in range(view[C.F_QUEUE_LEN]):
        mask |= bit_of(view[C.F_QUEUE + i], species)
    for i in range(view[C.F_ACTIVE_HAND_LEN]):
        mask |= bit_of(view[C.F_ACTIVE_HAND + i], species)
    return mask


@njit(**RULES_JIT)
def bit_of(bird, species):
    """``bird``'s bit in its species' mask if it is of ``species`` (not an empty perch, -1)."""
    if bird < 0 or bird // C.BIRDS_PER_SPECIES != species:
        return 0
    return 1 << (bird % C.BIRDS_PER_SPECIES)


@njit(**RULES_JIT)
def discarded_before(view, owner):
    """In the final discard (R31), ``owner`` has made its discards already: it comes before the
    deciding seat in turn order from the start player (A19: they are secret, not their number)."""
    if view[L.H_PHASE] != C.PHASE_DISCARD:
        return False
    n_players = view[L.H_N_PLAYERS]
    first = view[L.H_FIRST]
    return (owner - first) % n_players < (view[L.H_SEAT] - first) % n_players


@njit(**RULES_JIT)
def deal_birds_again(view, rules, rng, state):
    """The unseen birds (the game's birds, R4, A2, less every bird the seat can place) shuffled:
    the bird deck takes ``F_BIRDS_LEFT`` of them, each other hand its known birds and the rest of
    its public size; a seat that has made its final discard then loses that many of its cards,
    drawn uniformly (R31, A19)."""
    seat = view[L.H_SEAT]
    n_players = view[L.H_N_PLAYERS]
    pool = 0
    for species in range(rules[R.R_SPECIES]):
        if species == view[C.F_REMOVED_SPECIES]:
            continue
        unseen = ((1 << (2 * rules[R.R_STRENGTHS])) - 1) & ~seen_birds(view, seat, species)
        for bit in range(C.BIRDS_PER_SPECIES):
            if unseen >> bit & 1:
                state[C.F_BIRD_DECK + pool] = species * C.BIRDS_PER_SPECIES + bit
                pool += 1
    shuffle(rng, state[C.F_BIRD_DECK : C.F_BIRD_DECK + pool], pool)
    taken = view[C.F_BIRDS_LEFT]  # the deck keeps the first cards: its order is unseen too
    keep = rules[R.R_HAND_SIZE] - rules[R.R_FINAL_DISCARD]
    for owner in range(n_players):
        if owner == seat:
            for i in range(view[C.F_ACTIVE_HAND_LEN]):
                hand_add(state, owner, view[C.F_ACTIVE_HAND + i])
            state[C.F_DISCARDED] += view[seat_at(owner, C.HAND_COUNT)] - view[C.F_ACTIVE_HAND_LEN]
            continue
        size = view[seat_at(owner, C.HAND_COUNT)]
        for species in range(C.MAX_SPECIES):
            known = view[seat_at(owner, C.HAND_KNOWN + species)]
            size -= popcount(known)
            for bit in range(C.BIRDS_PER_SPECIES):
                if known >> bit & 1:
                    hand_add(state, owner, species * C.BIRDS_PER_SPECIES + bit)
        for _ in range(size):
            hand_add(state, owner, state[C.F_BIRD_DECK + taken])
            taken += 1
        if discarded_before(view, owner):
            discard_uniformly(state, rng, owner, max(0, view[seat_at(owner, C.HAND_COUNT)] - keep))
    for i in range(view[C.F_BIRDS_LEFT], pool):
        state[C.F_BIRD_DECK + i] = 0
    for owner in range(n_players):  # the public counts (hand_add counted the cards again)
        state[seat_at(owner, C.HAND_COUNT)] = view[seat_at(owner, C.HAND_COUNT)]


@njit(**RULES_JIT)
def discard_uniformly(state, rng, owner, due):
    """``due`` cards of ``owner``'s hidden hand leave the game, every subset alike."""
    base = C.F_HANDS + owner * C.MAX_HAND
    for _ in range(due):
        n = state[C.F_HAND_LEN + owner]
        for j in range(randint(rng, n), n - 1):
            state[base + j] = state[base + j + 1]
        state[base + n - 1] = 0
        state[C.F_HAND_LEN + owner] = n - 1
        state[C.F_DISCARDED] += 1


# Feeder ------------------------------------------------------------------------------------------


@njit(**RULES_JIT)
def deal_feeder_again(view, rules, rng, state):
    """The scoring piles and the feeder deck (R13-R17, R21, R26-R28, A22). A pile the view shows
    card for card is that; one whose entering cards it saw loses its ``PILE_LOST`` cards, drawn
    uniformly from them; with private piles the other piles, what the squirrels took from them
    and the deck's seed cards are one pool of unseen seed cards, dealt uniformly. The deck holds
    those seed cards and the bad cards not yet drawn (``F_BAD_DRAWN``), shuffled."""
    n_players = view[L.H_N_PLAYERS]
    public = rules[R.R_PUBLIC_PILES] != 0
    unseen = 0  # the unseen seed cards, stacked in the feeder area
    for v in range(C.SEED_VALUES):
        left = rules[R.R_SEEDS + v]
        for i in range(view[C.F_SEED_LEN]):
            left -= view[C.F_SEED_COL + i] == C.SEED + v + 1
        for owner in range(n_players):
            left -= view[C.F_ACTIVE_ENTERED + owner * C.SEED_VALUES + v]
        for _ in range(left):
            state[C.F_FEEDER + unseen] = C.SEED + v + 1
            unseen += 1
    shuffle(rng, state[C.F_FEEDER : C.F_FEEDER + unseen], unseen)
    for owner in range(n_players):
        at = owner * C.SEED_VALUES
        if view[C.F_ACTIVE_EXACT + owner]:
            for v in range(C.SEED_VALUES):
                state[C.F_PILES + at + v] = view[C.F_ACTIVE_PILES + at + v]
                state[C.F_ENTERED + at + v] = view[C.F_ACTIVE_ENTERED + at + v]
        elif public:
            for v in range(C.SEED_VALUES):
                state[C.F_ENTERED + at + v] = view[C.F_ACTIVE_ENTERED + at + v]
            replay_squirrels(view, rng, state, owner)
        else:  # private piles (A22): its cards and its losses come from the unseen pool
            for _ in range(view[seat_at(owner, C.PILE_SIZE)]):
                unseen -= 1
                card = state[C.F_FEEDER + unseen] - C.SEED - 1
                state[C.F_PILES + at + card] += 1
                state[C.F_ENTERED + at + card] += 1
            for _ in range(view[seat_at(owner, C.PILE_LOST)]):
                unseen -= 1
                state[C.F_ENTERED + at + state[C.F_FEEDER + unseen] - C.SEED - 1] += 1
    deck = view[C.F_FEEDER_LEFT]  # the seed cards left in the pool, then the bad cards
    for i in range(unseen, deck):
        state[C.F_FEEDER + i] = C.CROW
    for i in range(unseen + rules[R.R_CROWS] - view[C.F_BAD_DRAWN], deck):
        state[C.F_FEEDER + i] = C.SQUIRREL
    for i in range(deck, C.MAX_FEEDER):
        state[C.F_FEEDER + i] = 0
    shuffle(rng, state[C.F_FEEDER : C.F_FEEDER + deck], deck)


@njit(**RULES_JIT)
def replay_squirrels(view, rng, state, owner):
    """``owner``'s pile, known by the cards seen entering it: its squirrels again, in order
    (``F_SQUIRREL_LOG``), each taking its count of cards uniformly from the cards in the pile
    when it came (R21, A11), so a card that entered after a squirrel is never its loss: a draw
    from exactly what the seat knows of the pile."""
    piles = C.F_PILES + owner * C.SEED_VALUES
    for v in range(C.SEED_VALUES):
        state[piles + v] = 0
    before = -1  # the log entry of the pile's last squirrel so far
    for i in range(view[C.F_SQUIRRELS_LOGGED]):
        entry = C.F_SQUIRREL_LOG + i * C.SQUIRREL_ENTRY
        if view[entry + C.SQ_OWNER] == owner:
            gain_entries(view, state, owner, before, entry + C.SQ_ENTERED)
            lose_uniformly(state, rng, owner, view[entry + C.SQ_TAKEN])
            before = entry
    gain_entries(view, state, owner, before, C.F_ACTIVE_ENTERED + owner * C.SEED_VALUES)


@njit(**RULES_JIT)
def gain_entries(view, state, owner, before, seen):
    """The seed cards that entered ``owner``'s pile between the squirrel of log entry ``before``
    (-1: the deal) and the counts at ``view[seen:]`` join the pile."""
    piles = C.F_PILES + owner * C.SEED_VALUES
    for v in range(C.SEED_VALUES):
        earlier = view[before + C.SQ_ENTERED + v] if before >= 0 else 0
        state[piles + v] += view[seen + v] - earlier


@njit(**RULES_JIT)
def lose_uniformly(state, rng, owner, lost):
    """``lost`` of the cards in ``owner``'s pile leave it, every subset alike (R21, A11)."""
    piles = C.F_PILES + owner * C.SEED_VALUES
    for _ in range(lost):
        size = state[piles] + state[piles + 1] + state[piles + 2]
        state[piles + random_seed_value(state, piles, size, rng)] -= 1
