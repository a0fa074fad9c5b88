"""Piepmatz bots: compiled functions with the core bot signature
``bot(obs, legal, n_legal, params, rng) -> index into legal`` (``cardsim.core.bots``).

``obs`` is the public table, then the deciding seat's view: its hand and every scoring pile as it
knows it (``cards.py``: ``OBS_HAND``, ``OBS_PILES``), then room for the bot (``OBS_SCRATCH``). The
public table carries summaries the engine keeps as the game goes, so that a bot need not work them
out at every decision: each row's strengths, ground total and strongest ground bird
(``F_ROW_STRENGTHS``, ``F_GROUND_TOTAL``, ``F_STRONGEST``) and each seat's birds and egg points
per species (``SPECIES_BIRDS``, ``SPECIES_POINTS``). A turn is a sequence of decisions
(``engine.py`` docstring): which card on which perch, the R24 option, the crow's bird, each card
drawn, and at the end each card of the final discard.

- ``random``: uniform over the legal decisions of each step (the enumeration of ``engine.py``).
  So a turn is not uniform over whole turns: each step's choices are equally likely.
- The other bots share one weighted evaluation (``decision_value``). A play is simulated on the
  row as the bot sees it (R11-R23 with strength promotion; a feeder deck draw counts its
  expected seed points), and valued by: seed points taken (W_SEED), the birds collected at their
  egg points (W_EGG) and by how they change the bot's projected species majorities against the
  public collections (W_MAJORITY, R33) and the points they take from the holders they overtake
  (W_DENY), pairs completed (W_PAIR, R32), crows (W_CROW, per bird point lost) and squirrels
  (W_SQUIRREL, per expected seed point lost), the seed card and perched bird left within reach of
  the next player (W_EXPOSE), the strength of the card spent (W_SPEND), and the R24 option a
  failed play opens (W_KEEP_OPTION). A queue card is worth its majority and pair prospects
  (W_DRAW_MAJORITY, W_DRAW_PAIR) and strength (W_DRAW_STRENGTH); the deck's card W_DECK_CARD.
  A crow takes the bird whose loss costs least; the final discard drops the card worth least at
  the end. The best value wins; ties are broken uniformly at random.
  - ``greedy``: the most points now (seeds, egg points of the birds, bad cards' losses).
  - ``planner``: the tuned weighting (its ``params``), stronger than the others in seat-rotated
    play (``analysis/tune_piepmatz_planner.py``).
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import low_bit_index
from cardsim.core.bots import Bot
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT, RULES_JIT
from cardsim.core.rng import randint
from cardsim.games.piepmatz import cards as C

# Weights (indices into params) ---------------------------------------------------------------------
W_SEED = 0  # per seed point taken
W_EGG = 1  # per egg point of a bird collected (majority-blind)
W_MAJORITY = 2  # per point of projected majority score gained
W_DENY = 3  # per majority point an overtaken opponent loses
W_PAIR = 4  # per pair completed in the collection (times pair points)
W_CROW = 5  # per point a crow's bird is worth (subtracted)
W_SQUIRREL = 6  # per expected seed point a squirrel removes (subtracted)
W_EXPOSE = 7  # per point left within reach of the next player (subtracted)
W_SPEND = 8  # per strength of the card played (subtracted)
W_KEEP_OPTION = 9  # the R24 option a failed play opens (times the best keep's value)
W_DRAW_MAJORITY = 10  # a queue card: per point of majority it could add
W_DRAW_PAIR = 11  # a queue card whose mate is in the collection or hand
W_DRAW_STRENGTH = 12  # a queue card: per strength
W_DECK_CARD = 13  # the bird deck's unknown card
W_DECK_SEED = 14  # expected points of a feeder deck draw (d above the column)
PARAM_NAMES = (
    "seed", "egg", "majority", "deny", "pair", "crow", "squirrel", "expose", "spend",
    "keep_option", "draw_majority", "draw_pair", "draw_strength", "deck_card", "deck_seed",
)  # fmt: skip

GREEDY_PARAMS = (1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.02, 1.7)
PLANNER_PARAMS = (
    1.0,
    0.14,
    0.95,
    0.4,
    0.52,
    4.0,
    1.1,
    0.13,
    0.14,
    0.5,
    0.21,
    0.72,
    0.31,
    1.06,
    1.1,
)
# (a rounded result of analysis/tune_piepmatz_planner.py 1 60 600)

# Scratch layout (the observation's OBS_SCRATCH room) ---------------------------------------------
# First a room of float64 (``float_room``: one view for a decision; each view of the int32 array
# costs ~25 instructions of checks), indexes in float64 units; OBS_SCRATCH is even: 8-byte aligned.
D_CROW_FIRST = 0  # [MAX_PERCHES] per perch: the crow's loss after a chain's first step (NaN: not
# read yet)
D_KEEP_OPTION = (
    D_CROW_FIRST + C.MAX_PERCHES
)  # [MAX_HAND] per hand card: the R24 option a failed play
# of it opens, weighted (read_keep_options)
D_VALUES = D_KEEP_OPTION + C.MAX_HAND  # [MAX_HAND * MAX_PERCHES] per play, in legal order: its
# value (best_play)
D_LEN = D_VALUES + C.MAX_HAND * C.MAX_PERCHES
# Then int32, indexes in int32 units:
S_MINE = 2 * D_LEN  # [SEAT_LEN] a play decision's copy of the bot's collection, laid out as a
# seat's block (cards.py), so that the valuations read it or, for the other decisions, the seat's
# block itself (``mine``: where the block starts); a chain simulation changes the copy:
S_MASK = S_MINE + C.COLLECTION  # [MAX_SPECIES] the masks
S_MY_HELD = S_MINE + C.SPECIES_BIRDS  # [MAX_SPECIES] birds of each species (as simulated)
S_MY_POINTS = S_MINE + C.SPECIES_POINTS  # [MAX_SPECIES] their egg points (as simulated)
S_BEST_OTHER = S_MINE + C.SEAT_LEN  # [MAX_SPECIES] most birds an opponent holds, per species
S_THEIRS = S_BEST_OTHER + C.MAX_SPECIES  # [MAX_SPECIES] points those opponents score for it
S_KEEP = S_THEIRS + C.MAX_SPECIES  # [MAX_HAND] R24 value of each hand card, x KEEP_SCALE
S_READ_FOR = S_KEEP + C.MAX_HAND  # read_opponents: the turn and seat it read the opponents
# for (turns * MAX_PLAYERS + seat + 1; 0: nothing)
S_HAND_MASK = S_READ_FOR + 1  # [MAX_SPECIES] the hand's birds per species (read_hand_masks)
S_LEN = S_HAND_MASK + C.MAX_SPECIES
KEEP_SCALE = 1024.0  # the scratch room is int32: values kept to 1/1024
PLAY_MINE = C.OBS_SCRATCH + S_MINE  # ``mine`` in a play decision: the copy
assert S_LEN <= C.SCRATCH_LEN and C.OBS_SCRATCH % 2 == 0


@njit(**HOT_RULES_JIT)
def float_room(obs):
    """The scratch room's float64 part (D_*), as one view."""
    return obs[C.OBS_SCRATCH : C.OBS_SCRATCH + 2 * D_LEN].view(np.float64)


