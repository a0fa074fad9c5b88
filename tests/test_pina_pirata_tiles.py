"""One test per Adventure tile T1-T40 of ``pina-pirata.md``: a table set up as the tile speaks
of it (``tests/pina_table.py``, compiled engine), the tile's effect checked in the doc's words.

Seat 0 plays first unless said; the player on your left is seat + 1, on your right seat - 1.
The engine stops at every decision here (forced ones too), and the next player holds a playable
card so that the table stops there, right after the effect, to be looked at.
"""

from __future__ import annotations

from functools import partial

from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.matching import can_play
from cardsim.games.pina_pirata.state import refresh_fronts
from tests.pina_table import Table as AutoTable
from tests.pina_table import card

P = card  # short: P("Tiger", "Rat") is the Tiger/Rat duo
Table = partial(AutoTable, stop=True)  # the engine stops at every decision, forced ones too


def test_t1_follow_the_penguin_with_two_players_changes_nothing():
    """T1 (A23): reversing the direction has no effect with two players."""
    t = Table(
        players=2,
        tiles=(1,),
        hands={
            0: [P("Penguin", "Rat"), P("Rabbit", "Parrot")],
            1: [P("Penguin", "Tiger"), P("Rat", "Walrus")],
        },
        top=P("Penguin", "Octopus"),
    )
    assert t.playable() == [P("Penguin", "Rat")]
    t.play(P("Penguin", "Rat"))
    assert t.active == 1 and t.state[C.F_DIR] == -1


def test_t2_turtleball_right_player_takes_the_turtle():
    """T2: when you play a Penguin onto a card showing a Turtle, the player on your right takes
    that Turtle card into their Hand (A25: the card just played stays on top)."""
    t = Table(
        players=3,
        tiles=(2,),
        hands={
            0: [P("Penguin", "Tiger"), P("Rabbit", "Parrot")],
            1: [P("Penguin", "Rat"), P("Tiger", "Rabbit")],
        },
        top=[P("Monkey", "Octopus"), P("Tiger", "Turtle")],
    )
    t.play(P("Penguin", "Tiger"))
    assert P("Tiger", "Turtle") in t.hand(2)  # seat 2 is on seat 0's right
    assert t.pile() == [P("Monkey", "Octopus"), P("Penguin", "Tiger")]


def test_t3_iceberg_may_discard_a_penguin_after_a_draw():
    """T3: each time you draw a card, you may discard a Penguin card from your Hand."""
    t = Table(
        players=2,
        tiles=(3,),
        hands={
            0: [P("Penguin", "Rat"), P("Penguin", "Walrus")],
            1: [P("Penguin", "Tiger"), P("Rat", "Parrot")],
        },
        top=P("Rabbit", "Parrot"),
        deck=[P("Monkey", "Tiger")],
    )
    assert t.phase == C.PH_T3 and t.seat == 0
    assert t.legal == [C.C_PASS, C.C_CARD + P("Penguin", "Rat"), C.C_CARD + P("Penguin", "Walrus")]
    t.give(P("Penguin", "Rat"))
    assert t.pile()[-1] == P("Penguin", "Rat") and P("Monkey", "Tiger") in t.hand(0)
    assert t.active == 1 and t.phase == C.PH_MAIN


def test_t4_man_overboard_card_on_top_of_the_deck():
    """T4: a Parrot is played; put a card from your Hand on top of the deck."""
    t = Table(
        players=2,
        tiles=(4,),
        hands={
            0: [P("Parrot", "Rat"), P("Tiger", "Walrus"), P("Monkey", "Rabbit")],
            1: [P("Parrot", "Penguin")],
        },
        top=P("Parrot", "Octopus"),
    )
    t.play(P("Parrot", "Rat"))
    assert t.phase == C.PH_T4
    t.give(P("Tiger", "Walrus"))
    assert t.deck()[-1] == P("Tiger", "Walrus")


def test_t5_go_fish_the_opponent_gives_a_card_of_the_named_pirate():
    """T5: name a pirate and an opponent; that opponent must give you a card from their Hand
    showing that pirate, if they have one (A36: the giver chooses which)."""
    t = Table(
        players=3,
        tiles=(5,),
        hands={
            0: [P("Parrot", "Rat"), P("Monkey", "Walrus")],
            1: [P("Parrot", "Penguin")],
            2: [P("Tiger", "Rabbit"), P("Tiger", "Octopus"), P("Penguin", "Turtle")],
        },
        top=P("Parrot", "Octopus"),
    )
    t.play(P("Parrot", "Rat"))
    assert t.phase == C.PH_T5_NAME and len(t.legal) == 10 * 2
    tiger = C.PIRATES.index("Tiger")
    t.decide(C.C_NAME + tiger * C.MAX_PLAYERS + 2)
    assert t.phase == C.PH_T5_GIVE and t.seat == 2  # the giver chooses
    assert t.legal == [C.C_CARD + P("Tiger", "Rabbit"), C.C_CARD + P("Tiger", "Octopus")]
    t.give(P("Tiger", "Octopus"))
    assert P("Tiger", "Octopus") in t.hand(0) and P("Tiger", "Octopus") not in t.hand(2)


