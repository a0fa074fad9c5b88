"""The worked examples E1-E9 of ``pina-pirata.md``, on the compiled engine (tables set up as the
example describes, ``tests/pina_table.py``). The reference agrees with the engine game by game
(``test_pina_pirata_reference.py``).

Seats: 0 Vincent, 1 Marie, then the others clockwise (the player on your left is seat + 1).
"""

from __future__ import annotations

import numpy as np

from cardsim.core import layout as L
from cardsim.core import runner
from cardsim.games.pina_pirata import cards as C
from tests.pina_table import MASKS, Table, card, shows

VINCENT, MARIE = 0, 1


def test_e1_matching_then_a_draw():
    """E1: top Tiger/Rat; Vincent may play any card with a Tiger or a Rat, plays Tiger/Octopus;
    Marie has neither Tiger nor Octopus, so she draws a card and her turn ends."""
    vincent = [card("Tiger", "Octopus"), card("Rat", "Walrus"), card("Parrot", "Monkey")]
    marie = [card("Parrot", "Walrus"), card("Rabbit", "Monkey")]
    next_card = card("Penguin", "Crocodile")
    t = Table(
        players=3,
        hands={0: vincent, 1: marie, 2: [card("Tiger", "Penguin"), card("Octopus", "Rabbit")]},
        top=card("Tiger", "Rat"),
        deck=[next_card],
    )
    assert t.seat == VINCENT and sorted(t.playable()) == sorted(vincent[:2])
    t.play(card("Tiger", "Octopus"))
    assert t.top == card("Tiger", "Octopus")
    # Marie could not play: she drew the deck's top card, and the third player is up
    assert next_card in t.hand(MARIE) and len(t.hand(MARIE)) == 3
    assert t.active == 2 and t.seat == 2 and t.turns == 2


def test_e2_hand_size_by_player_count():
    """E2: 8 cards each with 2-5 players, 7 with 6."""
    for players in range(2, 7):
        from cardsim.games.pina_pirata import engine

        table = Table(players=players)

        state = np.zeros(C.STATE_LEN, np.int32)
        engine.setup(state, table.rules, players, table.rng)
        hands = [state[C.seat_field(s, C.SH_HAND_N)] for s in range(players)]
        assert hands == [7 if players == 6 else 8] * players


def test_e3_the_deck():
    """E3: 10 pirates, each on 10 cards (9 duos and 1 solitary): 45 + 10 = 55 cards."""
    assert len(MASKS) == 55 and len(set(MASKS)) == 55
    for p in range(10):
        on = [m for m in MASKS if m >> p & 1]
        assert len(on) == 10 and sum(m == 1 << p for m in on) == 1


def test_e4_round_end_tiles_and_new_dealer():
    """E4: Marie plays her last card and wins the round; she draws three tiles, puts one into
    play, keeps one as a map piece, one goes to the bottom of the pile; she deals the next round,
    and the player on her left plays first."""
    t = Table(
        players=4,
        hands={0: [card("Parrot", "Monkey")] * 1, 1: [card("Tiger", "Octopus")], 2: [card("Rat")]},
        top=card("Tiger", "Rat"),
        active=MARIE,
    )
    s = t.state
    pile_before = 40 - 4  # the four starting map pieces left the pile (A9)
    maps_before = s[C.seat_field(MARIE, C.SH_MAPS)]
    assert t.legal == [C.C_PLAY + card("Tiger", "Octopus")] or t.phase == C.PH_ASSIGN
    # her only playable card is forced: she wins at the end of her turn
    assert t.phase == C.PH_ASSIGN and t.seat == MARIE
    drawn = [int(x) for x in s[C.F_ROUND_END : C.F_ROUND_END + 3]]
    assert len(t.legal) == 6  # every (into play, map piece) pair of the three tiles
    t.decide(C.C_ASSIGN + 2 * 4 + 0)  # the third into play, the first onto her map
    assert s[C.F_TILES + s[C.F_N_TILES] - 1] == drawn[2]  # the newest tile in play
    assert s[C.seat_field(MARIE, C.SH_MAPS)] == maps_before + 1
    assert s[C.F_TILE_WHERE + drawn[0]] == C.W_MAP + MARIE
    assert s[C.F_ADV] == drawn[1] and s[C.F_ADV_N] == pile_before - 2  # the second at the bottom
    assert s[C.F_DEALER] == MARIE and s[C.F_ROUND_FIRST] == 2  # her left plays first
    assert all(s[C.seat_field(p, C.SH_HAND_N)] == 8 for p in range(4))


