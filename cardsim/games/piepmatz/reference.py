"""Piepmatz in slow, plain Python: the reference the compiled engine is tested against.

Written from ``piepmatz.md`` (R1-R36, the turn pseudocode, A1-A23) and the chance and decision
contract in the docstring of ``engine.py``, not from the engine's code. Nothing is compiled:
columns, decks, rows and hands are lists, collections sets of bird codes, scoring piles lists of
seed values. Bots are the same compiled functions the play loop calls; the reference shows them its
own state encoded in the layout of ``cards.py`` (``observation``).

Randomness (``cardsim.core.rng``) as the engine docstring fixes it: the chance stream draws the
start player, shuffles the feeder deck (and again after the set-aside bad cards of A1), picks the
removed species of a 2-player game, shuffles the bird deck, and picks the squirrel's cards; the
bot stream goes to a bot only when two or more decisions are legal.

Events: ``ReferenceGame.events`` is a list of dicts with a ``"kind"`` (``EV_*``) and plain-int
fields; ``trace.py`` turns them into words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardsim.core import layout as L
from cardsim.core import reference
from cardsim.games.piepmatz import cards as C

EV_DEAL = "deal"  # first, removed (species or -1), perches [bird per row], queue, column, feeder
EV_TURN = "turn"  # turn (1-based), seat, hand_empty (A16: phases A and B skipped)
EV_TABLE = "table"  # a turn starts: the table as it is (replay --table; ``ReferenceGame.table``)
EV_PLAY = "play"  # seat, bird, perch, total (ground total), perched (bird)
EV_SEED = "seed"  # seat, value, position (1-based, or 0: from the feeder deck)
EV_MISS = "miss"  # seat, position: d pointed past the column (A6), or the feeder deck was empty (0)
EV_BAD = "bad"  # seat, card (CROW/SQUIRREL), position (0: feeder deck)
EV_STAYED = "stayed"  # cards, positions: bad cards beside no seed card that stayed (A8 option)
EV_COLLECT = "collect"  # seat, bird (the perched bird, R18)
EV_CROW = "crow"  # seat, bird (chased away, R20)
EV_SQUIRREL = "squirrel"  # seat, drawer, lost (seed values removed, R21)
EV_PROMOTE = "promote"  # perch, bird, ground (total left on the ground) (R22)
EV_NO_CHAIN = "no_chain"  # seat, perch, total, perched: the first comparison failed (R24)
EV_KEEP = "keep"  # seat, bird (-1: none) (R24)
EV_DRAW = "draw"  # seat, bird, source ("queue" or "deck"), refill (new queue card or -1)
EV_REFILL = "refill"  # seeds (values), bad (cards placed), removed (bad cards out, R27)
EV_TRIGGER = "trigger"  # seat, how (TRIGGER_*), turn (1-based)
EV_DISCARD = "discard"  # seat, birds (R31)
EV_END = "end"  # reason, turns
EV_RESULT = "result"  # scores, seeds, majorities, pairs, ranks, wins, birds (per seat, species)

_TRIGGER_CODES = {"chain": C.TRIGGER_CHAIN_DRAW, "refill": C.TRIGGER_REFILL}


def strength(bird: int) -> int:
    return C.strength_of(bird)


def decode(code: int) -> tuple[str, int, int]:
    """``(what, bird, perch)`` of a decision code; ``what`` is play, no_keep, keep, crow, draw,
    draw_deck or discard (bird -1 where none)."""
    if code < C.C_NO_KEEP:
        return "play", *divmod(code - C.C_PLAY, C.MAX_PERCHES)
    if code == C.C_NO_KEEP:
        return "no_keep", -1, -1
    if code < C.C_CROW:
        return "keep", code - C.C_KEEP, -1
    if code < C.C_DRAW:
        return "crow", code - C.C_CROW, -1
    if code < C.C_DRAW_DECK:
        return "draw", code - C.C_DRAW, -1
    if code == C.C_DRAW_DECK:
        return "draw_deck", -1, -1
    if code < C.N_CODES:
        return "discard", code - C.C_DISCARD, -1
    raise ValueError(f"{code} is not a decision code")


def pairs_in(birds: set[int]) -> int:
    """R32: male and female of one species and strength."""
    return sum(1 for b in birds if b % 2 == 0 and b + 1 in birds)


class ReferenceGame:
    """One game of Piepmatz, decision by decision.

    ``values``: resolved rule options; ``bots[s]``/``bot_params[s]``: the compiled bot of seat s and
    its float64 parameters (optional: without bots, drive the game with ``legal()`` and
    ``apply()``). ``turn_cap`` (rounds) defaults to the ``turn_cap`` option.
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
        from cardsim.games.piepmatz import rules as R

        R.check(values, n_players)
        self.v = dict(values)
        self.n = n_players
        self.bots = list(bots) if bots is not None else None
        self.bot_params = list(bot_params) if bot_params is not None else None
        self.chance, self.bot_rng = reference.streams(seed, game)
        self.events: list[dict] = []
        cap = self.v["turn_cap"] if turn_cap is None else turn_cap
        self.cap_turns = cap * n_players
        self.perches = self.v["perches"]
        if self.perches == "auto":
            self.perches = 3 if n_players == 4 else 2  # R2
        self.turns = 0
        self.decisions = 0
        self.over = False
        self.end_reason = -1
        self.triggered = False
        self.trigger_how = C.TRIGGER_NONE
        self.trigger_turn = -1
        self.bad_removed = 0
        self.discarded = 0  # cards of the final discard, all seats
        self.phase = C.PHASE_PLAY
        self.seat = 0
        self.played = -1
        self.played_perch = -1
        self.last_discard = -1
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.hand_shown = [0] * n_players  # the public hand size (lags during R31, A19)
        self.collections: list[set[int]] = [set() for _ in range(n_players)]
        self.piles = [[0, 0, 0] for _ in range(n_players)]
        self.entered = [[0, 0, 0] for _ in range(n_players)]
        self.pile_lost = [0] * n_players
        self.crows_taken = [0] * n_players
        self.gone: set[int] = set()  # birds the crows removed from the game (R20), public
        self.bad_drawn = [0, 0]  # crows, squirrels drawn from the feeder deck (R16, R26), public
        self.known = [set() for _ in range(n_players)]  # hand birds taken from the queue (R25)
        self._discarded: list[int] = []
        self.squirrel_log: list[list[int]] = []  # owner, taken, entered 1-3 (R21, A22)
        self.squirrels_taken = [0] * n_players
        self.count = [dict.fromkeys(C.SEAT_COUNTERS, 0) for _ in range(n_players)]
        self.scores = [0] * n_players
        self._deal()
        self._settle()
        self._run_forced()

    # Setup (R2-R7) --------------------------------------------------------------------------------
    def _deal(self) -> None:
        v, n = self.v, self.n
        if v["first_player"] == "random":
            self.first = self.chance.randint(n)  # R7, A23
        else:
            self.first = v["first_player"]
        seeds = list(v["seed_counts"])
        crows = v["crows"]
        if n == 2:  # R3: the "3+" cards leave a 2-player game
            for value in v["three_plus_seed_values"]:
                seeds[value - 1] -= 1
            crows -= v["three_plus_crows"]
        feeder = []
        for value in (1, 2, 3):
            feeder += [C.SEED + value] * seeds[value - 1]
        feeder += [C.CROW] * crows + [C.SQUIRREL] * v["squirrels"]
        self.chance.shuffle(feeder)
        self.column: list[int] = []  # seed values, position 1 first
        self.bad_column: list[int] = []
        aside = []
        while len(self.column) < v["seed_column_size"]:  # R3, A1
            card = feeder.pop()
            if card in (C.CROW, C.SQUIRREL):
                aside.append(card)
            else:
                self.column.append(card - C.SEED)
        if aside:
            feeder += aside
            self.chance.shuffle(feeder)
        self.feeder = feeder
        if not feeder and v["end_trigger"] == "deck_emptied":
            self._trigger(C.TRIGGER_LAST_CARD)
        self.removed = -1
        species = list(range(v["species"]))
        if n == 2:  # R4, A2
            choice = v["two_player_removed_species"]
            self.removed = self.chance.randint(v["species"]) if choice == "random" else choice
            species.remove(self.removed)
        birds = [
            s * C.BIRDS_PER_SPECIES + (k - 1) * 2 + sex
            for s in species
            for k in range(1, v["strengths"] + 1)
            for sex in (0, 1)
        ]
        self.chance.shuffle(birds)
        self.bird_deck = birds
        self.rows = [[self.bird_deck.pop()] for _ in range(self.perches)]  # R4
        for _ in range(v["hand_size"]):  # R5
            for i in range(n):
                seat = (self.first + i) % n
                self._to_hand(seat, self.bird_deck.pop())
        self.queue: list[int] = []
        self._refill_queue()  # R6
        self.events.append(
            {
                "kind": EV_DEAL,
                "first": self.first,
                "removed": self.removed,
                "perches": [row[0] for row in self.rows],
                "queue": list(self.queue),
                "column": list(self.column),
                "feeder": len(self.feeder),
            }
        )
        self._begin_turn(self.first)

    def _to_hand(self, seat: int, bird: int) -> None:
        self.hands[seat].append(bird)
        self.hands[seat].sort()
        self.hand_shown[seat] += 1

    def _refill_queue(self) -> int:
        """R6, R25: the queue is topped up while the bird deck lasts (A16); returns the new card."""
        added = -1
        while len(self.queue) < self.v["queue_size"] and self.bird_deck:
            added = self.bird_deck.pop()
            self.queue.append(added)
        return added

    def _trigger(self, how: int) -> None:
        """R29: the end is triggered, once."""
        if not self.triggered:
            self.triggered = True
            self.trigger_how = how
            self.trigger_turn = self.turns
            self.events.append(
                {"kind": EV_TRIGGER, "seat": self.seat, "how": how, "turn": self.turns + 1}
            )

    def _feeder_top(self, how: int) -> int | None:
        """A feeder card, or None from an empty deck, which triggers the end (R17, R28, A17)."""
        if not self.feeder:
            self._trigger(how)
            return None
        card = self.feeder.pop()
        if not self.feeder and self.v["end_trigger"] == "deck_emptied":
            self._trigger(C.TRIGGER_LAST_CARD)
        return card

    # Turns -----------------------------------------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.played = -1
        self.played_perch = -1
        self.phase = C.PHASE_PLAY
        self.events.append(self.table())
        if self.hands[seat]:
            self.events.append(
                {"kind": EV_TURN, "turn": self.turns + 1, "seat": seat, "hand_empty": 0}
            )
            return
        if not self.bird_deck and not self.queue and not any(self.hands):  # A16
            self._finish(C.END_NO_CARDS)
            return
        self.events.append({"kind": EV_TURN, "turn": self.turns + 1, "seat": seat, "hand_empty": 1})
        self.phase = C.PHASE_C  # A16: phases A and B are skipped

    def _settle(self) -> None:
        """Phase C (R25-R28) and the turns after it until a decision is pending."""
        while not self.over and self.phase == C.PHASE_C:
            seat = self.seat
            if len(self.hands[seat]) < self.v["hand_size"]:
                if self.queue or self.bird_deck:
                    self.phase = C.PHASE_DRAW
                    return
                if self.v["bird_exhaustion"] == "trigger_end":
                    self._trigger(C.TRIGGER_BIRDS)
            self._refill_column()
            self._end_turn()

    def _refill_column(self) -> None:
        """R26-R28."""
        added, bad, removed = [], [], 0
        told = len(self.events)  # the refill is told before the end it may trigger (R28)
        while len(self.column) < self.v["seed_column_size"]:
            card = self._feeder_top(C.TRIGGER_REFILL)
            if card is None:
                break
            if card not in (C.CROW, C.SQUIRREL):
                self.column.append(card - C.SEED)
                added.append(card - C.SEED)
            elif (place := self._bad_place()) is not None:
                self.bad_drawn[card - C.CROW] += 1
                if place == len(self.bad_column):
                    self.bad_column.append(card)
                else:
                    self.bad_column[place] = card  # an empty place (A8's option)
                bad.append(card)
            else:
                self.bad_drawn[card - C.CROW] += 1
                removed += 1  # R27: a bad card beyond the column's room leaves the game
        self.bad_removed += removed
        if added or bad or removed:
            refill = {"kind": EV_REFILL, "seeds": added, "bad": bad, "removed": removed}
            self.events.insert(told, refill)

    def _end_turn(self) -> None:
        self.turns += 1
        last_seat = (self.first - 1) % self.n  # R30: the player to the right of the start player
        if self.turns >= self.cap_turns:  # the safeguard; no bot is asked for the discard
            for seat in range(self.n):
                due = self._discards_due(seat)
                self.hands[seat] = self.hands[seat][due:]
                self.discarded += due
            self._finish(L.END_TURN_CAP)
        elif self.triggered and self.seat == last_seat:
            self._next_discarder(0)
        else:
            self._begin_turn((self.seat + 1) % self.n)

    # Phase A and B ----------------------------------------------------------------------------------
    def _play(self, bird: int, perch: int) -> None:
        """R9-R11."""
        seat = self.seat
        self.hands[seat].remove(bird)
        self.hand_shown[seat] -= 1
        self.known[seat].discard(bird)
        row = self.rows[perch]
        row.append(bird)
        self.played, self.played_perch = bird, perch
        total = sum(strength(b) for b in row[1:])
        self.events.append(
            {
                "kind": EV_PLAY,
                "seat": seat,
                "bird": bird,
                "perch": perch,
                "total": total,
                "perched": row[0],
            }
        )
        if total > strength(row[0]):
            self.count[seat]["chains"] += 1
            self._chain()
        else:
            self.events.append(
                {
                    "kind": EV_NO_CHAIN,
                    "seat": seat,
                    "perch": perch,
                    "total": total,
                    "perched": row[0],
                }
            )
            self._offer_keep()

    def _take_bad(self, position: int, seeds: int) -> int | None:
        """R14 (A7's alternative: ``seeds`` 0): the bad card at ``position`` (0-based) is taken,
        None for an empty place. A8: the bad-card column closes up; with ``bad_cards_attached``
        the bad cards beside the seed cards above slide down with them (the column had
        ``seeds``), and the place of the top one is left empty; the others stay."""
        if not self.v["bad_cards_attached"]:
            return self.bad_column.pop(position)
        places = self.bad_column + [C.NO_CARD] * (C.MAX_COLUMN - len(self.bad_column))
        card = places[position]
        top = max(position, seeds - 1)
        places[position:top] = places[position + 1 : top + 1]
        places[top] = C.NO_CARD
        while places and places[-1] == C.NO_CARD:
            places.pop()
        self.bad_column = places
        return None if card == C.NO_CARD else card

    def _log_stayed(self, seeds: int) -> None:
        """A8's alternative: the bad cards beside no seed card did not slide (for the replay)."""
        if not self.v["bad_cards_attached"]:
            return
        stayed = [(p, c) for p, c in enumerate(self.bad_column) if p >= seeds and c]
        if stayed:
            self.events.append(
                {
                    "kind": EV_STAYED,
                    "cards": [c for _, c in stayed],
                    "positions": [p + 1 for p, _ in stayed],
                }
            )

    def _bad_place(self) -> int | None:
        """R27: the lowest empty place of the bad-card column (empty places below the top one
        only under A8's alternative), None when it holds ``max_bad_cards_in_column`` already."""
        held = [c for c in self.bad_column if c != C.NO_CARD]
        if len(held) >= self.v["max_bad_cards_in_column"]:
            return None
        empty = [p for p, c in enumerate(self.bad_column) if c == C.NO_CARD]
        return empty[0] if empty else len(self.bad_column)

    def _offer_keep(self) -> None:
        limit = strength(self.played)
        if any(strength(b) <= limit for b in self.hands[self.seat]):
            self.phase = C.PHASE_KEEP  # R24, A14
        else:
            self.phase = C.PHASE_C

    def _pile_in(self, seat: int, value: int, position: int) -> None:
        self.piles[seat][value - 1] += 1
        self.entered[seat][value - 1] += 1
        self.count[seat]["seed_cards_taken"] += 1
        self.count[seat]["seed_points_taken"] += value
        self.events.append({"kind": EV_SEED, "seat": seat, "value": value, "position": position})

    def _chain(self) -> None:
        """R12-R23, following the turn pseudocode; stops for a crow's CROW decision."""
        seat = self.seat
        row = self.rows[self.played_perch]
        while sum(strength(b) for b in row[1:]) > strength(row[0]):
            d = sum(strength(b) for b in row[1:]) - strength(row[0])
            bad = None
            if d <= self.v["seed_column_size"]:  # R13-R15
                if d <= len(self.column):
                    seeds = len(self.column)
                    self._pile_in(seat, self.column.pop(d - 1), d)
                    if d <= len(self.bad_column):
                        bad = self._take_bad(d - 1, seeds)
                        if bad is not None:
                            self.events.append(
                                {"kind": EV_BAD, "seat": seat, "card": bad, "position": d}
                            )
                        self._log_stayed(seeds)
                elif (
                    self.v["take_lone_bad_card"]  # A7
                    and d <= len(self.bad_column)
                    and self.bad_column[d - 1] != C.NO_CARD  # an empty place: A8's option
                ):
                    bad = self._take_bad(d - 1, 0)
                    self.events.append({"kind": EV_BAD, "seat": seat, "card": bad, "position": d})
                else:
                    self.events.append({"kind": EV_MISS, "seat": seat, "position": d})
            else:  # R16, R17
                card = self._feeder_top(C.TRIGGER_CHAIN_DRAW)
                if card is None:
                    self.events.append({"kind": EV_MISS, "seat": seat, "position": 0})
                else:
                    self.count[seat]["deck_draws"] += 1
                    if card in (C.CROW, C.SQUIRREL):
                        bad = card
                        self.bad_drawn[card - C.CROW] += 1
                        self.events.append(
                            {"kind": EV_BAD, "seat": seat, "card": bad, "position": 0}
                        )
                    else:
                        self._pile_in(seat, card - C.SEED, 0)
            perched = row[0]
            self.collections[seat].add(perched)  # R18
            row[0] = -1
            self.count[seat]["promotions"] += 1
            self.events.append({"kind": EV_COLLECT, "seat": seat, "bird": perched})
            if bad == C.CROW:  # R20: the player chooses
                self.count[seat]["crows_taken"] += 1
                self.crows_taken[seat] += 1
                if self.v["crow_victim"] == "player":
                    self.phase = C.PHASE_CROW
                    return
                victims = self._crow_victims(seat)  # A10's alternative: a random one of them
                self._chase(victims[self.chance.randint(len(victims))] - C.C_CROW)
            if bad == C.SQUIRREL:
                self._squirrel(seat)
            self._move_up()
        if self.v["keep_option_after_chain"]:  # A13
            self._offer_keep()
        else:
            self.phase = C.PHASE_C

    def _squirrel(self, seat: int) -> None:
        """R21, A11: the pile is shuffled, another player (the left neighbour) draws the cards."""
        self.count[seat]["squirrels_taken"] += 1
        self.squirrels_taken[seat] += 1
        taken = min(self.v["squirrel_steal"], sum(self.piles[seat]))
        if taken > 0:
            public = self.v["public_scoring_piles"]
            seen = list(self.entered[seat]) if public else [0, 0, 0]
            self.squirrel_log.append([seat, taken, *seen])
        lost = []
        for _ in range(self.v["squirrel_steal"]):
            cards = [value for value in (1, 2, 3) for _ in range(self.piles[seat][value - 1])]
            if not cards:
                break
            value = cards[self.chance.randint(len(cards))]
            self.piles[seat][value - 1] -= 1
            lost.append(value)
        self.pile_lost[seat] += len(lost)
        self.count[seat]["squirrel_cards_lost"] += len(lost)
        self.count[seat]["squirrel_points_lost"] += sum(lost)
        self.events.append(
            {"kind": EV_SQUIRREL, "seat": seat, "drawer": (seat + 1) % self.n, "lost": lost}
        )

    def _move_up(self) -> None:
        """R22, A21: the strongest ground bird (ties: nearest the perch) takes the perch."""
        row = self.rows[self.played_perch]
        ground = row[1:]
        if self.v["promote_by"] == "egg_value":
            key = [self.v["bird_points"][strength(b) - 1] for b in ground]
        else:
            key = [strength(b) for b in ground]
        best = key.index(max(key))
        bird = ground.pop(best)
        row[:] = [bird, *ground]
        self.events.append(
            {
                "kind": EV_PROMOTE,
                "perch": self.played_perch,
                "bird": bird,
                "ground": sum(strength(b) for b in ground),
            }
        )

    def _chase(self, bird: int) -> None:
        """R20: the bird leaves the collection and the game."""
        self.collections[self.seat].discard(bird)
        self.gone.add(bird)
        self.events.append({"kind": EV_CROW, "seat": self.seat, "bird": bird})

    def _crow_victims(self, seat: int) -> list[int]:
        """A10: the CROW codes of every bird in a species where ``seat`` holds the most birds."""
        by_species: dict[int, list[int]] = {}
        for b in self.collections[seat]:
            by_species.setdefault(C.species_of(b), []).append(b)
        most = max(len(x) for x in by_species.values())
        return sorted(
            C.C_CROW + b for birds in by_species.values() if len(birds) == most for b in birds
        )

    def _crow(self, bird: int) -> None:
        self._chase(bird)
        self._move_up()
        self._chain()

    def _keep(self, bird: int) -> None:
        if bird >= 0:
            self.hands[self.seat].remove(bird)
            self.hand_shown[self.seat] -= 1
            self.known[self.seat].discard(bird)
            self.collections[self.seat].add(bird)
            self.count[self.seat]["keeps"] += 1
        self.events.append({"kind": EV_KEEP, "seat": self.seat, "bird": bird})
        self.phase = C.PHASE_C

    def _draw(self, bird: int) -> None:
        refill = -1
        source = "deck" if bird < 0 else "queue"
        if bird < 0:
            bird = self.bird_deck.pop()
            self._to_hand(self.seat, bird)
        else:
            self.queue.remove(bird)
            self._to_hand(self.seat, bird)
            self.known[self.seat].add(bird)
            refill = self._refill_queue()
        self.events.append(
            {"kind": EV_DRAW, "seat": self.seat, "bird": bird, "source": source, "refill": refill}
        )
        self.phase = C.PHASE_C

    # Final discard and scoring (R31-R36) -----------------------------------------------------------
    def _discards_due(self, seat: int) -> int:
        return max(0, len(self.hands[seat]) - (self.v["hand_size"] - self.v["final_discard"]))

    def _next_discarder(self, start: int) -> None:
        for i in range(start, self.n):
            seat = (self.first + i) % self.n
            if self._discards_due(seat) > 0:
                self.seat = seat
                self.phase = C.PHASE_DISCARD
                self.last_discard = -1
                self._discarded: list[int] = []
                return
        reason = C.END_BIRDS if self.trigger_how == C.TRIGGER_BIRDS else C.END_FEEDER
        self._finish(reason)

    def _discard(self, bird: int) -> None:
        self.hands[self.seat].remove(bird)
        self.discarded += 1
        self.last_discard = bird
        self._discarded.append(bird)
        if self._discards_due(self.seat) == 0:
            self.events.append({"kind": EV_DISCARD, "seat": self.seat, "birds": self._discarded})
            self._next_discarder((self.seat - self.first) % self.n + 1)

    def _finish(self, reason: int) -> None:
        for seat in range(self.n):
            self.collections[seat].update(self.hands[seat])  # R31
            self.hands[seat] = []
            self.hand_shown[seat] = 0
            self.known[seat] = set()
        self.over = True
        self.end_reason = reason
        self.events.append({"kind": EV_END, "reason": reason, "turns": self.turns})
        self._score()

    def _counted(self, seat: int, species: int) -> list[int]:
        """The birds of a species that count for its majority (A20)."""
        mine = [b for b in self.collections[seat] if C.species_of(b) == species]
        if self.v["pairs_count_for_majority"]:
            return mine
        return [b for b in mine if (b ^ 1) not in self.collections[seat]]

    def _score(self) -> None:
        """R32-R35."""
        points = self.v["bird_points"]
        majority = [0] * self.n
        for species in range(C.MAX_SPECIES):
            counted = [self._counted(s, species) for s in range(self.n)]
            most = max(len(c) for c in counted)
            for s in range(self.n):
                if most > 0 and len(counted[s]) == most:
                    majority[s] += sum(points[strength(b) - 1] for b in counted[s])
                    self.count[s]["majorities"] += 1
        for s in range(self.n):
            c = self.count[s]
            for species, name in enumerate(C.SPECIES_NAMES):
                c[f"birds_{name}"] = sum(
                    1 for b in self.collections[s] if C.species_of(b) == species
                )
            c["birds"] = len(self.collections[s])
            c["pairs"] = pairs_in(self.collections[s])
            c["points_seeds"] = sum(v * k for v, k in zip((1, 2, 3), self.piles[s], strict=True))
            c["points_majorities"] = majority[s]
            c["points_pairs"] = c["pairs"] * self.v["pair_points"]
            self.scores[s] = c["points_seeds"] + c["points_majorities"] + c["points_pairs"]

    # Decisions -------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    def legal(self) -> list[int]:
        """The pending decision's legal codes, ascending (engine.py docstring)."""
        seat, phase = self.seat, self.phase
        hand = self.hands[seat]
        if phase == C.PHASE_PLAY:
            return [C.play_code(b, p) for b in hand for p in range(self.perches)]
        if phase == C.PHASE_KEEP:
            limit = strength(self.played)
            return [C.C_NO_KEEP] + [C.C_KEEP + b for b in hand if strength(b) <= limit]
        if phase == C.PHASE_CROW:
            return self._crow_victims(seat)
        if phase == C.PHASE_DRAW:
            return sorted(C.C_DRAW + b for b in self.queue) + (
                [C.C_DRAW_DECK] if self.bird_deck else []
            )
        due = self._discards_due(seat)
        return [
            C.C_DISCARD + b
            for i, b in enumerate(hand)
            if b > self.last_discard and len(hand) - i >= due
        ]

    def apply(self, code: int) -> None:
        """Apply one legal decision, then every forced one, up to the next real choice."""
        while True:
            if code not in self.legal():
                raise ValueError(f"decision {code} is not legal now")
            what, bird, perch = decode(code)
            if what == "play":
                self._play(bird, perch)
            elif what in ("keep", "no_keep"):
                self._keep(bird)
            elif what == "crow":
                self._crow(bird)
            elif what in ("draw", "draw_deck"):
                self._draw(bird)
            else:
                self._discard(bird)
            self._settle()
            if self.over:
                return
            legal = self.legal()
            if len(legal) > 1:
                return
            code = legal[0]

    def _run_forced(self) -> None:
        if not self.over:
            legal = self.legal()
            if len(legal) == 1:
                self.apply(legal[0])

    def play(self) -> None:
        """Play to the end with the seats' bots (asked only when two or more codes are legal)."""
        while not self.over:
            legal = self.legal()
            self.decisions += 1
            bot, params = self.bots[self.seat], self.bot_params[self.seat]
            obs = self.observation(self.seat)
            choice = reference.ask_bot(bot, obs, legal, params, self.bot_rng, C.MAX_LEGAL)
            self.apply(legal[choice])

    def table(self) -> dict:
        """An ``EV_TABLE`` event: the rows, columns, queue, decks' sizes, and each seat's hand,
        public hand size, scoring pile (and as each seat knows every pile, A22), collection."""
        return {
            "kind": EV_TABLE,
            "seat": self.seat,
            "rows": [list(row) for row in self.rows],
            "column": list(self.column),
            "bad": list(self.bad_column),
            "queue": list(self.queue),
            "feeder": len(self.feeder),
            "birds": len(self.bird_deck),
            "hands": [sorted(h) for h in self.hands],
            "hand_shown": list(self.hand_shown),
            "piles": [list(p) for p in self.piles],
            "lost": list(self.pile_lost),
            "known": [self.known_piles(viewer) for viewer in range(self.n)],
            "collections": [sorted(c) for c in self.collections],
        }

    # State encoding (cards.py layout) ----------------------------------------------------------
    def known_piles(self, viewer: int) -> tuple[list[list[int]], list[int]]:
        """Each scoring pile as ``viewer`` knows it (A22) and whether card for card."""
        piles, exact = [], []
        public = self.v["public_scoring_piles"]
        for owner in range(self.n):
            knows = owner == viewer or (
                public and (self.v["squirrel_reveal"] == "public" or viewer == (owner + 1) % self.n)
            )
            if knows:
                piles.append(list(self.piles[owner]))
            elif public:
                piles.append(list(self.entered[owner]))
            else:
                piles.append([0, 0, 0])
            exact.append(int(knows))
        return piles, exact

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat``'s bot sees: the public table, its hand, the piles as it knows them."""
        st = self.state_array(viewer=seat)
        obs = st[: C.OBS_LEN].copy()
        obs[C.OBS_SCRATCH :] = 0
        return obs

    def state_array(self, viewer: int | None = None) -> np.ndarray:
        """The whole game as the engine's int32 state (feeder and bird deck past their tops 0)."""
        st = np.zeros(C.STATE_LEN, np.int32)
        st[L.H_OVER] = int(self.over)
        st[L.H_SEAT] = self.seat
        st[L.H_TURNS] = self.turns
        st[L.H_N_PLAYERS] = self.n
        st[L.H_FIRST] = self.first
        st[L.H_END_REASON] = self.end_reason
        st[L.H_PHASE] = self.phase
        st[L.H_TRIGGERED] = int(self.triggered)
        st[L.H_CAP_TURNS] = self.cap_turns
        st[C.F_FEEDER_LEFT] = len(self.feeder)
        st[C.F_BIRDS_LEFT] = len(self.bird_deck)
        st[C.F_SEED_LEN] = len(self.column)
        for i, value in enumerate(self.column):
            st[C.F_SEED_COL + i] = C.SEED + value
        st[C.F_BAD_LEN] = len(self.bad_column)
        st[C.F_BAD_COL : C.F_BAD_COL + len(self.bad_column)] = self.bad_column
        st[C.F_QUEUE_LEN] = len(self.queue)
        st[C.F_QUEUE : C.F_QUEUE + len(self.queue)] = self.queue
        st[C.F_PERCHES] = self.perches
        for p, row in enumerate(self.rows):
            st[C.F_ROW_LEN + p] = len(row)
            st[C.row_base(p) : C.row_base(p) + len(row)] = row
            st[C.F_ROW_STRENGTHS + p] = sum(  # the perch is empty (-1) for a crow's decision
                strength(b) << (3 * place) for place, b in enumerate(row) if b >= 0
            )
            ground = [strength(b) for b in row[1:]]
            st[C.F_GROUND_TOTAL + p] = sum(ground)
            if ground:  # the first of the strongest (R22 by strength)
                st[C.F_STRONGEST + p] = (1 + ground.index(max(ground))) * 8 + max(ground)
        st[C.F_PLAYED] = self.played
        st[C.F_PLAYED_PERCH] = self.played_perch
        st[C.F_LAST_DISCARD] = self.last_discard
        st[C.F_REMOVED_SPECIES] = self.removed
        st[C.F_BIRD_POINTS : C.F_BIRD_POINTS + C.MAX_STRENGTH] = self.v["bird_points"]
        st[C.F_PAIR_POINTS] = self.v["pair_points"]
        st[C.F_COLUMN_SIZE] = self.v["seed_column_size"]
        for bird in self.gone:
            st[C.F_GONE + C.species_of(bird)] |= 1 << (bird % C.BIRDS_PER_SPECIES)
        st[C.F_BAD_DRAWN : C.F_BAD_DRAWN + 2] = self.bad_drawn
        st[C.F_SQUIRRELS_LOGGED] = len(self.squirrel_log)
        for i, entry in enumerate(self.squirrel_log):
            at = C.F_SQUIRREL_LOG + i * C.SQUIRREL_ENTRY
            st[at : at + C.SQUIRREL_ENTRY] = entry
        for s in range(self.n):
            b = C.seat_base(s)
            for bird in self.collections[s]:
                species = C.species_of(bird)
                st[b + C.COLLECTION + species] |= 1 << (bird % C.BIRDS_PER_SPECIES)
                st[b + C.SPECIES_BIRDS + species] += 1
                st[b + C.SPECIES_POINTS + species] += self.v["bird_points"][strength(bird) - 1]
            st[b + C.HAND_COUNT] = self.hand_shown[s]
            st[b + C.PILE_SIZE] = sum(self.piles[s])
            st[b + C.PILE_LOST] = self.pile_lost[s]
            st[b + C.CROWS_TAKEN] = self.crows_taken[s]
            st[b + C.SQUIRRELS_TAKEN] = self.squirrels_taken[s]
            for bird in self.known[s]:
                st[b + C.HAND_KNOWN + C.species_of(bird)] |= 1 << (bird % C.BIRDS_PER_SPECIES)
            st[C.F_HAND_LEN + s] = len(self.hands[s])
            h = C.F_HANDS + s * C.MAX_HAND
            st[h : h + len(self.hands[s])] = self.hands[s]
            st[C.F_PILES + 3 * s : C.F_PILES + 3 * s + 3] = self.piles[s]
            st[C.F_ENTERED + 3 * s : C.F_ENTERED + 3 * s + 3] = self.entered[s]
            c = C.F_COUNTERS + s * C.N_COUNTERS
            st[c : c + C.N_COUNTERS] = [self.count[s][name] for name in C.SEAT_COUNTERS]
            st[C.F_SCORE + s] = self.scores[s]
        viewer = self.seat if viewer is None else viewer
        hand = self.hands[viewer]
        st[C.F_ACTIVE_HAND_LEN] = len(hand)
        st[C.F_ACTIVE_HAND : C.F_ACTIVE_HAND + len(hand)] = hand
        piles, exact = self.known_piles(viewer)
        for s in range(self.n):
            st[C.F_ACTIVE_PILES + 3 * s : C.F_ACTIVE_PILES + 3 * s + 3] = piles[s]
            st[C.F_ACTIVE_EXACT + s] = exact[s]
            if self.v["public_scoring_piles"] or s == viewer:  # A22: the cards it saw enter
                st[C.F_ACTIVE_ENTERED + 3 * s : C.F_ACTIVE_ENTERED + 3 * s + 3] = self.entered[s]
        if self.phase == C.PHASE_DISCARD and viewer == self.seat and not self.over:
            for bird in self._discarded:  # the discarder's own discards so far (R31)
                st[C.F_ACTIVE_DISCARDED + C.species_of(bird)] |= 1 << (bird % C.BIRDS_PER_SPECIES)
        st[C.F_FEEDER : C.F_FEEDER + len(self.feeder)] = self.feeder
        st[C.F_BIRD_DECK : C.F_BIRD_DECK + len(self.bird_deck)] = self.bird_deck
        st[C.F_PUBLIC_PILES] = int(self.v["public_scoring_piles"])
        st[C.F_REVEAL_ALL] = int(self.v["squirrel_reveal"] == "public")
        st[C.F_TRIGGER] = self.trigger_how
        st[C.F_TRIGGER_TURN] = self.trigger_turn
        st[C.F_BAD_REMOVED] = self.bad_removed
        st[C.F_DISCARDED] = self.discarded
        return st

    # Result (R36) --------------------------------------------------------------------------------
    def ranks(self) -> list[int]:
        """R36: 1 + seats with more points, or as many points and more pairs."""
        keys = [(self.scores[s], self.count[s]["pairs"]) for s in range(self.n)]
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    def outcome_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(game_row, seat_rows)`` in the engine's column layout (layout.py then cards.py)."""
        if not self.over:
            raise ValueError("the game is not over")
        game_row = np.zeros(len(L.GAME_COLUMNS) + len(C.GAME_COUNTERS), np.int32)
        game_row[L.G_N_PLAYERS] = self.n
        game_row[L.G_FIRST_SEAT] = self.first
        game_row[L.G_TURNS] = self.turns
        game_row[L.G_END_REASON] = self.end_reason
        game_row[L.G_TURN_CAP_HIT] = int(self.end_reason == L.END_TURN_CAP)
        game_row[L.G_DECISIONS] = self.decisions
        g = len(L.GAME_COLUMNS)
        game_row[g:] = [
            len(self.feeder),
            self.trigger_how,
            self.trigger_turn,
            len(self.bird_deck),
            self.removed,
            self.bad_removed,
        ]
        seat_rows = np.zeros((self.n, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
        ranks = self.ranks()
        for s in range(self.n):
            row = seat_rows[s]
            row[L.S_SCORE], row[L.S_RANK], row[L.S_WIN] = (
                self.scores[s],
                ranks[s],
                int(ranks[s] == 1),
            )
            row[len(L.SEAT_COLUMNS) :] = [self.count[s][name] for name in C.SEAT_COUNTERS]
        return game_row, seat_rows

    def log_result(self) -> None:
        ranks = self.ranks()
        self.events.append(
            {
                "kind": EV_RESULT,
                "scores": list(self.scores),
                "seeds": [self.count[s]["points_seeds"] for s in range(self.n)],
                "majorities": [self.count[s]["points_majorities"] for s in range(self.n)],
                "pairs": [self.count[s]["pairs"] for s in range(self.n)],
                "ranks": ranks,
                "wins": [int(r == 1) for r in ranks],
                "birds": [
                    [self.count[s][f"birds_{name}"] for name in C.SPECIES_NAMES]
                    for s in range(self.n)
                ],
            }
        )


def play_reference(spec, game: int) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Play game ``game`` of ``spec`` (a ``runner.RunSpec``) in plain Python."""
    return reference.play_reference(spec, game, ReferenceGame)


# Comparing states (tests) ------------------------------------------------------------------------
def compared_indices(state: np.ndarray) -> list[int]:
    """State indices a rules-exact engine and the reference must agree on: all but the decks past
    their tops, the bots' room, the engine's note of the view it wrote and, once over, the phase
    and the view."""
    skip = set(range(C.F_FEEDER + int(state[C.F_FEEDER_LEFT]), C.F_FEEDER + C.MAX_FEEDER))
    skip.update(range(C.F_BIRD_DECK + int(state[C.F_BIRDS_LEFT]), C.F_BIRD_DECK + C.N_BIRDS))
    skip.update(range(C.F_SCRATCH, C.F_SCRATCH + C.SCRATCH_LEN))
    skip.add(C.F_VIEW_PILES_FOR)  # the engine's note of when it wrote the view, no rule's state
    if state[L.H_OVER]:
        skip.add(L.H_PHASE)
        skip.add(L.H_SEAT)
        skip.update(range(C.F_ACTIVE_HAND_LEN, C.F_SCRATCH))
    return [i for i in range(C.STATE_LEN) if i not in skip]


def field_name(i: int) -> str:
    """A readable name of state index ``i``."""
    names = {v: k for k, v in vars(L).items() if k.startswith("H_") and isinstance(v, int)}
    names.update({v: k for k, v in vars(C).items() if k.startswith("F_") and isinstance(v, int)})
    if i in names:
        return names[i]
    base = max(v for v in names if v <= i)
    return f"{names[base]}[{i - base}]"


def state_differences(engine_state: np.ndarray, ref_state: np.ndarray, limit: int = 12) -> list:
    """Named fields where the engine's state differs from the reference's."""
    out = []
    for i in compared_indices(ref_state):
        if engine_state[i] != ref_state[i]:
            out.append(f"{field_name(i)}: engine {engine_state[i]}, reference {ref_state[i]}")
            if len(out) == limit:
                break
    return out