def test_t5_go_fish_nothing_if_the_opponent_has_none():
    t = Table(
        players=3,
        tiles=(5,),
        hands={0: [P("Parrot", "Rat"), P("Monkey", "Walrus")], 1: [P("Rat", "Turtle")],
               2: [P("Tiger", "Rabbit"), P("Tiger", "Octopus")]},
        top=P("Parrot", "Octopus"),
    )  # fmt: skip
    t.play(P("Parrot", "Rat"))
    before = t.hand(2)
    t.decide(C.C_NAME + C.PIRATES.index("Walrus") * C.MAX_PLAYERS + 2)
    assert t.hand(2) == before and t.active == 1


def test_t6_acrobats_parrot_onto_monkey():
    """T6: you may play a Parrot card onto a card showing a Monkey even if they share no pirate."""
    hand = [P("Parrot", "Tiger"), P("Monkey", "Walrus"), P("Rabbit", "Rat")]
    t = Table(players=2, tiles=(6,), hands={0: hand}, top=P("Monkey", "Octopus"))
    assert t.playable() == sorted([P("Parrot", "Tiger"), P("Monkey", "Walrus")])
    t0 = Table(players=2, hands={0: hand}, top=P("Monkey", "Octopus"))
    assert t0.playable() == [P("Monkey", "Walrus")]  # without the tile


def test_t8_walrus_attack_another_normal_play():
    """T8: a Walrus is played; you may play another card (a normal play, A21)."""
    t = Table(
        players=2,
        tiles=(8,),
        hands={
            0: [P("Walrus", "Rat"), P("Walrus", "Tiger"), P("Rabbit", "Parrot")],
            1: [P("Tiger", "Rabbit")],
        },
        top=P("Rat", "Octopus"),
    )
    assert t.phase == C.PH_MAIN
    t.play(P("Walrus", "Rat"))
    assert t.phase == C.PH_EXTRA and t.legal == [C.C_PLAY + P("Walrus", "Tiger"), C.C_PASS]
    t.play(P("Walrus", "Tiger"))  # a Walrus again: it chains, but nothing left matches
    assert t.hand(0) == [P("Rabbit", "Parrot")] and t.top == P("Walrus", "Tiger")


def test_t9_madness_walruses_are_jokers_but_not_onto_a_walrus_under_t7():
    """T9: Walruses are Jokers; with T7, a Walrus may still not go onto a Walrus (A19)."""
    hand = [P("Walrus", "Tiger"), P("Rabbit", "Parrot"), P("Octopus", "Rat")]
    t = Table(players=2, tiles=(9,), hands={0: hand}, top=P("Penguin", "Monkey"))
    assert t.playable() == [P("Walrus", "Tiger")]
    t = Table(
        players=2, tiles=(9,), hands={0: hand + [P("Penguin", "Rat")]}, top=P("Penguin", "Monkey")
    )
    assert t.playable() == sorted([P("Walrus", "Tiger"), P("Penguin", "Rat")])
    t = Table(players=2, tiles=(7, 9), hands={0: hand + [P("Rat", "Walrus")], 1: [P("Monkey", "Rabbit")]},
              top=P("Walrus", "Monkey"))  # fmt: skip
    assert t.active == 1 and len(t.hand(0)) == 5  # nothing could go onto the Walrus: seat 0 drew
    t = Table(
        players=2,
        tiles=(7, 9),
        hands={0: hand + [P("Rat", "Walrus")]},
        top=P("Walrus", "Monkey"),
        rules={"tile_conflict": "newest_wins"},
    )
    assert t.playable() == sorted([P("Walrus", "Tiger"), P("Rat", "Walrus")])  # T9 is newer


def test_t11_bayou_set_aside_then_taken_by_a_non_crocodile_play():
    """T11: when a Crocodile is played, set the top card of the deck aside; whenever a player
    plays a card showing no Crocodile, that player takes all set-aside cards into their Hand."""
    aside = P("Turtle", "Walrus")
    t = Table(
        players=2,
        tiles=(11,),
        hands={
            0: [P("Crocodile", "Rat"), P("Rabbit", "Monkey")],
            1: [P("Rat", "Tiger"), P("Rat", "Parrot")],
        },
        top=P("Crocodile", "Octopus"),
        deck=[aside],
    )
    t.play(P("Crocodile", "Rat"))
    assert t.state[C.F_LOC + aside] == C.LOC_ASIDE and t.seat == 1
    t.play(P("Rat", "Tiger"))
    assert aside in t.hand(1)


def test_t12_staredown_next_player_skips():
    """T12: the next player (in the current direction of play) skips their turn."""
    t = Table(
        players=3,
        tiles=(12,),
        hands={0: [P("Crocodile", "Rat"), P("Rabbit", "Monkey")], 1: [P("Rat", "Tiger"), P("Rat", "Parrot")],
               2: [P("Rat", "Walrus"), P("Crocodile", "Turtle")]},
        top=P("Crocodile", "Octopus"),
    )  # fmt: skip
    t.play(P("Crocodile", "Rat"))
    assert t.active == 2 and len(t.hand(1)) == 2


