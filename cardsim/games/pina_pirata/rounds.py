"""Piña Pirata's rounds (pina-pirata.md Playing a round, R6-R9; End of a round, R10-R12, R17;
Game modes M1 Cruise, M2 Treasure Hunt): a turn's tasks, its play or draw and the extra plays
granted by T8 and T15 (A21), T26 and T36 (A24, A29), its end (R9, R10,
A5, T12's skip, the turn caps A16), the round's end with the winner's tiles (R11, A8, A41), the
next deal (R12, A11) and the game's end.

Compiled helpers of ``engine.py``, whose docstring states the engine's contract (the task stack,
chance in order of use, canonical orders); every rule cites ``pina-pirata.md``.
"""

from numba import njit

from cardsim.core import layout as L
from cardsim.core.bits import as_index
from cardsim.core.jit import HOT_RULES_JIT, INLINE_JIT
from cardsim.core.kernel import end_turn_cap_reached
from cardsim.core.rng import shuffle
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.matching import (
    list_plays,
    list_plays_inline,
)
from cardsim.games.pina_pirata.plays import (
    apply_play_or_draw,
    do_play_inline,
    draw_step,
)
from cardsim.games.pina_pirata.state import (
    T26,
    T28,
    T32,
    T36,
    T37,
    T38,
    T39,
    J,
    ask,
    clear_aside,
    count,
    deck_take,
    empty_hands,
    forget_all,
    front_leader,
    hand_n,
    no_fronts,
    pile_push,
    pop,
    push,
    push_window,
    refresh_fronts,
    seat_after,
    sf,
    sync_tiles,
    tile_age,
    tile_on,
    to_hand,
    top_task,
)
from cardsim.games.pina_pirata.tile_effects import (
    all_show,
    plan_b,
)
from cardsim.games.pina_pirata.tiles import (
    add_tile,
    adventure_bottom,
    adventure_pop,
    remove_slot,
    reuse_removed_tiles,
    tile_setup,
    to_map,
)


# Rounds ---------------------------------------------------------------------------------------------
@njit(**J)
def game_count(state, counter, amount):
    state[C.F_GAME_COUNTERS + counter] += amount


@njit(**J)
def new_round(state, rules, rng):
    """R12, A11: a fresh deal by the dealer; the player on the dealer's left plays first."""
    n_players = state[L.H_N_PLAYERS]
    n_cards = state[C.F_N_CARDS]
    state[C.F_DIR] = 1
    state[C.F_SKIP] = 0
    state[C.F_GHOST] = -1
    state[C.F_T22_HOLDER] = -1
    state[C.F_PENDING_EXTRA] = 0
    state[C.F_REVEALED] = -1
    clear_aside(state)  # every card goes back into the deck (below)
    state[C.F_DECK_POOL_ON] = 0  # a new deck: any card may lie in it
    forget_all(state)
    for s in range(state[C.F_N_TILES]):
        state[C.F_TILE_DOWN + s] = 0
    sync_tiles(state)
    for card in range(n_cards):
        state[C.F_DECK + card] = card
        state[C.F_LOC + card] = C.LOC_DECK
    state[C.F_DECK_N] = n_cards
    shuffle(rng, state[C.F_DECK : C.F_DECK + n_cards], n_cards)
    state[C.F_PILE_N] = 0
    state[C.F_PILE_N + 1] = 0
    state[C.F_N_PILES] = 2 if tile_on(state, T37) else 1
    empty_hands(state)
    for s in range(n_players):
        state[sf(s, C.SH_REVEALED)] = -1  # A15: reveals are public until the round ends
    first = (state[C.F_DEALER] + 1) % n_players
    # The deck's top cards one by one, as ``deck_take`` would give them: the Action piles are
    # empty, so its reshuffles (A7) would find no card and draw no random number. A call per card
    # dealt was 3% of the instructions of a 4-player random game (callgrind, 1,403 -> 1,361 a turn).
    n = state[C.F_DECK_N]
    for _ in range(rules[R.R_HAND_SIZE]):
        seat = first
        for _ in range(n_players):
            if n > 0:
                n -= 1
                to_hand(state, seat, state[C.F_DECK + n])
            seat = 0 if seat == n_players - 1 else seat + 1
    state[C.F_DECK_N] = n
    for pile in range(state[C.F_N_PILES]):
        card = deck_take(state, rng)
        if card >= 0:
            pile_push(state, pile, card)
    if tile_on(state, T39):  # A33: Voodoo cards, from the first player clockwise
        adder = state[C.F_TILE_ADDER + tile_age(state, T39)]
        for i in range(n_players):
            s = (first + i) % n_players
            if rules[R.R_VOODOO_ALL] or adder < 0 or s == adder:
                card = deck_take(state, rng)
                if card >= 0:
                    state[C.F_LOC + card] = C.LOC_VOODOO + s
        refresh_fronts(state)
    else:
        # every card went back into the deck (above) and only T39's Voodoo cards are dealt in
        # front of a player: no card in front, without refresh_fronts' pass over the cards
        no_fronts(state)
    state[C.F_ROUND_TURNS] = 0
    state[C.F_ROUND_FIRST] = first
    count(state, first, C.C_FIRST_PLAYER_ROUNDS, 1)
    r = state[C.F_ROUND]
    if r < C.ROUND_SLOTS:
        state[C.F_GAME_COUNTERS + C.G_TILES_ROUND + r] = state[C.F_N_TILES]
    state[C.F_ACTIVE] = first
    push(state, C.K_TURN_START, 0, 0, 0)


