"""Piña Pirata: what each Adventure tile does when it acts (pina-pirata.md, the table "The 40
Adventure tiles", column *When*): the *play* and *play onto* tiles' effects in ``task_tile``
(T1, T2, T4, T5, T8, T10, T11, T12, T14-T23, T25-T27, T30, T40), the *draw* tiles T3 Iceberg and
T24 Migration (``task_drawn``), T35 Favorable Current's window (A17, a *static* tile), and the
tests of the *end* tiles T28 Lucky Charm and T32 Plan B (A31). The extra plays the tiles grant
(T8, T15, T26, T36) are a turn's tasks, in ``rounds.py``.

Compiled helpers of ``engine.py``, whose docstring states the engine's contract (the task stack,
chance in order of use, canonical orders); every rule cites ``pina-pirata.md``.
"""

import numpy as np
from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index, low_bit_index, popcount
from cardsim.core.jit import INLINE_JIT
from cardsim.core.rng import randint
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.matching import (
    list_hand,
)
from cardsim.games.pina_pirata.plays import (
    draw,
)
from cardsim.games.pina_pirata.state import (
    B_CROC_TURTLE,
    T7,
    T31,
    T35,
    J,
    all_pirates,
    ask,
    count,
    deck_put_top,
    deck_take,
    discard,
    forget,
    from_hand,
    hand_n,
    hand_word,
    held_mask,
    left_of,
    pass_seen,
    pile_insert,
    pile_position,
    pile_push,
    pile_remove,
    play_mask,
    pop,
    refill_piles,
    refresh_fronts,
    reshuffle,
    right_of,
    seat_after,
    seen_by_all,
    seen_listed,
    seen_set,
    seen_top,
    set_aside,
    sf,
    solitary_walrus_word,
    take_aside,
    tile_on,
    to_hand,
    top_task,
)
from cardsim.games.pina_pirata.tiles import (
    turn_down,
)


@njit(**J)
def all_show(state, rules, seat, bit):
    for w in range(C.HAND_WORDS):
        x = hand_word(state, seat, w)
        while x:
            low = x & -x
            x ^= low
            if not held_mask(state, rules, w * 32 + low_bit_index(low)) >> bit & 1:
                return False
    return True


@njit(**J)
def plan_b(state, rules, seat):
    """T32, A31: exactly 3 cards showing an Octopus, a Walrus and a Crocodile."""
    if hand_n(state, seat) != 3:
        return False
    m0 = 0
    m1 = 0
    m2 = 0
    k = 0
    for w in range(C.HAND_WORDS):  # the Hand's cards in id order
        x = hand_word(state, seat, w)
        while x:
            low = x & -x
            x ^= low
            m = held_mask(state, rules, w * 32 + low_bit_index(low))
            if k == 0:
                m0 = m
            elif k == 1:
                m1 = m
            else:
                m2 = m
            k += 1
    o, w, c = C.OCTOPUS, C.WALRUS, C.CROCODILE
    if rules[R.R_PLAN_B_TWICE]:
        u = m0 | m1 | m2
        return u >> o & 1 == 1 and u >> w & 1 == 1 and u >> c & 1 == 1
    # three different cards each supply one of the pirates: some assignment works
    return (
        (m0 >> o & 1 and m1 >> w & 1 and m2 >> c & 1)
        or (m0 >> o & 1 and m2 >> w & 1 and m1 >> c & 1)
        or (m1 >> o & 1 and m0 >> w & 1 and m2 >> c & 1)
        or (m1 >> o & 1 and m2 >> w & 1 and m0 >> c & 1)
        or (m2 >> o & 1 and m0 >> w & 1 and m1 >> c & 1)
        or (m2 >> o & 1 and m1 >> w & 1 and m0 >> c & 1)
    ) != 0


# Tasks: each runs (code < 0) until it needs a decision, returning the number of legal codes in
# ``out``, or applies decision ``code`` it asked for; 0 when it progressed without one. -----------
@njit(**J)
def decode_card(code):
    x = code - C.C_CARD
    return x % C.CARD_SPAN, x // C.CARD_SPAN


