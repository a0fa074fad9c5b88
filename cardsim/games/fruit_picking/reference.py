"""Fruit Picking in slow, plain Python: the reference the compiled engine is tested against.

Written from ``fruit-picking.md`` (rules R1-R22, variants V1-V3, ambiguities A1-A19) and the
chance/turn-flow contract in the module docstring of ``engine.py``, never from the engine's code
nor from ``rules.py``'s helpers: the derived rule values (fruits and raindrops per farm card,
fruits per market card, market slots, slot surcharges) come from the doc's tables below
(``DOC_*``) and from the option values as the options document them, so that a wrong default or
derivation in ``rules.py`` makes the engine and the reference disagree.
Nothing here is compiled: the state is Python lists, and every rule is a short method that cites
the rule it implements. Bots are the same compiled functions the engine's play loop calls; the
reference shows them its own state encoded in the public layout of ``cards.py``.

Randomness (``cardsim.core.rng``), as the engine docstring fixes it:

- chance stream (``cardsim.core.reference.streams``), used only at setup:
  1. ``randint(n_players)`` for the initial player when ``first_player`` is random (R2, A19);
  2. ``shuffle`` of ``FARM_CARDS`` when ``farm_order`` is random (A16);
  3. ``shuffle`` of card ids ``0 .. 5 * per_kind - 1``: the stack, bottom first (R5);
- bot stream, handed to a bot as a 1-element uint64 array
  (``cardsim.core.reference.ask_bot``), only when more than one decision is legal (``core/kernel.py``).

Events: ``ReferenceGame.events`` is a list of dicts, each with a ``"kind"`` key (``EV_*`` below;
a fruit kind is under ``"kind_code"``) and plain-int fields; ``trace.py`` turns them into words.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardsim.core import layout as L
from cardsim.core import reference
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import rules as R

# Event kinds -------------------------------------------------------------------------------------
EV_SETUP = "setup"  # first, farm (kinds of positions 0..6), stack_left
# umbrella: card, kind_code, seeds (per seat), when ("setup" | "refill" | "op_draw" | "op_keep")
EV_UMBRELLA = "umbrella"
EV_MARKET = "market"  # cards (per slot, -1 empty), prices, stack_left, after ("setup" | "buy")
EV_TABLE = "table"  # a turn starts: farms, storage, cards owned, market (replay --table)
EV_TURN = "turn"  # turn (1-based), seat
EV_NO_SEEDS = "no_seeds"  # seat, from_house (to storage), placed (positions), house_placed (the
# positions whose seed came from the House: 2020 procedure, A11), after_repeat (A3)
EV_PLANT = "plant"  # seat, origin, seeds, path (positions), target
EV_HOUSE_REPEAT = "house_repeat"  # seat
EV_WATER = "water"  # seat, target, kind_code, amount
EV_BUY = "buy"  # seat, slot, card, kind_code, price, target, returned (its seeds)
EV_MARKET_OP = "market_op"  # seat, used (0/1), paid, drawn (A, B), kept, bottom
EV_SET = "set"  # seat, sets (bits SET_*), turn
EV_TRIGGER = "trigger"  # seat (-1: setup), reason (END_*)
EV_TURN_END = "turn_end"  # seat, seeds (positions 0..6), storage: the seat's farm after its turn
EV_END = "end"  # reason, turns
EV_RESULT = "result"  # scores, ranks, wins, fruits, farm_seeds, qualifies, cards (per seat)

_EMPTY = -1

# fruit-picking.md Components and Parameters, as the doc gives them ------------------------------
DOC_FARM_FRUITS = {  # fruits (raindrops for Rain) printed on each farm card; watering adds them
    "strawberry": 3,
    "banana": 2,
    "cherry": 2,
    "pineapple": 1,
    "grapes": 1,
    "rain": 2,
}
DOC_MARKET_SLOTS = 4  # R5 (Components: "Market slots 4")
DOC_BEGINNER_SLOTS = 3  # V3: "Use 3 market slots instead of 4"
DOC_SURCHARGE = (3, 2, 1, 0)  # R15: "+3, +2, +1 and +0", starting from the slot next to the stack
# The orders in which the list-valued options give their values (their documentation, as
# ``cardsim rules fruit-picking`` shows it): farm_fruits per farm card, market_fruits per kind
# (or per card, kind by kind).
FARM_FRUITS_ORDER = ("rain", "pineapple", "grapes", "cherry", "banana", "strawberry")
MARKET_FRUITS_ORDER = ("pineapple", "grapes", "cherry", "banana", "strawberry")
# R20: a set's cards, as the number of cards per kind, largest first
SET_PATTERNS = {
    "variety": (1, 1, 1, 1, 1),
    "greedy": (4,),
    "smiley": (2, 2, 2),
    "family": (3, 2),
}


def farm_water(values: Mapping[str, Any]) -> dict[int, int]:
    """Seeds that watering adds on each farm card, by kind code (R12); the House adds none. The
    option ``farm_fruits`` lists them in ``FARM_FRUITS_ORDER``."""
    named = dict(zip(FARM_FRUITS_ORDER, values["farm_fruits"], strict=True))
    out = {C.KIND_NAMES.index(name): n for name, n in named.items()}
    out[C.HOUSE] = 0
    return out


def market_card_fruits(values: Mapping[str, Any]) -> list[int]:
    """Printed fruits per market card id (``card = kind * per_kind + index``). A2: by default the
    farm card's count of that fruit on every card of the kind; ``market_fruits`` gives one value
    per kind (``MARKET_FRUITS_ORDER``) or one per card."""
    per_kind = values["market_cards_per_kind"]
    given = values["market_fruits"]
    if given is None:
        farm = dict(zip(FARM_FRUITS_ORDER, values["farm_fruits"], strict=True))
        given = [farm[name] for name in MARKET_FRUITS_ORDER]
    out = []
    for card in range(C.N_FRUIT_KINDS * per_kind):
        kind_name = C.KIND_NAMES[card // per_kind]
        if len(given) == C.N_FRUIT_KINDS:
            out.append(given[MARKET_FRUITS_ORDER.index(kind_name)])
        else:
            out.append(given[card])
    return out


def market_layout(values: Mapping[str, Any]) -> tuple[int, list[int]]:
    """(slots, surcharge per slot from the stack outward): R5, R15; V3 (beginners) 3 slots and no
    surcharge. ``market_slots`` and ``slot_surcharge`` override them; other slot counts than the
    doc's take the surcharges n-1 .. 0 (the option's documented default)."""
    beginners = values["variant_beginners"]
    slots = values["market_slots"]
    if slots is None:
        slots = DOC_BEGINNER_SLOTS if beginners else DOC_MARKET_SLOTS
    if values["slot_surcharge"] is not None:
        return slots, list(values["slot_surcharge"])
    if beginners:
        return slots, [0] * slots
    if slots == DOC_MARKET_SLOTS:
        return slots, list(DOC_SURCHARGE)
    return slots, list(range(slots - 1, -1, -1))


def sets_of(owned: Sequence[int]) -> int:
    """Bits ``SET_*`` of the sets contained in a collection (cards per kind); fruit-picking.md R20, A1."""
    bits = 0
    if all(n >= 1 for n in owned):  # Variety: one card of each of the 5 kinds
        bits |= C.SET_VARIETY
    if any(n >= 4 for n in owned):  # Greedy: four of one kind
        bits |= C.SET_GREEDY
    if sum(1 for n in owned if n >= 2) >= 3:  # Smiley: three distinct pairs
        bits |= C.SET_SMILEY
    for three in range(C.N_FRUIT_KINDS):  # Family: three of a kind and a pair of another kind
        if owned[three] >= 3 and any(owned[k] >= 2 for k in range(C.N_FRUIT_KINDS) if k != three):
            bits |= C.SET_FAMILY
    return bits


class ReferenceGame:
    """One game of Fruit Picking, decision by decision.

    ``values``: resolved rule options (``spec.rules``); ``bots[s]``/``bot_params[s]``: the compiled
    bot of seat s and its float64 parameter row (both optional: without bots, drive the game with
    ``legal()`` and ``apply()``). ``turn_cap`` defaults to the ``turn_cap`` option.
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
        self.values = dict(values)
        self.n = n_players
        self.bots = list(bots) if bots is not None else None
        self.bot_params = list(bot_params) if bot_params is not None else None
        self.chance, self.bot_rng = reference.streams(seed, game)
        self.events: list[dict] = []
        self._read_rules(turn_cap)
        self._setup()

    # Rule values ---------------------------------------------------------------------------------
    def _read_rules(self, turn_cap: int | None) -> None:
        v = self.values
        self.seeds_per_player = v["seeds_per_player"]
        self.setup_seeds = list(v["setup_seeds"])
        self.water = farm_water(v)  # kind -> seeds added when watering (R12); House 0
        self.per_kind = v["market_cards_per_kind"]
        self.card_fruits = market_card_fruits(v)  # card id -> printed fruits (A2)
        self.n_slots, self.surcharge = market_layout(v)  # R5, R15, V3
        self.refill = v["no_seed_refill"]  # R7
        self.no_seed_2020 = v["no_seed_rule"] == "2020"  # A11
        self.set_cards_tiebreak = v["tiebreak_fruits"] == "set_cards"  # A9
        self.skip_origin = bool(v["skip_origin_when_lapping"])  # A4
        self.umbrella = bool(v["variant_umbrella"])  # V1
        self.umbrella_any_draw = bool(v["umbrella_fires_on_any_draw"])  # A13
        self.market_op = bool(v["variant_market_operation"])  # V2
        self.op_cost = v["market_op_cost"]
        self.op_from_storage = v["market_op_pays_from"] == "storage"  # A14
        self.beginners = bool(v["variant_beginners"])  # V3
        self.beginner_cards = v["beginner_cards_to_end"]
        self.beginner_sets = bool(v["beginner_sets_end_game"])  # A15
        # Sets matter (qualify, trigger, set_completed) except in V3 without beginner_sets_end_game.
        self.sets_used = (not self.beginners) or self.beginner_sets
        cap = v["turn_cap"] if turn_cap is None else turn_cap
        self.cap_turns = cap * self.n  # core/kernel.py: turn_cap rounds x players

    def is_umbrella(self, card: int) -> bool:
        """Does ``card`` carry the umbrella mark (V1)? Cards with index < umbrella_per_kind do."""
        return card % self.per_kind < self.values["umbrella_per_kind"]

    def price(self, slot: int) -> int:
        """Price of the card in ``slot``: printed fruits + slot surcharge (R15)."""
        return self.card_fruits[self.market[slot]] + self.surcharge[slot]

    # Setup (R1-R5) -------------------------------------------------------------------------------
    def _setup(self) -> None:
        v, n = self.values, self.n
        self.over = False
        self.turns = 0
        self.end_reason = -1
        self.triggered = False
        self.trigger_seat = -1
        self.trigger_reason = -1
        self.phase = C.PHASE_PLANT
        self.target = -1
        self.op_cards: list[int] = []
        self.put_under: dict[int, int] = {}  # V2: card -> its put number (the latest put kept)
        self.bottom_puts = 0
        self.umbrella_triggers = 0
        self.decisions = 0
        # 1. initial player (R2, A19)
        self.first = (
            self.chance.randint(n) if v["first_player"] == "random" else int(v["first_player"])
        )
        self.seat = self.first
        # 2. farm order, shared by all players (R2, A16)
        if v["farm_order"] == "random":
            order = list(C.FARM_CARDS)
            self.chance.shuffle(order)
        else:
            order = [C.KIND_NAMES.index(name) for name in v["farm_order"]]
        self.farm = [C.HOUSE] + order  # kind per position 0..6
        # 3. market deck: the stack, bottom first, top = last (R5)
        self.stack = list(range(C.N_FRUIT_KINDS * self.per_kind))
        self.chance.shuffle(self.stack)
        # seats (R1, R3, R4); seeds[s][0] is the House
        self.seeds = [[0] * C.N_POSITIONS for _ in range(n)]
        self.storage = [self.seeds_per_player] * n
        self.out = [0] * n  # V2 payments from storage leave play (A14 option)
        for s in range(n):
            for i, k in enumerate(self.setup_seeds):
                self.seeds[s][1 + i] += k
                self.storage[s] -= k
        self.owned = [[0] * C.N_FRUIT_KINDS for _ in range(n)]
        self.bought: list[list[int]] = [[] for _ in range(n)]  # card ids, in buying order
        self.fruits = [0] * n
        self.n_cards = [0] * n
        self.completed = [0] * n
        self.sets = [0] * n
        self.counters = [[0] * C.N_COUNTERS for _ in range(n)]
        self.market = [_EMPTY] * self.n_slots
        self.events.append(
            {
                "kind": EV_SETUP,
                "first": self.first,
                "farm": list(self.farm),
                "stack_left": len(self.stack),
            }
        )
        # R5: fill the slots from the +0 end toward the stack, so that with fewer cards than
        # slots the empty ones are at the +3 end, as A6 keeps them; each draw may fire an
        # umbrella (A13)
        for slot in reversed(range(self.n_slots)):
            if self.stack:
                card = self.stack.pop()
                self.market[slot] = card
                self._umbrella(card, "setup")
        self._log_market("setup")
        if not self.stack:  # A7: the stack ran out during setup; the first round is played out
            self._trigger(-1, C.END_STACK_EXHAUSTED)
        if not self._begin_turn():
            self._finish_turn()

    def table(self) -> dict:
        """An ``EV_TABLE`` event: every farm (seeds per position, House first), storage and the
        market cards owned per kind; the market's slots (kind, price) and the stack's size."""
        market = [
            (self.market[s] // self.per_kind, self.price(s)) if self.market[s] != _EMPTY else None
            for s in range(self.n_slots)
        ]
        return {
            "kind": EV_TABLE,
            "seat": self.seat,
            "seeds": [list(seeds) for seeds in self.seeds],
            "storage": list(self.storage),
            "owned": [list(owned) for owned in self.owned],
            "market": market,
            "stack": len(self.stack),
        }

    # Events --------------------------------------------------------------------------------------
    def _log_market(self, after: str) -> None:
        prices = [self.price(s) if self.market[s] != _EMPTY else 0 for s in range(self.n_slots)]
        self.events.append(
            {
                "kind": EV_MARKET,
                "cards": list(self.market),
                "prices": prices,
                "stack_left": len(self.stack),
                "after": after,
            }
        )

    def _trigger(self, seat: int, reason: int) -> None:
        """Trigger the end of the game (R21); the first trigger gives the end reason."""
        if self.triggered:
            return
        self.triggered = True
        self.trigger_seat = seat
        self.trigger_reason = reason
        self.events.append({"kind": EV_TRIGGER, "seat": seat, "reason": reason})

    # V1: umbrella --------------------------------------------------------------------------------
    def _umbrella(self, card: int, when: str) -> None:
        """Fire the umbrella mark of ``card`` if it has one (V1, A13): every seat moves up to the
        fruits of its own farm card of that kind from storage onto that card."""
        if not (self.umbrella and self.is_umbrella(card)):
            return
        kind = card // self.per_kind
        pos = self.farm.index(kind)
        moved = []
        for s in range(self.n):
            k = min(self.water[kind], self.storage[s])
            self.storage[s] -= k
            self.seeds[s][pos] += k
            self.counters[s][C.C_UMBRELLA_SEEDS] += k
            moved.append(k)
        self.umbrella_triggers += 1
        self.events.append(
            {"kind": EV_UMBRELLA, "card": card, "kind_code": kind, "seeds": moved, "when": when}
        )

    def _draw(self, when: str) -> int:
        """Draw the top card of the stack; under A13's default the umbrella fires on any draw."""
        card = self.stack.pop()
        if self.umbrella_any_draw:
            self._umbrella(card, when)
        return card

    def _to_slot0(self, card: int, when: str) -> None:
        """Put a drawn card into slot 0; under A13's alternative the umbrella fires only here."""
        self.market[0] = card
        if not self.umbrella_any_draw:
            self._umbrella(card, when)

    # Turn flow -----------------------------------------------------------------------------------
    def _no_seeds_left(self) -> bool:
        return all(self.seeds[self.seat][p] == 0 for p in range(1, C.N_POSITIONS))

    def _begin_turn(self) -> bool:
        """Start the turn of ``self.seat``; True if a PLANT decision is now pending (R6, R7)."""
        self.events.append(self.table())
        self.events.append({"kind": EV_TURN, "turn": self.turns + 1, "seat": self.seat})
        if self._no_seeds_left():
            self._no_seeds(after_repeat=False)
            return False
        self.phase = C.PHASE_PLANT
        self.target = -1
        return True

    def _no_seeds(self, after_repeat: bool) -> None:
        """R7, A11. 2014 text (default): up to ``no_seed_refill`` seeds House -> storage, then one
        seed from storage on each of positions 1, 2, ... (as many as storage holds, up to
        no_seed_refill). 2020 procedure: no seed moves to storage; the seed for each position
        comes from storage, or from the House once storage has none left."""
        s = self.seat
        k = 0
        if not self.no_seed_2020:
            k = min(self.refill, self.seeds[s][0])
            self.seeds[s][0] -= k
            self.storage[s] += k
        placed = []
        house_placed = []
        for p in range(1, 1 + self.refill):
            if self.storage[s] > 0:
                self.storage[s] -= 1
            elif self.no_seed_2020 and self.seeds[s][0] > 0:
                self.seeds[s][0] -= 1
                house_placed.append(p)
            else:
                break
            self.seeds[s][p] += 1
            placed.append(p)
        self.counters[s][C.C_NO_SEED_TURNS] += 1
        self.events.append(
            {
                "kind": EV_NO_SEEDS,
                "seat": s,
                "from_house": k,
                "placed": placed,
                "house_placed": house_placed,
                "after_repeat": after_repeat,
            }
        )

    def _finish_turn(self) -> None:
        """End the current turn and start the next one(s) until a decision is pending or the game
        is over (R19, R21, A12, A18)."""
        while True:
            s = self.seat
            self.events.append(
                {
                    "kind": EV_TURN_END,
                    "seat": s,
                    "seeds": list(self.seeds[s]),
                    "storage": self.storage[s],
                }
            )
            self.turns += 1
            self.target = -1
            last_of_round = (self.first + self.n - 1) % self.n
            if self.triggered and self.seat == last_of_round:  # R21: the round is complete
                self._game_over(self.trigger_reason)
                return
            if self.turns >= self.cap_turns:  # A18 safeguard
                self._game_over(L.END_TURN_CAP)
                return
            self.seat = (self.seat + 1) % self.n  # R19: clockwise
            if self._begin_turn():
                return

    def _game_over(self, reason: int) -> None:
        self.over = True
        self.end_reason = reason
        self.events.append({"kind": EV_END, "reason": reason, "turns": self.turns})

    # Decisions -----------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    def legal(self) -> list[int]:
        """Legal decision codes of the pending decision, in canonical order (cards.py)."""
        if self.over:
            return []
        s = self.seat
        if self.phase == C.PHASE_PLANT:  # R8: a non-House card holding seeds, positions ascending
            return [p for p in range(1, C.N_POSITIONS) if self.seeds[s][p] > 0]
        if self.phase == C.PHASE_TARGET:  # R11-R13, A5: WATER, then each affordable matching slot
            kind = self.farm[self.target]
            out = [C.WATER]
            if kind < C.N_FRUIT_KINDS:  # never from Rain (R13)
                for slot in range(self.n_slots):
                    card = self.market[slot]
                    if (
                        card != _EMPTY
                        and card // self.per_kind == kind
                        and self.price(slot) <= self.seeds[s][0]
                    ):
                        out.append(C.BUY_SLOT + slot)
            return out
        if self.phase == C.PHASE_MARKET_OP:  # V2
            return [C.DECLINE, C.USE]
        return [0, 1]  # PHASE_OP_CHOOSE: keep the first or the second drawn card

    def apply(self, decision: int) -> None:
        """Apply one legal decision and advance to the next pending decision (or the end)."""
        legal = self.legal()
        if decision not in legal:
            raise ValueError(f"decision {decision} is not legal (legal: {legal})")
        if len(legal) > 1:  # the outcome column counts choices, not forced moves
            self.decisions += 1
        if self.phase == C.PHASE_PLANT:
            self._plant(decision)
        elif self.phase == C.PHASE_TARGET:
            if decision == C.WATER:
                self._water()
            else:
                self._buy(decision - C.BUY_SLOT)
        elif self.phase == C.PHASE_MARKET_OP:
            if decision == C.USE:
                self._use_market_op()
            else:
                self.events.append(
                    {
                        "kind": EV_MARKET_OP,
                        "seat": self.seat,
                        "used": 0,
                        "paid": 0,
                        "drawn": [],
                        "kept": -1,
                        "bottom": -1,
                    }
                )
                self._refill_one()
                self._after_refill()
        else:
            self._choose_op(decision)

    def _plant(self, origin: int) -> None:
        """R8, R9: pick up all seeds of ``origin`` and sow them clockwise, the House included; the
        last card is the target. A4 option: skip the origin when lapping."""
        s = self.seat
        hand = self.seeds[s][origin]
        self.seeds[s][origin] = 0
        pos = origin
        path = []
        for _ in range(hand):
            pos = (pos + 1) % C.N_POSITIONS
            if self.skip_origin and pos == origin:
                pos = (pos + 1) % C.N_POSITIONS
            self.seeds[s][pos] += 1
            path.append(pos)
        self.events.append(
            {
                "kind": EV_PLANT,
                "seat": s,
                "origin": origin,
                "seeds": hand,
                "path": path,
                "target": pos,
            }
        )
        if pos == 0:  # R10: the House is the target: plant again
            self.counters[s][C.C_HOUSE_REPEATS] += 1
            self.events.append({"kind": EV_HOUSE_REPEAT, "seat": s})
            if self._no_seeds_left():  # A3: treat as R7 and end the turn
                self._no_seeds(after_repeat=True)
                self._finish_turn()
            return  # still PHASE_PLANT
        self.phase = C.PHASE_TARGET
        self.target = pos

    def _water(self) -> None:
        """R12, A5: move the target's fruits (or raindrops) from storage onto it, as many as
        storage holds; the turn ends."""
        s = self.seat
        kind = self.farm[self.target]
        k = min(self.water[kind], self.storage[s])
        self.storage[s] -= k
        self.seeds[s][self.target] += k
        self.counters[s][C.C_WATERINGS] += 1
        self.events.append(
            {"kind": EV_WATER, "seat": s, "target": self.target, "kind_code": kind, "amount": k}
        )
        self._finish_turn()

    def _buy(self, slot: int) -> None:
        """R13-R18: pay the price House -> storage, the target's seeds -> storage, take the card,
        check sets (R20, A1) and the V3 card count (A15), slide the market, refill (V2 may ask)."""
        s = self.seat
        card = self.market[slot]
        kind = card // self.per_kind
        price = self.price(slot)
        self.seeds[s][0] -= price  # R14, R16
        self.storage[s] += price
        returned = self.seeds[s][self.target]
        self.seeds[s][self.target] = 0
        self.storage[s] += returned
        self.owned[s][kind] += 1  # R17
        self.bought[s].append(card)
        self.n_cards[s] += 1
        self.fruits[s] += self.card_fruits[card]
        self.counters[s][C.C_CARDS_BOUGHT] += 1
        self.events.append(
            {
                "kind": EV_BUY,
                "seat": s,
                "slot": slot,
                "card": card,
                "kind_code": kind,
                "price": price,
                "returned": returned,
                "target": self.target,
            }
        )
        self.target = -1
        # R20, A1: sets its cards contain; the first completion qualifies and triggers (R21)
        self.sets[s] = sets_of(self.owned[s])
        if self.sets_used and self.sets[s] and not self.completed[s]:
            self.completed[s] = 1
            self.counters[s][C.C_SET_TURN] = self.turns + 1
            for i in range(len(C.SET_NAMES)):  # the set(s) this purchase completed
                self.counters[s][C.C_SET_VARIETY + i] = int(bool(self.sets[s] & (1 << i)))
            self.events.append(
                {"kind": EV_SET, "seat": s, "sets": self.sets[s], "turn": self.turns + 1}
            )
            self._trigger(s, C.END_SET_COMPLETED)
        # V3, A15: owning beginner_cards_to_end cards triggers the end
        if self.beginners and self.n_cards[s] >= self.beginner_cards:
            self._trigger(s, C.END_CARDS_BOUGHT)
        # R18, A6: every card between the stack and the gap moves one slot away from the stack
        for i in range(slot, 0, -1):
            self.market[i] = self.market[i - 1]
        self.market[0] = _EMPTY
        # V2, A14: with 2+ cards in the stack and the cost payable, the buyer may operate
        if self.market_op and len(self.stack) >= 2 and self._can_pay_op():
            self.phase = C.PHASE_MARKET_OP
            return
        self._refill_one()
        self._after_refill()

    def _can_pay_op(self) -> bool:
        s = self.seat
        have = self.storage[s] if self.op_from_storage else self.seeds[s][0]
        return have >= self.op_cost

    def _refill_one(self) -> None:
        """R18: draw the top card of the stack into slot 0 (nothing once the stack is empty, A6)."""
        if self.stack:
            card = self._draw("refill")
            self._to_slot0(card, "refill")

    def _use_market_op(self) -> None:
        """V2, A14: pay market_op_cost (House -> storage, or storage -> out of play), draw two cards
        (top first: A, then B); OP_CHOOSE follows."""
        s = self.seat
        if self.op_from_storage:
            self.storage[s] -= self.op_cost
            self.out[s] += self.op_cost
        else:
            self.seeds[s][0] -= self.op_cost
            self.storage[s] += self.op_cost
        self.counters[s][C.C_MARKET_OPS] += 1
        a = self._draw("op_draw")
        b = self._draw("op_draw")
        self.op_cards = [a, b]
        self.phase = C.PHASE_OP_CHOOSE

    def _choose_op(self, choice: int) -> None:
        """V2: keep A (0) or B (1) in slot 0; the other goes to the bottom of the stack."""
        a, b = self.op_cards
        kept, bottom = (a, b) if choice == 0 else (b, a)
        self.op_cards = []
        self.stack.insert(0, bottom)
        self.put_under[bottom] = self.bottom_puts  # public (cards.py F_CARD_OWNER, A14)
        self.bottom_puts += 1
        self.events.append(
            {
                "kind": EV_MARKET_OP,
                "seat": self.seat,
                "used": 1,
                "paid": self.op_cost,
                "drawn": [a, b],
                "kept": kept,
                "bottom": bottom,
            }
        )
        self._to_slot0(kept, "op_keep")
        self._after_refill()

    def _after_refill(self) -> None:
        """A7: the stack trigger is checked once the refill is complete; then the turn ends."""
        self._log_market("buy")
        if not self.stack:
            self._trigger(self.seat, C.END_STACK_EXHAUSTED)
        self._finish_turn()

    # Bots ----------------------------------------------------------------------------------------
    def play(self) -> None:
        """Play to the end with the seats' bots; a single legal decision is taken without asking."""
        while not self.over:
            legal = self.legal()
            choice = 0
            if len(legal) > 1:
                bot, params = self.bots[self.seat], self.bot_params[self.seat]
                obs = self.public_state()
                choice = reference.ask_bot(bot, obs, legal, params, self.bot_rng, C.MAX_LEGAL)
            self.apply(legal[choice])

    # Public observation (cards.py layout) -----------------------------------------------------
    def public_state(self) -> np.ndarray:
        """The state as a bot sees it: int32 ``[cards.PUBLIC_END]`` in the layout of cards.py."""
        st = [0] * C.PUBLIC_END
        st[L.H_OVER] = int(self.over)
        st[L.H_SEAT] = self.seat
        st[L.H_TURNS] = self.turns
        st[L.H_N_PLAYERS] = self.n
        st[L.H_FIRST] = self.first
        st[L.H_END_REASON] = self.end_reason
        st[L.H_PHASE] = self.phase
        st[L.H_TRIGGERED] = int(self.triggered)
        st[L.H_CAP_TURNS] = self.cap_turns
        st[C.F_SKIP_ORIGIN] = int(self.skip_origin)
        st[C.F_N_SLOTS] = self.n_slots
        st[C.F_TARGET] = self.target if self.phase == C.PHASE_TARGET and not self.over else -1
        st[C.F_STACK_LEFT] = len(self.stack)
        pending = self.phase == C.PHASE_OP_CHOOSE and not self.over
        st[C.F_OP_CARD_A] = self.op_cards[0] if pending else -1
        st[C.F_OP_CARD_B] = self.op_cards[1] if pending else -1
        st[C.F_TRIGGER_SEAT] = self.trigger_seat
        st[C.F_TRIGGER_REASON] = self.trigger_reason
        st[C.F_UMBRELLA_TRIGGERS] = self.umbrella_triggers
        st[C.F_PER_KIND] = self.per_kind
        st[C.F_OP_COST] = self.op_cost
        for p, kind in enumerate(self.farm):
            st[C.F_FARM_KIND + p] = kind
            st[C.F_FARM_WATER + p] = self.water[kind]
        for s in range(self.n):
            b = C.seat_base(s)
            st[b + C.SEAT_SEEDS : b + C.SEAT_SEEDS + C.N_POSITIONS] = self.seeds[s]
            st[b + C.SEAT_STORAGE] = self.storage[s]
            st[b + C.SEAT_OUT] = self.out[s]
            st[b + C.SEAT_OWNED : b + C.SEAT_OWNED + C.N_FRUIT_KINDS] = self.owned[s]
            st[b + C.SEAT_FRUITS] = self.fruits[s]
            st[b + C.SEAT_COMPLETED] = self.completed[s]
            st[b + C.SEAT_SETS] = self.sets[s]
            st[b + C.SEAT_N_CARDS] = self.n_cards[s]
        for slot in range(C.MAX_SLOTS):
            card = self.market[slot] if slot < self.n_slots else _EMPTY
            st[C.F_MARKET_CARD + slot] = card
            st[C.F_MARKET_KIND + slot] = card // self.per_kind if card != _EMPTY else -1
            st[C.F_MARKET_PRICE + slot] = self.price(slot) if card != _EMPTY else 0
        for card in range(C.MAX_CARDS):
            st[C.F_CARD_OWNER + card] = -2 - self.put_under[card] if card in self.put_under else -1
        for s, cards in enumerate(self.bought):
            for card in cards:
                st[C.F_CARD_OWNER + card] = s  # R17 (a bought card is never put under again)
        st[C.F_BOTTOM_PUTS] = self.bottom_puts
        return np.array(st, np.int32)

    def state_array(self) -> np.ndarray:
        """The whole game as the engine's int32 state ``[cards.STATE_LEN]``: the public part, the
        stack (bottom first; entries past its top are 0 here), the counters as they stand during
        play (the end-of-game ones, fruits, farm seeds, set completed and tie-break fruits, are
        filled only in ``outcome_rows``); who owns each card is in the public part."""
        st = np.zeros(C.STATE_LEN, np.int32)
        st[: C.PUBLIC_END] = self.public_state()
        st[C.F_STACK : C.F_STACK + len(self.stack)] = self.stack
        for s in range(self.n):
            c = C.F_COUNTERS + s * C.N_COUNTERS
            st[c : c + C.N_COUNTERS] = self.counters[s]
        return st

    # Result (R22, A8, A9, A10, A15) -----------------------------------------------------------
    def farm_seeds(self, seat: int) -> int:
        """Seeds on the 7 farm cards, House included (A10)."""
        return sum(self.seeds[seat])

    def qualifies(self, seat: int) -> bool:
        """Completed a set (R22); under V3 owns beginner_cards_to_end cards (A15), or also a set
        if beginner_sets_end_game."""
        if self.beginners:
            return self.n_cards[seat] >= self.beginner_cards or bool(self.completed[seat])
        return bool(self.completed[seat])

    def tiebreak_fruits(self, seat: int) -> int:
        """R22's first tie-break, A9: the printed fruits on all the seat's market cards; with
        ``tiebreak_fruits=set_cards``, for a seat that completed a set, those on exactly the cards
        one set needs (SET_PATTERNS), the best choice of set and cards; anyone else counts all."""
        if not (self.set_cards_tiebreak and self.completed[seat]):
            return self.fruits[seat]
        best = -1
        cards = self.bought[seat]
        for size in sorted({sum(p) for p in SET_PATTERNS.values()}):
            for chosen in itertools.combinations(cards, size):
                kinds = Counter(card // self.per_kind for card in chosen)
                if tuple(sorted(kinds.values(), reverse=True)) in SET_PATTERNS.values():
                    best = max(best, sum(self.card_fruits[card] for card in chosen))
        return best

    def result(self) -> tuple[list[int], list[int], list[int]]:
        """(scores, ranks, wins) per seat of a finished game."""
        n = self.n
        q = [int(self.qualifies(s)) for s in range(n)]
        key = [(q[s], self.tiebreak_fruits(s), self.farm_seeds(s)) for s in range(n)]
        ranks = [1 + sum(1 for t in range(n) if key[t] > key[s]) for s in range(n)]
        if any(q):  # R22: the qualifiers compete
            candidates = [s for s in range(n) if q[s]]
        elif self.values["no_set_winner"] == "tiebreak":  # A8: everybody competes
            candidates = list(range(n))
        else:  # A8 alternative: nobody wins
            candidates = []
        wins = [0] * n
        if candidates:
            best = max(key[s][1:] for s in candidates)  # fruits (A9), then farm seeds (A10)
            for s in candidates:
                wins[s] = int(key[s][1:] == best)
        return list(self.fruits), ranks, wins

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
        game_row[L.G_BAD_BOT_ANSWERS] = 0
        g = len(L.GAME_COLUMNS)
        game_row[g + C.GAME_COUNTERS.index("trigger_seat")] = self.trigger_seat
        game_row[g + C.GAME_COUNTERS.index("umbrella_triggers")] = self.umbrella_triggers
        game_row[g + C.GAME_COUNTERS.index("stack_left")] = len(self.stack)
        seat_rows = np.zeros((self.n, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
        scores, ranks, wins = self.result()
        c = len(L.SEAT_COLUMNS)
        for s in range(self.n):
            row = seat_rows[s]
            row[L.S_SCORE], row[L.S_RANK], row[L.S_WIN] = scores[s], ranks[s], wins[s]
            counters = list(self.counters[s])
            counters[C.C_FRUITS] = self.fruits[s]
            counters[C.C_FARM_SEEDS] = self.farm_seeds(s)
            counters[C.C_SET_COMPLETED] = self.completed[s]
            counters[C.C_TIEBREAK_FRUITS] = self.tiebreak_fruits(s)
            row[c:] = counters
        return game_row, seat_rows

    def log_result(self) -> None:
        scores, ranks, wins = self.result()
        self.events.append(
            {
                "kind": EV_RESULT,
                "scores": scores,
                "ranks": ranks,
                "wins": wins,
                "fruits": list(self.fruits),
                "tiebreak_fruits": [self.tiebreak_fruits(s) for s in range(self.n)],
                "farm_seeds": [self.farm_seeds(s) for s in range(self.n)],
                "qualifies": [int(self.qualifies(s)) for s in range(self.n)],
                "cards": [list(o) for o in self.owned],
            }
        )


def play_reference(spec, game: int) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Play game ``game`` of ``spec`` (a ``runner.RunSpec``) in plain Python: ``(game_row,
    seat_rows, events)`` as ``ReferenceGame.outcome_rows`` gives them, and the event log."""
    return reference.play_reference(spec, game, ReferenceGame)