def test_t14_bunny_checkpoint_draw_unless_a_rabbit_is_revealed():
    """T14: each other player draws a card unless they reveal a Rabbit card (A35: their choice)."""
    t = Table(
        players=3,
        tiles=(14,),
        hands={0: [P("Octopus", "Rat"), P("Tiger", "Walrus")], 1: [P("Rabbit", "Penguin"), P("Octopus", "Walrus")],
               2: [P("Tiger", "Monkey")]},
        top=P("Octopus", "Parrot"),
    )  # fmt: skip
    t.play(P("Octopus", "Rat"))
    assert t.phase == C.PH_T14 and t.seat == 1 and t.legal == [C.C_PASS, C.C_YES]
    t.decide(C.C_YES)
    assert len(t.hand(1)) == 2 and len(t.hand(2)) == 2  # seat 2 had no Rabbit: it drew
    # A15: the reveal is public, in every bot's observation (the state's prefix) for the round
    revealed = [t.state[C.seat_field(s, C.SH_REVEALED)] for s in range(3)]
    assert revealed == [-1, C.REVEALED_RABBIT, -1] and C.seat_field(2, C.SH_REVEALED) < C.PUBLIC_END


def test_t15_shipwreck_draw_then_a_play():
    """T15: you may draw a card; if you do, you may then play a card (a normal play, A21)."""
    t = Table(
        players=2,
        tiles=(15,),
        hands={0: [P("Octopus", "Rat"), P("Tiger", "Walrus")]},
        top=P("Octopus", "Parrot"),
        deck=[P("Rat", "Turtle")],
    )
    t.play(P("Octopus", "Rat"))
    assert t.phase == C.PH_T15
    t.decide(C.C_YES)
    assert t.phase == C.PH_EXTRA and t.legal == [C.C_PLAY + P("Rat", "Turtle"), C.C_PASS]


def test_t16_sabotage_give_a_card_to_the_left():
    """T16: a Monkey is played; give a card from your Hand to the player on your left."""
    t = Table(
        players=3,
        tiles=(16,),
        hands={0: [P("Monkey", "Rat"), P("Tiger", "Walrus"), P("Rabbit", "Penguin")]},
        top=P("Monkey", "Parrot"),
    )
    t.play(P("Monkey", "Rat"))
    assert t.phase == C.PH_T16
    t.give(P("Tiger", "Walrus"))
    assert P("Tiger", "Walrus") in t.hand(1)


def test_t17_recruiting_take_a_card_from_the_right():
    """T17: look at the Hand of the player on your right, choose one card and take it."""
    right = [P("Tiger", "Walrus"), P("Rabbit", "Penguin")]
    t = Table(players=3, tiles=(17,), hands={0: [P("Monkey", "Rat"), P("Turtle", "Octopus")], 1: [P("Rat", "Walrus")],
              2: right}, top=P("Monkey", "Parrot"))  # fmt: skip
    t.play(P("Monkey", "Rat"))
    assert t.phase == C.PH_T17 and t.legal == [C.C_CARD + c for c in sorted(right)]
    t.give(P("Rabbit", "Penguin"))
    assert P("Rabbit", "Penguin") in t.hand(0) and t.hand(2) == [P("Tiger", "Walrus")]


def test_t18_maelstrom_every_hand_passes_left():
    """T18: every player passes all the cards in their Hand to the player on their left."""
    hands = {0: [P("Monkey", "Rat"), P("Rat", "Turtle")], 1: [P("Tiger", "Walrus")],
             2: [P("Octopus", "Rabbit"), P("Octopus", "Penguin")]}  # fmt: skip
    t = Table(players=3, tiles=(18,), hands=hands, top=P("Monkey", "Parrot"))
    t.play(P("Monkey", "Rat"))
    assert t.active == 1 and t.hand(1) == [P("Rat", "Turtle")]
    assert t.hand(0) == sorted(hands[2]) and t.hand(2) == hands[1]


def test_t19_labyrinth_take_the_card_played_onto():
    """T19: you may take into your Hand the card onto which you just played the Rat (A25)."""
    t = Table(players=2, tiles=(19,), hands={0: [P("Rat", "Tiger"), P("Rabbit", "Parrot")], 1: [P("Tiger", "Walrus")]},
              top=[P("Turtle", "Walrus"), P("Rat", "Octopus")])  # fmt: skip
    t.play(P("Rat", "Tiger"))
    assert t.phase == C.PH_T19
    t.decide(C.C_YES)
    assert P("Rat", "Octopus") in t.hand(0) and t.pile() == [
        P("Turtle", "Walrus"),
        P("Rat", "Tiger"),
    ]


