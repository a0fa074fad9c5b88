"""Piña Pirata in plain Python: the table and what may be played onto what (pina-pirata.md
Components, R7, R8, R18-R22; the match tiles T6, T7, T9, T13, T22, T29, T31, T34, T39, T40 with
A4, A20, A28, A33, A34, A38, A39).

Part of the plain-Python reference (``reference.py``: its docstring says how it is written and
drives the game); written from ``pina-pirata.md``, never from the engine's code.
"""

from __future__ import annotations

from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.reference_events import (
    CROC_TURTLE,
    EV_DISCARD,
    WALRUS_BIT,
)


class TableRules:
    """The reference's reading of the table: tiles in play, pirates a card shows, seats in turn
    order, piles and the deck, and the legal plays.
    """

    # Pirates a card shows --------------------------------------------------------------------------
    def on(self, tile: int) -> bool:
        """``tile`` is in play face up."""
        return any(t == tile and not down for t, down, _ in self.in_play)

    def age(self, tile: int) -> int:
        return next(i for i, (t, _, _) in enumerate(self.in_play) if t == tile)

    def shows_played(self, card: int) -> int:
        """For matching and triggers: T7's solitary Walrus is every pirate, T31 links (A20, A39)."""
        m = self.masks[card]
        if m == WALRUS_BIT and self.on(7):
            return self.all_pirates
        if m & CROC_TURTLE and self.on(31):
            m |= CROC_TURTLE & self.all_pirates
        return m

    def shows_held(self, card: int) -> int:
        """In a Hand, a reveal, a draw or on the deck (A38, A39 options)."""
        m = self.masks[card]
        if m == WALRUS_BIT and self.on(7) and self.v["solitary_walrus_scope"] == "everywhere":
            return self.all_pirates
        if m & CROC_TURTLE and self.on(31) and self.v["alligaturtle_scope"] == "all_purposes":
            m |= CROC_TURTLE & self.all_pirates
        return m

    def has(self, card: int, pirate: int, held: bool = True) -> bool:
        m = self.shows_held(card) if held else self.shows_played(card)
        return bool(m >> pirate & 1)

    def solitary(self, card: int) -> bool:
        return bin(self.masks[card]).count("1") == 1

    # Places -------------------------------------------------------------------------------------------
    def left(self, seat: int) -> int:
        return (seat + 1) % self.n

    def right(self, seat: int) -> int:
        return (seat - 1) % self.n

    def after(self, seat: int, steps: int) -> int:
        return (seat + steps * self.direction) % self.n

    def top(self, pile: int) -> int:
        return self.piles[pile][-1] if pile < len(self.piles) and self.piles[pile] else -1

    def pile(self, pile: int) -> list[int]:
        """Action pile ``pile``'s cards ([] for T37's second pile once T27 removed it, A40)."""
        return self.piles[pile] if pile < len(self.piles) else []

    def deck_face_up(self) -> int:
        return self.deck[-1] if self.deck and self.on(13) else -1

    def in_front(self, seat: int) -> list[int]:
        return self.front[seat] + self.voodoo[seat]

    def front_mask(self, seat: int) -> int:
        m = 0
        for card in self.in_front(seat):
            m |= self.masks[card]
        return m

    def leads_front(self, seat: int) -> bool:
        mine = len(self.in_front(seat))
        if self.v["front_ties_lead"]:  # A29's alternative: a tie for the lead counts
            return mine > 0 and all(len(self.in_front(s)) <= mine for s in range(self.n))
        return all(len(self.in_front(s)) < mine for s in range(self.n) if s != seat)

    def count(self, seat: int, counter: int, amount: int = 1) -> None:
        self.counters[seat][counter] += amount

    def reshuffle(self) -> None:
        """R8, A7: all Action-pile cards but the top one(s) form the new deck, shuffled."""
        for pile in self.piles:
            if len(pile) > 1:
                self.deck.extend(pile[:-1])
                del pile[:-1]
        self.chance.shuffle(self.deck)

    def take_from_deck(self) -> int:
        if not self.deck:
            self.reshuffle()
        if not self.deck:
            return -1
        card = self.deck.pop()
        if not self.deck and self.on(13):
            self.reshuffle()  # A7: T13 rebuilds an emptied deck at once
        return card

    def refill(self) -> None:
        for pile in self.piles:
            if not pile:
                card = self.take_from_deck()
                if card >= 0:
                    pile.append(card)

    def discard(self, seat: int, card: int, pile: int, why: str) -> None:
        """R19 (A3): onto the pile, or beneath its top card with discard_to_top false."""
        self.hands[seat].remove(card)
        p = self.piles[pile]
        if self.v["discard_to_top"] or not p:
            p.append(card)
        else:
            p.insert(len(p) - 1, card)
        self.log(EV_DISCARD, seat=seat, card=card, pile=pile, why=why)

    def hand_codes(self, seat: int, base: int, piles: int = 1, pirate: int = -1) -> list[int]:
        codes = []
        for pile in range(piles):
            codes += [
                base + pile * C.CARD_SPAN + card
                for card in sorted(self.hands[seat])
                if pirate < 0 or self.has(card, pirate)
            ]
        return codes

    # Matching -------------------------------------------------------------------------------------------
    def may_play(self, seat: int, card: int, pile: int) -> bool:
        """R7, R21 and the match tiles; prohibitions T7, T22 and their conflicts (A19)."""
        permissions = self.permissions(seat, card, pile)
        if permissions is None:
            return True
        if not permissions:
            return False
        prohibitions = self.prohibitions(seat, card, pile)
        if not prohibitions:
            return True
        if self.v["tile_conflict"] == "prohibition_wins":
            return False
        return max(age for age, _ in permissions) > max(prohibitions)

    def prohibitions(self, seat: int, card: int, pile: int) -> list[int]:
        """Ages of the tiles that forbid ``card`` onto pile ``pile`` (T7, T22)."""
        prohibitions = []
        top = self.top(pile)
        if self.on(7) and self.shows_played(card) & self.shows_played(top) & WALRUS_BIT:
            prohibitions.append(self.age(7))
        if self.on(22) and self.fake_map_holder == seat and len(self.hands[seat]) == 1:
            prohibitions.append(self.age(22))
        return prohibitions

    def permissions(self, seat: int, card: int, pile: int) -> list[tuple[int, int]] | None:
        """What lets ``card`` go onto pile ``pile``'s top card: (age, tile) pairs, tile 0 and age
        -1 for R7's shared pirate; None for an empty pile (anything goes)."""
        top = self.top(pile)
        if top < 0:
            return None
        mine, theirs = self.shows_played(card), self.shows_played(top)
        permissions = []
        if mine & theirs:
            permissions.append((-1, 0))
        face_up = self.deck_face_up()
        octopus_jokers = face_up >= 0 and self.has(face_up, C.OCTOPUS)
        jokers = []  # (tile, pirate mask that is a Joker for this seat)
        if self.on(9):
            jokers.append((9, WALRUS_BIT))
        if octopus_jokers:
            jokers.append((13, 1 << C.OCTOPUS))
        if self.on(39):
            jokers.append((39, self.front_mask(seat)))
        if self.ghost >= 0 and self.on(40):
            jokers.append((40, 1 << self.ghost))
        for tile, m in jokers:
            if mine & m:
                permissions.append((self.age(tile), tile))
        if self.on(34) and len(self.hands[seat]) >= 8:
            permissions.append((self.age(34), 34))
        if self.on(6) and mine >> C.PARROT & 1 and theirs >> C.MONKEY & 1:
            permissions.append((self.age(6), 6))
        if self.on(29) and theirs >> C.RABBIT & 1:
            permissions.append((self.age(29), 29))
        if self.v["joker_on_top_matches_all"]:
            for tile, m in jokers:
                if theirs & m:
                    permissions.append((self.age(tile), tile))
        return permissions

    def allowed_by(self, seat: int, card: int, pile: int) -> list[int]:
        """For the log: the tile that let a play through when the two cards as printed share no
        pirate (T7's solitary Walrus and T31's link count as tiles here): the one the play needed,
        not every tile that would also have allowed it. With a prohibition overruled
        (``tile_conflict=newest_wins``, A19) that is the newest permission; else the link (T7,
        T31) when there is one, else the oldest Joker or match tile."""
        top = self.top(pile)
        if top < 0 or self.masks[card] & self.masks[top]:
            return []
        tiles = [(age, tile) for age, tile in self.permissions(seat, card, pile) if tile]
        if self.prohibitions(seat, card, pile):
            return [max(tiles)[1]]
        if self.shows_played(card) & self.shows_played(top):  # no pirate shared as printed
            return [7 if self.on(7) and WALRUS_BIT in (self.masks[card], self.masks[top]) else 31]
        return [min(tiles)[1]]

    def plays(self, seat: int) -> list[int]:
        return [
            C.C_PLAY + pile * C.CARD_SPAN + card
            for pile in range(len(self.piles))
            for card in sorted(self.hands[seat])
            if self.may_play(seat, card, pile)
        ]