@njit(**INLINE_JIT)  # called from ``advance`` alone: inlined there, no copy (T35's windows)
def task_window(state, rules, rng, out, code):
    """T35, A17: every player holding exactly 5 cards may discard one, in turn order from the
    active player (only the active player with ``favorable_current_any_turn`` false)."""
    t = top_task(state)
    if not tile_on(state, T35):
        pop(state)
        return 0
    active = state[C.F_ACTIVE]
    i = state[as_index(t + 1)]
    if code >= 0:
        if code != C.C_PASS:
            card, pile = decode_card(code)
            discard(state, rules, card, pile)
        state[t + 1] = i + 1
        return 0
    # Most windows find no Hand of exactly 5 cards: one look at every Hand size first, without
    # the turn order's seat arithmetic per seat
    n_players = state[L.H_N_PLAYERS]
    five = False
    for s in range(n_players):
        if hand_n(state, s) == 5:
            five = True
    if not five:
        pop(state)
        return 0
    while i < n_players:
        s = seat_after(state, active, i)
        if (rules[R.R_CURRENT_ANY] or s == active) and hand_n(state, s) == 5:
            out[0] = C.C_PASS
            n = list_hand(state, rules, s, C.C_CARD, state[C.F_N_PILES], out, 1, 0)
            state[t + 1] = i
            ask(state, s, C.PH_T35, active, -1)
            return n
        i += 1
    pop(state)
    return 0


@njit(**J)
def task_drawn(state, rules, rng, out, code):
    """T3 (may discard a Penguin) and T24 (may give the drawn Turtle left), per card drawn."""
    t = top_task(state)
    slot = state[t + 1]
    seat = state[t + 2]
    card = state[t + 3]
    tile = state[C.F_TILES + slot]
    state[
        t + 3
    ] = -1  # the card drawn is private: no trace of it once the task is done (cards.F_STACK)
    if code >= 0:
        pop(state)
        if code != C.C_PASS:
            if tile == 3:
                c, pile = decode_card(code)
                discard(state, rules, c, pile)
            else:
                left = left_of(state, seat)
                give(state, card, left)
                seen_set(state, seat, card, C.SEEN_HAND + left)
        return 0
    if state[C.F_TILE_DOWN + slot]:
        pop(state)
        return 0
    if tile == 3:
        out[0] = C.C_PASS
        n = list_hand(state, rules, seat, C.C_CARD, state[C.F_N_PILES], out, 1, 1 << C.PENGUIN)
        if n > 1:
            state[t + 3] = card  # still asked
            ask(state, seat, C.PH_T3, card, -1)
            return n
    elif (
        state[C.F_LOC + card] == C.LOC_HAND + seat and held_mask(state, rules, card) >> C.TURTLE & 1
    ):
        out[0] = C.C_PASS
        out[1] = C.C_YES
        state[t + 3] = card  # still asked
        ask(state, seat, C.PH_T24, card, -1)
        return 2
    pop(state)
    return 0


@njit(**J)
def showing_word(state, rules, seat, w, bit):
    """Word ``w`` of the set of ``seat``'s Hand cards showing pirate ``bit`` in a Hand (any if
    -1), as ``held_mask`` reads them: printed with it; every Crocodile and Turtle card when T31
    joins the two for all purposes (A39) and ``bit`` is one of them; the solitary Walrus, every
    pirate, under T7 with ``solitary_walrus_scope`` everywhere (A38)."""
    x = hand_word(state, seat, w)
    if bit < 0:
        return x
    shows = state[C.F_PIRATE_BITS + bit * C.HAND_WORDS + w] & 0xFFFFFFFF
    every = all_pirates(rules)
    if rules[R.R_ALLIGATURTLE_ALL] and tile_on(state, T31) and (B_CROC_TURTLE & every) >> bit & 1:
        shows |= state[C.F_PIRATE_BITS + C.CROCODILE * C.HAND_WORDS + w] & 0xFFFFFFFF
        shows |= state[C.F_PIRATE_BITS + C.TURTLE * C.HAND_WORDS + w] & 0xFFFFFFFF
    if rules[R.R_WALRUS_EVERYWHERE] and tile_on(state, T7) and every >> bit & 1:
        shows |= solitary_walrus_word(state, w)
    return x & shows