def test_t20_crystal_ball_a_hit_reveals_and_discards():
    """T20: name a pirate, look at the deck's top card; if it shows that pirate, reveal it, put it
    back and discard a card from your Hand; otherwise put it back without revealing it."""
    top_card = P("Tiger", "Penguin")
    hand = [P("Rat", "Octopus"), P("Rabbit", "Parrot"), P("Monkey", "Walrus")]
    other = {1: [P("Rabbit", "Octopus"), P("Parrot", "Octopus")]}
    t = Table(
        players=2, tiles=(20,), hands={0: hand, **other}, top=P("Rat", "Turtle"), deck=[top_card]
    )
    t.play(P("Rat", "Octopus"))
    assert t.phase == C.PH_T20_NAME
    t.decide(C.C_PIRATE + C.PIRATES.index("Tiger"))
    assert t.phase == C.PH_T20_DISCARD and t.state[C.F_REVEALED] == top_card
    t.give(P("Rabbit", "Parrot"))
    assert t.deck()[-1] == top_card and t.pile()[-1] == P("Rabbit", "Parrot")
    miss = Table(
        players=2, tiles=(20,), hands={0: hand, **other}, top=P("Rat", "Turtle"), deck=[top_card]
    )
    miss.play(P("Rat", "Octopus"))
    miss.decide(C.C_PIRATE + C.PIRATES.index("Walrus"))
    assert miss.active == 1 and len(miss.hand(0)) == 2 and miss.state[C.F_REVEALED] == -1


def test_t21_stowaway_discard_under_the_card_played_then_draw():
    """T21: discard a card by slipping it under the card you just played (the top card does not
    change), then draw a card."""
    t = Table(players=2, tiles=(21,), hands={0: [P("Rat", "Tiger"), P("Rabbit", "Parrot"), P("Monkey", "Walrus")],
              1: [P("Tiger", "Octopus")]}, top=P("Rat", "Octopus"), deck=[P("Turtle", "Penguin")])  # fmt: skip
    t.play(P("Rat", "Tiger"))
    assert t.phase == C.PH_T21
    t.give(P("Rabbit", "Parrot"))
    assert t.pile() == [P("Rat", "Octopus"), P("Rabbit", "Parrot"), P("Rat", "Tiger")]
    assert P("Turtle", "Penguin") in t.hand(0)


def test_t21_stowaway_with_an_empty_hand_draws_or_goes_out_by_a43():
    """pina-pirata.md A43: a player whose last card is a Rat still draws under T21 (default), so
    cannot go out; with ``stowaway_empty_hand_draws=false`` the effect is skipped and the Hand stays
    empty (the round is won)."""
    seat_hands = {0: [P("Rat", "Tiger")], 1: [P("Tiger", "Octopus"), P("Monkey", "Walrus")]}
    deck = [P("Turtle", "Penguin"), P("Parrot", "Penguin")]
    draws = Table(players=2, tiles=(21,), hands=seat_hands, top=P("Rat", "Octopus"), deck=deck)
    draws.play(P("Rat", "Tiger"))
    assert draws.hand(0) == [P("Parrot", "Penguin")]
    out = Table(players=2, tiles=(21,), hands=seat_hands, top=P("Rat", "Octopus"), deck=deck,
                rules={"stowaway_empty_hand_draws": False})  # fmt: skip
    out.play(P("Rat", "Tiger"))
    assert out.state[C.F_WINNER] == 0


def test_t22_fake_map_holder_may_not_play_the_last_card():
    """T22: take this tile in front of you; while it is, you may not play your last card (A26:
    with one card you must draw); at the end of the round it returns to the tiles in play."""
    t = Table(players=2, tiles=(22,), hands={0: [P("Turtle", "Rat"), P("Turtle", "Tiger")],
              1: [P("Rabbit", "Parrot"), P("Monkey", "Walrus")]}, top=P("Turtle", "Octopus"),
              deck=[P("Penguin", "Parrot"), P("Octopus", "Penguin"), P("Penguin", "Crocodile")])  # fmt: skip
    assert t.phase == C.PH_MAIN and t.seat == 0
    t.play(P("Turtle", "Rat"))
    assert t.state[C.F_T22_HOLDER] == 0
    # seat 1 cannot play onto Turtle/Rat and draws; seat 0's last card matches but may not be
    # played: it draws (A26); seat 1 draws again; now seat 0 may play it
    assert t.seat == 0 and sorted(t.hand(0)) == sorted(
        [P("Turtle", "Tiger"), P("Octopus", "Penguin")]
    )
    assert t.playable() == [P("Turtle", "Tiger")]


def test_t23_picky_cartographer_draw_two_discard_one():
    """T23: draw two cards, then discard one card (E7)."""
    t = Table(players=2, tiles=(23,), hands={0: [P("Turtle", "Rat")]}, top=P("Turtle", "Octopus"),
              deck=[P("Penguin", "Crocodile"), P("Octopus", "Walrus")])  # fmt: skip
    t.play(P("Turtle", "Rat"))
    assert t.phase == C.PH_T23 and sorted(t.hand(0)) == sorted(
        [P("Penguin", "Crocodile"), P("Octopus", "Walrus")]
    )


def test_t24_migration_a_drawn_turtle_may_go_left():
    """T24: when you draw a Turtle, you may give it to the player on your left."""
    turtle = P("Turtle", "Walrus")
    t = Table(players=3, tiles=(24,), hands={0: [P("Rabbit", "Parrot")], 1: [P("Rat", "Octopus")]},
              top=P("Tiger", "Rat"), deck=[turtle])  # fmt: skip
    assert t.phase == C.PH_T24 and t.state[C.F_CTX_A] == turtle
    t.decide(C.C_YES)
    assert turtle in t.hand(1) and turtle not in t.hand(0)