@njit(**HOT_RULES_JIT)
def whole(x):
    """``x`` (a card, code, seat or count: 0 <= x < 2**16), known to the compiler to be
    non-negative: its divisions, remainders and the indexes made from it then need no fixing
    for negative numbers (floor division, wraparound indexing)."""
    return x & 0xFFFF


@njit(**HOT_RULES_JIT)
def strength(bird):
    return whole(bird) % C.BIRDS_PER_SPECIES // 2 + 1


@njit(**INLINE_JIT)
def read_opponents(obs, me):
    """Per species, the most birds an opponent holds and the points the opponents holding that
    many score for it (R33), into the scratch room, from the standings the engine keeps per seat
    and species (``cards.py``: SPECIES_BIRDS, SPECIES_POINTS). Only the holders of the most birds
    have their points counted.

    The opponents' part is read once per turn and seat (``S_READ_FOR``): the others'
    collections change only in their own turns (R18, R20, R24) and at the end (R31, after the
    last decision), so the next decisions of the same turn find it still right. (A room found
    zeroed, as the reference hands it, names no turn: it is read anew. A tool that changes a
    collection by hand between two calls in one turn zeroes the room first.)"""
    read_for = obs[L.H_TURNS] * C.MAX_PLAYERS + me + 1
    if obs[C.OBS_SCRATCH + S_READ_FOR] != read_for:
        obs[C.OBS_SCRATCH + S_READ_FOR] = read_for
        read_others(obs, me)


@njit(**HOT_RULES_JIT)
def copy_collection(obs, me):
    """The bot's collection, count and points per species into the scratch room (S_MINE), for a
    play decision's chain simulations to change."""
    mine = C.F_SEATS + me * C.SEAT_LEN
    for species in range(C.MAX_SPECIES):
        obs[C.OBS_SCRATCH + S_MASK + species] = obs[mine + C.COLLECTION + species]
        obs[C.OBS_SCRATCH + S_MY_HELD + species] = obs[mine + C.SPECIES_BIRDS + species]
        obs[C.OBS_SCRATCH + S_MY_POINTS + species] = obs[mine + C.SPECIES_POINTS + species]


@njit(**INLINE_JIT)
def read_others(obs, me):
    """``read_opponents``' part for the opponents."""
    for species in range(C.MAX_SPECIES):  # without branches: they would mispredict
        best = 0
        points = 0
        for seat in range(C.MAX_PLAYERS):  # absent seats hold nothing; the bot's own is left out
            base = C.F_SEATS + seat * C.SEAT_LEN
            held = obs[base + C.SPECIES_BIRDS + species] if seat != me else 0
            gain = obs[base + C.SPECIES_POINTS + species] if seat != me else 0
            points = gain if held > best else (points + gain if held == best else points)
            best = max(best, held)
        obs[C.OBS_SCRATCH + S_BEST_OTHER + species] = best
        obs[C.OBS_SCRATCH + S_THEIRS + species] = points


