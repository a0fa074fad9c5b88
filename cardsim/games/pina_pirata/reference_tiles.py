"""Piña Pirata in plain Python: what each Adventure tile does when it acts (pina-pirata.md, the
table "The 40 Adventure tiles": the *play* and *play onto* tiles in ``_tile``, the *draw* tiles
T3 and T24 in ``_draw``, T35's window, T26 and T36's extra plays, T27 turning a tile face down
with A40, T32 Plan B).

Part of the plain-Python reference (``reference.py``: its docstring says how it is written and
drives the game); written from ``pina-pirata.md``, never from the engine's code.
"""

from __future__ import annotations

from itertools import permutations

from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.reference_events import (
    EV_DECLINE,
    EV_DRAW,
    EV_NO_CARD,
    EV_TILE,
)


class TileRules:
    """The tiles' effects, as the reference plays them."""

    def _turn_extras(self, seat: int):
        """T26 and T36 in tile age order, once each (A24, A29)."""
        i = 0
        while i < len(self.in_play):
            tile, down, _ = self.in_play[i]
            i += 1
            if down:
                continue
            self.extra_by = tile  # the replay names the tile beside the play or draw it gives
            if tile == 26 and self.leads_front(seat):
                legal = self.plays(seat)
                if legal:
                    code = yield from self._ask(seat, C.PH_EXTRA, legal + [C.C_PASS], 26)
                    if code == C.C_PASS:
                        self.log(EV_DECLINE, seat=seat, tile=26)
                    yield from self._play_or_draw(seat, code)
            elif tile == 36 and (self.main_played or self.v["full_sails_after_draw"]):
                legal = self.plays(seat)
                if legal:
                    if not self.v["must_play_if_able"]:
                        legal.append(C.C_DRAW)
                    code = yield from self._ask(seat, C.PH_FULL_SAILS, legal)
                    yield from self._play_or_draw(seat, code)
                elif self.hands[seat]:
                    yield from self._draw(seat)
                    yield from self._window()
            self.extra_by = 0

    def _window(self):
        """T35 (A17): players holding exactly 5 cards may discard one, in turn order."""
        if not self.on(35):
            return
        active = self.active
        for i in range(self.n):
            s = self.after(active, i)
            if not self.on(35):
                return
            if (self.v["favorable_current_any_turn"] or s == active) and len(self.hands[s]) == 5:
                legal = [C.C_PASS] + self.hand_codes(s, C.C_CARD, len(self.piles))
                code = yield from self._ask(s, C.PH_T35, legal, active)
                if code == C.C_PASS:
                    self.log(EV_DECLINE, seat=s, tile=35)
                else:
                    x = code - C.C_CARD
                    self.discard(s, x % C.CARD_SPAN, x // C.CARD_SPAN, "Favorable Current (T35)")

    def _draw(self, seat: int):
        """A draw (A18) and the tiles it sets off (T3, T24), oldest first."""
        card = self.take_from_deck()
        if card < 0:
            self.log(EV_NO_CARD, seat=seat)
            return -1
        self.hands[seat].append(card)
        self.count(seat, C.C_CARDS_DRAWN)
        self.log(EV_DRAW, seat=seat, card=card, tile=self.resolving, extra=self.extra_by)
        self.extra_by = 0
        for tile in [t for t, down, _ in self.in_play if not down and t in (3, 24)]:
            if not self.on(tile):
                continue
            if tile == 3:
                legal = [C.C_PASS] + self.hand_codes(seat, C.C_CARD, len(self.piles), C.PENGUIN)
                if len(legal) > 1:
                    code = yield from self._ask(seat, C.PH_T3, legal, card)
                    if code == C.C_PASS:
                        self.log(EV_DECLINE, seat=seat, tile=3)
                    else:
                        x = code - C.C_CARD
                        self.discard(seat, x % C.CARD_SPAN, x // C.CARD_SPAN, "Iceberg (T3)")
            elif card in self.hands[seat] and self.has(card, C.TURTLE):
                code = yield from self._ask(seat, C.PH_T24, [C.C_PASS, C.C_YES], card)
                if code != C.C_YES:
                    self.log(EV_DECLINE, seat=seat, tile=24)
                else:
                    self.hands[seat].remove(card)
                    self.hands[self.left(seat)].append(card)
                    self.log(EV_TILE, tile=24, seat=seat, to=self.left(seat), card=card)
        return card

    # The tiles (pina-pirata.md T-table) -----------------------------------------------------------
    def _tile(self, tile: int, seat: int, card: int, under: int, pile: int):
        n = self.n
        say = lambda **d: self.log(EV_TILE, tile=tile, seat=seat, **d)  # noqa: E731
        if tile == 1:
            self.direction = -self.direction
            say(direction=self.direction)
        elif tile in (2, 26):
            if under >= 0 and under in self.pile(pile):
                self.piles[pile].remove(under)
                if tile == 2:
                    self.hands[self.right(seat)].append(under)
                    self.count(self.right(seat), C.C_TILES_AGAINST)
                    say(to=self.right(seat), card=under)
                else:
                    self.front[seat].append(under)
                    say(card=under)
                self.refill()
        elif tile in (4, 16, 21):
            # A43: with no card left after the play, T21 still draws unless the option says no
            stowaway_draws = bool(self.hands[seat]) or self.v["stowaway_empty_hand_draws"]
            if self.hands[seat] and (tile != 21 or under >= 0):
                phase = {4: C.PH_T4, 16: C.PH_T16, 21: C.PH_T21}[tile]
                code = yield from self._ask(
                    seat, phase, self.hand_codes(seat, C.C_CARD), card if tile == 21 else -1
                )
                given = code - C.C_CARD
                self.hands[seat].remove(given)
                if tile == 4:
                    self.deck.append(given)
                    say(card=given)
                elif tile == 16:
                    self.hands[self.left(seat)].append(given)
                    self.count(self.left(seat), C.C_TILES_AGAINST)
                    say(to=self.left(seat), card=given)
                else:
                    p = self.piles[pile if pile < len(self.piles) else 0]  # T27 on T37 (A40)
                    pos = p.index(card) if card in p else max(len(p) - 1, 0)
                    p.insert(pos, given)
                    say(card=given)
            if tile == 21 and stowaway_draws:
                yield from self._draw(seat)
        elif tile == 5:
            legal = [
                C.C_NAME + p * C.MAX_PLAYERS + o
                for p in range(self.k)
                for o in range(n)
                if o != seat
            ]
            code = yield from self._ask(seat, C.PH_T5_NAME, legal)
            pirate, opponent = divmod(code - C.C_NAME, C.MAX_PLAYERS)
            showing = [c for c in sorted(self.hands[opponent]) if self.has(c, pirate)]
            given = -1
            if showing:
                chooser = self.v["go_fish_chooser"]
                if chooser == "random":
                    given = showing[self.chance.randint(len(showing))]
                else:
                    who = opponent if chooser == "giver" else seat
                    code = yield from self._ask(
                        who, C.PH_T5_GIVE, [C.C_CARD + c for c in showing], pirate, seat
                    )
                    given = code - C.C_CARD
                self.hands[opponent].remove(given)
                self.hands[seat].append(given)
                self.count(opponent, C.C_TILES_AGAINST)
            say(pirate=pirate, opponent=opponent, card=given)
        elif tile == 8:
            self.pending_extra += 1
            say()
        elif tile == 10:
            self.count(self.left(seat), C.C_TILES_AGAINST)
            say(to=self.left(seat))
            yield from self._draw(self.left(seat))
        elif tile == 11:
            if self.has(card, C.CROCODILE, held=False):
                c = self.take_from_deck()
                if c >= 0:
                    self.aside.append(c)
                    self.aside_by[c] = seat
                say(set_aside=c)
            else:
                setter_only = self.v["bayou_setter_only"]  # A27's alternative
                taken = sorted(c for c in self.aside if not setter_only or self.aside_by[c] == seat)
                self.hands[seat].extend(taken)
                self.aside = [c for c in self.aside if c not in taken]
                say(taken=len(taken), cards=taken)
        elif tile == 12:  # A44: one skip, or one per Staredown under the alternative
            self.skip = self.skip + 1 if self.v["staredown_skips_add_up"] else 1
            say()
        elif tile == 14:
            for i in range(1, n):
                s = self.after(seat, i)
                reveal = False
                if any(self.has(c, C.RABBIT) for c in self.hands[s]):
                    if self.v["rabbit_reveal_compulsory"]:  # A35's alternative
                        reveal = True
                    else:
                        code = yield from self._ask(s, C.PH_T14, [C.C_PASS, C.C_YES], seat)
                        reveal = code == C.C_YES
                    if reveal:
                        self.revealed_by[s] = C.REVEALED_RABBIT  # A15: which Rabbit is not asked
                say(player=s, revealed=reveal)
                if not reveal:
                    self.count(s, C.C_TILES_AGAINST)
                    yield from self._draw(s)
        elif tile == 15:
            code = yield from self._ask(seat, C.PH_T15, [C.C_PASS, C.C_YES])
            say(drew=code == C.C_YES)
            if code == C.C_YES:
                drawn = yield from self._draw(seat)
                if drawn >= 0:
                    self.pending_extra += 1
        elif tile == 17:
            right = self.right(seat)
            if self.hands[right]:
                code = yield from self._ask(
                    seat, C.PH_T17, [C.C_CARD + c for c in sorted(self.hands[right])], right
                )
                taken = code - C.C_CARD
                self.hands[right].remove(taken)
                self.hands[seat].append(taken)
                self.count(right, C.C_TILES_AGAINST)
                say(frm=right, card=taken)
        elif tile == 18:
            self.hands = [self.hands[(s - 1) % n] for s in range(n)]
            say()
        elif tile == 19:
            if under >= 0 and under in self.pile(pile):
                code = yield from self._ask(seat, C.PH_T19, [C.C_PASS, C.C_YES], under)
                if code != C.C_YES:
                    self.log(EV_DECLINE, seat=seat, tile=19)
                else:
                    self.piles[pile].remove(under)
                    self.hands[seat].append(under)
                    self.refill()
                    say(card=under)
        elif tile == 20:
            code = yield from self._ask(
                seat, C.PH_T20_NAME, [C.C_PIRATE + p for p in range(self.k)]
            )
            pirate = code - C.C_PIRATE
            if not self.deck:
                self.reshuffle()
            hit = bool(self.deck) and self.has(self.deck[-1], pirate)
            say(pirate=pirate, hit=hit, card=self.deck[-1] if hit else -1)
            if hit:
                self.revealed = self.deck[-1]
                if self.hands[seat]:
                    code = yield from self._ask(
                        seat,
                        C.PH_T20_DISCARD,
                        self.hand_codes(seat, C.C_CARD, len(self.piles)),
                        self.revealed,
                    )
                    x = code - C.C_CARD
                    self.discard(seat, x % C.CARD_SPAN, x // C.CARD_SPAN, "Crystal Ball (T20)")
        elif tile == 22:
            self.fake_map_holder = seat
            say()
        elif tile == 23:
            say()
            yield from self._draw(seat)
            yield from self._draw(seat)
            if self.hands[seat]:
                code = yield from self._ask(
                    seat, C.PH_T23, self.hand_codes(seat, C.C_CARD, len(self.piles))
                )
                x = code - C.C_CARD
                self.discard(seat, x % C.CARD_SPAN, x // C.CARD_SPAN, "Picky Cartographer (T23)")
        elif tile == 25:
            c = self.take_from_deck()
            if c >= 0:
                self.piles[pile if pile < len(self.piles) else 0].append(c)
            say(card=c)
        elif tile == 27:
            legal = [C.C_PASS] + [
                C.C_TILE + i for i, (t, down, _) in enumerate(self.in_play) if not down and t != 27
            ]
            code = yield from self._ask(seat, C.PH_T27, legal)
            if code == C.C_PASS:
                self.log(EV_DECLINE, seat=seat, tile=27)
            else:
                self.turn_face_down(code - C.C_TILE)
        elif tile == 30:
            all_turtles = True
            for i in range(1, n):
                o = self.after(seat, i)
                hand = sorted(self.hands[o])
                if not hand:
                    # A30: an empty Hand reveals no Turtle, unless the option ignores it
                    all_turtles = all_turtles and self.v["tortoise_skips_empty_hands"]
                    continue
                if self.v["tortoise_reveal"] == "random":
                    shown = hand[self.chance.randint(len(hand))]
                else:
                    code = yield from self._ask(o, C.PH_T30, [C.C_CARD + c for c in hand], seat)
                    shown = code - C.C_CARD
                self.revealed_by[o] = shown  # A15: public until the round ends
                say(player=o, revealed=shown)
                if not self.has(shown, C.TURTLE):
                    all_turtles = False
            if all_turtles:
                yield from self._draw(seat)
                yield from self._draw(seat)
        elif tile == 40:
            code = yield from self._ask(seat, C.PH_T40, [C.C_PIRATE + p for p in range(self.k)])
            self.ghost = code - C.C_PIRATE
            say(pirate=self.ghost)

    def held_by(self, tile: int) -> int:
        """What a tile holds that turning it face down gives up (A40), for the replay: T11's
        set-aside cards, T37's second pile, T39's Voodoo cards; 1 if T22 has a holder, T40 a
        named pirate; 1 for T13's face-up deck top."""
        if tile == 11:
            return len(self.aside)
        if tile == 37:
            return len(self.piles[1]) if len(self.piles) == 2 else 0
        if tile == 39:
            return sum(len(cards) for cards in self.voodoo)
        if tile == 22:
            return int(self.fake_map_holder >= 0)
        if tile == 40:
            return int(self.ghost >= 0)
        return int(tile == 13)

    def turn_face_down(self, i: int) -> None:
        """T27, A40."""
        entry = self.in_play[i]
        entry[1] = True
        tile = entry[0]
        self.log(EV_TILE, tile=27, seat=self.active, down=tile, held=self.held_by(tile))
        if tile == 22:
            self.fake_map_holder = -1
        elif tile == 40:
            self.ghost = -1
        elif tile == 37 and len(self.piles) == 2:
            self.deck.extend(self.piles[1])
            self.piles = [self.piles[0]]
            self.chance.shuffle(self.deck)
        elif tile == 39:
            for s in range(self.n):
                for c in sorted(self.voodoo[s]):
                    p = self.piles[0]
                    p.insert(max(len(p) - 1, 0), c)
                self.voodoo[s] = []
        elif tile == 11:
            for c in sorted(self.aside):
                self.deck.insert(0, c)
            self.aside = []

    # End of a turn, of a round -------------------------------------------------------------------------
    def plan_b(self, seat: int) -> bool:
        """T32, A31."""
        hand = self.hands[seat]
        if len(hand) != 3:
            return False
        need = (C.OCTOPUS, C.WALRUS, C.CROCODILE)
        if self.v["plan_b_duo_counts_twice"]:
            return all(any(self.has(c, p) for c in hand) for p in need)
        return any(
            all(self.has(c, p) for c, p in zip(order, need, strict=True))
            for order in permutations(hand)
        )