@njit(**J)
def finish_round(state, winner):
    """Round figures (counters); ``winner`` -1: ended by ``round_turn_cap`` (A16)."""
    r = state[C.F_ROUND]
    turns = state[C.F_ROUND_TURNS]
    state[C.F_ROUND] = r + 1
    game_count(state, C.G_ROUNDS, 1)
    if r < C.ROUND_SLOTS:
        state[C.F_GAME_COUNTERS + C.G_TURNS_ROUND + r] = turns
    if turns > state[C.F_GAME_COUNTERS + C.G_LONGEST]:
        state[C.F_GAME_COUNTERS + C.G_LONGEST] = turns
    if winner >= 0:
        state[sf(winner, C.SH_ROUNDS_WON)] += 1
        if winner == state[C.F_ROUND_FIRST]:
            game_count(state, C.G_FIRST_WINS, 1)
        game_count(state, C.G_TILES_AT_WINS, state[C.F_N_TILES])
    else:
        game_count(state, C.G_ROUNDS_CAPPED, 1)
    state[C.F_WINNER] = winner


@njit(**J)
def end_game(state, reason, winner):
    state[L.H_OVER] = 1
    state[L.H_END_REASON] = reason
    state[C.F_GAME_WINNER] = winner


@njit(**J)
def next_round(state, rules, rng):
    """After R11: the game ends (M1, M2) or the winner deals the next round (R12)."""
    winner = state[C.F_WINNER]
    if not rules[R.R_CRUISE]:
        if winner >= 0 and state[sf(winner, C.SH_MAPS)] >= 1 + rules[R.R_MAP_TO_WIN]:
            end_game(state, C.END_MAP, winner)  # M2, A42
            return
    else:
        if state[C.F_ROUND] >= rules[R.R_CRUISE_ROUNDS]:
            end_game(state, C.END_CRUISE, -1)
            return
        reset = rules[R.R_CRUISE_RESET]
        if reset > 0 and state[C.F_N_TILES] >= reset:  # M1, A13
            tile_setup(state, rules, rng)
            game_count(state, C.G_RESETS, 1)
    if winner >= 0:
        state[C.F_DEALER] = winner
    new_round(state, rules, rng)


@njit(**HOT_RULES_JIT)  # inlined: called once, from ``advance``, every turn
def turn_end(state, rules, rng):
    """R9, R10 (A5), T28, T32; the turn caps (A16, core); the next player (R9, T12)."""
    seat = state[C.F_ACTIVE]
    n_players = state[L.H_N_PLAYERS]
    winner = -1
    if hand_n(state, seat) == 0:
        winner = seat
    elif tile_on(state, T28) and all_show(state, rules, seat, C.RABBIT):
        winner = seat
    elif tile_on(state, T32) and plan_b(state, rules, seat):
        winner = seat
    if winner < 0 and rules[R.R_WIN_ANY]:
        for i in range(1, n_players):
            s = seat_after(state, seat, i)
            if hand_n(state, s) == 0:
                winner = s
                break
    state[L.H_TURNS] += 1
    state[C.F_ROUND_TURNS] += 1
    if winner >= 0:
        finish_round(state, winner)
        if not end_turn_cap_reached(state):
            push(state, C.K_ROUND_END, 0, 0, 0)
    elif end_turn_cap_reached(state):
        return
    elif state[C.F_ROUND_TURNS] >= rules[R.R_ROUND_CAP]:
        finish_round(state, -1)
        push(state, C.K_ROUND_END, 0, 0, 0)
    else:
        nxt = seat_after(state, seat, 1)
        skips = state[C.F_SKIP]  # T12: one skip, or one per Staredown under A44's alternative
        if skips:
            state[C.F_SKIP] = 0
            for _ in range(skips):
                count(state, nxt, C.C_TILES_AGAINST, 1)
                nxt = seat_after(state, nxt, 1)
        state[C.F_ACTIVE] = nxt
        start_turn(state)  # what K_TURN_START does, without the round trip through the stack