@njit(**HOT_RULES_JIT)
def species_standing(obs, species, held, points):
    """(my projected majority points, points the opponents level with or above me score) when I
    hold ``held`` birds worth ``points`` of a species (R33)."""
    best_other = obs[C.OBS_SCRATCH + S_BEST_OTHER + species]
    # products of 0/1, not branches: they would mispredict
    own = points * ((held > 0) & (held >= best_other))
    theirs = obs[C.OBS_SCRATCH + S_THEIRS + species] * (best_other >= held)
    return own, theirs


@njit(**HOT_RULES_JIT)
def bird_value_with(obs, params, mask, held, points, bird):
    """``bird_value`` for a species mask holding ``held`` birds worth ``points``."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    gain = obs[C.F_BIRD_POINTS + strength(bird) - 1]
    own0, theirs0 = species_standing(obs, species, held, points)
    own1, theirs1 = species_standing(obs, species, held + 1, points + gain)
    # 1.0: the mate is there (a conversion, not a branch: it mispredicted in the chain loop)
    pair = np.float64(mask >> (whole(bird) % C.BIRDS_PER_SPECIES ^ 1) & 1)
    return (
        params[W_MAJORITY] * (own1 - own0)
        + params[W_DENY] * (theirs0 - theirs1)
        + params[W_PAIR] * pair * obs[C.F_PAIR_POINTS]
        + params[W_EGG] * gain
    )


@njit(**HOT_RULES_JIT)
def my_bird_value(obs, params, bird, mine):
    """``bird_value`` of a bird joining the bot's collection (its seat's block, or the copy a
    chain simulation changes: ``mine``, where the block starts)."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    return bird_value_with(
        obs,
        params,
        obs[mine + C.COLLECTION + species],
        obs[mine + C.SPECIES_BIRDS + species],
        obs[mine + C.SPECIES_POINTS + species],
        bird,
    )


