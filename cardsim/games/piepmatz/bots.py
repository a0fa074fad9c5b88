"""Piepmatz bots: compiled functions with the core bot signature
``bot(obs, legal, n_legal, params, rng) -> index into legal`` (``cardsim.core.bots``).

``obs`` is the public table, then the deciding seat's view: its hand and every scoring pile as it
knows it (``cards.py``: ``OBS_HAND``, ``OBS_PILES``), then room for the bot (``OBS_SCRATCH``). A
turn is a sequence of decisions (``engine.py`` docstring): which card on which perch, the R24
option, the crow's bird, each card drawn, and at the end each card of the final discard.

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

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bots import Bot
from cardsim.core.jit import HOT_RULES_JIT, RULES_JIT
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
S_ROW = 0  # [MAX_ROW] the simulated row
S_COL = S_ROW + C.MAX_ROW  # [MAX_COLUMN] the simulated seed column (values)
S_BAD = S_COL + C.MAX_COLUMN  # [MAX_COLUMN] the simulated bad-card column
S_TAKEN = S_BAD + C.MAX_COLUMN  # [MAX_ROW] birds the simulated chain collects
S_MASK = S_TAKEN + C.MAX_ROW  # [MAX_SPECIES] the bot's collection masks as simulated
S_BEST_OTHER = S_MASK + C.MAX_SPECIES  # [MAX_SPECIES] most birds an opponent holds, per species
S_THEIRS = S_BEST_OTHER + C.MAX_SPECIES  # [MAX_SPECIES] points those opponents score for it
S_KEEP = S_THEIRS + C.MAX_SPECIES  # [MAX_HAND] R24 value of each hand card, x KEEP_SCALE
S_HELD = S_KEEP + C.MAX_HAND  # [MAX_SPECIES] birds of each species in the simulated collection
S_POINTS = S_HELD + C.MAX_SPECIES  # [MAX_SPECIES] their egg points
S_MY_HELD = S_POINTS + C.MAX_SPECIES  # [MAX_SPECIES] birds of each species the bot holds
S_MY_POINTS = S_MY_HELD + C.MAX_SPECIES  # [MAX_SPECIES] their egg points
S_LEN = S_MY_POINTS + C.MAX_SPECIES
KEEP_SCALE = 1024.0  # the scratch room is int32: values kept to 1/1024
assert S_LEN <= C.SCRATCH_LEN


@njit(**HOT_RULES_JIT)
def strength(bird):
    return bird % C.BIRDS_PER_SPECIES // 2 + 1


@njit(**HOT_RULES_JIT)
def popcount(x):
    """Birds in a 12-bit species mask, without branches (a mispredicted loop costs more)."""
    x = x - ((x >> 1) & 0x555)
    x = (x & 0x333) + ((x >> 2) & 0x333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(**HOT_RULES_JIT)
def mask_points(obs, mask):
    """Egg points of the birds in a species mask (R34)."""
    points = 0
    for s in range(C.MAX_STRENGTH):
        both = mask >> (2 * s)
        points += ((both & 1) + (both >> 1 & 1)) * obs[C.F_BIRD_POINTS + s]
    return points


@njit(**RULES_JIT)
def read_opponents(obs, me):
    """Per species, the most birds an opponent holds and the points the opponents holding that
    many score for it (R33), and the bot's own count and points, into the scratch room: once per
    decision."""
    for species in range(C.MAX_SPECIES):
        best = 0
        points = 0
        for seat in range(obs[L.H_N_PLAYERS]):
            if seat == me:
                continue
            mask = obs[C.F_SEATS + seat * C.SEAT_LEN + species]
            held = popcount(mask)
            if held > best:
                best = held
                points = 0
            if held == best and held > 0:
                points += mask_points(obs, mask)
        obs[C.OBS_SCRATCH + S_BEST_OTHER + species] = best
        obs[C.OBS_SCRATCH + S_THEIRS + species] = points
        mine = obs[C.F_SEATS + me * C.SEAT_LEN + species]
        obs[C.OBS_SCRATCH + S_MY_HELD + species] = popcount(mine)
        obs[C.OBS_SCRATCH + S_MY_POINTS + species] = mask_points(obs, mine)


@njit(**HOT_RULES_JIT)
def species_standing(obs, species, held, points):
    """(my projected majority points, points the opponents level with or above me score) when I
    hold ``held`` birds worth ``points`` of a species (R33)."""
    best_other = obs[C.OBS_SCRATCH + S_BEST_OTHER + species]
    own = points if held > 0 and held >= best_other else 0
    theirs = obs[C.OBS_SCRATCH + S_THEIRS + species] if best_other >= held else 0
    return own, theirs


@njit(**HOT_RULES_JIT)
def bird_value_with(obs, params, mask, held, points, bird):
    """``bird_value`` for a species mask holding ``held`` birds worth ``points``."""
    species = bird // C.BIRDS_PER_SPECIES
    gain = obs[C.F_BIRD_POINTS + strength(bird) - 1]
    own0, theirs0 = species_standing(obs, species, held, points)
    own1, theirs1 = species_standing(obs, species, held + 1, points + gain)
    pair = 1.0 if mask >> (bird % C.BIRDS_PER_SPECIES ^ 1) & 1 else 0.0  # the mate is there
    return (
        params[W_MAJORITY] * (own1 - own0)
        + params[W_DENY] * (theirs0 - theirs1)
        + params[W_PAIR] * pair * obs[C.F_PAIR_POINTS]
        + params[W_EGG] * gain
    )


@njit(**RULES_JIT)
def bird_value(obs, params, me, mask, bird):
    """What adding ``bird`` to a collection whose species mask is ``mask`` is worth: majority
    gained, opponents' majority denied, a pair completed, egg points."""
    return bird_value_with(obs, params, mask, popcount(mask), mask_points(obs, mask), bird)