def test_t25_disinformation_deck_top_onto_the_action_pile():
    """T25: put the top card of the deck onto the Action pile (no trigger; it becomes the top)."""
    moved = P("Penguin", "Walrus")
    t = Table(players=2, tiles=(25,), hands={0: [P("Tiger", "Rat"), P("Rabbit", "Parrot")],
              1: [P("Penguin", "Rat"), P("Walrus", "Octopus")]}, top=P("Tiger", "Octopus"), deck=[moved])  # fmt: skip
    t.play(P("Tiger", "Rat"))
    assert t.pile()[-2:] == [P("Tiger", "Rat"), moved] and t.seat == 1


def test_t26_rabbit_hunt_rabbit_in_front_and_an_extra_play():
    """T26: when you play a Tiger onto a card showing a Rabbit, take that Rabbit card and put it
    in front of you; a player with more cards in front than every other may play one extra card."""
    t = Table(players=2, tiles=(26,), hands={0: [P("Tiger", "Rat"), P("Rat", "Walrus"), P("Monkey", "Penguin")]},
              top=P("Tiger", "Rabbit"))  # fmt: skip
    t.play(P("Tiger", "Rat"))
    assert t.in_front(0) == [P("Tiger", "Rabbit")]
    assert t.phase == C.PH_EXTRA and t.legal == [C.C_PLAY + P("Rat", "Walrus"), C.C_PASS]


def test_t27_old_sea_dog_turns_a_tile_face_down_for_the_round():
    """T27: you may turn one tile in play face down; its effect is off for the rest of this round."""
    t = Table(players=2, tiles=(27, 9), hands={0: [P("Tiger", "Rat"), P("Tiger", "Monkey")],
              1: [P("Walrus", "Penguin"), P("Octopus", "Parrot")]}, top=P("Tiger", "Rabbit"),
              deck=[P("Penguin", "Turtle")])  # fmt: skip
    t.play(P("Tiger", "Rat"))
    assert t.phase == C.PH_T27 and t.legal == [C.C_PASS, C.C_TILE + 1]  # not itself
    t.decide(C.C_TILE + 1)
    assert t.state[C.F_TILE_DOWN + 1] == 1
    # Madness is off: seat 1's Walrus is no Joker, it cannot play and draws; seat 0 is next
    assert t.seat == 0 and len(t.hand(1)) == 3


def test_t28_lucky_charm_all_rabbits_win():
    """T28: if every card in your Hand shows a Rabbit at the end of your turn, you win."""
    t = Table(players=2, tiles=(28,), hands={0: [P("Tiger", "Rat"), P("Rabbit", "Parrot"), P("Rabbit", "Monkey")],
              1: [P("Octopus", "Walrus")]}, top=P("Tiger", "Octopus"))  # fmt: skip
    t.play(P("Tiger", "Rat"))
    assert t.state[C.F_WINNER] == 0 and t.phase == C.PH_ASSIGN


def test_t29_big_hug_anything_onto_a_rabbit():
    """T29: any card may be played onto a card showing a Rabbit."""
    hand = [P("Tiger", "Rat"), P("Monkey", "Walrus")]
    t = Table(players=2, tiles=(29,), hands={0: hand}, top=P("Rabbit", "Octopus"))
    assert t.playable() == sorted(hand)


def test_t30_tortoise_and_hare_all_turtles_make_you_draw_two():
    """T30: every opponent reveals a card (A37: their choice); if every revealed card shows a
    Turtle, you draw two cards."""
    t = Table(players=3, tiles=(30,), hands={0: [P("Rabbit", "Rat"), P("Monkey", "Walrus")],
              1: [P("Turtle", "Tiger"), P("Rat", "Penguin")], 2: [P("Turtle", "Octopus")]},
              top=P("Rabbit", "Octopus"))  # fmt: skip
    t.play(P("Rabbit", "Rat"))
    assert t.phase == C.PH_T30 and t.seat == 1
    t.give(P("Turtle", "Tiger"))
    t.give(P("Turtle", "Octopus"))  # seat 2's only card, a Turtle: seat 0 draws two
    assert len(t.hand(0)) == 3
    # A15: the revealed cards are public, in every bot's observation for the rest of the round
    revealed = [t.state[C.seat_field(s, C.SH_REVEALED)] for s in range(3)]
    assert revealed == [-1, P("Turtle", "Tiger"), P("Turtle", "Octopus")]


def test_t31_alligaturtle_turtles_are_crocodiles():
    """T31: every Turtle is also a Crocodile and every Crocodile also a Turtle."""
    hand = [P("Turtle", "Tiger"), P("Monkey", "Walrus"), P("Rabbit", "Rat")]
    t = Table(
        players=2,
        tiles=(31,),
        hands={0: hand + [P("Crocodile", "Parrot")]},
        top=P("Crocodile", "Octopus"),
    )
    assert t.playable() == sorted([P("Turtle", "Tiger"), P("Crocodile", "Parrot")])
    t = Table(players=2, tiles=(31, 10), hands={0: hand + [P("Octopus", "Rat")], 1: [P("Penguin", "Parrot"), P("Tiger", "Rabbit")]},
              top=P("Crocodile", "Octopus"))  # fmt: skip
    t.play(P("Turtle", "Tiger"))  # a Crocodile too: Tick Tock fires
    assert len(t.hand(1)) == 3


