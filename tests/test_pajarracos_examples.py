"""The worked examples E1-E9 of ``pajarracos.md``, on the compiled engine and on the plain-Python
reference, and the rule options of its ambiguities (A2-A17) in small scenarios: each alternative
reading (the earlier defaults among them) against the default.

Each scenario starts from a real deal (seat 0 first, 3 players) and then writes the hands, trees
and reserve pile the example describes into the reference (``ReferenceGame`` fields); the engine's
state is the reference's, encoded in the ``cards.py`` layout. The same decisions are then applied
to both, and after every decision the two states (public part, hands, reserve, counters) and legal
lists must agree. E1-E4 end a game and read the scores through the engine's ``finalize``.

Seats follow the rulebook's names where it gives them: 0 Seryozha, 1 Olya, 2 Katya.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import engine
from cardsim.games.pajarracos import rules as R
from cardsim.games.pajarracos.lockstep import state_differences
from cardsim.games.pajarracos.reference import (
    ReferenceGame,
    Tree,
    score_and_trees,
)

CHERRIES, APPLES, ORANGES, BANANAS, GRAPES = range(5)
SERYOZHA, OLYA, KATYA = range(3)
G0 = len(L.GAME_COLUMNS)
S0 = len(L.SEAT_COLUMNS)


def hand(**cards: int) -> list[int]:
    """Cards per type: ``hand(apples=2, juicy_cherries=1, lone=1, scarecrow=2)``."""
    out = [0] * C.N_TYPES
    for name, count in cards.items():
        if name == "lone":
            out[C.LONE_CROW] = count
        elif name == "flock":
            out[C.FLOCK] = count
        elif name == "scarecrow":
            out[C.SCARECROW] = count
        elif name.startswith("juicy_"):
            out[C.JUICY + C.KIND_NAMES.index(name[6:])] = count
        else:
            out[C.FRUIT + C.KIND_NAMES.index(name)] = count
    return out


def lone(size: int, sender: int) -> Tree:
    return Tree(size=size, crow=C.LONE, sender=sender)


def flock(size: int, sender: int) -> Tree:
    return Tree(size=size, crow=C.FLOCK_ON, sender=sender)


class Both:
    """The engine's state and a ReferenceGame holding the same scenario.

    ``hands[seat]``: cards per type (every other seat keeps its dealt hand); ``trees[(seat,
    kind)]``: a ``Tree``; ``reserve``: the pile, bottom first (default: as dealt).
    """

    def __init__(self, hands=None, trees=None, reserve=None, rules=None, n_players=3):
        given = {"first_player": 0, **(rules or {})}
        self.values = resolve_options(R.OPTIONS, given, "pajarracos")
        self.rules = R.encode(self.values, n_players)
        self.ref = ref = ReferenceGame(self.values, n_players, 0, 0)
        assert ref.seat == 0 and ref.turns == 0 and ref.phase == C.PHASE_ACTION
        for seat, cards in (hands or {}).items():
            ref.hands[seat] = list(cards)
        for (seat, kind), tree in (trees or {}).items():
            ref.trees[seat][kind] = dataclasses.replace(tree)  # scenarios share their trees
        if reserve is not None:
            ref.reserve = list(reserve)
            ref.triggered = not ref.reserve
            ref.reserve_out_turn = 0 if not ref.reserve else -1
        self.state = ref.state_array()
        self.chance = np.array([ref.chance.state], np.uint64)
        self.buf = np.zeros(C.MAX_LEGAL, np.int32)

    def check_same(self) -> None:
        diff = state_differences(self.state, self.ref.state_array())
        assert not diff, diff

    def apply(self, decision: int) -> None:
        assert decision in self.ref.legal()
        n = engine.step(self.state, self.rules, decision, self.chance, self.buf)
        self.ref.apply(decision)
        self.check_same()
        assert [int(x) for x in self.buf[:n]] == self.ref.legal()

    def tree(self, seat: int, kind: int) -> tuple[int, int, int, int]:
        """(size, crow, scarecrow, sender) of a tree in the engine's state."""
        b = C.seat_base(seat)
        return tuple(
            int(self.state[b + f + kind])
            for f in (C.TREE_SIZE, C.TREE_CROW, C.TREE_SCARECROW, C.TREE_SENDER)
        )

    def counter(self, seat: int, index: int) -> int:
        value = int(self.state[C.F_COUNTERS + seat * C.N_COUNTERS + index])
        assert value == self.ref.counters[seat][index]
        return value

    def discard(self, cls: int) -> int:
        return int(self.state[C.F_DISCARD + cls])

    def finalize(self) -> tuple[np.ndarray, np.ndarray]:
        """Engine outcome rows, checked equal to the reference's."""
        assert self.state[L.H_OVER] == 1 and self.ref.is_over
        game_row = np.zeros(G0 + len(C.GAME_COUNTERS), np.int32)
        seat_rows = np.zeros((self.ref.n, S0 + C.N_COUNTERS), np.int32)
        engine.finalize(self.state, self.rules, game_row, seat_rows)
        ref_game, ref_seats = self.ref.outcome_rows()
        np.testing.assert_array_equal(game_row[G0:], ref_game[G0:])
        np.testing.assert_array_equal(seat_rows, ref_seats)
        return game_row, seat_rows