@njit(**J)
def start_turn(state):
    """A turn's tasks (module docstring). T26's and T36's TURN_EXTRAS only while one of them is
    face up: a tile turns face up only between rounds, so the task would do nothing."""
    state[C.F_MAIN_PLAYED] = 0
    state[C.F_PENDING_EXTRA] = 0
    state[C.F_TURN_PLAYS] = 0
    push(state, C.K_TURN_END, 0, 0, 0)
    if tile_on(state, T26) or tile_on(state, T36):
        push(state, C.K_TURN_EXTRAS, 0, 0, 0)
    push(state, C.K_MAIN, 0, 0, 0)
    push_window(state)


@njit(**J)
def cut_turn(state):
    """A16 safeguard for a turn that need never end: extra plays granted by T8 and T15 chain
    (A21) with no limit, and a Hand can stay the same size while they do (T8 with T11, T23 and T31
    and an empty deck: pina-pirata.md A16), so a bot that always takes them makes one
    endless turn. When a turn has made ``round_turn_cap`` plays and could make another extra
    play, the turn ends there and so does the round, with no winner, as when ``turn_end``
    reaches the cap (counted in ``rounds_capped``; the core's game turn cap first)."""
    state[C.F_SP] = 0
    state[L.H_TURNS] += 1
    state[C.F_ROUND_TURNS] += 1
    if end_turn_cap_reached(state):
        return
    finish_round(state, -1)
    push(state, C.K_ROUND_END, 0, 0, 0)