def test_t32_plan_b_three_cards_win():
    """T32: if at the end of your turn you hold exactly 3 cards showing at least one Octopus, one
    Walrus and one Crocodile, you win the round (A31: a duo may supply two)."""
    t = Table(players=2, tiles=(32,), hands={0: [P("Tiger", "Rat"), P("Octopus", "Walrus"), P("Crocodile", "Rabbit"), P("Monkey", "Parrot")],
              1: [P("Penguin", "Turtle")]}, top=P("Tiger", "Penguin"))  # fmt: skip
    t.play(P("Tiger", "Rat"))
    assert t.state[C.F_WINNER] == 0


def test_t33_moonlight_one_card_is_face_up():
    """T33: a player who holds only one card plays with it face up on the table."""
    t = Table(players=2, tiles=(33,), hands={0: [P("Tiger", "Rat"), P("Tiger", "Walrus")], 1: [P("Octopus", "Penguin")]},
              top=P("Tiger", "Penguin"))  # fmt: skip
    assert t.state[C.seat_field(1, C.SH_SHOWN)] == P("Octopus", "Penguin")
    assert t.state[C.seat_field(0, C.SH_SHOWN)] == -1


def test_t34_despair_eight_cards_make_every_card_a_joker():
    """T34: while you hold at least 8 cards, all your pirates are Jokers (A28: the Hand before
    the play counts)."""
    hand = [P("Rabbit", "Parrot"), P("Rabbit", "Monkey"), P("Rabbit", "Octopus"), P("Rabbit", "Tiger"),
            P("Parrot", "Monkey"), P("Parrot", "Octopus"), P("Parrot", "Tiger"), P("Monkey", "Octopus")]  # fmt: skip
    t = Table(players=2, tiles=(34,), hands={0: hand}, top=P("Rat", "Walrus"))
    assert t.playable() == sorted(hand)


def test_t35_favorable_current_discard_at_five_cards():
    """T35: at any moment when you hold exactly 5 cards, you may discard a card (A17 windows)."""
    hand = [
        P("Rabbit", "Parrot"),
        P("Rabbit", "Monkey"),
        P("Rat", "Octopus"),
        P("Rat", "Tiger"),
        P("Parrot", "Monkey"),
    ]
    t = Table(players=2, tiles=(35,), hands={0: hand}, top=P("Rat", "Walrus"))
    assert t.phase == C.PH_T35 and t.seat == 0 and t.legal[0] == C.C_PASS
    t.give(P("Rabbit", "Parrot"))
    assert t.pile()[-1] == P("Rabbit", "Parrot") and len(t.hand(0)) == 4


def test_t36_full_sails_an_extra_card_or_a_draw():
    """T36: play an extra card on your turn; if you cannot, but you still have cards, draw."""
    t = Table(players=2, tiles=(36,), hands={0: [P("Rat", "Tiger"), P("Tiger", "Walrus"), P("Tiger", "Octopus"), P("Rabbit", "Parrot")]},
              top=P("Rat", "Octopus"))  # fmt: skip
    t.play(P("Rat", "Tiger"))
    assert t.phase == C.PH_FULL_SAILS
    t.play(P("Tiger", "Walrus"))
    assert len(t.hand(0)) == 2 and t.top == P("Tiger", "Walrus")


def test_t37_double_rations_two_action_piles():
    """T37: play with two Action piles; each play goes onto the pile of your choice (A32)."""
    t = Table(players=2, tiles=(37,), hands={0: [P("Rat", "Tiger"), P("Rabbit", "Parrot")]},
              top=P("Rat", "Octopus"), top2=P("Parrot", "Walrus"))  # fmt: skip
    assert t.legal == [C.C_PLAY + P("Rat", "Tiger"), C.C_PLAY + C.CARD_SPAN + P("Rabbit", "Parrot")]


def test_t38_new_captain_solitary_goes_in_front():
    """T38: when you play a solitary pirate, put it in front of you instead of onto the Action
    pile; a player with more cards in front than every other need not draw when unable to play."""
    t = Table(players=2, tiles=(38,), hands={0: [P("Tiger"), P("Tiger", "Rabbit")], 1: [P("Rabbit", "Parrot"), P("Rabbit", "Monkey")]},
              top=P("Tiger", "Octopus"))  # fmt: skip
    t.play(P("Tiger"))
    assert t.in_front(0) == [P("Tiger")] and t.top == P("Tiger", "Octopus")
    # seat 1 cannot play; seat 0 then leads in cards in front
    t2 = Table(players=2, tiles=(38,), hands={0: [P("Tiger"), P("Rat", "Walrus")], 1: [P("Tiger", "Parrot"), P("Tiger", "Monkey")]},
               top=P("Tiger", "Octopus"))  # fmt: skip
    t2.play(P("Tiger"))
    assert t2.in_front(0) == [P("Tiger")] and t2.seat == 1
    t2.play(P("Tiger", "Parrot"))
    assert t2.phase == C.PH_T38_DRAW and t2.legal == [C.C_DRAW, C.C_PASS]