# E1-E4: scoring and the tie-break (R25, R26) --------------------------------------------------
ORCHARDS = {
    # pajarracos.md E1: sizes 1, 4, 3 and 5; the apple tree (5) is largest; 4 kinds
    SERYOZHA: {CHERRIES: 1, APPLES: 5, ORANGES: 4, BANANAS: 3},
    # E2: 3 (cherry), 3, 3, 2; three trees tie for largest, only one counts; 4 kinds
    OLYA: {CHERRIES: 3, APPLES: 3, ORANGES: 3, BANANAS: 2},
    # E3: 4 (orange), 3, 2, 3, 2; 5 kinds
    KATYA: {CHERRIES: 3, APPLES: 2, ORANGES: 4, BANANAS: 3, GRAPES: 2},
}


@pytest.mark.parametrize(
    ("seat", "score", "trees"), [(SERYOZHA, 18, 4), (OLYA, 14, 4), (KATYA, 18, 5)]
)
def test_e1_e2_e3_scores(seat, score, trees):
    # pajarracos.md E1 (1 + 4 + 3 + 5x2 = 18), E2 (3x2 + 3 + 3 + 2 = 14), E3 (4x2 + 3 + 2 + 3 + 2
    # = 18): the reference's R25 score and R26 tree count
    sizes = [ORCHARDS[seat].get(k, 0) for k in range(C.MAX_KINDS)]
    assert score_and_trees(sizes) == (score, trees)


def _ended_game(orchards, rules=None) -> Both:
    """A game that ends by R23 after one turn: seat 0 discards its last card, the reserve pile is
    empty, and seat 1 (empty hand) is next. Orchards: sizes per kind per seat."""
    trees = {
        (seat, kind): Tree(size=size)
        for seat, sizes in orchards.items()
        for kind, size in sizes.items()
    }
    hands = {0: hand(scarecrow=1), 1: hand(), 2: hand()}
    both = Both(hands=hands, trees=trees, reserve=[], rules=rules)
    both.apply(C.C_DISCARD + C.SCARECROW)
    assert both.state[L.H_OVER] == 1 and both.state[L.H_END_REASON] == C.END_EMPTY_HAND
    assert both.state[L.H_SEAT] == 1 and both.state[L.H_TURNS] == 1  # R23: seat 1's turn
    return both


def test_e4_katya_beats_seryozha_on_kinds():
    # pajarracos.md E4 (R26): Katya and Seryozha both score 18; Katya has 5 kinds, Seryozha 4, so
    # Katya wins; Olya (14) is third. Scores read through the engine's finalize.
    both = _ended_game(ORCHARDS)
    _, seats = both.finalize()
    assert list(seats[:, L.S_SCORE]) == [18, 14, 18]
    assert list(seats[:, L.S_RANK]) == [2, 3, 1]
    assert list(seats[:, L.S_WIN]) == [0, 0, 1]
    assert list(seats[:, S0 + C.C_FRUIT_CARDS]) == [13, 11, 14]
    assert list(seats[:, S0 + C.C_LARGEST_TREE]) == [5, 3, 4]
    assert list(seats[:, S0 + C.C_TREES]) == [4, 4, 5]


def test_a14_a_full_tie_is_a_shared_win():
    # pajarracos.md R26, A14 default: equal score and kinds after the tie-break: a shared win
    orchards = {SERYOZHA: ORCHARDS[KATYA], OLYA: ORCHARDS[OLYA], KATYA: ORCHARDS[KATYA]}
    _, seats = _ended_game(orchards).finalize()
    assert list(seats[:, L.S_RANK]) == [1, 3, 1]
    assert list(seats[:, L.S_WIN]) == [1, 0, 1]


# E5, E6: crows eat at the end of the owner's turn (R12, R13, R21) ------------------------------
OTHERS = {1: hand(grapes=1), 2: hand(grapes=1)}  # seats 1 and 2 can only play or drop a grape