@njit(**RULES_JIT)
def crow_loss(obs, params, me, masks):
    """The least a crow costs: the cheapest bird of a species with the most birds (R20)."""
    most = 0
    for species in range(C.MAX_SPECIES):
        most = max(most, popcount(masks[species]))
    least = 1e9
    for species in range(C.MAX_SPECIES):
        mask = masks[species]
        if popcount(mask) != most or most == 0:
            continue
        for bit in range(C.BIRDS_PER_SPECIES):
            if mask >> bit & 1:
                bird = species * C.BIRDS_PER_SPECIES + bit
                loss = bird_value(obs, params, me, mask & ~(1 << bit), bird)
                least = min(least, loss)
    return least if least < 1e9 else 0.0


@njit(**RULES_JIT)
def pile_points(obs, me):
    points = 0
    for v in range(C.SEED_VALUES):
        points += (v + 1) * obs[C.OBS_PILES + me * C.SEED_VALUES + v]
    return points


@njit(**RULES_JIT)
def expose_penalty(obs, params, column, seeds, total, perched):
    """What a row leaves the next player: the best seed card one card of strength 1-6 can reach
    (a place past the column's seed cards counts 2: the refill is unknown) and the perched bird.
    ``column``: index in ``obs`` of the seed column's values."""
    reach = min(total + C.MAX_STRENGTH - perched, obs[C.F_COLUMN_SIZE])
    if reach < 1:
        return 0.0
    best_seed = 0
    for d in range(max(1, total + 1 - perched), reach + 1):
        best_seed = max(best_seed, obs[column + d - 1] if d <= seeds else 2)
    return params[W_EXPOSE] * (best_seed + obs[C.F_BIRD_POINTS + perched - 1])


@njit(**RULES_JIT)
def keep_option(obs, params, bird):
    """R24 after a failed comparison: the best hand card the option may add (the collection is
    unchanged, so the values read once per decision hold)."""
    best_keep = 0
    limit = strength(bird)
    for i in range(obs[C.OBS_HAND_LEN]):
        card = obs[C.OBS_HAND + i]
        if card != bird and strength(card) <= limit:
            best_keep = max(best_keep, obs[C.OBS_SCRATCH + S_KEEP + i])
    return params[W_KEEP_OPTION] * best_keep / KEEP_SCALE