def test_e4_a8_the_winner_picks_only_the_play_tile_under_the_option():
    """pina-pirata.md A8: by default the winner assigns all three tiles (six choices, E4); with
    ``winner_picks_play_tile_only`` she picks the play tile only and the first drawn of the other
    two becomes her map piece."""
    t = Table(
        players=4,
        hands={0: [card("Parrot", "Monkey")] * 1, 1: [card("Tiger", "Octopus")], 2: [card("Rat")]},
        top=card("Tiger", "Rat"),
        active=MARIE,
        rules={"winner_picks_play_tile_only": True},
    )
    s = t.state
    assert t.phase == C.PH_ASSIGN and t.seat == MARIE
    drawn = [int(x) for x in s[C.F_ROUND_END : C.F_ROUND_END + 3]]
    assert t.legal == [C.C_ASSIGN + 0 * 4 + 1, C.C_ASSIGN + 1 * 4 + 0, C.C_ASSIGN + 2 * 4 + 0]
    t.decide(C.C_ASSIGN + 0 * 4 + 1)  # the first into play: the second is her map piece
    assert s[C.F_TILES + s[C.F_N_TILES] - 1] == drawn[0]
    assert s[C.F_TILE_WHERE + drawn[1]] == C.W_MAP + MARIE and s[C.F_ADV] == drawn[2]


def test_a41_a_short_pile_takes_back_the_removed_tiles_under_the_option():
    """pina-pirata.md A41: with one tile left in the Adventure pile the winner draws just it
    (default); with ``reuse_removed_tiles`` the tiles removed from the game (R17) are shuffled
    back into the pile first, so she draws three and assigns them as in A8."""

    def win_with_a_short_pile(rules):
        t = Table(players=2, hands={0: [card("Tiger", "Octopus")], 1: [card("Rat", "Parrot")]},
                  top=card("Tiger", "Rat"), rules=rules, stop=True)  # fmt: skip
        s = t.state
        for tile in s[C.F_ADV + 1 : C.F_ADV + 3]:  # two tiles out of the game, one left
            s[C.F_TILE_WHERE + tile] = C.W_REMOVED
        s[C.F_ADV_N] = 1
        t.play(card("Tiger", "Octopus"))
        while t.phase != C.PH_ASSIGN:
            t.decide(t.legal[0])
        return t

    assert len(win_with_a_short_pile({}).legal) == 2  # one tile: into play or onto the map
    assert len(win_with_a_short_pile({"reuse_removed_tiles": True}).legal) == 6


def test_e5_t1_reverses_the_direction():
    """E5, T1: turns 0 -> 1 -> 2 -> 3; player 2 plays a Penguin; next is player 1, then 0, 3, 2."""
    hands = {
        2: [card("Penguin", "Tiger"), card("Rabbit", "Octopus")],  # the Penguin is its only play
        1: [card("Tiger", "Walrus"), card("Penguin", "Rat")],
        0: [card("Walrus", "Rabbit"), card("Walrus", "Octopus")],
        3: [card("Rabbit", "Monkey"), card("Rabbit", "Parrot")],
    }
    t = Table(players=4, tiles=(1,), hands=hands, top=card("Tiger", "Rat"), active=2)
    assert t.active == 1 and t.state[C.F_DIR] == -1  # player 1, not player 3
    t.play(card("Tiger", "Walrus"))
    assert t.active == 0
    t.play(card("Walrus", "Rabbit"))
    assert t.active == 3


def test_e5_t4_card_on_top_of_the_deck():
    """E5, T4: a Parrot is played; the player puts a card from their Hand on top of the deck,
    so the next draw takes that card."""
    kept = card("Rabbit", "Monkey")
    t = Table(
        players=2,
        tiles=(4,),
        hands={
            0: [card("Parrot", "Tiger"), card("Octopus", "Rat"), kept, card("Turtle", "Walrus")],
            1: [card("Penguin", "Rat")],
        },
        top=card("Parrot", "Octopus"),
    )
    t.play(card("Parrot", "Tiger"))
    assert t.phase == C.PH_T4 and t.seat == 0
    t.give(kept)
    # player 1 cannot play onto Parrot/Tiger: draws, and gets the card just put on the deck
    assert kept in t.hand(1)