def test_t39_voodoo_cards_in_front_are_jokers():
    """T39: at the start of each round every player draws a card face up in front of them; every
    pirate on the cards in front of you is a Joker for you."""
    import numpy as np

    from cardsim.games.pina_pirata import engine

    t = Table(players=3, tiles=(39,))
    state = np.zeros(C.STATE_LEN, np.int32)
    engine.setup(state, t.rules, 3, t.rng)
    fronts = [state[C.seat_field(s, C.SH_FRONT_N)] for s in range(3)]
    assert fronts == [1, 1, 1]
    t = Table(players=2, tiles=(39,), hands={0: [P("Tiger", "Rat"), P("Monkey", "Walrus"), P("Monkey", "Parrot")]},
              top=P("Rabbit", "Octopus"))  # fmt: skip
    s = t.state
    s[C.F_LOC + P("Rabbit", "Monkey")] = (
        C.LOC_VOODOO + 0
    )  # seat 0's Voodoo card: Monkeys are Jokers
    refresh_fronts(s)
    assert can_play(s, t.rules, 0, P("Monkey", "Walrus"), 0)
    assert not can_play(s, t.rules, 0, P("Tiger", "Rat"), 0)
    assert not can_play(s, t.rules, 1, P("Monkey", "Walrus"), 0)  # a Joker for seat 0 only


def test_t40_ghost_names_a_joker_until_the_next_solitary():
    """T40: when you play a solitary pirate, name a pirate; it is a Joker for every player until
    another solitary pirate is played."""
    t = Table(players=2, tiles=(40,), hands={0: [P("Tiger"), P("Rat", "Walrus")], 1: [P("Walrus", "Parrot"), P("Penguin", "Rabbit")]},
              top=P("Tiger", "Octopus"))  # fmt: skip
    t.play(P("Tiger"))
    assert t.phase == C.PH_T40 and len(t.legal) == 10
    t.decide(C.C_PIRATE + C.PIRATES.index("Walrus"))
    assert t.state[C.F_GHOST] == C.PIRATES.index("Walrus") and t.seat == 1
    assert t.playable() == [P("Walrus", "Parrot")]


def test_t14_a35_a_held_rabbit_must_be_revealed_under_the_option():
    """pina-pirata.md A35: revealing a Rabbit is the holder's choice (default); with
    ``rabbit_reveal_compulsory`` a held Rabbit is revealed without a decision, so no draw."""
    hands = {0: [P("Octopus", "Rat"), P("Tiger", "Walrus")], 1: [P("Rabbit", "Penguin"), P("Octopus", "Walrus")],
             2: [P("Tiger", "Monkey")]}  # fmt: skip
    choice = Table(players=3, tiles=(14,), hands=hands, top=P("Octopus", "Parrot"))
    choice.play(P("Octopus", "Rat"))
    assert choice.phase == C.PH_T14 and choice.seat == 1
    forced = Table(players=3, tiles=(14,), hands=hands, top=P("Octopus", "Parrot"),
                   rules={"rabbit_reveal_compulsory": True})  # fmt: skip
    forced.play(P("Octopus", "Rat"))
    assert forced.phase != C.PH_T14 and len(forced.hand(1)) == 2 and len(forced.hand(2)) == 2
    assert forced.state[C.seat_field(1, C.SH_REVEALED)] == C.REVEALED_RABBIT


def test_t30_a30_an_opponent_with_no_cards_spoils_the_draw_unless_ignored():
    """pina-pirata.md A30: an opponent with an empty Hand reveals nothing, so not every revealed
    card is a Turtle and nothing happens (default); ``tortoise_skips_empty_hands`` ignores them."""
    hands = {0: [P("Rabbit", "Rat"), P("Monkey", "Walrus")], 1: [P("Turtle", "Tiger"), P("Rat", "Penguin")],
             2: []}  # fmt: skip
    spoiled = Table(players=3, tiles=(30,), hands=hands, top=P("Rabbit", "Octopus"))
    spoiled.play(P("Rabbit", "Rat"))
    spoiled.give(P("Turtle", "Tiger"))
    assert len(spoiled.hand(0)) == 1
    ignored = Table(players=3, tiles=(30,), hands=hands, top=P("Rabbit", "Octopus"),
                    rules={"tortoise_skips_empty_hands": True})  # fmt: skip
    ignored.play(P("Rabbit", "Rat"))
    ignored.give(P("Turtle", "Tiger"))
    assert len(ignored.hand(0)) == 3