@njit(**HOT_RULES_JIT)  # inlined: called once, from ``advance``, every turn
def task_main(state, rules, rng, out, code):
    """R7, R8 (A1; T38: a leader who cannot play may skip the draw, A29)."""
    seat = state[C.F_ACTIVE]
    if code >= 0:
        pop(state)
        if code < C.C_DRAW:  # apply_play_or_draw written out: one call less per turn
            state[C.F_MAIN_PLAYED] = 1
            do_play_inline(state, rules, seat, code % C.CARD_SPAN, code // C.CARD_SPAN, rng)
        elif code == C.C_DRAW:
            draw_step(state, rules, seat, rng)
        return 0
    n = list_plays_inline(state, rules, seat, out, 0)
    if n > 0:
        if not rules[R.R_MUST_PLAY]:
            out[as_index(n)] = C.C_DRAW  # n > 0 (bits_out)
            n += 1
        ask(state, seat, C.PH_MAIN, -1, -1)
        return n
    if tile_on(state, T38) and front_leader(state, rules, seat):
        out[0] = C.C_DRAW
        out[1] = C.C_PASS
        ask(state, seat, C.PH_T38_DRAW, -1, -1)
        return 2
    pop(state)
    draw_step(state, rules, seat, rng)
    return 0


# called from ``advance`` alone: inlined there, no copy (T8's and T15's extra plays)
@njit(**INLINE_JIT)
def task_opt_extras(state, rules, rng, out, code):
    """T8, T15: the optional extra plays granted, after the play's tiles resolved (A21)."""
    seat = state[C.F_ACTIVE]
    if code >= 0:
        pop(state)
        if code == C.C_PASS:
            state[C.F_PENDING_EXTRA] = 0
        else:
            state[C.F_PENDING_EXTRA] -= 1
            apply_play_or_draw(state, rules, seat, code, rng)
        return 0
    if state[C.F_PENDING_EXTRA] == 0:
        pop(state)
        return 0
    n = list_plays(state, rules, seat, out, 0)
    if n == 0:
        state[C.F_PENDING_EXTRA] = 0
        pop(state)
        return 0
    if state[C.F_TURN_PLAYS] >= rules[R.R_ROUND_CAP]:
        cut_turn(state)  # A16: an endless chain of extra plays
        return 0
    out[n] = C.C_PASS
    ask(state, seat, C.PH_EXTRA, -1, -1)
    return n + 1


@njit(**INLINE_JIT)  # called from ``advance`` alone: inlined there, no copy (T26's and T36's)
def task_turn_extras(state, rules, rng, out, code):
    """T26 (a front leader's optional extra play) and T36 (an extra attempt), once a turn each,
    in tile age order, after the normal step (A24, A29)."""
    t = top_task(state)
    seat = state[C.F_ACTIVE]
    if code >= 0:
        state[t + 1] += 1
        apply_play_or_draw(state, rules, seat, code, rng)
        return 0
    # every turn while T26 or T36 is face up
    for slot in range(state[as_index(t + 1)], state[C.F_N_TILES]):
        if state[as_index(C.F_TILE_DOWN + slot)]:
            continue
        tile = state[as_index(C.F_TILES + slot)]
        if tile == 26 and front_leader(state, rules, seat):
            n = list_plays(state, rules, seat, out, 0)
            if n > 0:
                out[n] = C.C_PASS
                state[t + 1] = slot
                ask(state, seat, C.PH_EXTRA, 26, -1)
                return n + 1
        elif tile == 36 and (state[C.F_MAIN_PLAYED] or rules[R.R_SAILS_AFTER_DRAW]):
            n = list_plays(state, rules, seat, out, 0)
            if n > 0:
                if not rules[R.R_MUST_PLAY]:
                    out[n] = C.C_DRAW
                    n += 1
                state[t + 1] = slot
                ask(state, seat, C.PH_FULL_SAILS, -1, -1)
                return n
            if hand_n(state, seat) > 0:
                state[t + 1] = slot + 1
                draw_step(state, rules, seat, rng)
                return 0
    pop(state)
    return 0


@njit(**J)
def task_round_end(state, rules, rng, out, code):
    """R11 (A8, A41), R17 (A10), then M1/M2's end or the next round (R12). ``a``: sub-step; ``c``:
    the tile going into play."""
    t = top_task(state)
    sub = state[t + 1]
    winner = state[C.F_WINNER]
    if sub == 0:
        for s in range(state[C.F_N_TILES]):  # A40: face-down tiles turn up before R11
            state[C.F_TILE_DOWN + s] = 0
        sync_tiles(state)
        state[C.F_T22_HOLDER] = -1  # A26: Fake Map returns to the tiles in play
        state[t + 1] = 3
        if winner >= 0:
            if rules[R.R_REUSE_REMOVED] and state[C.F_ADV_N] < rules[R.R_TILES_DRAWN]:
                reuse_removed_tiles(state, rng)  # A41's alternative
            k = min(rules[R.R_TILES_DRAWN], state[C.F_ADV_N])
            for i in range(k):
                state[C.F_ROUND_END + i] = adventure_pop(state)
            if k > 0:
                state[t + 1] = 1
        return 0
    if sub == 1:
        k = 0
        for i in range(3):
            if state[C.F_ROUND_END + i] > 0:
                k += 1
        if code < 0:
            n = 0
            if k == 3:
                for p in range(3):
                    for m in range(3):
                        # A8's alternative: the winner picks only the play tile; the first drawn
                        # of the other two is the map piece
                        first_other = 1 if p == 0 else 0
                        if p != m and (not rules[R.R_PICK_PLAY_ONLY] or m == first_other):
                            out[n] = C.C_ASSIGN + p * 4 + m
                            n += 1
            elif k == 2:
                out[0] = C.C_ASSIGN + 1  # the first into play, the second a map piece
                out[1] = C.C_ASSIGN + 4
                n = 2
            else:
                out[0] = C.C_ASSIGN + 3  # the only tile into play, or (next) onto the map
                out[1] = C.C_ASSIGN + 12
                n = 2
            ask(state, winner, C.PH_ASSIGN, k, -1)
            return n
        p = (code - C.C_ASSIGN) // 4
        m = (code - C.C_ASSIGN) % 4
        state[t + 1] = 3
        for i in range(k):
            tile = state[C.F_ROUND_END + i]
            if i == m:
                to_map(state, winner, tile)
            elif i == p:
                if not rules[R.R_CRUISE] and state[C.F_N_TILES] >= rules[R.R_MAX_TILES]:
                    state[t + 3] = tile
                    state[t + 1] = 2
                else:
                    add_tile(state, tile, winner)
            else:
                adventure_bottom(state, tile)
        for i in range(3):  # public: only a tile still waiting for its place (R17)
            state[C.F_ROUND_END + i] = 0
        if state[t + 1] == 2:
            state[C.F_ROUND_END] = state[t + 3]
        return 0
    if sub == 2:
        if code < 0:
            for s in range(state[C.F_N_TILES]):
                out[s] = C.C_TILE + s
            ask(state, winner, C.PH_REPLACE, state[t + 3], -1)
            return state[C.F_N_TILES]
        remove_slot(state, code - C.C_TILE)
        add_tile(state, state[t + 3], winner)
        state[t + 1] = 3
        return 0
    for i in range(3):
        state[C.F_ROUND_END + i] = 0
    pop(state)
    next_round(state, rules, rng)
    return 0
