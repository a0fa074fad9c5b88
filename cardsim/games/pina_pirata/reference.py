"""Piña Pirata in slow, plain Python: the reference the compiled engine is tested against.

Written from ``pina-pirata.md`` without the engine's task stack: a game is a Python generator
that reads like the rules (a turn, a play, a tile's effect, a round end) and ``yield``s each
decision with two or more legal choices (``Ask``); a single legal choice is taken at once, as
the play loop does. It draws chance in the engine's documented order (``engine.py`` docstring),
lists legal decisions in the same canonical (ascending code) order and builds the bot's
observation in the engine's layout, so that game by game the outcome rows are equal.

Cards are ids with pirate masks (``cards.py``); places are Python lists and dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

import numpy as np

from cardsim.core import layout as L
from cardsim.core import reference, rules_doc
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R

# Event kinds of the log (the replay tells them)
EV_ROUND = "round"  # a round begins: dealer, first player, tiles in play
EV_PLAY = "play"  # seat plays card onto pile (or in front, T38); extra: 26 or 36 when it is that
# tile's extra play (0: none); allowed_by: the tiles that let it match (``allowed_by``), with the
# deck's face-up card (T13) and the Ghost's pirate (T40) then
EV_DRAW = "draw"  # seat draws a card; tile: the tile that made it draw (0: none); extra: as EV_PLAY
EV_NO_CARD = "no_card"  # a draw found no card (R16)
EV_TILE = "tile"  # a tile resolves; text says what it did
EV_DISCARD = "discard"
EV_SKIP = "skip"  # T12: seat skips its turn
EV_TABLE = "table"  # a turn starts: the table as it is (hands, tiles, piles), for replay --table
EV_DECLINE = "decline"  # seat declines an optional effect of tile (0: an extra play of T8/T15)
EV_NO_DRAW = "no_draw"  # T38 (A29): seat cannot play and, leading in cards in front, does not draw
EV_WIN = "round_won"
WIN_EMPTY_HAND, WIN_LUCKY_CHARM, WIN_PLAN_B = "empty_hand", "T28", "T32"  # an EV_WIN's ``how``
EV_CAPPED = "round_capped"
EV_ASSIGN = "assign"  # R11: tiles into play / map / bottom
EV_REPLACE = "replace"
EV_RESET = "reset"
EV_END = "game_over"
EV_RESULT = "result"

WALRUS_BIT = 1 << C.WALRUS
CROC_TURTLE = (1 << C.CROCODILE) | (1 << C.TURTLE)


class TurnCut(Exception):
    """A16: a turn reached ``round_turn_cap`` plays with another extra play open (``_play``)."""


@dataclass
class Ask:
    """A pending decision: who, which phase, the legal codes (ascending), its context."""

    seat: int
    phase: int
    legal: list[int]
    ctx_a: int = -1
    ctx_b: int = -1


def pool_tiles(values: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """(Adventure pile ascending, fixed tiles oldest first): the game's tiles (pina-pirata.md
    Parameters, ``tile_pool``: "all of T1–T40"), without those in play from the start.

    "All" is every T-number of the rules document's tile table, read from the document itself
    (``rules_doc.tile_numbers``), not from ``rules.tiles_of``: that function builds the engine's
    pool, and a mistake in it would otherwise be the same on both sides of the comparison (seen:
    ``tiles_of`` planted to leave T40 out fails the default cases of
    tests/test_pina_pirata_reference.py)."""
    from cardsim.games.pina_pirata import RULESET

    pool = values["tile_pool"]
    pool = rules_doc.tile_numbers(RULESET) if pool == "all" else sorted(set(pool))
    fixed = [] if values["fixed_tiles"] == "none" else list(values["fixed_tiles"])
    return [t for t in pool if t not in fixed], fixed


class ReferenceGame:
    """One game of Piña Pirata, all its rounds, decision by decision.

    ``values``: resolved rule options; ``bots[s]``/``bot_params[s]``: compiled bot of seat s and
    its parameters (optional: without bots, drive with ``pending`` and ``apply``). ``turn_cap``
    defaults to the ``turn_cap`` option (in turns per player, core/kernel.py).
    """

    def __init__(
        self,
        values: Mapping[str, Any],
        n_players: int,
        seed: int = 0,
        game: int = 0,
        bots: Sequence[Any] | None = None,
        bot_params: Sequence[np.ndarray] | None = None,
        turn_cap: int | None = None,
    ):
        R.check(values, n_players)
        self.v = dict(values)
        self.n = n_players
        self.bots = list(bots) if bots is not None else None
        self.bot_params = list(bot_params) if bot_params is not None else None
        self.chance, self.bot_rng = reference.streams(seed, game)
        self.events: list[dict] = []
        cap = self.v["turn_cap"] if turn_cap is None else turn_cap
        self.cap_turns = cap * n_players
        self.k = self.v["pirate_types"]
        self.masks = C.card_masks(self.k, self.v["solitary_per_type"])
        self.all_pirates = (1 << self.k) - 1
        self.hand_size = self.v["hand_size_6p"] if n_players == 6 else self.v["hand_size"]
        self.cruise = self.v["mode"] == "cruise"
        self.pile_tiles, self.fixed = pool_tiles(self.v)
        # game
        self.over = False
        self.end_reason = -1
        self.game_winner = -1
        self.turns = 0
        self.decisions = 0
        self.counters = [[0] * C.N_COUNTERS for _ in range(n_players)]
        self.game_counters = [0] * C.N_GAME_COUNTERS
        self.rounds_won = [0] * n_players
        self.maps = [0] * n_players
        self.round = 0
        # tiles
        self.in_play: list[list[int]] = []  # [tile, face_down, adder], oldest first
        self.adventure: list[int] = []  # bottom first
        self.tile_where: dict[int, int] = {}
        self.round_end_tiles: list[int] = []
        # round
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.front: list[list[int]] = [[] for _ in range(n_players)]  # T26, T38
        self.voodoo: list[list[int]] = [[] for _ in range(n_players)]  # T39
        self.deck: list[int] = []  # bottom first
        self.piles: list[list[int]] = [[]]
        self.aside: list[int] = []
        self.aside_by: dict[int, int] = {}  # card -> the seat that set it aside (A27)
        self.direction = 1
        self.skip = 0  # T12 skips pending (A44)
        self.resolving = 0  # the tile whose effect is being resolved (0: none), for the log
        self.extra_by = 0  # T26 or T36 while its extra play or draw is made (0: none), for the log
        self.ghost = -1
        self.fake_map_holder = -1
        self.pending_extra = 0
        self.revealed = -1
        self.revealed_by: list[int] = [-1] * n_players  # A15: T30 card / T14 Rabbit per seat
        self.active = 0
        self.dealer = 0
        self.round_first = 0
        self.round_turns = 0
        self.main_played = False
        self.turn_plays = 0
        self.winner = -1
        self.pending: Ask | None = None
        self.first = 0
        self._game = self._play_game()
        self._advance(None)

    # Driving ------------------------------------------------------------------------------------
    def _advance(self, code: int | None) -> None:
        try:
            self.pending = self._game.send(code) if code is not None else next(self._game)
        except StopIteration:
            self.pending = None

    def legal(self) -> list[int]:
        return [] if self.pending is None else list(self.pending.legal)

    def apply(self, code: int) -> None:
        if self.pending is None or code not in self.pending.legal:
            raise ValueError(f"decision {code} is not legal now")
        self._advance(code)

    def _ask(self, seat: int, phase: int, legal: list[int], a: int = -1, b: int = -1):
        """Generator: the chosen code (a single legal code is taken without asking)."""
        if len(legal) == 1:
            return legal[0]
        return (yield Ask(seat, phase, legal, a, b))

    def play(self) -> None:
        while self.pending is not None:
            legal = self.pending.legal
            self.decisions += 1
            seat = self.pending.seat
            obs = self.observation()
            choice = reference.ask_bot(
                self.bots[seat], obs, legal, self.bot_params[seat], self.bot_rng, C.MAX_LEGAL
            )
            self.apply(legal[choice])

    def log(self, kind: str, **data) -> None:
        self.events.append({"kind": kind, "round": self.round, "turn": self.turns, **data})

    def log_table(self) -> None:
        """An ``EV_TABLE`` event: the table at the start of the active seat's turn."""
        moon = self.on(33)
        self.log(
            EV_TABLE,
            seat=self.active,
            deck=len(self.deck),
            tops=[self.top(p) for p in range(len(self.piles))],
            tiles=[(t, bool(down)) for t, down, _ in self.in_play],
            hands=[sorted(h) for h in self.hands],
            shown=[h[0] if moon and len(h) == 1 else -1 for h in self.hands],
            front=[list(self.in_front(s)) for s in range(self.n)],
            maps=list(self.maps),
            rounds_won=list(self.rounds_won),
        )

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

    # The game -------------------------------------------------------------------------------------
    def _play_game(self):
        dealer = self.v["first_dealer"]
        self.dealer = self.chance.randint(self.n) if dealer == "random" else dealer  # R3
        self.setup_tiles()
        self.start_round()
        self.first = self.active
        while not self.over:
            try:
                result = yield from self._turn()
            except TurnCut:
                result = self._cut_turn()
            if result == "round_over":
                yield from self._round_end()

    def setup_tiles(self) -> None:
        """R2, R5, A9, A13."""
        self.in_play = [[t, False, -1] for t in self.fixed]
        self.tile_where = {t: C.W_OUT for t in range(1, C.N_TILES + 1)}
        for t in self.fixed:
            self.tile_where[t] = C.W_PLAY
        self.adventure = list(self.pile_tiles)
        for t in self.adventure:
            self.tile_where[t] = C.W_PILE
        self.chance.shuffle(self.adventure)
        for _ in range(self.v["start_tiles"]):
            t = self.adventure.pop()
            self.in_play.append([t, False, -1])
            self.tile_where[t] = C.W_PLAY
        self.maps = [0] * self.n
        if not self.cruise:
            for s in range(self.n):
                t = self.adventure.pop()
                self.tile_where[t] = C.W_MAP + s
                self.maps[s] = 1

    def start_round(self) -> None:
        """R12 (R1, R4, A11, A14, A33)."""
        self.direction, self.skip, self.ghost, self.fake_map_holder = 1, 0, -1, -1
        self.pending_extra, self.revealed = 0, -1
        for entry in self.in_play:
            entry[1] = False
        self.deck = list(range(len(self.masks)))
        self.chance.shuffle(self.deck)
        self.hands = [[] for _ in range(self.n)]
        self.front = [[] for _ in range(self.n)]
        self.voodoo = [[] for _ in range(self.n)]
        self.aside = []
        self.revealed_by = [-1] * self.n
        self.piles = [[], []] if self.on(37) else [[]]
        first = (self.dealer + 1) % self.n
        for _ in range(self.hand_size):
            for i in range(self.n):
                card = self.take_from_deck()
                if card >= 0:
                    self.hands[(first + i) % self.n].append(card)
        for pile in self.piles:
            card = self.take_from_deck()
            if card >= 0:
                pile.append(card)
        if self.on(39):
            adder = self.in_play[self.age(39)][2]
            for i in range(self.n):
                s = (first + i) % self.n
                if self.v["voodoo_all_players"] or adder < 0 or s == adder:
                    card = self.take_from_deck()
                    if card >= 0:
                        self.voodoo[s].append(card)
        self.round_turns = 0
        self.round_first = self.active = first
        self.count(first, C.C_FIRST_PLAYER_ROUNDS)
        if self.round < C.ROUND_SLOTS:
            self.game_counters[C.G_TILES_ROUND + self.round] = len(self.in_play)
        self.log(
            EV_ROUND,
            dealer=self.dealer,
            first=first,
            tiles=[t for t, _, _ in self.in_play],
            tops=[p[-1] for p in self.piles if p],
            voodoo=[list(v) for v in self.voodoo],
        )

    # A turn ---------------------------------------------------------------------------------------
    def _turn(self):
        seat = self.active
        self.main_played = False
        self.pending_extra = 0
        self.turn_plays = 0
        self.log_table()
        yield from self._window()
        # R7, R8 (A1, T38)
        legal = self.plays(seat)
        if legal:
            if not self.v["must_play_if_able"]:
                legal.append(C.C_DRAW)
            code = yield from self._ask(seat, C.PH_MAIN, legal)
        elif self.on(38) and self.leads_front(seat):
            code = yield from self._ask(seat, C.PH_T38_DRAW, [C.C_DRAW, C.C_PASS])
            if code == C.C_PASS:
                self.log(EV_NO_DRAW, seat=seat)
        else:
            code = C.C_DRAW
        if code < C.C_DRAW:
            self.main_played = True
        yield from self._play_or_draw(seat, code)
        yield from self._turn_extras(seat)
        return self._end_turn(seat)

    def _play_or_draw(self, seat: int, code: int):
        if code < C.C_DRAW:
            yield from self._play(seat, code % C.CARD_SPAN, code // C.CARD_SPAN)
        elif code == C.C_DRAW:
            yield from self._draw(seat)
            yield from self._window()

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

    def _play(self, seat: int, card: int, pile: int):
        """R7, R18: the card goes onto the pile (in front under T38), then the tiles it triggers
        resolve oldest first (R15, A2), each followed by a T35 window, then T8/T15's extras: an
        extra play is the next play of this loop (A21). A16: they may chain without end, so
        once the turn has made ``round_turn_cap`` plays, another extra play ends the round
        (``TurnCut``)."""
        while True:
            card, pile = yield from self._one_play(seat, card, pile)
            if card < 0:
                return

    def _one_play(self, seat: int, card: int, pile: int):
        """One play and its tiles; the extra play chosen next ``(card, pile)``, or ``(-1, -1)``."""
        self.turn_plays += 1
        allowed_by = self.allowed_by(seat, card, pile)  # before the Hand shrinks (T34)
        self.hands[seat].remove(card)
        self.count(seat, C.C_CARDS_PLAYED)
        under = self.top(pile)
        if self.on(38) and self.solitary(card):
            self.front[seat].append(card)
            under = -1
        else:
            self.piles[pile].append(card)
        self.log(
            EV_PLAY,
            seat=seat,
            card=card,
            pile=pile,
            onto=under,
            extra=self.extra_by,
            allowed_by=allowed_by,
            face_up=self.deck_face_up(),
            ghost=self.ghost,
        )
        self.extra_by = 0  # the plays its tiles give (T8, T15) are theirs
        shows = self.shows_played(card)
        triggered = []
        for tile, down, _ in self.in_play:
            if down:
                continue
            if tile in C.PLAY_KEY:
                hit = shows >> C.PLAY_KEY[tile] & 1
            elif tile in C.PLAY_ONTO:
                key, need = C.PLAY_ONTO[tile]
                hit = under >= 0 and shows >> key & 1 and self.shows_played(under) >> need & 1
            else:
                hit = tile == 11 or (tile == 40 and self.solitary(card))
            if hit:
                triggered.append(tile)
        yield from self._window()
        for tile in triggered:
            if self.on(tile):  # A40: a tile turned face down meanwhile does not resolve
                self.count(seat, C.C_TILES_TRIGGERED)
                self.resolving = tile  # the replay tells the draws a tile causes under it
                yield from self._tile(tile, seat, card, under, pile)
                self.resolving = 0
            yield from self._window()
        # T8, T15: optional extra plays (A21)
        while self.pending_extra > 0:
            legal = self.plays(seat)
            if not legal:
                self.pending_extra = 0
                break
            if self.turn_plays >= self.v["round_turn_cap"]:
                raise TurnCut
            code = yield from self._ask(seat, C.PH_EXTRA, legal + [C.C_PASS])
            if code == C.C_PASS:
                self.log(EV_DECLINE, seat=seat, tile=0)
                self.pending_extra = 0
            else:
                self.pending_extra -= 1
                return code % C.CARD_SPAN, code // C.CARD_SPAN
        return -1, -1

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
                say(taken=len(taken))
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

    def _end_turn(self, seat: int) -> str:
        """R10 (A5), T28, T32; the caps (A16, core); R9 and T12."""
        winner = -1
        how = WIN_EMPTY_HAND  # how the round was won, for the replay
        if not self.hands[seat]:
            winner = seat
        elif self.on(28) and all(self.has(c, C.RABBIT) for c in self.hands[seat]):
            winner, how = seat, WIN_LUCKY_CHARM
        elif self.on(32) and self.plan_b(seat):
            winner, how = seat, WIN_PLAN_B
        if winner < 0 and self.v["win_check_any_player"]:
            for i in range(1, self.n):
                if not self.hands[self.after(seat, i)]:
                    winner = self.after(seat, i)
                    break
        self.turns += 1
        self.round_turns += 1
        if winner >= 0:
            self.finish_round(winner, how=how)
            if self.turns >= self.cap_turns:
                self.end(L.END_TURN_CAP, -1)
                return "over"
            return "round_over"
        if self.turns >= self.cap_turns:
            self.end(L.END_TURN_CAP, -1)
            return "over"
        if self.round_turns >= self.v["round_turn_cap"]:
            self.finish_round(-1)
            return "round_over"
        nxt = self.after(seat, 1)
        for _ in range(self.skip):
            self.count(nxt, C.C_TILES_AGAINST)
            self.log(EV_SKIP, seat=nxt)
            nxt = self.after(nxt, 1)
        self.skip = 0
        self.active = nxt
        return "next"

    def _cut_turn(self) -> str:
        """A16: the turn ``TurnCut`` stopped ends, and the round with no winner (the game's turn
        cap first), as in ``_end_turn``."""
        self.turns += 1
        self.round_turns += 1
        if self.turns >= self.cap_turns:
            self.end(L.END_TURN_CAP, -1)
            return "over"
        self.finish_round(-1, self.turn_plays)
        return "round_over"

    def finish_round(self, winner: int, turn_plays: int = 0, how: str = WIN_EMPTY_HAND) -> None:
        """Round figures; ``winner`` -1: the round turn cap (A16), ``turn_plays`` > 0 when it
        stopped an endless turn of that many plays (``_cut_turn``); ``how`` the winner won
        (``WIN_*``)."""
        r = self.round
        self.round += 1
        g = self.game_counters
        g[C.G_ROUNDS] += 1
        if r < C.ROUND_SLOTS:
            g[C.G_TURNS_ROUND + r] = self.round_turns
        g[C.G_LONGEST] = max(g[C.G_LONGEST], self.round_turns)
        if winner >= 0:
            self.rounds_won[winner] += 1
            if winner == self.round_first:
                g[C.G_FIRST_WINS] += 1
            g[C.G_TILES_AT_WINS] += len(self.in_play)
            self.log(EV_WIN, seat=winner, turns=self.round_turns, how=how, active=self.active)
        else:
            g[C.G_ROUNDS_CAPPED] += 1
            self.log(EV_CAPPED, turns=self.round_turns, turn_plays=turn_plays)
        self.winner = winner

    def end(self, reason: int, winner: int) -> None:
        self.over = True
        self.end_reason = reason
        self.game_winner = winner
        self.log(EV_END, reason=C.END_REASONS[reason], winner=winner)

    def _round_end(self):
        """R11 (A8, A41), R17 (A10), M1/M2, R12."""
        for entry in self.in_play:
            entry[1] = False
        self.fake_map_holder = -1
        w = self.winner
        if w >= 0:
            if (
                self.v["reuse_removed_tiles"]
                and len(self.adventure) < self.v["tiles_drawn_at_round_end"]
            ):
                removed = [t for t in range(1, C.N_TILES + 1) if self.tile_where[t] == C.W_REMOVED]
                for t in removed:  # A41's alternative: back into the pile, which is shuffled
                    self.tile_where[t] = C.W_PILE
                self.adventure += removed
                self.chance.shuffle(self.adventure)
            k = min(self.v["tiles_drawn_at_round_end"], len(self.adventure))
            drawn = [self.adventure.pop() for _ in range(k)]
            if drawn:
                self.round_end_tiles = drawn
                if k == 3:
                    legal = [C.C_ASSIGN + p * 4 + m for p in range(3) for m in range(3) if p != m]
                    if self.v["winner_picks_play_tile_only"]:  # A8's alternative
                        legal = [C.C_ASSIGN + p * 4 + (1 if p == 0 else 0) for p in range(3)]
                elif k == 2:
                    legal = [C.C_ASSIGN + 1, C.C_ASSIGN + 4]
                else:
                    legal = [C.C_ASSIGN + 3, C.C_ASSIGN + 12]
                code = yield from self._ask(w, C.PH_ASSIGN, legal, k)
                p, m = divmod(code - C.C_ASSIGN, 4)
                new = 0
                for i, t in enumerate(drawn):
                    if i == m:
                        self.tile_where[t] = C.W_MAP + w
                        self.maps[w] += 1
                    elif i == p:
                        new = t
                    else:
                        self.adventure.insert(0, t)
                        self.tile_where[t] = C.W_PILE
                self.log(
                    EV_ASSIGN,
                    seat=w,
                    play=drawn[p] if p < 3 else 0,
                    map=drawn[m] if m < 3 else 0,
                    bottom=[t for i, t in enumerate(drawn) if i not in (p, m)],
                )
                self.round_end_tiles = []
                if new:
                    if not self.cruise and len(self.in_play) >= self.v["max_tiles_in_play"]:
                        self.round_end_tiles = [new]  # still waiting for its place (R17)
                        legal = [C.C_TILE + i for i in range(len(self.in_play))]
                        code = yield from self._ask(w, C.PH_REPLACE, legal, new)
                        old = self.in_play.pop(code - C.C_TILE)[0]
                        self.tile_where[old] = C.W_REMOVED
                        self.log(EV_REPLACE, seat=w, removed=old, added=new)
                    self.in_play.append([new, False, w])
                    self.tile_where[new] = C.W_PLAY
                self.round_end_tiles = []
        if not self.cruise:
            if w >= 0 and self.maps[w] >= 1 + self.v["map_pieces_to_win"]:
                self.end(C.END_MAP, w)
                return
        else:
            if self.round >= self.v["cruise_rounds"]:
                self.end(C.END_CRUISE, -1)
                return
            reset = self.v["cruise_reset_at"]
            if reset != "never" and len(self.in_play) >= reset:
                self.setup_tiles()
                self.game_counters[C.G_RESETS] += 1
                self.log(EV_RESET)
        if w >= 0:
            self.dealer = w
        self.start_round()

    # Outcomes and the engine's layout -------------------------------------------------------------------
    def result(self) -> tuple[list[int], list[int], list[int]]:
        scores = self.rounds_won if self.cruise else self.maps
        ranks = [1 + sum(o > s for o in scores) for s in scores]
        if self.cruise:
            wins = [int(r == 1 and s > 0) for r, s in zip(ranks, scores, strict=True)]
        else:
            wins = [int(s == self.game_winner) for s in range(self.n)]
        return list(scores), ranks, wins

    def outcome_rows(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.over:
            raise ValueError("the game is not over")
        game_row = np.zeros(len(L.GAME_COLUMNS) + C.N_GAME_COUNTERS, np.int32)
        game_row[L.G_N_PLAYERS] = self.n
        game_row[L.G_FIRST_SEAT] = self.first
        game_row[L.G_TURNS] = self.turns
        game_row[L.G_END_REASON] = self.end_reason
        game_row[L.G_TURN_CAP_HIT] = int(self.end_reason == L.END_TURN_CAP)
        game_row[L.G_DECISIONS] = self.decisions
        game_row[len(L.GAME_COLUMNS) :] = self.game_counters
        seat_rows = np.zeros((self.n, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
        scores, ranks, wins = self.result()
        c0 = len(L.SEAT_COLUMNS)
        for s in range(self.n):
            seat_rows[s, L.S_SCORE], seat_rows[s, L.S_RANK], seat_rows[s, L.S_WIN] = (
                scores[s],
                ranks[s],
                wins[s],
            )
            seat_rows[s, c0:] = self.counters[s]
            seat_rows[s, c0 + C.C_ROUNDS_WON] = self.rounds_won[s]
            seat_rows[s, c0 + C.C_MAP_PIECES] = self.maps[s]
        return game_row, seat_rows

    def log_result(self) -> None:
        scores, ranks, wins = self.result()
        self.events.append({"kind": EV_RESULT, "scores": scores, "ranks": ranks, "wins": wins})

    def observation(self) -> np.ndarray:
        """The deciding seat's observation, int32 ``[OBS_LEN]`` in the engine's layout."""
        ask = self.pending
        o = np.zeros(C.OBS_LEN, np.int32)
        o[L.H_OVER] = int(self.over)
        o[L.H_SEAT] = ask.seat
        o[L.H_TURNS] = self.turns
        o[L.H_N_PLAYERS] = self.n
        o[L.H_FIRST] = self.first
        o[L.H_END_REASON] = self.end_reason
        o[L.H_PHASE] = ask.phase
        o[L.H_CAP_TURNS] = self.cap_turns
        o[C.F_ACTIVE] = self.active
        o[C.F_DIR] = self.direction
        o[C.F_DEALER] = self.dealer
        o[C.F_ROUND] = self.round
        o[C.F_ROUND_TURNS] = self.round_turns
        o[C.F_DECK_N] = len(self.deck)
        o[C.F_TOP] = self.top(0)
        o[C.F_TOP + 1] = self.top(1) if len(self.piles) == 2 else -1
        o[C.F_DECK_SHOWN] = self.deck_face_up()
        o[C.F_GHOST] = self.ghost
        o[C.F_T22_HOLDER] = self.fake_map_holder
        o[C.F_SKIP] = int(self.skip)
        o[C.F_PENDING_EXTRA] = self.pending_extra
        o[C.F_CTX_A] = ask.ctx_a
        o[C.F_CTX_B] = ask.ctx_b
        o[C.F_N_TILES] = len(self.in_play)
        o[C.F_ADV_N] = len(self.adventure)
        o[C.F_N_CARDS] = len(self.masks)
        o[C.F_REVEALED] = self.revealed
        for i, (t, down, adder) in enumerate(self.in_play):
            o[C.F_TILES + i] = t
            o[C.F_TILE_DOWN + i] = int(down)
            o[C.F_TILE_ADDER + i] = adder
        moon = self.on(33)
        for s in range(self.n):
            o[C.seat_field(s, C.SH_HAND_N)] = len(self.hands[s])
            o[C.seat_field(s, C.SH_FRONT_N)] = len(self.in_front(s))
            o[C.seat_field(s, C.SH_FRONT_MASK)] = self.front_mask(s)
            o[C.seat_field(s, C.SH_MAPS)] = self.maps[s]
            o[C.seat_field(s, C.SH_ROUNDS_WON)] = self.rounds_won[s]
            shown = self.hands[s][0] if moon and len(self.hands[s]) == 1 else -1
            o[C.seat_field(s, C.SH_SHOWN)] = shown
            o[C.seat_field(s, C.SH_REVEALED)] = self.revealed_by[s]
        o[C.F_MASKS : C.F_MASKS + len(self.masks)] = self.masks
        for i, t in enumerate(self.round_end_tiles):
            o[C.F_ROUND_END + i] = t
        for card, mask in enumerate(self.masks):
            for pirate in range(C.N_PIRATES):
                if mask >> pirate & 1:
                    set_bit(o, C.F_PIRATE_BITS + pirate * C.HAND_WORDS, card)
        for card in self.hands[ask.seat]:
            o[C.F_ACTIVE_HAND + card] = 1
            set_bit(o, C.F_SHOWN_BITS, card)
        return o

    # Conservation (tests) ------------------------------------------------------------------------------
    def card_places(self) -> list[int]:
        """Every card of the game, once each, from every place it can be."""
        places = list(self.deck) + [c for p in self.piles for c in p] + list(self.aside)
        for s in range(self.n):
            places += self.hands[s] + self.front[s] + self.voodoo[s]
        return places


def set_bit(o: np.ndarray, base: int, card: int) -> None:
    """Set card ``card``'s bit in the int32 bit set at ``o[base:]`` (bit 31 makes a word
    negative, as in the engine's int32 state)."""
    word = (int(o[base + card // 32]) & 0xFFFFFFFF) | 1 << card % 32
    o[base + card // 32] = word - (1 << 32) if word >= 1 << 31 else word


def play_reference(spec, game: int) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Play game ``game`` of ``spec`` in plain Python: ``(game_row, seat_rows, events)``."""
    return reference.play_reference(spec, game, ReferenceGame)