@njit(**J)
def nth_card(state, seat, k, bit, rules):
    """The ``k``-th card (id order) of ``seat``'s Hand showing pirate ``bit`` (any if -1): the
    ``k``-th set bit of ``showing_word``, a popcount per word instead of a pass over every card."""
    for w in range(C.HAND_WORDS):
        x = showing_word(state, rules, seat, w, bit)
        c = popcount(x)
        if k >= c:
            k -= c
            continue
        for _ in range(k):
            x &= x - 1
        return w * 32 + low_bit_index(x & -x)
    return -1


@njit(**J)
def count_showing(state, rules, seat, bit):
    n = 0
    for w in range(C.HAND_WORDS):
        n += popcount(showing_word(state, rules, seat, w, bit))
    return n


@njit(**INLINE_JIT)  # tiny, and four calls in task_tile (each zero-fills two slots)
def give(state, card, seat):
    """``card`` from its Hand into ``seat``'s, face down: who saw it is said by the caller."""
    forget(state, card)
    from_hand(state, card)
    to_hand(state, seat, card)


@njit(**INLINE_JIT)  # called from ``advance`` alone (~0.9 a 4-player turn): inlined, no copy
def task_tile(state, rules, rng, out, code):
    """A triggered tile's effect (T-table), played by ``F_PLAY_SEAT``; sub-step in ``b``."""
    t = top_task(state)
    slot = state[as_index(t + 1)]
    sub = state[as_index(t + 2)]
    tile = state[as_index(C.F_TILES + slot)]
    seat = state[C.F_PLAY_SEAT]
    n_players = state[L.H_N_PLAYERS]
    pile = state[C.F_PLAY_PILE]
    under = state[C.F_PLAY_UNDER]
    # The tiles that list a Hand or draw a card do it through the one call at the end (``hand``:
    # whose Hand, ``piles``, ``bit``; ``chooser``, ``phase``, ``ctx_a``, ``ctx_b``: who decides and
    # what ``ask`` says; ``drawer``: who draws). numba zero-fills two stack slots per call site
    # each time a function is entered, and task_tile is entered for every tile resolved.
    hand = -1
    piles = 1
    bit = 0
    chooser = seat
    phase = 0
    ctx_a = -1
    ctx_b = -1
    drawer = -1
    if code < 0 and sub == 0:
        if state[as_index(C.F_TILE_DOWN + slot)]:  # A40: turned face down before it resolved
            pop(state)
            return 0
        count(state, seat, C.C_TILES_TRIGGERED, 1)
        sub = 1
        state[as_index(t + 2)] = 1
    if tile == 1:  # Follow the Penguin (A6, A23)
        state[C.F_DIR] = -state[C.F_DIR]
    elif tile == 2 or tile == 26:  # Turtleball, Rabbit Hunt: the card played onto (A25)
        if under >= 0 and state[C.F_LOC + under] == C.LOC_PILE + pile:
            pile_remove(state, pile, under)
            if tile == 2:
                right = right_of(state, seat)
                to_hand(state, right, under)
                seen_by_all(state, under, C.SEEN_HAND + right)  # taken from the Action pile
                count(state, right, C.C_TILES_AGAINST, 1)
            else:
                state[C.F_LOC + under] = C.LOC_FRONT + seat
                refresh_fronts(state)
            refill_piles(state, rng)
    elif tile == 4 or tile == 16 or tile == 21 and sub == 1:
        # Man Overboard: a card on top of the deck; Sabotage: a card to the left;
        # Stowaway: a card under the card just played, then a draw
        if code >= 0:
            card = code - C.C_CARD
            if tile == 4:
                forget(state, card)  # face down onto the deck: only its owner follows it
                from_hand(state, card)
                deck_put_top(state, card)
                seen_set(state, seat, card, C.SEEN_DECK + state[C.F_DECK_N] - 1)
            elif tile == 16:
                left = left_of(state, seat)
                give(state, card, left)
                seen_set(state, seat, card, C.SEEN_HAND + left)
                count(state, left, C.C_TILES_AGAINST, 1)
            else:
                from_hand(state, card)
                if pile >= state[C.F_N_PILES]:
                    pile = 0  # T37's second pile went back into the deck (T27, A40)
                pos = pile_position(state, pile, state[C.F_PLAY_CARD])
                if pos < 0:
                    pos = max(state[C.F_PILE_N + pile] - 1, 0)
                pile_insert(state, pile, pos, card)
                state[t + 2] = 2
                return 0
        elif hand_n(state, seat) > 0 and (tile != 21 or under >= 0):
            hand = seat
            phase = C.PH_T4 if tile == 4 else (C.PH_T16 if tile == 16 else C.PH_T21)
            ctx_a = state[C.F_PLAY_CARD] if tile == 21 else -1
        elif tile == 21:
            if hand_n(state, seat) == 0 and not rules[R.R_STOWAWAY_DRAWS]:
                pop(state)  # pina-pirata.md A43's alternative: no card to slip under, no draw
                return 0
            state[t + 2] = 2
            return 0
    elif tile == 21:  # Stowaway, sub-step 2: the draw
        pop(state)
        drawer = seat
    elif tile == 5:  # Go Fish (A36)
        if sub == 1:
            if code >= 0:
                state[t + 3] = code - C.C_NAME
                state[t + 2] = 2
                return 0
            n = 0
            for p in range(rules[R.R_PIRATE_TYPES]):
                for o in range(n_players):
                    if o != seat:
                        out[as_index(n)] = C.C_NAME + p * C.MAX_PLAYERS + o
                        n += 1
            ask(state, seat, C.PH_T5_NAME, -1, -1)
            return n
        pirate = state[t + 3] // C.MAX_PLAYERS
        opponent = state[t + 3] % C.MAX_PLAYERS
        if code >= 0:
            give(state, code - C.C_CARD, seat)
            seen_set(state, opponent, code - C.C_CARD, C.SEEN_HAND + seat)
            count(state, opponent, C.C_TILES_AGAINST, 1)
        else:
            k = count_showing(state, rules, opponent, pirate)
            if k > 0:
                chooser = rules[R.R_GO_FISH]
                if chooser == 2:
                    card = nth_card(state, opponent, randint(rng, k), pirate, rules)
                    give(state, card, seat)
                    seen_set(state, opponent, card, C.SEEN_HAND + seat)
                    count(state, opponent, C.C_TILES_AGAINST, 1)
                else:
                    hand = opponent
                    bit = 1 << pirate
                    chooser = opponent if chooser == 0 else seat
                    phase = C.PH_T5_GIVE
                    ctx_a = pirate
                    ctx_b = seat
    elif tile == 8:  # Walrus Attack (A21)
        state[C.F_PENDING_EXTRA] += 1
    elif tile == 10:  # Tick Tock
        left = left_of(state, seat)
        count(state, left, C.C_TILES_AGAINST, 1)
        pop(state)
        drawer = left
    elif tile == 11:  # Bayou (A27)
        if play_mask(state, rules, state[C.F_PLAY_CARD]) >> C.CROCODILE & 1:
            knew = seen_top(state)  # T13's face-up top, or a card it put or looked at there
            card = deck_take(state, rng)
            if card >= 0:
                set_aside(state, rules, seat, card, knew)
        elif state[C.F_ASIDE_N] > 0:  # T11 acts on every play: most find no card set aside
            setter_only = rules[R.R_BAYOU_SETTER_ONLY]  # A27's alternative
            for card in range(state[C.F_N_CARDS]):
                if state[C.F_LOC + card] == C.LOC_ASIDE and (
                    not setter_only or state[C.F_ASIDE_BY + card] == seat
                ):
                    take_aside(state, rules, seat, card)
    elif tile == 12:  # Staredown (A22, A44)
        state[C.F_SKIP] = state[C.F_SKIP] + 1 if rules[R.R_SKIPS_ADD_UP] else 1
    elif tile == 14:  # Bunny Checkpoint (A35): sub-step i = the i-th other player in turn order
        if code >= 0:
            s = seat_after(state, seat, sub)
            state[t + 2] = sub + 1
            if code == C.C_YES:
                state[sf(s, C.SH_REVEALED)] = C.REVEALED_RABBIT
            if code != C.C_PASS:
                return 0
            count(state, s, C.C_TILES_AGAINST, 1)
            drawer = s
        elif sub < n_players:
            s = seat_after(state, seat, sub)
            if count_showing(state, rules, s, C.RABBIT) > 0 and rules[R.R_RABBIT_COMPULSORY]:
                state[t + 2] = sub + 1  # A35's alternative: a Rabbit held must be revealed
                state[sf(s, C.SH_REVEALED)] = C.REVEALED_RABBIT
                return 0
            if count_showing(state, rules, s, C.RABBIT) > 0:
                out[0] = C.C_PASS
                out[1] = C.C_YES
                ask(state, s, C.PH_T14, seat, -1)
                return 2
            else:
                state[t + 2] = sub + 1
                count(state, s, C.C_TILES_AGAINST, 1)
                drawer = s
    elif tile == 15:  # Shipwreck (A21)
        if code < 0:
            out[0] = C.C_PASS
            out[1] = C.C_YES
            ask(state, seat, C.PH_T15, -1, -1)
            return 2
        pop(state)
        if code != C.C_YES:
            return 0
        drawer = seat  # a card drawn grants the extra play (below)
    elif tile == 17:  # Recruiting
        right = right_of(state, seat)
        if code >= 0:
            give(state, code - C.C_CARD, seat)
            seen_set(state, right, code - C.C_CARD, C.SEEN_HAND + seat)
            count(state, right, C.C_TILES_AGAINST, 1)
        elif hand_n(state, right) > 0:
            hand = right
            phase = C.PH_T17
            ctx_a = right
    elif tile == 18:  # Maelstrom: every Hand passes to the left
        for card in range(state[C.F_N_CARDS]):
            loc = state[C.F_LOC + card]
            if C.LOC_HAND <= loc < C.LOC_HAND + n_players:
                left = (loc - C.LOC_HAND + 1) % n_players
                state[C.F_LOC + card] = C.LOC_HAND + left
                pass_seen(state, card, loc - C.LOC_HAND, left)
                state[C.F_HAND_CARDS + (loc - C.LOC_HAND) * C.MAX_CARDS + card] = 0
                state[C.F_HAND_CARDS + left * C.MAX_CARDS + card] = 1
        last = hand_n(state, n_players - 1)
        for s in range(n_players - 1, 0, -1):
            state[sf(s, C.SH_HAND_N)] = hand_n(state, s - 1)
        state[sf(0, C.SH_HAND_N)] = last
        for w in range(C.HAND_WORDS):
            b = C.F_HAND_BITS + w
            last = state[b + (n_players - 1) * C.HAND_WORDS]
            for s in range(n_players - 1, 0, -1):
                state[b + s * C.HAND_WORDS] = state[b + (s - 1) * C.HAND_WORDS]
            state[b] = last
    elif tile == 19:  # Labyrinth (A25)
        if code >= 0:
            if code == C.C_YES:
                pile_remove(state, pile, under)
                to_hand(state, seat, under)
                seen_by_all(state, under, C.SEEN_HAND + seat)  # taken from the Action pile
                refill_piles(state, rng)
        elif under >= 0 and state[C.F_LOC + under] == C.LOC_PILE + pile:
            out[0] = C.C_PASS
            out[1] = C.C_YES
            ask(state, seat, C.PH_T19, under, -1)
            return 2
    elif tile == 20:  # Crystal Ball
        if sub == 1:
            if code >= 0:
                state[t + 3] = code - C.C_PIRATE
                state[t + 2] = 2
                return 0
            for p in range(rules[R.R_PIRATE_TYPES]):
                out[p] = C.C_PIRATE + p
            ask(state, seat, C.PH_T20_NAME, -1, -1)
            return rules[R.R_PIRATE_TYPES]
        if sub == 2:
            if state[C.F_DECK_N] == 0:
                reshuffle(state, rng)  # A7: T20's look
            n = state[C.F_DECK_N]
            if n > 0 and held_mask(state, rules, state[C.F_DECK + n - 1]) >> state[t + 3] & 1:
                state[C.F_REVEALED] = state[C.F_DECK + n - 1]
                seen_by_all(state, state[C.F_DECK + n - 1], C.SEEN_DECK + n - 1)  # revealed
                state[t + 2] = 3
                return 0
            if n > 0:  # looked at secretly and put back
                seen_set(state, seat, state[C.F_DECK + n - 1], C.SEEN_DECK + n - 1)
        elif code >= 0:
            card, p = decode_card(code)
            discard(state, rules, card, p)
        elif hand_n(state, seat) > 0:
            hand = seat
            piles = state[C.F_N_PILES]
            phase = C.PH_T20_DISCARD
            ctx_a = state[C.F_REVEALED]
    elif tile == 22:  # Fake Map (A26)
        state[C.F_T22_HOLDER] = seat
    elif tile == 23:  # Picky Cartographer: draw two, then discard one
        if sub <= 2:
            state[t + 2] = sub + 1
            drawer = seat
        elif code >= 0:
            card, p = decode_card(code)
            discard(state, rules, card, p)
        elif hand_n(state, seat) > 0:
            hand = seat
            piles = state[C.F_N_PILES]
            phase = C.PH_T23
    elif tile == 25:  # Disinformation (A3)
        card = deck_take(state, rng)
        if card >= 0:
            pile_push(state, pile if pile < state[C.F_N_PILES] else 0, card)
    elif tile == 27:  # Old Sea Dog (A40)
        if code >= 0:
            pop(state)
            if code != C.C_PASS:
                turn_down(state, rules, code - C.C_TILE, rng)
            return 0
        out[0] = C.C_PASS
        n = 1
        for s in range(state[C.F_N_TILES]):
            if state[C.F_TILE_DOWN + s] == 0 and state[C.F_TILES + s] != 27:
                out[n] = C.C_TILE + s
                n += 1
        if n > 1:
            ask(state, seat, C.PH_T27, -1, -1)
            return n
    elif tile == 30:  # The Tortoise and the Hare (A30, A37); c: 1 once a reveal was no Turtle
        # The opponents reveal one after the other within this one entry, up to the next that
        # chooses (A37): a reveal made goes straight on to the next opponent instead of back
        # through ``advance`` (each entry of task_tile zero-fills ~37 stack slots, numba's
        # call sites; T30 was ~0.25 entries a 4-player turn). Nothing happens in between.
        while sub < n_players:
            o = seat_after(state, seat, sub)
            if code >= 0:
                state[sf(o, C.SH_REVEALED)] = code - C.C_CARD
                seen_by_all(state, code - C.C_CARD, C.SEEN_HAND + o)  # revealed (A15)
                if not held_mask(state, rules, code - C.C_CARD) >> C.TURTLE & 1:
                    state[t + 3] = 1
                code = -1
            else:
                k = hand_n(state, o)
                if k == 0:
                    # A30: an empty Hand reveals no Turtle, unless the option ignores that opponent
                    if not rules[R.R_TORTOISE_SKIPS_EMPTY]:
                        state[t + 3] = 1
                elif rules[R.R_TORTOISE_RANDOM]:
                    card = nth_card(state, o, randint(rng, k), -1, rules)
                    state[sf(o, C.SH_REVEALED)] = card
                    seen_by_all(state, card, C.SEEN_HAND + o)  # revealed (A15)
                    if not held_mask(state, rules, card) >> C.TURTLE & 1:
                        state[t + 3] = 1
                else:
                    hand = o
                    chooser = o
                    phase = C.PH_T30
                    ctx_a = seat
                    break
            sub += 1
            state[t + 2] = sub
        if hand < 0 and state[t + 3] == 0 and n_players <= sub <= n_players + 1:
            state[t + 2] = sub + 1
            drawer = seat
    elif tile == 40:  # Ghost (A34)
        if code >= 0:
            state[C.F_GHOST] = code - C.C_PIRATE
        else:
            for p in range(rules[R.R_PIRATE_TYPES]):
                out[p] = C.C_PIRATE + p
            ask(state, seat, C.PH_T40, -1, -1)
            return rules[R.R_PIRATE_TYPES]
    if hand >= 0:
        n = list_hand(state, rules, hand, C.C_CARD, piles, out, 0, bit)
        if chooser != hand:
            seen_listed(state, chooser, hand, out, n)  # T5's taker, T17: it sees those cards
        ask(state, chooser, phase, ctx_a, ctx_b)
        return n
    if drawer >= 0:
        # pina-pirata.md T15, A21: Shipwreck's extra play comes with a card actually drawn
        if draw(state, np.int64(drawer), rng) >= 0 and tile == 15:
            state[C.F_PENDING_EXTRA] += 1
        return 0
    pop(state)
    return 0