@njit(**RULES_JIT)
def play_value(obs, params, me, bird, perch):
    """Simulate playing ``bird`` at ``perch`` (R11-R23) and value what the turn yields."""
    base = C.F_ROWS + perch * C.MAX_ROW
    n = obs[C.F_ROW_LEN + perch]
    total = strength(bird)
    for i in range(1, n):
        total += strength(obs[base + i])
    perched = strength(obs[base])
    value = -params[W_SPEND] * strength(bird)
    if total <= perched:  # no chain: the table is as it was, the card joins the ground
        value -= expose_penalty(obs, params, C.F_SEED_COL, obs[C.F_SEED_LEN], total, perched)
        return value + keep_option(obs, params, bird)
    scratch = obs[C.OBS_SCRATCH : C.OBS_SCRATCH + S_LEN]
    for i in range(n):
        scratch[S_ROW + i] = obs[base + i]
    scratch[S_ROW + n] = bird
    n += 1
    seeds = obs[C.F_SEED_LEN]
    bads = obs[C.F_BAD_LEN]
    for i in range(seeds):
        scratch[S_COL + i] = obs[C.F_SEED_COL + i] - C.SEED
    for i in range(bads):
        scratch[S_BAD + i] = obs[C.F_BAD_COL + i]
    for s in range(C.MAX_SPECIES):
        scratch[S_MASK + s] = obs[C.F_SEATS + me * C.SEAT_LEN + s]
        scratch[S_HELD + s] = obs[C.OBS_SCRATCH + S_MY_HELD + s]
        scratch[S_POINTS + s] = obs[C.OBS_SCRATCH + S_MY_POINTS + s]
    pile = pile_points(obs, me)
    pile_cards = obs[C.F_SEATS + me * C.SEAT_LEN + C.PILE_SIZE]
    seed_points = 0.0
    while total > perched:
        d = total - perched
        bad = 0
        if d <= obs[C.F_COLUMN_SIZE]:
            if d <= seeds:
                got = scratch[S_COL + d - 1]
                seed_points += got
                pile += got
                pile_cards += 1
                for j in range(d - 1, seeds - 1):
                    scratch[S_COL + j] = scratch[S_COL + j + 1]
                seeds -= 1
                if d <= bads:
                    bad = scratch[S_BAD + d - 1]
                    for j in range(d - 1, bads - 1):
                        scratch[S_BAD + j] = scratch[S_BAD + j + 1]
                    bads -= 1
        elif obs[C.F_FEEDER_LEFT] > 0:
            seed_points += params[W_DECK_SEED]
        taken = scratch[S_ROW]
        species = taken // C.BIRDS_PER_SPECIES
        mask = scratch[S_MASK + species]
        held = scratch[S_HELD + species]
        points = scratch[S_POINTS + species]
        value += bird_value_with(obs, params, mask, held, points, taken)
        scratch[S_MASK + species] = mask | 1 << (taken % C.BIRDS_PER_SPECIES)
        scratch[S_HELD + species] = held + 1
        scratch[S_POINTS + species] = points + obs[C.F_BIRD_POINTS + strength(taken) - 1]
        if bad == C.CROW:
            value -= params[W_CROW] * crow_loss(obs, params, me, scratch[S_MASK : S_MASK + 6])
        elif bad == C.SQUIRREL and pile_cards > 0:
            lost = min(2, pile_cards)
            value -= params[W_SQUIRREL] * pile * lost / pile_cards
        best = 1  # R22: strongest ground bird, ties to the perch
        for i in range(2, n):
            if strength(scratch[S_ROW + i]) > strength(scratch[S_ROW + best]):
                best = i
        perched = strength(scratch[S_ROW + best])
        total -= perched
        scratch[S_ROW] = scratch[S_ROW + best]
        for j in range(best, n - 1):
            scratch[S_ROW + j] = scratch[S_ROW + j + 1]
        n -= 1
    value += params[W_SEED] * seed_points
    value -= expose_penalty(obs, params, C.OBS_SCRATCH + S_COL, seeds, total, perched)
    return value