def test_e5_t7_no_walrus_on_walrus_and_the_solitary_walrus():
    """E5, T7: a Walrus card may not go onto a Walrus; the solitary Walrus goes onto any
    non-Walrus card and any non-Walrus card onto it; it triggers every play tile keyed to a
    pirate (T10 Crocodile, T4 Parrot), play-onto tiles (T2) only if the card underneath fits."""
    walrus = card("Walrus")
    duo = card("Walrus", "Tiger")
    t = Table(
        players=3,
        tiles=(7,),
        hands={0: [walrus, duo, card("Rat", "Octopus"), card("Rat", "Monkey")]},
        top=card("Walrus", "Rat"),
    )
    assert t.playable() == sorted([card("Rat", "Octopus"), card("Rat", "Monkey")])
    t2 = Table(
        players=3,
        tiles=(7, 10, 4, 2),
        hands={
            0: [walrus, card("Rabbit", "Octopus"), card("Rat", "Octopus"), card("Tiger", "Monkey")],
            1: [card("Rat")],
        },
        top=card("Rabbit", "Parrot"),
    )
    assert t2.playable() == sorted([walrus, card("Rabbit", "Octopus")])
    t2.play(walrus)
    # T10 fired first (older): the left player drew; then T4 asks for a card onto the deck
    assert len(t2.hand(1)) == 2 and t2.phase == C.PH_T4
    t2.give(card("Tiger", "Monkey"))
    # T2 needed a Turtle underneath: the Rabbit/Parrot stayed in the Action pile
    assert card("Rabbit", "Parrot") in t2.pile()
    t3 = Table(
        players=3,
        tiles=(7,),
        hands={0: [card("Rabbit", "Octopus"), card("Rat", "Tiger"), duo]},
        top=walrus,
    )
    assert t3.playable() == sorted([card("Rabbit", "Octopus"), card("Rat", "Tiger")])


def test_e5_t10_left_player_draws_even_reversed():
    """E5, T10: a Crocodile is played; the player on the left (a fixed seat) draws a card."""
    t = Table(
        players=4,
        tiles=(1, 10),
        hands={
            2: [card("Penguin", "Crocodile"), card("Rabbit", "Parrot")],
            3: [card("Rat")],
            1: [card("Penguin", "Rat"), card("Crocodile", "Rabbit")],
        },
        top=card("Penguin", "Turtle"),
        active=2,
    )
    assert t.active == 1  # the Penguin reversed play (T1)...
    assert len(t.hand(3)) == 2  # ...but seat 3 is on seat 2's left, though play now runs to seat 1


def test_e5_t13_octopus_jokers_while_the_deck_shows_one():
    """E5, T13: the deck's top card is face up; while it shows an Octopus, Octopus cards may be
    played onto any top card; when the top changes to one without an Octopus, this stops."""
    octo = card("Octopus", "Rabbit")
    t = Table(
        players=2,
        tiles=(13,),
        hands={0: [octo, card("Tiger", "Walrus"), card("Parrot", "Monkey")], 1: [card("Turtle")]},
        top=card("Tiger", "Rat"),
        deck=[card("Penguin", "Walrus"), card("Octopus", "Crocodile")],
    )
    assert t.state[C.F_DECK_SHOWN] == card("Octopus", "Crocodile")
    assert t.playable() == sorted([octo, card("Tiger", "Walrus")])
    t2 = Table(
        players=2,
        tiles=(13,),
        hands={0: [octo, card("Tiger", "Walrus"), card("Tiger", "Penguin")]},
        top=card("Tiger", "Rat"),
        deck=[card("Octopus", "Crocodile"), card("Penguin", "Walrus")],
    )
    assert t2.state[C.F_DECK_SHOWN] == card("Penguin", "Walrus")
    assert t2.playable() == sorted([card("Tiger", "Walrus"), card("Tiger", "Penguin")])