@njit(**HOT_RULES_JIT)
def my_bird_loss(obs, params, bird, mine):
    """``bird_value`` of a bird of the bot's collection, as if it were not there: what losing it
    costs (R20)."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    return bird_value_with(
        obs,
        params,
        obs[mine + C.COLLECTION + species] & ~(1 << (whole(bird) % C.BIRDS_PER_SPECIES)),
        obs[mine + C.SPECIES_BIRDS + species] - 1,
        obs[mine + C.SPECIES_POINTS + species] - obs[C.F_BIRD_POINTS + strength(bird) - 1],
        bird,
    )


@njit(**RULES_JIT)
def crow_loss(obs, params):
    """The least a crow costs: the cheapest bird of a species with the most birds (R20), in the
    bot's collection as the scratch room has it. The birds of a mask are visited lowest first, one
    per strength (a pair's two birds cost the same). Each bird's loss is ``my_bird_loss``, term
    for term in its order, with what is the same for every bird of the species (the standing with
    the bird there, the opponents' points it denies) worked out once per species."""
    most = 0
    for species in range(C.MAX_SPECIES):
        most = max(most, obs[C.OBS_SCRATCH + S_MY_HELD + species])
    if most == 0:
        return 0.0
    w_majority = params[W_MAJORITY]
    w_pair = params[W_PAIR]
    w_egg = params[W_EGG]
    pair_points = obs[C.F_PAIR_POINTS]
    least = 1e9
    victims = 0  # the species with the most birds, a bit each: a test per species mispredicted
    for species in range(C.MAX_SPECIES):  # (~3.4 times a 4-player planner turn, callgrind)
        victims |= (obs[C.OBS_SCRATCH + S_MY_HELD + species] == most) << species
    while victims:
        species = low_bit_index(victims)  # lowest first, as the loop over species was
        victims &= victims - 1
        mask = obs[C.OBS_SCRATCH + S_MASK + species]
        points = obs[C.OBS_SCRATCH + S_MY_POINTS + species]
        # bird_value_with(mask without the bird, most - 1, points - gain, bird):
        own1, theirs1 = species_standing(obs, species, most, points)
        best_other = obs[C.OBS_SCRATCH + S_BEST_OTHER + species]
        own0_kept = (most - 1 > 0) & (most - 1 >= best_other)  # species_standing's own0
        theirs0 = obs[C.OBS_SCRATCH + S_THEIRS + species] if best_other >= most - 1 else 0
        deny = params[W_DENY] * (theirs0 - theirs1)
        left = mask
        while left:
            bit = low_bit_index(left)  # the lowest bird left
            left &= ~(3 << (bit & ~1))  # its mate costs the same: the other bird of its strength
            gain = obs[C.F_BIRD_POINTS + (bit >> 1)]
            own0 = (points - gain) * own0_kept  # products, not branches: they mispredicted
            pair = np.float64(mask >> (bit ^ 1) & 1)  # 1.0: the mate is there
            loss = w_majority * (own1 - own0) + deny + w_pair * pair * pair_points + w_egg * gain
            least = min(least, loss)
    return least if least < 1e9 else 0.0


@njit(**RULES_JIT)
def pile_points(obs, me):
    points = 0
    for v in range(C.SEED_VALUES):
        points += (v + 1) * obs[C.OBS_PILES + me * C.SEED_VALUES + v]
    return points


@njit(**HOT_RULES_JIT)
def packed_column(obs):
    """The seed column's values, 2 bits each, position 1 lowest: a chain simulation takes cards
    out of it without touching memory."""
    packed = 0
    for i in range(obs[C.F_SEED_LEN] - 1, -1, -1):  # top first, a shift each (hand_strengths)
        packed = packed << 2 | obs[C.F_SEED_COL + i] - C.SEED
    return packed


@njit(**HOT_RULES_JIT)
def packed_bad_column(obs):
    """The bad-card column's places, 2 bits each, position 1 lowest: 1 a crow, 2 a squirrel, 0 an
    empty place (A8's ``bad_cards_attached`` leaves them below a bad card that stayed)."""
    packed = 0
    for i in range(obs[C.F_BAD_LEN] - 1, -1, -1):  # top first, a shift each (hand_strengths)
        card = obs[C.F_BAD_COL + i]
        packed = packed << 2 | np.int64(card - C.CROW + 1 if card != C.NO_CARD else 0)
    return packed


@njit(**HOT_RULES_JIT)
def packed_without(packed, position, width):
    """``packed`` (fields of ``width`` bits) with the field at ``position`` (0-based) taken out:
    the fields above close up."""
    low = packed & ((1 << (width * position)) - 1)
    return low | (packed >> (width * (position + 1))) << (width * position)


@njit(**HOT_RULES_JIT)
def best_seed_within(column, seeds, reach):
    """The best seed card among positions 1..``reach`` of a column (``packed_column``, ``seeds``
    cards; a place past its seed cards counts 2: the refill is unknown), without a loop or a
    branch: a value-3 field has both bits set, a value-2 or -3 field its high bit (values are
    1..3). As branches, the tests mispredicted: the planner's turn took 2-4% longer."""
    low = column & ((1 << (2 * min(reach, seeds))) - 1)
    two_or_more = ((low >> 1) & 0x555 != 0) | (reach > seeds)
    three = low & (low >> 1) & 0x555 != 0
    return 1 + np.int64(two_or_more) + np.int64(three)


@njit(**HOT_RULES_JIT)
def expose_penalty(obs, params, column, seeds, total, perched):
    """What a row whose ground total ``total`` no longer beats its perched bird (``perched``)
    leaves the next player: the best seed card one card of strength 1-6 can reach and the perched
    bird. ``column``, ``seeds``: the seed column then (``packed_column``)."""
    reach = min(total + C.MAX_STRENGTH - perched, obs[C.F_COLUMN_SIZE])
    if reach < 1:
        return 0.0
    best_seed = best_seed_within(column, seeds, reach)
    return params[W_EXPOSE] * (best_seed + obs[C.F_BIRD_POINTS + perched - 1])


@njit(**INLINE_JIT)
def read_keep_options(obs, params, strengths, room):
    """Once per play decision, into the scratch room: per hand card the option a failed play of
    it opens (R24, A14), weighted: the best R24 value (``read_keeps``) of another hand card of at
    most its strength. ``strengths``: the hand's, 3 bits each (``hand_strengths``); ``room``:
    ``float_room``."""
    n = obs[C.OBS_HAND_LEN]
    options = D_KEEP_OPTION
    for i in range(n):  # the best R24 value so far (an integer, exact as a float)
        room[options + i] = 0.0
    # each pair of cards once: the weaker (or either, at equal strength) is the stronger's option
    for i in range(n):
        mine = strengths >> (3 * i) & 7
        keep = np.float64(obs[C.OBS_SCRATCH + S_KEEP + i])
        best_keep = room[options + i]  # the options of cards 0..i-1 seen
        left = strengths >> (3 * i + 3)
        for j in range(i + 1, n):
            theirs = left & 7
            left >>= 3
            other = np.float64(obs[C.OBS_SCRATCH + S_KEEP + j])
            best_keep = max(best_keep, other if theirs <= mine else 0.0)
            room[options + j] = max(room[options + j], keep if mine <= theirs else 0.0)
        room[options + i] = params[W_KEEP_OPTION] * best_keep / KEEP_SCALE


@njit(**HOT_RULES_JIT)
def hand_strengths(obs):
    """The hand's strengths, 3 bits per card (card j at bits 3j..3j + 2). Built from the last
    card down, a shift and an or per card: as a loop of ors LLVM vectorized it for hands of 8
    and more, with checks that cost ~30 instructions a decision for the 4 cards of a hand."""
    strengths = 0
    for j in range(obs[C.OBS_HAND_LEN] - 1, -1, -1):
        strengths = strengths << 3 | strength(obs[C.OBS_HAND + j])
    return strengths


@njit(**HOT_RULES_JIT)
def strength_groups(strengths, n):
    """(the hand's cards by strength: bit ``MAX_HAND * s + j`` for the card j of strength s;
    the same for the cards of strength s or more; the cards with no card of their strength
    before them, a bit each) for a hand of ``n`` cards of ``strengths`` (``hand_strengths``)."""
    groups = 0
    firsts = 0
    for j in range(n):
        at = C.MAX_HAND * (strengths >> (3 * j) & 7)
        firsts |= np.int64(groups >> at & 0xFF == 0) << j
        groups |= 1 << (at + j)
    at_least = 0
    stronger = 0
    for s in range(C.MAX_STRENGTH, 0, -1):
        stronger |= groups >> (C.MAX_HAND * s) & 0xFF
        at_least |= stronger << (C.MAX_HAND * s)
    return groups, at_least, firsts


@njit(**HOT_RULES_JIT)
def exposed_seeds(column, seeds):
    """``best_seed_within`` of the seed column for every reach 1..MAX_COLUMN, 2 bits each (reach
    r at bits 2r, 2r + 1): read once per play decision for the plays that start no chain."""
    table = 0
    best = 0
    for reach in range(1, C.MAX_COLUMN + 1):
        # a place past its seed cards counts 2 (best_seed_within): the refill is unknown
        here = column >> (2 * reach - 2) & 3 if reach <= seeds else 2
        best = max(best, here)
        table |= best << (2 * reach)
    return table


@njit(**HOT_RULES_JIT)
def scratch_collect(obs, bird):
    """``bird`` joins the bot's collection as the scratch room has it (a chain simulation)."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    obs[C.OBS_SCRATCH + S_MASK + species] |= 1 << (whole(bird) % C.BIRDS_PER_SPECIES)
    obs[C.OBS_SCRATCH + S_MY_HELD + species] += 1
    obs[C.OBS_SCRATCH + S_MY_POINTS + species] += obs[C.F_BIRD_POINTS + strength(bird) - 1]


@njit(**HOT_RULES_JIT)
def scratch_release(obs, bird):
    """``scratch_collect`` undone."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    obs[C.OBS_SCRATCH + S_MASK + species] &= ~(1 << (whole(bird) % C.BIRDS_PER_SPECIES))
    obs[C.OBS_SCRATCH + S_MY_HELD + species] -= 1
    obs[C.OBS_SCRATCH + S_MY_POINTS + species] -= obs[C.F_BIRD_POINTS + strength(bird) - 1]


@njit(**HOT_RULES_JIT)
def take_at(obs, params, column, seeds, bad_col, bads, d):
    """Step 1 of a chain (R13-R17) for the difference ``d``: (seed points taken, as a chain
    values them: a feeder deck draw its expected points; the seed card's value, 0 for none;
    then the columns as they are left and the bad card taken, 0 for none)."""
    gain = 0.0
    got = 0
    bad = 0
    if d <= obs[C.F_COLUMN_SIZE]:
        if d <= seeds:
            got = column >> (2 * d - 2) & 3
            gain = np.float64(got)
            column = packed_without(column, d - 1, 2)
            seeds -= 1
            if d <= bads:
                kind = bad_col >> (2 * d - 2) & 3  # 0: an empty place (A8's bad_cards_attached)
                bad = C.CROW + kind - 1 if kind else 0
                bad_col = packed_without(bad_col, d - 1, 2)
                bads -= 1
    elif obs[C.F_FEEDER_LEFT] > 0:
        gain = params[W_DECK_SEED]
    return gain, got, column, seeds, bad_col, bads, bad


@njit(**HOT_RULES_JIT)
def squirrel_cost(params, pile, pile_cards):
    """What a squirrel costs (R21): the expected points of the (up to) two cards it takes from a
    pile of ``pile`` points in ``pile_cards`` cards (pile_cards > 0)."""
    lost = min(2, pile_cards)
    return params[W_SQUIRREL] * pile * lost / pile_cards


@njit(**HOT_RULES_JIT)
def chain_value(
    obs, params, pile_before, pile_cards, bird, perch, column, bad_col, room, perched_value
):
    """Simulate playing ``bird`` at ``perch`` when its ground total beats the perched bird
    (R11-R23) and value what the turn yields.

    Read once per decision: the seed column (``column``, packed), the bad-card column
    (``bad_col``: 2 bits per place, position 1 lowest: 1 a crow, 2 a squirrel, 0 an empty place
    under A8's ``bad_cards_attached``; it closes up as A8's default slides it) and the
    bot's scoring pile (``pile_before`` points in ``pile_cards`` cards). The row is the engine's
    summary (``F_ROW_STRENGTHS``, ``F_GROUND_TOTAL``, ``F_STRONGEST``): ``ground`` holds the
    strengths of its ground birds (3 bits per place; the card played is the last place) and
    ``alive`` the places still on the ground; the columns stay packed in integers. Only the bot's
    collection changes in memory (the scratch room's masks, counts and points). Every chain on a
    perch starts by collecting its perched bird (R18): ``best_play`` values it (``perched_value``)
    and adds it to the collection once per perch. Each bird collected after it is noted (7 bits
    each in ``taken_list``) and taken out again at the end. Nothing is copied per candidate. A
    crow met at a chain's first step finds the same collection (the perched bird added) for every
    card played on that perch: its loss is read once per perch (``room``: D_CROW_FIRST, per
    perch, NaN until read).

    Returns (value, same for its strength): True when the chain never collected the card
    played. Such a chain reads nothing of the card but its strength (the rows, columns and
    collection it meets are the same for every card of that strength on that perch, and each
    step's values are computed in the same order), so another hand card of the same strength on
    the same perch has the same value, to the bit."""
    played = strength(bird)
    strengths = obs[C.F_ROW_STRENGTHS + perch]
    total = obs[C.F_GROUND_TOTAL + perch] + played
    perched = strengths & 7
    value = -params[W_SPEND] * played
    base = C.F_ROWS + perch * C.MAX_ROW
    n = obs[C.F_ROW_LEN + perch]
    ground = strengths & ~7 | played << (3 * n)  # the perched bird's place is left empty
    alive = ((1 << (n + 1)) - 1) & ~1  # places 1..n on the ground
    strongest = obs[C.F_STRONGEST + perch]
    first_place = n if played > strongest & 7 else strongest >> 3  # R22 with every bird there
    seeds = obs[C.F_SEED_LEN]
    bads = obs[C.F_BAD_LEN]
    # step 1, the same for every chain on this perch but for d: its perched bird collected
    # (R18), valued and added to the collection by best_play
    seed_points, got, column, seeds, bad_col, bads, bad = take_at(
        obs, params, column, seeds, bad_col, bads, total - perched
    )
    pile_gain = got
    pile_cards += got > 0
    value += perched_value
    if bad == C.CROW:  # the collection with the perched bird: the same for every card played
        loss = room[D_CROW_FIRST + perch]
        if loss != loss:  # NaN: not read yet
            loss = crow_loss(obs, params)
            room[D_CROW_FIRST + perch] = loss
        value -= params[W_CROW] * loss
    elif bad == C.SQUIRREL and pile_cards > 0:
        value -= squirrel_cost(params, pile_before + pile_gain, pile_cards)
    place = first_place  # R22: strongest ground bird, ties to the perch
    perched = ground >> (3 * place) & 7
    alive &= ~(1 << place)
    total -= perched
    # steps 2 on (~1 chain in 8)
    taken_count = 0
    taken_list = 0
    played_taken = False
    while total > perched:
        gain, got, column, seeds, bad_col, bads, bad = take_at(
            obs, params, column, seeds, bad_col, bads, total - perched
        )
        seed_points += gain
        pile_gain += got
        pile_cards += got > 0
        played_taken |= place == n
        taken = whole(obs[base + place]) if place < n else bird
        value += my_bird_value(obs, params, taken, PLAY_MINE)
        scratch_collect(obs, taken)
        taken_list |= taken << (7 * taken_count)
        taken_count += 1
        if bad == C.CROW:
            value -= params[W_CROW] * crow_loss(obs, params)
        elif bad == C.SQUIRREL and pile_cards > 0:
            value -= squirrel_cost(params, pile_before + pile_gain, pile_cards)
        place = 0  # R22: strongest ground bird, ties to the perch
        best = 0
        for i in range(1, n + 1):  # selects, not branches: they would mispredict
            s = ground >> (3 * i) & 7
            stronger = (alive >> i & 1 != 0) & (s > best)
            place = i if stronger else place
            best = s if stronger else best
        perched = ground >> (3 * place) & 7
        alive &= ~(1 << place)
        total -= perched
    for k in range(taken_count):  # the collection as it was (but the perched bird)
        scratch_release(obs, taken_list >> (7 * k) & 127)
    value += params[W_SEED] * seed_points
    value -= expose_penalty(obs, params, column, seeds, total, perched)
    return value, not played_taken


@njit(**RULES_JIT)
def read_keeps(obs, params):
    """What adding each hand card to the collection would be worth (R24), once per play."""
    for i in range(obs[C.OBS_HAND_LEN]):
        value = max(0.0, my_bird_value(obs, params, obs[C.OBS_HAND + i], PLAY_MINE))
        obs[C.OBS_SCRATCH + S_KEEP + i] = int(value * KEEP_SCALE + 0.5)


@njit(**HOT_RULES_JIT)
def card_prospect(obs, params, bird, mine):
    """A card drawn into the hand: its majority and pair prospects and its strength (the hand's
    masks as ``read_hand_masks`` wrote them for this decision)."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    mask = obs[mine + C.COLLECTION + species]
    held = obs[mine + C.SPECIES_BIRDS + species]
    points = obs[mine + C.SPECIES_POINTS + species]
    own0, _ = species_standing(obs, species, held, points)
    gain = obs[C.F_BIRD_POINTS + strength(bird) - 1]
    own1, _ = species_standing(obs, species, held + 1, points + gain)
    mate = bird ^ 1  # in the collection or in the hand (read_hand_masks)
    mates = mask | obs[C.OBS_SCRATCH + S_HAND_MASK + species]
    paired = mates >> (whole(mate) % C.BIRDS_PER_SPECIES) & 1
    return (
        params[W_DRAW_MAJORITY] * (own1 - own0)
        + params[W_DRAW_PAIR] * paired
        + params[W_DRAW_STRENGTH] * strength(bird)
    )


@njit(**HOT_RULES_JIT)
def read_hand_masks(obs):
    """Once per decision other than a play, into the scratch room: the hand's birds as a mask
    per species, so that ``card_prospect`` finds a card's mate with one read, not a loop over
    the hand for every card it values."""
    for species in range(C.MAX_SPECIES):
        obs[C.OBS_SCRATCH + S_HAND_MASK + species] = 0
    for i in range(obs[C.OBS_HAND_LEN]):
        bird = whole(obs[C.OBS_HAND + i])
        species = bird // C.BIRDS_PER_SPECIES
        obs[C.OBS_SCRATCH + S_HAND_MASK + species] |= 1 << (bird % C.BIRDS_PER_SPECIES)


@njit(**RULES_JIT)
def final_value(obs, params, bird, mine):
    """A hand card joining the collection at the end (R31): its points there."""
    species = whole(bird) // C.BIRDS_PER_SPECIES
    mask = obs[mine + C.COLLECTION + species]
    held = obs[mine + C.SPECIES_BIRDS + species]
    points = obs[mine + C.SPECIES_POINTS + species]
    own0, theirs0 = species_standing(obs, species, held, points)
    gain = obs[C.F_BIRD_POINTS + strength(bird) - 1]
    own1, theirs1 = species_standing(obs, species, held + 1, points + gain)
    pair = obs[C.F_PAIR_POINTS] if mask >> (whole(bird) % C.BIRDS_PER_SPECIES ^ 1) & 1 else 0
    return own1 - own0 + pair + 0.5 * (theirs0 - theirs1)


@njit(**HOT_RULES_JIT)
def decision_value(obs, params, code, mine):
    """The value of a decision other than a play (``best_play``); ``mine``: the bot's seat block."""
    if code == C.C_NO_KEEP:
        return 0.0
    if code < C.C_CROW:
        bird = code - C.C_KEEP
        return my_bird_value(obs, params, bird, mine) - card_prospect(obs, params, bird, mine)
    if code < C.C_DRAW:
        return -my_bird_loss(obs, params, code - C.C_CROW, mine)
    if code < C.C_DRAW_DECK:
        return card_prospect(obs, params, code - C.C_DRAW, mine)
    if code == C.C_DRAW_DECK:
        return params[W_DECK_CARD]
    return -final_value(obs, params, code - C.C_DISCARD, mine)


@njit(**HOT_RULES_JIT)
def ranked(v, i, best, best_value, ties, rng):
    """(best, best_value, ties) after decision ``i`` of value ``v``: the best value wins; ties are
    broken uniformly at random (reservoir sampling: each tie equally likely)."""
    if v > best_value + 1e-9:
        return i, v, 1
    if v > best_value - 1e-9:
        ties += 1
        if randint(rng, ties) == 0:
            return i, best_value, ties
    return best, best_value, ties


@njit(**HOT_RULES_JIT)
def best_draw(obs, params, legal, n_legal, rng, mine):
    """A DRAW decision (R25): ``decision_value`` of each queue card, then of the deck's card,
    which is the last code when it is legal (``engine.py``: ascending codes), ranked in that
    order. Told apart by position, not by a test of each code: that test mispredicted (~1.2
    times a 4-player planner turn, callgrind)."""
    deck = np.int64(legal[n_legal - 1] == C.C_DRAW_DECK)
    best = 0
    best_value = -1e18
    ties = 0
    for i in range(n_legal - deck):
        v = card_prospect(obs, params, legal[i] - C.C_DRAW, mine)
        best, best_value, ties = ranked(v, i, best, best_value, ties, rng)
    if deck:
        v = params[W_DECK_CARD]
        best, best_value, ties = ranked(v, n_legal - 1, best, best_value, ties, rng)
    return best


@njit(**HOT_RULES_JIT)
def quiet_values(params, room, perch, perches, strengths, n, exposed, reach, points, size):
    """The value of each of the ``n`` hand cards (``strengths``) played at ``perch`` as if its
    ground total did not beat the perched bird, into ``room`` (D_VALUES, legal order). ``reach``:
    the reach of the next player's card (``expose_penalty``) without the card played;
    ``points``: the perched bird's; ``exposed``: ``exposed_seeds``; ``size``: the column's."""
    i = perch
    left = strengths  # the cards' strengths from j on: a shift per card, no index (as 3 * j,
    for j in range(n):  # LLVM vectorized the loop, at a cost for 4 cards)
        played = left & 7
        left >>= 3
        best_seed = exposed >> (2 * min(reach + played, size)) & 3
        value = -params[W_SPEND] * played
        value -= params[W_EXPOSE] * (best_seed + points)
        room[D_VALUES + i] = value + room[D_KEEP_OPTION + j]
        i += perches


@njit(**INLINE_JIT)
def best_play(obs, params, legal, n_legal, rng, me):
    """A PLAY decision (R9): the best value of a play; ties uniformly at random.

    The plays come hand card by hand card, each on every perch (``engine.py``): play ``i`` is
    the hand card ``i // perches`` on perch ``i % perches``. Perch by perch: every play's value
    as if it started no chain (``quiet_values``, without a branch), and the hand cards whose
    ground total beats the perched bird (R11, from ``strength_groups``); then those plays'
    ``chain_value``, with the perched bird valued and collected once for them all. Then the ranking in legal order: the same values and random
    draws as one pass over the plays would make."""
    copy_collection(obs, me)
    strengths = hand_strengths(obs)
    read_keeps(obs, params)
    room = float_room(obs)
    read_keep_options(obs, params, strengths, room)
    column = packed_column(obs)
    exposed = exposed_seeds(column, obs[C.F_SEED_LEN])
    bad_col = packed_bad_column(obs)
    perches = obs[C.F_PERCHES]
    n_hand = obs[C.OBS_HAND_LEN]
    groups, at_least, firsts = strength_groups(strengths, n_hand)
    pile_before = pile_points(obs, me)  # the bot's scoring pile, as it knows it
    pile_cards = obs[C.F_SEATS + me * C.SEAT_LEN + C.PILE_SIZE]
    column_size = obs[C.F_COLUMN_SIZE]
    for perch in range(perches):
        # quiet plays (R11, R24): the table is as it was, the card joins the ground, the R24
        # option opens; the value leaves the next player what one card of strength 1-6 reaches
        # (expose_penalty: with a ground total that does not beat the perched bird, the reach
        # is 1 to 6). Worked out for every play, without a branch (a test per play
        # mispredicted ~3.5 times a 4-player planner turn, callgrind); a chain replaces it.
        perched = obs[C.F_ROW_STRENGTHS + perch] & 7
        ground = obs[C.F_GROUND_TOTAL + perch]
        reach = ground + C.MAX_STRENGTH - perched  # + the card played
        perched_points = obs[C.F_BIRD_POINTS + perched - 1]
        # bit j: the hand card j starts a chain here, its strength above perched - ground (R11)
        chains = at_least >> (C.MAX_HAND * max(perched - ground + 1, 1)) & 0xFF
        quiet_values(
            params, room, perch, perches, strengths, n_hand, exposed, reach, perched_points,
            column_size,
        )  # fmt: skip
        if chains == 0:
            continue
        room[D_CROW_FIRST + perch] = np.nan
        perched_bird = whole(obs[C.F_ROWS + perch * C.MAX_ROW])
        perched_value = my_bird_value(obs, params, perched_bird, PLAY_MINE)
        scratch_collect(obs, perched_bird)
        chains &= firsts  # ~1 hand card in 4 shares its strength with an earlier one: below
        while chains:
            j = low_bit_index(chains)
            chains &= chains - 1
            bird = whole(obs[C.OBS_HAND + j])
            v, shared = chain_value(
                obs, params, pile_before, pile_cards, bird, perch, column, bad_col, room,
                perched_value,
            )  # fmt: skip
            room[D_VALUES + j * perches + perch] = v
            # The later cards of its strength start the same chain: the same value when the
            # card played is never collected (chain_value: shared). The first of them is
            # written without a branch (a test per chain mispredicted: ~1 time a 4-player
            # planner turn, callgrind); the others, or all when not shared, below (rare: a
            # chain not shared is simulated for each card, in this loop).
            twins = groups >> (C.MAX_HAND * strength(bird)) & 0xFF & ~((2 << j) - 1)
            twin = low_bit_index(twins | 1 << C.MAX_HAND)  # MAX_HAND: none
            room[D_VALUES + (twin if (twin < C.MAX_HAND) & shared else j) * perches + perch] = v
            if (twins & (twins - 1) != 0) | ((twins != 0) & (not shared)):
                if shared:
                    while twins:
                        t = low_bit_index(twins)
                        twins &= twins - 1
                        room[D_VALUES + t * perches + perch] = v
                else:
                    chains |= twins
        scratch_release(obs, perched_bird)
    return best_value_index(room, D_VALUES, n_legal, rng)


@njit(**HOT_RULES_JIT)
def best_value_index(room, at, n, rng):
    """The best of the ``n`` values from ``room[at]`` on (``ranked``, in that order)."""
    best = 0
    best_value = -1e18
    ties = 0
    for i in range(n):
        best, best_value, ties = ranked(room[at + i], i, best, best_value, ties, rng)
    return best


@njit(**INLINE_JIT)
def weighted_bot(obs, legal, n_legal, params, rng):
    """The best ``decision_value`` (``best_play`` for a play); ties uniformly at random."""
    me = whole(obs[L.H_SEAT])
    read_opponents(obs, me)
    best = 0
    best_value = -1e18
    ties = 0
    if obs[L.H_PHASE] != C.PHASE_PLAY:
        mine = C.F_SEATS + me * C.SEAT_LEN  # read where the engine keeps it, not copied
        read_hand_masks(obs)
        if obs[L.H_PHASE] == C.PHASE_DRAW:
            return best_draw(obs, params, legal, n_legal, rng, mine)
        for i in range(n_legal):
            v = decision_value(obs, params, legal[i], mine)
            best, best_value, ties = ranked(v, i, best, best_value, ties, rng)
        return best
    return best_play(obs, params, legal, n_legal, rng, me)


@njit(**RULES_JIT)
def random_bot(obs, legal, n_legal, params, rng):
    """Uniform over the legal decisions."""
    return randint(rng, n_legal)


BUILTIN = {
    "random": Bot("random", random_bot, (), "uniform over the legal decisions of each step"),
    "greedy": Bot(
        "greedy",
        weighted_bot,
        GREEDY_PARAMS,
        "the most points now: seeds and egg points taken, bad cards' losses",
        PARAM_NAMES,
    ),
    "planner": Bot(
        "planner",
        weighted_bot,
        PLANNER_PARAMS,
        "majorities, pairs, bad cards and what it leaves the next player (tuned weights)",
        PARAM_NAMES,
    ),
}