@njit(**RULES_JIT)
def read_keeps(obs, params, me):
    """What adding each hand card to the collection would be worth (R24), once per play."""
    for i in range(obs[C.OBS_HAND_LEN]):
        card = obs[C.OBS_HAND + i]
        mask = obs[C.F_SEATS + me * C.SEAT_LEN + card // C.BIRDS_PER_SPECIES]
        value = max(0.0, bird_value(obs, params, me, mask, card))
        obs[C.OBS_SCRATCH + S_KEEP + i] = int(value * KEEP_SCALE + 0.5)


@njit(**RULES_JIT)
def card_prospect(obs, params, me, bird):
    """A card drawn into the hand: its majority and pair prospects and its strength."""
    species = bird // C.BIRDS_PER_SPECIES
    mask = obs[C.F_SEATS + me * C.SEAT_LEN + species]
    held = popcount(mask)
    points = mask_points(obs, mask)
    own0, _ = species_standing(obs, species, held, points)
    gain = obs[C.F_BIRD_POINTS + strength(bird) - 1]
    own1, _ = species_standing(obs, species, held + 1, points + gain)
    mate = bird ^ 1
    paired = mask >> (mate % C.BIRDS_PER_SPECIES) & 1
    for i in range(obs[C.OBS_HAND_LEN]):
        paired |= obs[C.OBS_HAND + i] == mate
    return (
        params[W_DRAW_MAJORITY] * (own1 - own0)
        + params[W_DRAW_PAIR] * paired
        + params[W_DRAW_STRENGTH] * strength(bird)
    )


@njit(**RULES_JIT)
def final_value(obs, params, me, bird):
    """A hand card joining the collection at the end (R31): its points there."""
    species = bird // C.BIRDS_PER_SPECIES
    mask = obs[C.F_SEATS + me * C.SEAT_LEN + species]
    held = popcount(mask)
    points = mask_points(obs, mask)
    own0, theirs0 = species_standing(obs, species, held, points)
    gain = obs[C.F_BIRD_POINTS + strength(bird) - 1]
    own1, theirs1 = species_standing(obs, species, held + 1, points + gain)
    pair = obs[C.F_PAIR_POINTS] if mask >> (bird % C.BIRDS_PER_SPECIES ^ 1) & 1 else 0
    return own1 - own0 + pair + 0.5 * (theirs0 - theirs1)


@njit(**RULES_JIT)
def decision_value(obs, params, code, me):
    if code < C.C_NO_KEEP:
        return play_value(obs, params, me, code // C.MAX_PERCHES, code % C.MAX_PERCHES)
    if code == C.C_NO_KEEP:
        return 0.0
    if code < C.C_CROW:
        bird = code - C.C_KEEP
        mask = obs[C.F_SEATS + me * C.SEAT_LEN + bird // C.BIRDS_PER_SPECIES]
        return bird_value(obs, params, me, mask, bird) - card_prospect(obs, params, me, bird)
    if code < C.C_DRAW:
        bird = code - C.C_CROW
        mask = obs[C.F_SEATS + me * C.SEAT_LEN + bird // C.BIRDS_PER_SPECIES]
        return -bird_value(obs, params, me, mask & ~(1 << (bird % C.BIRDS_PER_SPECIES)), bird)
    if code < C.C_DRAW_DECK:
        return card_prospect(obs, params, me, code - C.C_DRAW)
    if code == C.C_DRAW_DECK:
        return params[W_DECK_CARD]
    return -final_value(obs, params, me, code - C.C_DISCARD)


@njit(**RULES_JIT)
def weighted_bot(obs, legal, n_legal, params, rng):
    """The best ``decision_value``; ties uniformly at random."""
    me = obs[L.H_SEAT]
    read_opponents(obs, me)
    if obs[L.H_PHASE] == C.PHASE_PLAY:
        read_keeps(obs, params, me)
    best = 0
    best_value = -1e18
    ties = 0
    for i in range(n_legal):
        v = decision_value(obs, params, legal[i], me)
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