@pytest.mark.parametrize("size", [3, 1])
def test_e5_lone_crow_eats_one_fruit_card(size):
    # pajarracos.md E5 (R12): a lone crow (sent by Olya) on Seryozha's apple tree of size n eats
    # one card at the end of his turn: n - 1; if n was 1 the crow card is discarded too.
    both = Both(
        hands={0: hand(grapes=1), **OTHERS},
        trees={(SERYOZHA, APPLES): lone(size, sender=OLYA), (SERYOZHA, CHERRIES): Tree(size=2)},
    )
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)  # action 4; the turn ends (R20)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    if size > 1:
        assert both.tree(SERYOZHA, APPLES) == (size - 1, C.LONE, 0, OLYA)
        assert both.discard(C.D_LONE_CROW) == 0
    else:
        assert both.tree(SERYOZHA, APPLES) == (0, C.NO_CROW, 0, -1)  # the tree is gone
        assert both.discard(C.D_LONE_CROW) == 1
    assert both.tree(SERYOZHA, CHERRIES) == (2, C.NO_CROW, 0, -1)
    assert both.discard(C.D_FRUIT + APPLES) == 1
    assert both.counter(SERYOZHA, C.C_FRUIT_LOST) == 1
    assert both.counter(OLYA, C.C_FRUIT_EATEN_BY_ITS_CROWS) == 1
    assert both.state[C.F_CROWS_ON_TREES] == int(size > 1)


def test_r12_the_lone_crow_eats_again_only_at_the_owners_next_turn():
    # pajarracos.md R12, A6: other players' turns end without the crow eating
    both = Both(hands={0: hand(grapes=1), **OTHERS}, trees={(0, APPLES): lone(4, sender=KATYA)})
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)
    assert both.tree(0, APPLES)[0] == 3
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)  # Olya's turn
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)  # Katya's turn
    assert both.tree(0, APPLES)[0] == 3 and both.state[L.H_SEAT] == 0
    discard_one(both)  # a hand drawn from the reserve pile
    assert both.tree(0, APPLES) == (2, C.LONE, 0, KATYA)
    assert both.counter(KATYA, C.C_FRUIT_EATEN_BY_ITS_CROWS) == 2


def discard_one(both: Both) -> None:
    """Action 4 with one card of the lowest type in hand (R20), whatever the hand."""
    both.apply(next(c for c in both.ref.legal() if C.C_DISCARD <= c < C.C_PASS))
    if both.state[L.H_PHASE] == C.PHASE_DISCARD_MORE and not both.state[L.H_OVER]:
        both.apply(C.STOP)


def test_e6_flock_eats_the_whole_tree():
    # pajarracos.md E6 (R13): at the end of Seryozha's turn the 4 fruit cards of the tree and the
    # flock card go to the discard pile.
    both = Both(hands={0: hand(grapes=1), **OTHERS}, trees={(0, APPLES): flock(4, sender=KATYA)})
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)
    assert both.tree(0, APPLES) == (0, C.NO_CROW, 0, -1)
    assert both.discard(C.D_FRUIT + APPLES) == 4 and both.discard(C.D_FLOCK) == 1
    assert both.counter(0, C.C_FRUIT_LOST) == 4
    assert both.counter(0, C.C_TREES_WIPED) == 1
    assert both.counter(KATYA, C.C_FRUIT_EATEN_BY_ITS_CROWS) == 4
    assert both.state[C.F_CROWS_ON_TREES] == 0


# E7: juicy fruit (R10, A2, A4, A5) --------------------------------------------------------------
def test_e7_juicy_fruit_pulls_the_only_crow():
    # pajarracos.md E7: one lone crow on B's (Olya's) tree; A (Seryozha) plays a juicy card onto a
    # new tree of C (Katya). The crow moves (one crow: no choice), B's tree is free, and the crow
    # first eats at the end of C's next turn.
    both = Both(
        hands={0: hand(juicy_cherries=1, grapes=1), **OTHERS},
        trees={(OLYA, APPLES): lone(2, sender=KATYA)},
    )
    # a juicy-only play of one card and a single crow: the crow is a forced decision
    both.apply(C.fruit_code(CHERRIES, KATYA, 0, 1))
    assert both.state[L.H_SEAT] == OLYA  # A3: one tree; the turn has ended
    assert both.tree(OLYA, APPLES) == (2, C.NO_CROW, 0, -1)
    assert both.tree(KATYA, CHERRIES) == (1, C.LONE, 0, SERYOZHA)
    assert both.counter(SERYOZHA, C.C_JUICY_PLAYED) == 1
    assert both.counter(SERYOZHA, C.C_JUICY_ATTRACTIONS) == 1
    assert both.counter(SERYOZHA, C.C_FRUIT_PLAYED_OTHERS) == 1
    assert both.counter(KATYA, C.C_FRUIT_RECEIVED) == 1
    assert both.counter(KATYA, C.C_CROWS_RECEIVED) == 1
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)  # Olya's turn: nothing eats
    assert both.tree(KATYA, CHERRIES) == (1, C.LONE, 0, SERYOZHA)
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)  # Katya's turn: the crow eats her cherry
    assert both.tree(KATYA, CHERRIES) == (0, C.NO_CROW, 0, -1)
    assert both.counter(KATYA, C.C_FRUIT_LOST) == 1
    assert both.counter(SERYOZHA, C.C_FRUIT_EATEN_BY_ITS_CROWS) == 1
    assert both.discard(C.D_FRUIT + CHERRIES) == 1 and both.discard(C.D_LONE_CROW) == 1