def test_e6_a_duo_triggers_both_pirates_oldest_first():
    """E6: T10 (older) and T4 (newer); a Parrot/Crocodile is played: first the left neighbour
    draws (T10), then the player puts a card on top of the deck (T4)."""
    t = Table(
        players=3,
        tiles=(10, 4),
        hands={
            0: [card("Parrot", "Crocodile"), card("Rabbit", "Monkey"), card("Turtle", "Walrus")],
            1: [card("Turtle")],
        },
        top=card("Crocodile", "Rat"),
    )
    # the Parrot/Crocodile is the only match: played at once
    assert len(t.hand(1)) == 2  # T10 already resolved
    assert t.phase == C.PH_T4


def test_e7_a_discard_becomes_the_top_card():
    """E7: T23; a Turtle is played; the player draws two cards and discards one: the discarded
    card is the new top card and the next player must match it."""
    t = Table(
        players=2,
        tiles=(23,),
        hands={
            0: [card("Turtle", "Tiger"), card("Rabbit", "Monkey")],
            1: [card("Parrot", "Walrus"), card("Monkey", "Rat"), card("Rabbit", "Penguin")],
        },
        top=card("Turtle", "Rat"),
        deck=[card("Octopus", "Walrus"), card("Crocodile")],
    )
    assert t.phase == C.PH_T23 and {card("Crocodile"), card("Octopus", "Walrus")} <= set(t.hand(0))
    t.give(card("Rabbit", "Monkey"))
    assert t.top == card("Rabbit", "Monkey")
    assert t.playable() == sorted([card("Monkey", "Rat"), card("Rabbit", "Penguin")])
    assert t.seat == 1


def test_e8_literal_win_check():
    """E8: T18; A's only card is a Monkey; A plays it and every player passes their Hand left:
    A receives their right neighbour's Hand and does not win; B holds no cards but it is not B's
    turn; on B's turn B cannot play and draws. With win_check_any_player, B wins at the end of
    A's turn."""
    monkey = card("Monkey")
    hands = {
        0: [monkey],
        1: [card("Monkey", "Rabbit"), card("Monkey", "Parrot")],
        2: [card("Rat", "Walrus")],
    }
    drawn = card("Penguin", "Tiger")
    t = Table(players=3, tiles=(18,), hands=hands, top=card("Monkey", "Tiger"), deck=[drawn])
    # A's Monkey was its only card and only play; C now decides, holding B's old Hand
    assert t.active == 2 and t.seat == 2 and t.state[C.F_ROUND] == 0  # nobody won
    assert t.hand(0) == [card("Rat", "Walrus")]  # A received its right neighbour's Hand
    assert t.hand(1) == [drawn]  # B, emptied on A's turn, drew on its own
    t_any = Table(
        players=3,
        tiles=(18,),
        hands=hands,
        top=card("Monkey", "Tiger"),
        deck=[drawn],
        rules={"win_check_any_player": True},
    )
    assert t_any.state[C.F_WINNER] == 1 and t_any.state[C.F_ROUND] == 1
    assert t_any.phase == C.PH_ASSIGN and t_any.seat == 1


def test_e9_treasure_hunt_supply_with_six_players():
    """E9: 6 players: 2 starting tiles + 6 map pieces leave 32 tiles in the pile; each round 2
    leave it, so the 13th round's draw of 3 is always there (at most 13 rounds)."""
    from cardsim.games.pina_pirata import engine

    t = Table(players=6, rules={"start_tiles": 2})
    state = np.zeros(C.STATE_LEN, np.int32)
    engine.setup(state, t.rules, 6, t.rng)
    assert state[C.F_ADV_N] == 32 and state[C.F_N_TILES] == 2
    spec = runner.make_spec("pina-pirata", 300, 6, ["random"], {}, 4)
    games = next(iter(runner.iter_chunks(spec))).game_out
    rounds = games[:, len(L.GAME_COLUMNS) + C.GAME_COUNTERS.index("rounds")]
    assert rounds.max() <= 13 and np.all(games[:, L.G_END_REASON] == C.END_MAP)
    assert shows(card("Walrus", "Tiger"), "Tiger")