def test_t38_a29_a_tie_for_the_most_cards_in_front_leads_under_the_option():
    """pina-pirata.md A29: "more cards in front than every other player" is strict (default): tied
    at one card each, a player who cannot play must draw; with ``front_ties_lead`` the tie leads,
    so drawing becomes optional."""

    def tied(rules):
        t = Table(players=2, tiles=(38,), hands={0: [P("Tiger"), P("Rat", "Walrus")], 1: [P("Octopus"), P("Rabbit", "Parrot")]},
                  top=P("Tiger", "Octopus"), rules=rules)  # fmt: skip
        t.play(P("Tiger"))
        t.play(P("Octopus"))
        assert t.in_front(0) == [P("Tiger")] and t.in_front(1) == [P("Octopus")]
        return t

    assert tied({}).phase != C.PH_T38_DRAW
    lead = tied({"front_ties_lead": True})
    assert lead.seat == 0 and lead.phase == C.PH_T38_DRAW and lead.legal == [C.C_DRAW, C.C_PASS]


def test_t11_a27_only_the_setter_takes_the_set_aside_cards_under_the_option():
    """pina-pirata.md A27: any player who plays a card showing no Crocodile takes the set-aside
    cards (default); with ``bayou_setter_only`` only the player who set them aside does."""

    def table(rules):
        t = Table(players=2, tiles=(11,), hands={0: [P("Crocodile", "Rat"), P("Tiger", "Monkey")],
                  1: [P("Rat", "Tiger"), P("Rat", "Parrot")]}, top=P("Crocodile", "Octopus"),
                  deck=[P("Turtle", "Walrus")], rules=rules)  # fmt: skip
        t.play(P("Crocodile", "Rat"))
        t.play(P("Rat", "Tiger"))
        return t

    aside = P("Turtle", "Walrus")
    assert aside in table({}).hand(1)
    setter = table({"bayou_setter_only": True})
    assert aside not in setter.hand(1) and setter.state[C.F_LOC + aside] == C.LOC_ASIDE
    setter.play(P("Tiger", "Monkey"))
    assert aside in setter.hand(0) and setter.state[C.F_LOC + aside] != C.LOC_ASIDE


def test_t12_a44_two_staredowns_in_one_turn_skip_once_or_twice():
    """pina-pirata.md A44: two Staredowns set off in one turn (the second by T8's extra play)
    skip one turn (default); with ``staredown_skips_add_up`` they skip the next two players."""

    def table(rules):
        # player 0 keeps a Rat to play: with nothing to match its own turn would be a forced draw
        # that the table takes at once, passing the turn on
        t = Table(players=3, tiles=(12, 8), hands={0: [P("Crocodile", "Walrus"), P("Crocodile", "Rat"), P("Rat", "Monkey")],
                  1: [P("Rat", "Tiger"), P("Rat", "Parrot")], 2: [P("Rat", "Walrus"), P("Tiger", "Turtle")]},
                  top=P("Crocodile", "Octopus"), rules=rules)  # fmt: skip
        t.play(P("Crocodile", "Walrus"))
        t.play(P("Crocodile", "Rat"))
        return t

    once = table({})
    assert once.active == 2
    twice = table({"staredown_skips_add_up": True})
    assert twice.active == 0 and twice.turns == 1  # players 1 and 2 skipped: 0 plays again
    assert len(twice.hand(1)) == 2 and len(twice.hand(2)) == 2


def test_t11_a15_set_aside_cards_face_up_show_in_every_observation_under_the_option():
    """pina-pirata.md A15: T11's set-aside cards lie face down (default): the next seat's
    observation shows how many, and who set them aside (SH_ASIDE_N), not which; with
    ``aside_face_up`` it shows the card (F_ASIDE_UP), and when a player takes it every seat
    knows it is in that Hand."""

    def table(rules):
        t = Table(players=3, tiles=(11,), hands={0: [P("Crocodile", "Rat"), P("Tiger", "Monkey")],
                  1: [P("Rat", "Tiger"), P("Rat", "Parrot")], 2: [P("Tiger", "Parrot"), P("Rabbit", "Penguin")]},
                  top=P("Crocodile", "Octopus"), deck=[P("Turtle", "Walrus")], rules=rules)  # fmt: skip
        t.play(P("Crocodile", "Rat"))
        assert t.seat == 1
        return t

    aside = P("Turtle", "Walrus")

    def up_bits(o):
        return [int(x) for x in o[C.F_ASIDE_UP : C.F_ASIDE_UP + C.MAX_PLAYERS * C.HAND_WORDS]]

    face_down, face_up = table({}), table({"aside_face_up": True})
    for t in (face_down, face_up):
        assert t.state[C.F_ASIDE_N] == 1 and t.state[C.seat_field(0, C.SH_ASIDE_N)] == 1
        assert t.state[C.F_LOC + aside] == C.LOC_ASIDE
    assert not any(up_bits(face_down.state))
    shown = up_bits(face_up.state)
    assert shown[aside // 32] == 1 << aside % 32 and sum(map(bool, shown)) == 1  # seat 0's row
    for t in (face_down, face_up):
        t.play(P("Rat", "Tiger"))  # no Crocodile: seat 1 takes the set-aside card
        assert aside in t.hand(1) and t.state[C.seat_field(0, C.SH_ASIDE_N)] == 0
        assert not any(up_bits(t.state))
    seen = lambda t, s: t.state[C.F_SEEN + s * C.MAX_CARDS + aside]  # noqa: E731
    assert seen(face_down, 0) == seen(face_down, 2) == 0
    assert seen(face_up, 0) == seen(face_up, 2) == C.SEEN_HAND + 1