def test_r10_several_crows_the_player_chooses():
    # pajarracos.md R10, A2, A4: with two crow cards on trees (one on the player's own tree) the
    # player chooses which flies; the play may hold ordinary and juicy cards together.
    both = Both(
        hands={0: hand(cherries=1, juicy_cherries=1, grapes=1), **OTHERS},
        trees={
            (SERYOZHA, APPLES): flock(3, sender=OLYA),
            (OLYA, BANANAS): lone(2, sender=KATYA),
            (KATYA, CHERRIES): Tree(size=2),
        },
    )
    plays = [C.fruit_code(CHERRIES, KATYA, o, j) for o, j in ((0, 1), (1, 0), (1, 1))]
    legal = both.ref.legal()  # R6, A2: any cards of the kind, juicy alone included
    assert [c for c in legal if C.fruit_play(c)[:2] == (CHERRIES, KATYA)] == plays
    both.apply(C.fruit_code(CHERRIES, KATYA, 1, 1))
    assert both.state[L.H_PHASE] == C.PHASE_JUICY_CROW
    own, other = C.tree_index(SERYOZHA, APPLES), C.tree_index(OLYA, BANANAS)
    assert both.ref.legal() == [C.C_JUICY_CROW + own, C.C_JUICY_CROW + other]
    both.apply(C.C_JUICY_CROW + own)  # A4: the flock leaves Seryozha's own tree
    assert both.tree(KATYA, CHERRIES) == (4, C.FLOCK_ON, 0, SERYOZHA)
    assert both.tree(SERYOZHA, APPLES) == (3, C.NO_CROW, 0, -1)  # it no longer eats here
    assert both.tree(OLYA, BANANAS) == (2, C.LONE, 0, KATYA)
    assert both.state[L.H_SEAT] == OLYA


def test_a2_juicy_card_not_alone():
    # pajarracos.md A2 alternative: a juicy card needs an ordinary card of its kind in the play
    both = Both(
        hands={0: hand(cherries=1, juicy_cherries=2, grapes=1, juicy_apples=1), **OTHERS},
        rules={"juicy_may_be_played_alone": False},
    )
    legal = both.ref.legal()
    fruit = [C.fruit_play(c) for c in legal if C.C_FRUIT <= c < C.C_CROW]
    assert not [p for p in fruit if p[0] == APPLES]  # only a juicy apple in hand
    cherries = [p[2:] for p in fruit if p[:2] == (CHERRIES, 0)]
    assert cherries == [(1, j) for j in range(3)]  # an ordinary cherry in every play


def test_a5_juicy_card_into_ones_own_orchard():
    # pajarracos.md A5: the crow flies to the player's own tree and eats at the end of this turn
    both = Both(
        hands={0: hand(juicy_oranges=1, grapes=1), **OTHERS},
        trees={(OLYA, APPLES): lone(2, sender=KATYA), (SERYOZHA, ORANGES): Tree(size=2)},
    )
    both.apply(C.fruit_code(ORANGES, SERYOZHA, 0, 1))
    assert both.tree(SERYOZHA, ORANGES) == (2, C.LONE, 0, SERYOZHA)  # 3 cards, one eaten
    assert both.counter(SERYOZHA, C.C_FRUIT_PLAYED_OWN) == 1
    assert both.counter(SERYOZHA, C.C_CROWS_RECEIVED) == 1
    assert both.counter(SERYOZHA, C.C_FRUIT_EATEN_BY_ITS_CROWS) == 1
    assert both.counter(SERYOZHA, C.C_FRUIT_LOST) == 1


A4_TREES = {(SERYOZHA, APPLES): flock(3, sender=OLYA), (KATYA, CHERRIES): Tree(size=1)}


@pytest.mark.parametrize("own", [True, False])
def test_a4_juicy_card_and_a_crow_on_the_players_own_tree(own):
    # pajarracos.md R10, A4: the only crow card lies on Seryozha's own tree. By default his juicy
    # card pulls it off onto Katya's tree; with juicy_attracts_own_crows=false it counts as an
    # ordinary card, and the flock stays and eats his apples at the end of his turn.
    both = Both(
        hands={0: hand(juicy_cherries=1, grapes=1), **OTHERS},
        trees=A4_TREES,
        rules={"juicy_attracts_own_crows": own},
    )
    both.apply(C.fruit_code(CHERRIES, KATYA, 0, 1))
    assert both.state[L.H_SEAT] == OLYA
    if own:
        assert both.tree(KATYA, CHERRIES) == (2, C.FLOCK_ON, 0, SERYOZHA)
        assert both.tree(SERYOZHA, APPLES) == (3, C.NO_CROW, 0, -1)
    else:
        assert both.tree(KATYA, CHERRIES) == (2, C.NO_CROW, 0, -1)
        assert both.tree(SERYOZHA, APPLES) == (0, C.NO_CROW, 0, -1)  # eaten whole (R13)
    assert both.counter(SERYOZHA, C.C_JUICY_ATTRACTIONS) == int(own)


