"""A Piña Pirata table set up by hand for scenario tests: given tiles in play, Hands, top card and
deck, on the compiled engine (``deal``'s setup, then the cards rearranged as written).

Cards are named by their pirates: ``card("Tiger", "Rat")`` is the Tiger/Rat duo,
``card("Walrus")`` the solitary Walrus.
"""

from __future__ import annotations

import numpy as np

from cardsim.core import layout as L
from cardsim.core.options import resolve_options
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.games.pina_pirata import RULESET, engine
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.state import empty_hands, pile_push, push, refresh_fronts, to_hand

MASKS = C.card_masks(10, 1)


def card(*pirates: str) -> int:
    """The id of the card showing exactly these pirates (default deck)."""
    bits = 0
    for p in pirates:
        bits |= 1 << C.PIRATES.index(p)
    return MASKS.index(bits)


def shows(card_id: int, pirate: str) -> bool:
    return bool(MASKS[card_id] >> C.PIRATES.index(pirate) & 1)


class Table:
    """``hands``: seat -> cards; ``deck``: cards from the bottom up (the last is drawn first);
    every other card goes under them; ``top``: the Action pile's card(s) (a list: pile 0's cards
    from the bottom up; ``top2`` for T37's second pile). ``stop``: the engine stops at every
    decision, forced ones too (else it takes them itself and stops at real choices)."""

    def __init__(
        self,
        players: int = 4,
        tiles: tuple[int, ...] = (),
        hands: dict[int, list[int]] | None = None,
        top: list[int] | int = (),
        deck: list[int] = (),
        active: int = 0,
        rules: dict | None = None,
        top2: list[int] = (),
        seed: int = 0,
        stop: bool = False,
    ):
        given = {"fixed_tiles": ",".join(map(str, tiles)) or "none", "start_tiles": 0}
        given.update(rules or {})
        self.values = resolve_options(RULESET.options, given, "pina-pirata")
        self.players = players
        self.rules = RULESET.encode_rules(self.values, players)
        self.rules[R.R_STOP_FORCED] = stop  # stop at forced decisions too
        self.state = s = np.zeros(C.STATE_LEN, np.int32)
        self.legal_buf = np.zeros(C.MAX_LEGAL, np.int32)
        self.rng = np.array([stream_start(seed, 0, CHANCE_STREAM)], np.uint64)
        s[L.H_CAP_TURNS] = self.values["turn_cap"] * players
        engine.setup(s, self.rules, players, self.rng)
        hands = hands or {}
        top = [top] if isinstance(top, int) else list(top)
        top2 = [top2] if isinstance(top2, int) else list(top2)
        placed = [c for h in hands.values() for c in h] + top + list(top2) + list(deck)
        assert len(placed) == len(set(placed)), "a card is placed twice"
        rest = [c for c in range(s[C.F_N_CARDS]) if c not in placed]
        order = rest + list(deck)
        s[C.F_DECK : C.F_DECK + len(order)] = order
        s[C.F_DECK_N] = len(order)
        for c in order:
            s[C.F_LOC + c] = C.LOC_DECK
        s[C.F_PILE_N : C.F_PILE_N + 2] = 0
        for pile, cards in ((0, top), (1, list(top2))):
            for c in cards:
                pile_push(s, pile, c)
        s[C.F_N_PILES] = 2 if top2 else 1
        empty_hands(s)
        for seat in range(players):
            for c in hands.get(seat, []):
                to_hand(s, seat, c)
        refresh_fronts(s)
        s[C.F_ACTIVE] = active
        s[C.F_ROUND_FIRST] = active
        s[C.F_SP] = 0
        push(s, C.K_TURN_START, 0, 0, 0)
        # no decision pending; the observation shown at the first one (``show``)
        self.n = engine.advance(s, self.rules, self.rng, self.legal_buf, -1, True)

    # Reading the table ------------------------------------------------------------------------
    def hand(self, seat: int) -> list[int]:
        loc = self.state[C.F_LOC : C.F_LOC + self.state[C.F_N_CARDS]]
        return [int(c) for c in np.flatnonzero(loc == C.LOC_HAND + seat)]

    def in_front(self, seat: int) -> list[int]:
        loc = self.state[C.F_LOC : C.F_LOC + self.state[C.F_N_CARDS]]
        return [
            int(c)
            for c in np.flatnonzero((loc == C.LOC_FRONT + seat) | (loc == C.LOC_VOODOO + seat))
        ]

    def pile(self, p: int = 0) -> list[int]:
        n = self.state[C.F_PILE_N + p]
        return [
            int(c) for c in self.state[C.F_PILE + p * C.MAX_CARDS : C.F_PILE + p * C.MAX_CARDS + n]
        ]

    def deck(self) -> list[int]:
        return [int(c) for c in self.state[C.F_DECK : C.F_DECK + self.state[C.F_DECK_N]]]

    @property
    def top(self) -> int:
        return self.pile(0)[-1]

    @property
    def legal(self) -> list[int]:
        return [int(c) for c in self.legal_buf[: self.n]]

    @property
    def seat(self) -> int:
        """The seat to decide now."""
        return int(self.state[L.H_SEAT])

    @property
    def active(self) -> int:
        return int(self.state[C.F_ACTIVE])

    @property
    def phase(self) -> int:
        return int(self.state[L.H_PHASE])

    @property
    def turns(self) -> int:
        return int(self.state[L.H_TURNS])

    def playable(self, pile: int = 0) -> list[int]:
        return [c % C.CARD_SPAN for c in self.legal if c < C.C_DRAW and c // C.CARD_SPAN == pile]

    # Acting -----------------------------------------------------------------------------------
    def decide(self, code: int) -> None:
        assert code in self.legal, f"{code} not legal: {self.legal}"
        self.n = engine.step(self.state, self.rules, code, self.rng, self.legal_buf)

    def auto(self) -> None:
        """Take forced decisions until a real choice (or the end)."""
        while self.n == 1:
            self.decide(self.legal[0])

    def draw(self) -> None:
        self.decide(C.C_DRAW)

    def play(self, card_id: int, pile: int = 0) -> None:
        self.decide(C.C_PLAY + pile * C.CARD_SPAN + card_id)

    def give(self, card_id: int, pile: int = 0) -> None:
        """Answer a card choice (give, put, discard, take, reveal)."""
        self.decide(C.C_CARD + pile * C.CARD_SPAN + card_id)