def test_a4_option_only_other_players_crows_answer():
    # A4 alternative: with crows on his own tree and on Olya's, only Olya's may fly (so it does:
    # a single legal crow is a forced decision)
    trees = {**A4_TREES, (OLYA, BANANAS): lone(2, sender=KATYA)}
    both = Both(
        hands={0: hand(juicy_cherries=1, grapes=1), **OTHERS},
        trees=trees,
        rules={"juicy_attracts_own_crows": False},
    )
    both.apply(C.fruit_code(CHERRIES, KATYA, 0, 1))
    assert both.tree(KATYA, CHERRIES) == (2, C.LONE, 0, SERYOZHA)
    assert both.tree(OLYA, BANANAS) == (2, C.NO_CROW, 0, -1)
    assert both.tree(SERYOZHA, APPLES) == (0, C.NO_CROW, 0, -1)  # his flock stayed and ate


def test_r10_no_crow_on_the_table_juicy_is_ordinary():
    both = Both(hands={0: hand(juicy_oranges=1, grapes=1), **OTHERS})
    both.apply(C.fruit_code(ORANGES, OLYA, 0, 1))
    assert both.tree(OLYA, ORANGES) == (1, C.NO_CROW, 0, -1)
    assert both.counter(SERYOZHA, C.C_JUICY_ATTRACTIONS) == 0
    assert both.state[L.H_SEAT] == OLYA


# E8: scarecrows (R15-R19, A8-A11) ---------------------------------------------------------------
E8_TREES = {
    (SERYOZHA, CHERRIES): lone(3, sender=OLYA),
    (SERYOZHA, APPLES): flock(2, sender=KATYA),
    (SERYOZHA, GRAPES): Tree(size=1),
    (OLYA, GRAPES): Tree(size=2),
    (KATYA, BANANAS): Tree(size=1, scarecrow=True),
}


@pytest.mark.parametrize("shoo_to_ends_action", [True, False])
def test_e8_shoo_out_then_shoo_to_earns_no_extra_turn(shoo_to_ends_action):
    # pajarracos.md E8 (R18, R19, A8, A11): one scarecrow shoos the lone crow out, the other shoos
    # the flock onto Olya's tree in the same action: both scarecrows and the lone crow are
    # discarded, the flock moves, and the turn ends without an extra turn; in this order under
    # either reading of shoo_to_ends_action.
    both = Both(
        hands={0: hand(scarecrow=2, bananas=1), **OTHERS},
        trees=E8_TREES,
        rules={"shoo_to_ends_action": shoo_to_ends_action},
    )
    both.apply(C.C_SHOO_OUT + CHERRIES)
    olya_grapes = C.tree_index(OLYA, GRAPES)
    # A8: later own trees only; A9: onto an open tree of another player (not Katya's protected one)
    assert both.ref.legal() == [
        C.STOP,
        C.C_PROTECT + GRAPES,
        C.C_SHOO_OUT + APPLES,
        C.C_SHOO_TO + APPLES * C.N_TREES + olya_grapes,
    ]
    assert both.state[C.F_CTX_LAST] == CHERRIES and both.state[C.F_CTX_SHOO_OUT] == 1
    both.apply(C.C_SHOO_TO + APPLES * C.N_TREES + olya_grapes)  # R19: the action ends
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1  # R19: the turn ended
    assert both.state[C.F_EXTRA_TURNS] == 0 and both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 0
    assert both.discard(C.D_SCARECROW) == 2 and both.discard(C.D_LONE_CROW) == 1
    assert both.discard(C.D_FLOCK) == 0
    assert both.tree(SERYOZHA, CHERRIES) == (3, C.NO_CROW, 0, -1)
    assert both.tree(SERYOZHA, APPLES) == (2, C.NO_CROW, 0, -1)  # shooed before it could eat
    assert both.tree(OLYA, GRAPES) == (2, C.FLOCK_ON, 0, SERYOZHA)
    assert both.counter(SERYOZHA, C.C_SHOO_OUTS) == 1 and both.counter(SERYOZHA, C.C_SHOO_TOS) == 1
    assert both.counter(OLYA, C.C_CROWS_REDIRECTED_ONTO) == 1
    assert both.counter(OLYA, C.C_CROWS_RECEIVED) == 1
    both.apply(C.C_DISCARD + C.FRUIT + GRAPES)  # Olya's turn: the flock eats her tree (R13)
    assert both.tree(OLYA, GRAPES) == (0, C.NO_CROW, 0, -1)
    assert both.counter(SERYOZHA, C.C_FRUIT_EATEN_BY_ITS_CROWS) == 2


def test_e8_a_shoo_to_first_ends_the_action_at_once():
    # pajarracos.md E8, R19, A8, A11 (default shoo_to_ends_action): a shoo-to placed first is the
    # action's last scarecrow: the second crow cannot be shooed out any more, although a scarecrow
    # is left in hand, and it eats at the end of the turn (R21 still follows).
    both = Both(hands={0: hand(scarecrow=2, bananas=1), **OTHERS}, trees=E8_TREES)
    olya_grapes = C.tree_index(OLYA, GRAPES)
    both.apply(C.C_SHOO_TO + APPLES * C.N_TREES + olya_grapes)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    assert both.ref.hands[SERYOZHA][C.SCARECROW] >= 1  # the second scarecrow stayed in hand
    assert both.tree(SERYOZHA, CHERRIES) == (2, C.LONE, 0, OLYA)  # not shooed: it ate
    assert both.tree(OLYA, GRAPES) == (2, C.FLOCK_ON, 0, SERYOZHA)
    assert both.counter(SERYOZHA, C.C_SHOO_TOS) == 1 and both.counter(SERYOZHA, C.C_SHOO_OUTS) == 0
    assert both.discard(C.D_SCARECROW) == 1 and both.discard(C.D_LONE_CROW) == 0


def test_e8_old_reading_a_shoo_out_may_follow_a_shoo_to():
    # pajarracos.md E8, A8, A11 alternative (shoo_to_ends_action=false, the earlier default): the
    # action goes on after the shoo-to, so the other order gives E8's result too.
    both = Both(
        hands={0: hand(scarecrow=2, bananas=1), **OTHERS},
        trees=E8_TREES,
        rules={"shoo_to_ends_action": False},
    )
    olya_grapes = C.tree_index(OLYA, GRAPES)
    both.apply(C.C_SHOO_TO + APPLES * C.N_TREES + olya_grapes)
    assert both.state[L.H_SEAT] == SERYOZHA and both.state[L.H_PHASE] == C.PHASE_SCARECROW_MORE
    # Olya's grapes took the flock and Katya's bananas are protected: no tree to shoo to (A9)
    assert both.ref.legal() == [C.STOP, C.C_PROTECT + GRAPES, C.C_SHOO_OUT + CHERRIES]
    both.apply(C.C_SHOO_OUT + CHERRIES)  # the last scarecrow: the action stops (forced)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 0  # R19 cancels the shoo-out's extra turn
    assert both.discard(C.D_SCARECROW) == 2 and both.discard(C.D_LONE_CROW) == 1
    assert both.tree(SERYOZHA, CHERRIES) == (3, C.NO_CROW, 0, -1)
    assert both.tree(OLYA, GRAPES) == (2, C.FLOCK_ON, 0, SERYOZHA)


def test_r18_two_shoo_outs_earn_one_extra_turn():
    # pajarracos.md R18, A10 default: however many crows, one extra turn, at once (no eating or
    # drawing in between)
    both = Both(hands={0: hand(scarecrow=2, bananas=1), **OTHERS}, trees=E8_TREES)
    both.apply(C.C_SHOO_OUT + CHERRIES)
    both.apply(C.C_SHOO_OUT + APPLES)  # no scarecrow left: the action stops (forced)
    assert both.state[L.H_SEAT] == SERYOZHA and both.state[L.H_TURNS] == 0
    assert both.state[L.H_PHASE] == C.PHASE_ACTION
    assert both.state[C.F_EXTRA_TURNS] == 1 and both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 1
    assert both.state[C.seat_base(0) + C.HAND_COUNT] == 1  # no draw before the extra turn
    assert both.state[C.F_CTX_SHOO_OUT] == 0  # a new action
    assert both.discard(C.D_SCARECROW) == 2
    assert both.discard(C.D_LONE_CROW) == 1 and both.discard(C.D_FLOCK) == 1


def test_a10_extra_turn_lost_with_an_empty_hand_while_the_reserve_lasts():
    # pajarracos.md A10: the extra turn begins with an empty hand while the reserve pile still
    # holds cards: it is lost, the turn ends (crows eat, the player draws)
    both = Both(hands={0: hand(scarecrow=1), **OTHERS}, trees=E8_TREES)
    both.apply(C.C_SHOO_OUT + APPLES)  # the last scarecrow: the action stops (forced)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 0
    assert both.tree(SERYOZHA, CHERRIES) == (2, C.LONE, 0, OLYA)  # the crow left ate once


@pytest.mark.parametrize("separate", [False, True])
def test_e9_extra_turn_with_an_empty_hand_and_no_reserve_ends_the_game(separate):
    # pajarracos.md E9 (A10, R23, default empty_extra_turn=ends_game): the reserve pile is empty
    # and Seryozha's only card is a scarecrow; he shoos the flock out and earns an extra turn with
    # an empty hand: the game ends at once and his lone crow does not eat (with
    # extra_turn_separate it ate once before the extra turn, as that reading says).
    both = Both(
        hands={0: hand(scarecrow=1), **OTHERS},
        trees=E8_TREES,
        reserve=[],
        rules={"extra_turn_separate": separate},
    )
    both.apply(C.C_SHOO_OUT + APPLES)  # the last scarecrow: the action stops (forced)
    st = both.state
    assert st[L.H_OVER] == 1 and st[L.H_END_REASON] == C.END_EMPTY_EXTRA_TURN
    assert st[L.H_SEAT] == SERYOZHA and st[L.H_TURNS] == 0  # no turn was completed
    assert both.tree(SERYOZHA, CHERRIES)[0] == (2 if separate else 3)
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 0
    game_row, seats = both.finalize()
    assert game_row[G0 + C.GAME_COUNTERS.index("crows_left")] == 1  # R23: it flies away
    assert seats[SERYOZHA, S0 + C.C_FRUIT_CARDS] == (2 if separate else 3) + 2 + 1


def test_e9_old_reading_the_empty_extra_turn_is_lost():
    # pajarracos.md E9, A10 alternative (empty_extra_turn=lost, the earlier default): his crows
    # eat, he draws nothing, and play passes to Olya.
    both = Both(
        hands={0: hand(scarecrow=1), **OTHERS},
        trees=E8_TREES,
        reserve=[],
        rules={"empty_extra_turn": "lost"},
    )
    both.apply(C.C_SHOO_OUT + APPLES)
    st = both.state
    assert st[L.H_OVER] == 0 and st[L.H_SEAT] == OLYA and st[L.H_TURNS] == 1
    assert both.tree(SERYOZHA, CHERRIES) == (2, C.LONE, 0, OLYA)  # it ate
    assert st[C.seat_base(SERYOZHA) + C.HAND_COUNT] == 0  # nothing to draw
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 0


def test_a17_an_extra_turn_may_be_declined():
    # pajarracos.md R18, A17 (default extra_turn_optional): the extra turn is a right. Its action
    # list ends with the code that declines it; declining ends the turn as usual (R21).
    both = Both(hands={0: hand(scarecrow=1, bananas=1), **OTHERS}, trees=E8_TREES)
    both.apply(C.C_SHOO_OUT + APPLES)  # the last scarecrow: the action stops, an extra turn
    legal = both.ref.legal()
    assert both.state[L.H_PHASE] == C.PHASE_ACTION and both.state[C.F_EXTRA_TURNS] == 1
    assert legal[-1] == C.C_DECLINE and C.C_DISCARD + C.FRUIT + BANANAS in legal
    both.apply(C.C_DECLINE)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    assert both.tree(SERYOZHA, CHERRIES) == (2, C.LONE, 0, OLYA)  # R21: the crow ate
    assert both.ref.hands[SERYOZHA][C.FRUIT + BANANAS] >= 1  # the banana was kept
    assert both.state[C.seat_base(SERYOZHA) + C.HAND_COUNT] == 5  # and the hand refilled
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS) == 0
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS_DECLINED) == 1


def test_a17_a_normal_turn_cannot_be_declined():
    both = Both(hands={0: hand(scarecrow=1, bananas=1), **OTHERS}, trees=E8_TREES)
    assert C.C_DECLINE not in both.ref.legal()


def test_a17_declined_after_a_separate_end_of_turn_the_crows_eat_once():
    # A17 with A10's extra_turn_separate: the crows ate and the player drew before the extra
    # turn; declining it passes the turn without a second meal
    both = Both(
        hands={0: hand(scarecrow=1, bananas=1), **OTHERS},
        trees=E8_TREES,
        rules={"extra_turn_separate": True},
    )
    both.apply(C.C_SHOO_OUT + APPLES)
    assert both.tree(SERYOZHA, CHERRIES)[0] == 2 and both.ref.legal()[-1] == C.C_DECLINE
    both.apply(C.C_DECLINE)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    assert both.tree(SERYOZHA, CHERRIES)[0] == 2  # one meal only
    assert both.counter(SERYOZHA, C.C_EXTRA_TURNS_DECLINED) == 1


def test_a17_old_reading_the_extra_turn_is_compulsory():
    # pajarracos.md A17 alternative (extra_turn_optional=false, the earlier default): no code
    # declines it; the player must spend a card (discard_min=1)
    both = Both(
        hands={0: hand(scarecrow=1, bananas=1), **OTHERS},
        trees=E8_TREES,
        rules={"extra_turn_optional": False},
    )
    both.apply(C.C_SHOO_OUT + APPLES)
    legal = both.ref.legal()
    assert both.state[C.F_EXTRA_TURNS] == 1 and C.C_DECLINE not in legal
    assert all(c < C.C_PASS for c in legal)


def test_a10_extra_turn_separate_eats_and_draws_first():
    # pajarracos.md A10 alternative (extra_turn_separate): crows eat and the player draws up to
    # the hand size before the extra turn; the turn is counted once, after the extra turn
    both = Both(
        hands={0: hand(scarecrow=1, bananas=1), **OTHERS},
        trees=E8_TREES,
        rules={"extra_turn_separate": True},
    )
    both.apply(C.C_SHOO_OUT + APPLES)  # the last scarecrow: the action stops (forced)
    assert both.state[L.H_SEAT] == SERYOZHA and both.state[L.H_TURNS] == 0
    assert both.state[C.F_EXTRA_TURNS] == 1
    assert both.tree(SERYOZHA, CHERRIES) == (2, C.LONE, 0, OLYA)
    assert both.state[C.seat_base(0) + C.HAND_COUNT] == 5
    discard_one(both)
    assert both.state[L.H_SEAT] == OLYA and both.state[L.H_TURNS] == 1
    assert both.tree(SERYOZHA, CHERRIES) == (1, C.LONE, 0, OLYA)  # and it eats again
    assert both.state[C.F_EXTRA_TURNS] == 0


def test_r16_protected_tree_takes_no_fruit_and_no_crow():
    # pajarracos.md R8, R16: a protected tree can take no fruit and no crow, for ever
    both = Both(
        hands={0: hand(scarecrow=1, grapes=2), 1: hand(lone=1, grapes=1), 2: hand(grapes=1)},
        trees={(SERYOZHA, GRAPES): Tree(size=1), (KATYA, APPLES): Tree(size=1)},
    )
    both.apply(C.C_PROTECT + GRAPES)  # the last scarecrow: the action stops; the turn ends
    assert both.tree(SERYOZHA, GRAPES) == (1, C.NO_CROW, 1, -1)
    assert both.counter(SERYOZHA, C.C_PROTECTS) == 1
    legal = both.ref.legal()  # Olya's turn: a lone crow and a grape in hand
    assert not [c for c in legal if c < C.C_CROW and C.fruit_play(c)[:2] == (GRAPES, SERYOZHA)]
    crows = [c for c in legal if C.C_CROW <= c < C.C_PROTECT]
    assert crows == [C.C_CROW + C.tree_index(KATYA, APPLES)]


def test_a14_replay_a_full_tie():
    # pajarracos.md R26 ("play another game"), A14 option final_tie=replay: Seryozha and Katya tie
    # on score and kinds; the first game's results are kept and a new game is dealt, decided
    # between the two of them only.
    orchards = {SERYOZHA: ORCHARDS[KATYA], OLYA: ORCHARDS[OLYA], KATYA: ORCHARDS[KATYA]}
    trees = {(s, k): Tree(size=n) for s, sizes in orchards.items() for k, n in sizes.items()}
    both = Both(
        hands={0: hand(scarecrow=1), 1: hand(), 2: hand()},
        trees=trees,
        reserve=[],
        rules={"final_tie": "replay"},
    )
    both.apply(C.C_DISCARD + C.SCARECROW)
    st = both.state
    assert st[L.H_OVER] == 0 and st[C.F_TIE_REPLAYS] == 1
    assert st[C.F_TIE_MASK] == (1 << SERYOZHA) | (1 << KATYA)
    assert st[L.H_TURNS] == 1  # turns count every game played
    assert st[C.F_RESERVE_LEFT] == 65 - 15 and st[L.H_TRIGGERED] == 0  # a fresh deal
    saved = [int(st[C.F_SAVED + s * C.SAVED_LEN + C.SAVED_SCORE]) for s in range(3)]
    assert saved == [18, 14, 18]
    pick = random.Random(3)
    while not st[L.H_OVER]:  # play the replay out with seeded random decisions
        both.apply(pick.choice(both.ref.legal()))
    game_row, seats = both.finalize()
    assert game_row[G0 + C.GAME_COUNTERS.index("tie_replays")] >= 1
    assert list(seats[:, L.S_SCORE]) == [18, 14, 18]  # the first game's scores
    assert sorted(seats[[SERYOZHA, KATYA], L.S_RANK]) == [1, 2] or game_row[L.G_TURN_CAP_HIT]
    assert seats[OLYA, L.S_RANK] == 3 and seats[OLYA, L.S_WIN] == 0
    assert seats[:, L.S_WIN].sum() == 1
