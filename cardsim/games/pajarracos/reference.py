"""Pajarracos in slow, plain Python: the reference the compiled engine is tested against.

Written from ``pajarracos.md`` (rules R1-R26, ambiguities A1-A17) and the chance / action
decomposition contract in the module docstring of ``engine.py``, never from the engine's code.
Nothing here is compiled: hands are per-type counts, the reserve pile a list, trees small records.
Bots are the same compiled functions the engine's play loop calls; the reference shows them its
own state encoded in the layout of ``cards.py`` (``observation``).

Randomness (``cardsim.core.rng``), as the engine docstring fixes it:

- chance stream (``cardsim.core.reference.streams``), used only at a deal
  (and at each deal of a tie replay, continuing the stream):
  1. ``randint(n_players)`` for the first player when ``first_player`` is random (R4, A15);
  2. ``shuffle`` of the card types in card-id order: the reserve pile, bottom first (R1, R3);
  3. ``hand_size`` rounds of one card each from the top, clockwise from the first player (R2);
- bot stream, handed to a bot as a 1-element uint64 array
  (``cardsim.core.reference.ask_bot``), only when more than one decision is legal (``core/kernel.py``).

A decision with a single legal code is applied at once (``apply`` and the deal run on to the next
real choice), as the engine's ``step`` does; ``decisions`` counts only real choices.

Events: ``ReferenceGame.events`` is a list of dicts, each with a ``"kind"`` key (``EV_*`` below) and
plain-int fields; a tree is ``[seat, kind]``, a crow card ``cards.LONE`` or ``cards.FLOCK_ON``,
a card a type of ``cards.py``. ``trace.py`` turns them into words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardsim.core import layout as L
from cardsim.core import reference
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import rules as R

# Event kinds -------------------------------------------------------------------------------------
EV_DEAL = "deal"  # first, hands (cards per seat), reserve_left, replay (0: the first game)
EV_TURN = "turn"  # turn (1-based, all games), seat, extra (0, or the extra turn's number, R18)
EV_TABLE = "table"  # a turn starts: hands, orchards, reserve (replay --table)
EV_FRUIT = "fruit"  # seat, tree, ordinary, juicy, size (after), new (1: a new tree) (R6-R9)
EV_ATTRACT = "attract"  # seat, crow, source (tree), tree: a juicy card pulled a crow card (R10)
EV_CROW = "crow"  # seat, crow, tree (R11)
EV_PROTECT = "protect"  # seat, tree (R16)
EV_SHOO_OUT = "shoo_out"  # seat, crow, tree (R17)
EV_SHOO_TO = "shoo_to"  # seat, crow, source (own tree), tree (destination) (R19)
EV_DISCARD = "discard"  # seat, cards (types, one entry per card; [] for a pass) (R20, A12)
EV_EXTRA_TURN = "extra_turn"  # seat, taken (1) or lost to an empty hand (0) (R18, A10)
EV_DECLINE = "decline"  # seat: it declines the extra turn it just earned (R18, A17)
EV_EAT = "eat"  # seat (owner), tree, crow, sender, eaten, left (tree size after) (R12, R13)
EV_DRAW = "draw"  # seat, cards (number drawn), reserve_left (R21 step 2)
EV_RESERVE_OUT = "reserve_out"  # seat, turn (turns completed before this one) (R22)
EV_END = "end"  # reason (END_* / core END_TURN_CAP), seat, turns, crows_left (R23, R24, A10)
EV_TIE_REPLAY = "tie_replay"  # seats (still tied), replays (final_tie=replay, A14)
EV_RESULT = "result"  # scores, trees, ranks, wins, orchards (sizes per kind), per seat

# Decision code ranges of cards.py, in code order.
_RANGES = (
    (C.C_FRUIT, C.C_CROW, "fruit"),
    (C.C_CROW, C.C_PROTECT, "crow"),
    (C.C_PROTECT, C.C_SHOO_OUT, "protect"),
    (C.C_SHOO_OUT, C.C_SHOO_TO, "shoo_out"),
    (C.C_SHOO_TO, C.C_DISCARD, "shoo_to"),
    (C.C_DISCARD, C.C_PASS, "discard"),
    (C.C_PASS, C.C_JUICY_CROW, "pass"),
    (C.C_JUICY_CROW, C.C_DECLINE, "juicy_crow"),
    (C.C_DECLINE, C.N_CODES, "decline"),
)


def decode(code: int) -> tuple[str, int, int]:
    """``(what, a, b)`` of a decision code: ``("fruit", kind, seat)`` (the cards played:
    ``cards.fruit_play``), ``("crow", crow 0/1, tree)``, ``("protect"|"shoo_out", kind, 0)``,
    ``("shoo_to", kind, tree)``, ``("discard", type, 0)``, ``("pass", 0, 0)``, ``("juicy_crow",
    tree, 0)``, ``("decline", 0, 0)``, ``("stop", 0, 0)``."""
    if code == C.STOP:
        return "stop", 0, 0
    for lo, hi, what in _RANGES:
        if lo <= code < hi:
            off = code - lo
            if what == "fruit":
                return what, *divmod(off // C.PLAY_SPAN, C.MAX_PLAYERS)
            if what in ("crow", "shoo_to"):
                return what, *divmod(off, C.N_TREES)
            return what, off, 0
    raise ValueError(f"{code} is not a decision code")


def discard_class(card_type: int) -> int:
    """Discard pile class ``D_*`` of a card type: a juicy fruit is a fruit of its kind (A16)."""
    if card_type < C.JUICY:
        return C.D_FRUIT + card_type - C.FRUIT
    if card_type < C.LONE_CROW:
        return C.D_FRUIT + card_type - C.JUICY
    return {C.LONE_CROW: C.D_LONE_CROW, C.FLOCK: C.D_FLOCK, C.SCARECROW: C.D_SCARECROW}[card_type]


def score_and_trees(sizes: Sequence[int]) -> tuple[int, int]:
    """R25: fruit cards in the orchard plus the largest tree (once); R26: number of trees."""
    return sum(sizes) + max(sizes, default=0), sum(1 for x in sizes if x > 0)


def ranks_of(keys: Sequence[tuple[int, int]]) -> list[int]:
    """R26: rank = 1 + seats with a strictly better (score, trees) pair."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


@dataclass
class Tree:
    """One seat's tree of one kind (``size`` 0: no tree). pajarracos.md Terms, R8, R11, R16."""

    size: int = 0
    crow: int = C.NO_CROW  # NO_CROW, LONE or FLOCK_ON
    scarecrow: bool = False
    sender: int = -1  # seat that sent the crow card here (R10, R11, R19), -1 with no crow

    @property
    def open(self) -> bool:
        """Neither attacked nor protected: fruit (R8), a crow (R11) or a shooed crow (A9) may
        come."""
        return self.crow == C.NO_CROW and not self.scarecrow


class ReferenceGame:
    """One game of Pajarracos (tie replays included), decision by decision.

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
        self.turns = 0
        self.decisions = 0
        self.counters = [[0] * C.N_COUNTERS for _ in range(n_players)]
        self.tie_mask = 0
        self.tie_replays = 0
        self.saved: list[list[int]] | None = None  # per seat: score, trees, counters (A14)
        self.saved_reserve_out_turn = 0
        self.saved_crows_left = 0
        self._deal()
        self._run_forced()

    # Rule values ---------------------------------------------------------------------------------
    def _read_rules(self, turn_cap: int | None) -> None:
        v = self.values
        self.hand_size = v["hand_size"]
        self.kinds = v["fruit_kinds"]
        self.juicy_alone = bool(v["juicy_may_be_played_alone"])  # A2
        self.single_target = bool(v["fruit_single_target"])  # A3
        self.juicy_own_crows = bool(v["juicy_attracts_own_crows"])  # A4
        self.shoo_to_ends = bool(v["shoo_to_ends_action"])  # R19, A8, A11
        self.extra_separate = bool(v["extra_turn_separate"])  # A10
        self.empty_extra_ends = v["empty_extra_turn"] == "ends_game"  # R23, A10, A13
        self.extra_optional = bool(v["extra_turn_optional"])  # R18, A17
        self.discard_min = v["discard_min"]  # A12
        self.replay_ties = v["final_tie"] == "replay"  # A14
        cap = v["turn_cap"] if turn_cap is None else turn_cap
        self.cap_turns = cap * self.n  # core/kernel.py: turn_cap rounds x players

    def deck(self) -> list[int]:
        """Card types in card-id order (cards.py): per kind its juicy then ordinary cards, then the
        lone crows, flocks and scarecrows (pajarracos.md Components, A1)."""
        v = self.values
        out: list[int] = []
        for k in range(self.kinds):
            out += [C.JUICY + k] * v["juicy_per_kind"]
            out += [C.FRUIT + k] * (v["fruit_per_kind"] - v["juicy_per_kind"])
        out += [C.LONE_CROW] * v["lone_crows"] + [C.FLOCK] * v["flocks"]
        return out + [C.SCARECROW] * v["scarecrows"]

    # Setup (R1-R4) -------------------------------------------------------------------------------
    def _clear_table(self) -> None:
        """An empty table: no trees, hands, piles or action under way (a deal, or a replay)."""
        n = self.n
        self.over = False
        self.end_reason = -1
        self.triggered = False
        self.phase = C.PHASE_ACTION
        self.hands = [[0] * C.N_TYPES for _ in range(n)]
        self.trees = [[Tree() for _ in range(C.MAX_KINDS)] for _ in range(n)]
        self.discard = [0] * C.N_DISCARD
        self.juicy_seen = [0] * C.MAX_KINDS  # juicy cards played or discarded, face up (A16)
        self.reserve: list[int] = []
        self.reserve_out_turn = -1
        self.crows_left = 0
        self.extra_turns = 0
        self._reset_context()

    def _deal(self) -> None:
        """R1-R4 with the engine's three chance steps; the first player's turn begins."""
        self._clear_table()
        n = self.n
        first = self.values["first_player"]
        self.first = self.chance.randint(n) if first == "random" else int(first)  # R4, A15
        self.seat = self.first
        self.reserve = self.deck()  # R1, R3: bottom first, top = last
        self.chance.shuffle(self.reserve)
        for _ in range(self.hand_size):  # R2: one card at a time, clockwise from the first
            for i in range(n):
                if self.reserve:
                    self.hands[(self.first + i) % n][self.reserve.pop()] += 1
        if not self.reserve:  # R22: the pile is out already
            self.triggered = True
            self.reserve_out_turn = 0
        self.events.append(
            {
                "kind": EV_DEAL,
                "first": self.first,
                "hands": [list(h) for h in self.hands],
                "reserve_left": len(self.reserve),
                "replay": self.tie_replays,
            }
        )
        self._begin_turn()

    def _reset_context(self) -> None:
        """cards.py F_CTX_*: no action under way."""
        self.ctx_kind = -1
        self.ctx_target = -1
        self.ctx_last = -1
        self.ctx_used = 0
        self.ctx_shoo_out = 0
        self.ctx_shoo_to = 0

    # Queries -------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    def crows_on_trees(self) -> int:
        return sum(t.crow != C.NO_CROW for row in self.trees for t in row)

    def tree(self, index: int) -> Tree:
        """Tree ``seat * MAX_KINDS + kind`` (cards.py ``tree_index``)."""
        return self.trees[index // C.MAX_KINDS][index % C.MAX_KINDS]

    def hand_total(self, seat: int) -> int:
        return sum(self.hands[seat])

    def _can_play_kind(self, kind: int) -> bool:
        """R6, R9, A2: the hand holds an ordinary card of ``kind``, or a juicy one if juicy cards
        may be played alone."""
        hand = self.hands[self.seat]
        return hand[C.FRUIT + kind] > 0 or (self.juicy_alone and hand[C.JUICY + kind] > 0)

    def _others_open_trees(self) -> list[int]:
        """Existing trees of other players with no crow and no scarecrow, in index order (R11,
        A7, A9)."""
        return [
            C.tree_index(t, k)
            for t in range(self.n)
            if t != self.seat
            for k in range(C.MAX_KINDS)
            if self.trees[t][k].size > 0 and self.trees[t][k].open
        ]

    # Legal decisions (engine docstring order: ascending codes, STOP first) ---------------------
    def legal(self) -> list[int]:
        """Legal decision codes of the pending decision, ascending."""
        if self.over:
            return []
        phase = self.phase
        if phase == C.PHASE_ACTION:
            return self._legal_action()
        if phase == C.PHASE_JUICY_CROW:  # R10, A4: any crow card on a tree it may attract
            return [C.C_JUICY_CROW + i for i in self._attractable_crows()]
        if phase == C.PHASE_FRUIT_MORE:  # A3 alternative: another orchard, or stop
            return [C.STOP] + self._legal_fruit_plays(
                self.ctx_kind, lambda t: not self.ctx_used >> t & 1
            )
        if phase == C.PHASE_CROW_MORE:  # R11: any open tree, in any order (no seat bias)
            return [C.STOP] + self._legal_crows()
        if phase == C.PHASE_SCARECROW_MORE:  # R15, A8: own trees this action has not used
            return [C.STOP] + self._legal_scarecrows()
        assert phase == C.PHASE_DISCARD_MORE  # R20: types not lower than the last
        hand = self.hands[self.seat]
        return [C.STOP] + [C.C_DISCARD + t for t in range(self.ctx_last, C.N_TYPES) if hand[t] > 0]

    def _has_crow(self, index: int) -> bool:
        seat = index // C.MAX_KINDS
        return seat < self.n and self.tree(index).crow != C.NO_CROW

    def _attractable_crows(self) -> list[int]:
        """R10: the crow cards on the table a juicy card of the active player may attract, tree
        index order; A4: those on the player's own trees only if ``juicy_attracts_own_crows``."""
        return [
            i
            for i in range(C.N_TREES)
            if self._has_crow(i) and (self.juicy_own_crows or i // C.MAX_KINDS != self.seat)
        ]

    def _legal_action(self) -> list[int]:
        """R5: the first decision of each of the four actions."""
        out = []
        for k in range(self.kinds):  # action 1 (R6-R8)
            out += self._legal_fruit_plays(k, lambda t: True)
        out += self._legal_crows()  # action 2 (R11)
        out += self._legal_scarecrows()  # action 3 (R15-R19)
        hand = self.hands[self.seat]  # action 4 (R20, A12)
        out += [C.C_DISCARD + t for t in range(C.N_TYPES) if hand[t] > 0]
        if self.discard_min == 0:
            out.append(C.C_PASS)
        if self.extra_turns > 0 and self.extra_optional:  # R18, A17: a right, not a duty
            out.append(C.C_DECLINE)
        return out

    def _legal_fruit_plays(self, kind: int, allowed) -> list[int]:
        """R7, R8: orchards whose tree of ``kind`` is absent or open, when the hand can play it;
        R6, R9, A2: every (ordinary, juicy) count of the kind in hand, at least one card."""
        if not self._can_play_kind(kind):
            return []
        hand = self.hands[self.seat]
        return [
            C.fruit_code(kind, t, o, j)
            for t in range(self.n)
            if self.trees[t][kind].open and allowed(t)
            for o in range(hand[C.FRUIT + kind] + 1)
            for j in range(hand[C.JUICY + kind] + 1)
            if o > 0 or (j > 0 and self.juicy_alone)
        ]

    def _legal_crows(self) -> list[int]:
        """R11, A7: a lone crow or flock in hand onto an open tree of another player."""
        hand = self.hands[self.seat]
        trees = self._others_open_trees()
        out = []
        for crow, card in enumerate(C.CROW_TYPES):
            if hand[card] > 0:
                out += [C.C_CROW + crow * C.N_TREES + i for i in trees]
        return out

    def _legal_scarecrows(self) -> list[int]:
        """R16 protect an open own tree; R17 shoo out an attacked one; R19, A9 shoo it onto an
        open tree of another player; A8: one scarecrow per tree in an action."""
        if self.hands[self.seat][C.SCARECROW] == 0:
            return []
        own = self.trees[self.seat]
        kinds = [k for k in range(C.MAX_KINDS) if not self.ctx_used >> k & 1]
        protect = [C.C_PROTECT + k for k in kinds if own[k].size > 0 and own[k].open]
        attacked = [k for k in kinds if own[k].crow != C.NO_CROW]
        out = [C.C_SHOO_OUT + k for k in attacked]
        dests = self._others_open_trees()
        shoo_to = [C.C_SHOO_TO + k * C.N_TREES + d for k in attacked for d in dests]
        return protect + out + shoo_to

    # Applying decisions --------------------------------------------------------------------------
    def apply(self, code: int) -> None:
        """Apply one legal decision, then every forced (single legal) decision after it."""
        legal = self.legal()
        if code not in legal:
            raise ValueError(f"decision {code} {decode(code)} is not legal here: {legal}")
        self.decisions += len(legal) > 1  # the outcome column counts real choices only
        self._apply_one(code)
        self._run_forced()

    def _run_forced(self) -> None:
        while not self.over:
            legal = self.legal()
            assert legal, f"no legal decision in phase {self.phase}"
            if len(legal) > 1:
                return
            self._apply_one(legal[0])

    def _apply_one(self, code: int) -> None:
        what, a, b = decode(code)
        if what == "stop":
            self._stop()
        elif what == "fruit":
            kind, target, ordinary, juicy = C.fruit_play(code)
            self._choose_orchard(kind, target)
            self._play_fruit(ordinary, juicy)
        elif what == "juicy_crow":
            self._attract(a)
        elif what == "crow":
            self._play_crow(C.CROW_TYPES[a], b)
        elif what == "protect":
            self._protect(a)
        elif what == "shoo_out":
            self._shoo_out(a)
        elif what == "shoo_to":
            self._shoo_to(a, b)
        elif what == "discard":
            self._discard(a)
        elif what == "decline":
            self._decline_extra_turn()
        else:
            assert what == "pass"
            self.events.append({"kind": EV_DISCARD, "seat": self.seat, "cards": []})
            self._end_turn()  # A12 alternative: a discard of zero cards

    def _stop(self) -> None:
        """STOP ends a multi-part action (engine docstring)."""
        if self.phase == C.PHASE_SCARECROW_MORE:
            self._scarecrows_done()
            return
        if self.phase == C.PHASE_DISCARD_MORE:
            self._log_discards()
        self._end_turn()

    # Action 1: fruit (R6-R10) --------------------------------------------------------------------
    def _choose_orchard(self, kind: int, target: int) -> None:
        self.ctx_kind = kind
        self.ctx_target = target
        self.ctx_used |= 1 << target

    def _play_fruit(self, ordinary: int, juicy: int) -> None:
        """R6-R9: the cards join the tree of their kind in the chosen orchard (a new tree if
        none); a juicy card attracts one crow card (R10, A2)."""
        s, k, t = self.seat, self.ctx_kind, self.ctx_target
        hand = self.hands[s]
        hand[C.FRUIT + k] -= ordinary
        hand[C.JUICY + k] -= juicy
        self.juicy_seen[k] += juicy
        tree = self.trees[t][k]
        new = tree.size == 0
        tree.size += ordinary + juicy
        cnt = self.counters
        cnt[s][C.C_JUICY_PLAYED] += juicy
        if t == s:
            cnt[s][C.C_FRUIT_PLAYED_OWN] += ordinary + juicy
        else:
            cnt[s][C.C_FRUIT_PLAYED_OTHERS] += ordinary + juicy
            cnt[t][C.C_FRUIT_RECEIVED] += ordinary + juicy
        self.events.append(
            {
                "kind": EV_FRUIT,
                "seat": s,
                "tree": [t, k],
                "ordinary": ordinary,
                "juicy": juicy,
                "size": tree.size,
                "new": int(new),
            }
        )
        if juicy > 0 and self._attractable_crows():  # R10, A4: a crow card flies here
            self.phase = C.PHASE_JUICY_CROW
            return
        self._fruit_part_done()

    def _attract(self, source: int) -> None:
        """R10, A4: the chosen crow card leaves its tree for the juicy card's tree."""
        s = self.seat
        dest_index = C.tree_index(self.ctx_target, self.ctx_kind)
        crow = self._move_crow(source, dest_index, s)
        self.counters[s][C.C_JUICY_ATTRACTIONS] += 1
        self.events.append(
            {
                "kind": EV_ATTRACT,
                "seat": s,
                "crow": crow,
                "source": self._tree_ref(source),
                "tree": self._tree_ref(dest_index),
            }
        )
        self._fruit_part_done()

    def _fruit_part_done(self) -> None:
        if self.single_target:  # A3: one tree per action
            self._end_turn()
            return
        self.phase = C.PHASE_FRUIT_MORE  # A3 alternative: another orchard may follow
        self.ctx_target = -1

    # Crow cards (R10-R13, R19) -------------------------------------------------------------------
    @staticmethod
    def _tree_ref(index: int) -> list[int]:
        return [index // C.MAX_KINDS, index % C.MAX_KINDS]

    def _land(self, index: int, crow: int, sender: int) -> None:
        """A crow card lands on a tree: it is attacked from now on (R10, R11, R19)."""
        tree = self.tree(index)
        assert tree.size > 0 and tree.open
        tree.crow = crow
        tree.sender = sender
        self.counters[index // C.MAX_KINDS][C.C_CROWS_RECEIVED] += 1

    def _lift(self, index: int) -> int:
        """A crow card leaves its tree; returns LONE or FLOCK_ON."""
        tree = self.tree(index)
        crow = tree.crow
        assert crow != C.NO_CROW
        tree.crow = C.NO_CROW
        tree.sender = -1
        return crow

    def _move_crow(self, source: int, dest: int, sender: int) -> int:
        crow = self._lift(source)
        self._land(dest, crow, sender)
        return crow

    # Action 2: crows (R11) -----------------------------------------------------------------------
    def _play_crow(self, card: int, index: int) -> None:
        s = self.seat
        self.hands[s][card] -= 1
        crow = C.LONE if card == C.LONE_CROW else C.FLOCK_ON
        self._land(index, crow, s)
        self.counters[s][C.C_CROWS_PLAYED if card == C.LONE_CROW else C.C_FLOCKS_PLAYED] += 1
        self.ctx_last = index
        self.phase = C.PHASE_CROW_MORE
        self.events.append(
            {"kind": EV_CROW, "seat": s, "crow": crow, "tree": self._tree_ref(index)}
        )

    # Action 3: scarecrows (R15-R19) --------------------------------------------------------------
    def _use_scarecrow(self, kind: int) -> None:
        self.hands[self.seat][C.SCARECROW] -= 1
        self.ctx_last = kind
        self.ctx_used |= 1 << kind
        self.phase = C.PHASE_SCARECROW_MORE

    def _protect(self, kind: int) -> None:
        """R16: the scarecrow stays on the tree for the rest of the game."""
        s = self.seat
        self._use_scarecrow(kind)
        self.trees[s][kind].scarecrow = True
        self.counters[s][C.C_PROTECTS] += 1
        self.events.append({"kind": EV_PROTECT, "seat": s, "tree": [s, kind]})

    def _shoo_out(self, kind: int) -> None:
        """R17: scarecrow and crow card to the discard pile; the action earns an extra turn."""
        s = self.seat
        self._use_scarecrow(kind)
        crow = self._lift(C.tree_index(s, kind))
        self.discard[C.D_SCARECROW] += 1
        self.discard[C.D_LONE_CROW if crow == C.LONE else C.D_FLOCK] += 1
        self.counters[s][C.C_SHOO_OUTS] += 1
        self.ctx_shoo_out = 1
        self.events.append({"kind": EV_SHOO_OUT, "seat": s, "crow": crow, "tree": [s, kind]})

    def _shoo_to(self, kind: int, dest: int) -> None:
        """R19, A9: the crow card moves onto another player's open tree; the scarecrow is
        discarded. The player's turn then ends at once, extra turn or not (R19; A8, A11: no
        scarecrow may follow); under ``shoo_to_ends_action`` false it ends when the action does."""
        s = self.seat
        self._use_scarecrow(kind)
        crow = self._move_crow(C.tree_index(s, kind), dest, s)
        self.discard[C.D_SCARECROW] += 1
        self.counters[s][C.C_SHOO_TOS] += 1
        self.counters[dest // C.MAX_KINDS][C.C_CROWS_REDIRECTED_ONTO] += 1
        self.ctx_shoo_to = 1
        self.events.append(
            {
                "kind": EV_SHOO_TO,
                "seat": s,
                "crow": crow,
                "source": [s, kind],
                "tree": self._tree_ref(dest),
            }
        )
        if self.shoo_to_ends:
            self._end_turn()  # R21 still follows

    def _scarecrows_done(self) -> None:
        """R18, R19, A8, A11: a shoo-to ends the turn; else a shoo-out earns one extra turn."""
        if self.ctx_shoo_out and not self.ctx_shoo_to:
            self._extra_turn()
        else:
            self._end_turn()

    def _extra_turn(self) -> None:
        """R18, A10: the same player acts again (with ``extra_turn_separate`` the end-of-turn
        steps 1-2 come first). An extra turn that starts with an empty hand: with the reserve
        pile empty it is the turn of a player with no cards, so the game ends (R23, A10, A13;
        ``empty_extra_turn=lost``: it is lost); while the pile lasts it is lost."""
        s = self.seat
        if self.extra_separate:
            self._eat()
            self._draw()
        if self.hand_total(s) == 0:
            if self.empty_extra_ends and not self.reserve:
                self._end_game(C.END_EMPTY_EXTRA_TURN)  # R23: crows do not eat again
                return
            self.events.append({"kind": EV_EXTRA_TURN, "seat": s, "taken": 0})
            self._finish_without_extra_turn()
            return
        self.extra_turns += 1
        self.counters[s][C.C_EXTRA_TURNS] += 1
        self.events.append({"kind": EV_EXTRA_TURN, "seat": s, "taken": 1})
        self.events.append(
            {"kind": EV_TURN, "turn": self.turns + 1, "seat": s, "extra": self.extra_turns}
        )
        self._start_action()

    def _finish_without_extra_turn(self) -> None:
        """The turn ends with no (further) extra turn: R21, whose steps 1-2 already ran before
        the extra turn under ``extra_turn_separate`` (A10)."""
        if self.extra_separate:
            self._pass_turn()
        else:
            self._end_turn()

    def _decline_extra_turn(self) -> None:
        """R18, A17: the player declines the extra turn; the turn ends as usual. The extra turn
        was counted as taken when it began: it moves to the declined count."""
        s = self.seat
        self.counters[s][C.C_EXTRA_TURNS] -= 1
        self.counters[s][C.C_EXTRA_TURNS_DECLINED] += 1
        self.events.append({"kind": EV_DECLINE, "seat": s})
        self._finish_without_extra_turn()

    # Action 4: discard (R20) ---------------------------------------------------------------------
    def _discard(self, card: int) -> None:
        s = self.seat
        self.hands[s][card] -= 1
        self.discard[discard_class(card)] += 1
        if C.JUICY <= card < C.LONE_CROW:
            self.juicy_seen[card - C.JUICY] += 1
        self.counters[s][C.C_CARDS_DISCARDED] += 1
        self.ctx_last = card
        self.phase = C.PHASE_DISCARD_MORE
        self._discarded.append(card)

    def _log_discards(self) -> None:
        self.events.append({"kind": EV_DISCARD, "seat": self.seat, "cards": list(self._discarded)})

    # Turn flow (R5, R21-R23) ---------------------------------------------------------------------
    def _start_action(self) -> None:
        """R5: a new action (of a turn or an extra turn) is chosen."""
        self.phase = C.PHASE_ACTION
        self._reset_context()
        self._discarded: list[int] = []

    def table(self) -> dict:
        """An ``EV_TABLE`` event: the reserve's size, each hand (cards per type) and each
        orchard's trees (kind: size, crow, its sender, scarecrow)."""
        return {
            "kind": EV_TABLE,
            "seat": self.seat,
            "reserve": len(self.reserve),
            "hands": [list(h) for h in self.hands],
            "trees": [
                [(t.size, t.crow, t.sender, t.scarecrow) for t in trees] for trees in self.trees
            ],
        }

    def _begin_turn(self) -> None:
        """The turn of ``self.seat`` starts; with no card in hand the game ends (R23)."""
        if self.hand_total(self.seat) == 0:
            self._end_game(C.END_EMPTY_HAND)
            return
        self.events.append(self.table())
        self.events.append({"kind": EV_TURN, "turn": self.turns + 1, "seat": self.seat, "extra": 0})
        self._start_action()

    def _end_turn(self) -> None:
        """R21: the active player's crows eat, the player draws, the turn passes."""
        self._eat()
        self._draw()
        self._pass_turn()

    def _eat(self) -> None:
        """R21 step 1, R12, R13: every crow card on the active player's trees eats, kind order."""
        s = self.seat
        for k in range(C.MAX_KINDS):
            tree = self.trees[s][k]
            if tree.crow == C.NO_CROW:
                continue
            eaten = 1 if tree.crow == C.LONE else tree.size  # R12 one card; R13 the whole tree
            crow, sender = tree.crow, tree.sender
            tree.size -= eaten
            self.discard[C.D_FRUIT + k] += eaten
            self.counters[s][C.C_FRUIT_LOST] += eaten
            self.counters[sender][C.C_FRUIT_EATEN_BY_ITS_CROWS] += eaten
            if crow == C.FLOCK_ON:
                self.counters[s][C.C_TREES_WIPED] += 1
            if tree.size == 0:  # the crow card leaves with the last fruit card
                self._lift(C.tree_index(s, k))
                self.discard[C.D_LONE_CROW if crow == C.LONE else C.D_FLOCK] += 1
            self.events.append(
                {
                    "kind": EV_EAT,
                    "seat": s,
                    "tree": [s, k],
                    "crow": crow,
                    "sender": sender,
                    "eaten": eaten,
                    "left": tree.size,
                }
            )

    def _draw(self) -> None:
        """R21 step 2, R22: draw up to the hand size while the reserve pile lasts."""
        s = self.seat
        hand = self.hands[s]
        drawn = 0
        while self.reserve and self.hand_total(s) < self.hand_size:
            hand[self.reserve.pop()] += 1
            drawn += 1
            if not self.reserve:  # this draw emptied the pile
                self.triggered = True
                self.reserve_out_turn = self.turns
                self.events.append({"kind": EV_RESERVE_OUT, "seat": s, "turn": self.turns})
        if drawn:
            self.events.append(
                {"kind": EV_DRAW, "seat": s, "cards": drawn, "reserve_left": len(self.reserve)}
            )

    def _pass_turn(self) -> None:
        """R21 step 3: the turn is counted; the turn cap; the next seat clockwise (R4)."""
        self.turns += 1
        self.extra_turns = 0
        self._reset_context()
        if self.turns >= self.cap_turns:  # safeguard, core/kernel.py
            self._end_game(L.END_TURN_CAP)
            return
        self.seat = (self.seat + 1) % self.n
        self._begin_turn()

    # End of the game (R23-R26, A13, A14) ---------------------------------------------------------
    def _end_game(self, reason: int) -> None:
        """R23: crows stop; R24: hands, crow and scarecrow cards to the discard pile; scoring; a
        final tie may be replayed (A14)."""
        self.crows_left = self.crows_on_trees()
        for s in range(self.n):
            for t, count in enumerate(self.hands[s]):
                self.discard[discard_class(t)] += count
            self.hands[s] = [0] * C.N_TYPES
            for tree in self.trees[s]:
                if tree.crow != C.NO_CROW:
                    self.discard[C.D_LONE_CROW if tree.crow == C.LONE else C.D_FLOCK] += 1
                if tree.scarecrow:
                    self.discard[C.D_SCARECROW] += 1
                tree.crow, tree.sender, tree.scarecrow = C.NO_CROW, -1, False
            sizes = self.sizes(s)
            self.counters[s][C.C_FRUIT_CARDS] = sum(sizes)
            self.counters[s][C.C_LARGEST_TREE] = max(sizes)
            self.counters[s][C.C_TREES] = sum(1 for x in sizes if x > 0)
        self.end_reason = reason
        self.events.append(
            {
                "kind": EV_END,
                "reason": reason,
                "seat": self.seat,
                "turns": self.turns,
                "crows_left": self.crows_left,
            }
        )
        if reason != L.END_TURN_CAP and self.replay_ties and self._replay_tie():
            return
        self.over = True

    def sizes(self, seat: int) -> list[int]:
        return [t.size for t in self.trees[seat]]

    def keys(self) -> list[tuple[int, int]]:
        """(score, trees) per seat from the orchards on the table (R25, R26)."""
        return [score_and_trees(self.sizes(s)) for s in range(self.n)]

    def _replay_tie(self) -> bool:
        """A14 ``replay``: several seats still tied at the top (all seats, then the seats of the
        replay's tie) play another game. True if a replay was dealt."""
        keys = self.keys()
        candidates = [s for s in range(self.n) if self.tie_replays == 0 or self.tie_mask >> s & 1]
        best = max(keys[s] for s in candidates)
        top = [s for s in candidates if keys[s] == best]
        if len(top) < 2:
            return False
        if self.tie_replays == 0:  # the first game's results are the ones reported
            self.saved = [[*keys[s], *self.counters[s]] for s in range(self.n)]
            self.saved_reserve_out_turn = self.reserve_out_turn
            self.saved_crows_left = self.crows_left
        self.tie_mask = sum(1 << s for s in top)
        self.tie_replays += 1
        self.events.append({"kind": EV_TIE_REPLAY, "seats": top, "replays": self.tie_replays})
        self._deal()
        return True

    # Bots ----------------------------------------------------------------------------------------
    def play(self) -> None:
        """Play to the end with the seats' bots; a single legal decision is taken without asking
        (and is never pending here: ``apply`` runs forced decisions itself)."""
        while not self.over:
            legal = self.legal()
            choice = 0
            if len(legal) > 1:
                bot, params = self.bots[self.seat], self.bot_params[self.seat]
                obs = self.observation(self.seat)
                choice = reference.ask_bot(bot, obs, legal, params, self.bot_rng, C.MAX_LEGAL)
            self.apply(legal[choice])

    # State encoding (cards.py layout) ----------------------------------------------------------
    def public_state(self) -> np.ndarray:
        """The public part of the state: int32 ``[cards.PUBLIC_END]``."""
        return self.state_array()[: C.PUBLIC_END].copy()

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat``'s bot sees: the public state, then its own hand (int32 ``[OBS_LEN]``; the
        bot's room after the hand is left 0)."""
        obs = np.zeros(C.OBS_LEN, np.int32)
        obs[: C.PUBLIC_END] = self.public_state()
        obs[C.OBS_HAND : C.OBS_HAND + C.N_TYPES] = self.hands[seat]
        return obs

    def tree_bits(self) -> tuple[int, int, int]:
        """The trees as the engine's three bit sets (cards.py ``F_FRUIT_TREES``,
        ``F_OPEN_TREES``, ``F_CROWED_TREES``), read from the trees: those taking fruit (R8), those
        open to a crow card (R11, R16, A7, A9), those with a crow card on them."""
        fruit = open_ = crowed = 0
        for s in range(self.n):
            for k, tree in enumerate(self.trees[s]):
                if tree.open:
                    fruit |= 1 << (k * C.MAX_PLAYERS + s)
                    if tree.size > 0:
                        open_ |= 1 << C.tree_index(s, k)
                if tree.crow != C.NO_CROW:
                    crowed |= 1 << C.tree_index(s, k)
        return fruit, open_, crowed

    def state_array(self) -> np.ndarray:
        """The whole game as the engine's int32 state ``[cards.STATE_LEN]`` (entries of the
        reserve past its top are 0 here)."""
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
        st[C.F_RESERVE_LEFT] = len(self.reserve)
        st[C.F_CROWS_ON_TREES] = self.crows_on_trees()
        st[C.F_CTX_KIND] = self.ctx_kind
        st[C.F_CTX_TARGET] = self.ctx_target
        st[C.F_CTX_LAST] = self.ctx_last
        st[C.F_CTX_USED] = self.ctx_used
        st[C.F_CTX_SHOO_OUT] = self.ctx_shoo_out
        st[C.F_CTX_SHOO_TO] = self.ctx_shoo_to
        st[C.F_EXTRA_TURNS] = self.extra_turns
        st[C.F_JUICY_OWN_CROWS] = int(self.juicy_own_crows)
        st[C.F_SHOO_TO_ENDS] = int(self.shoo_to_ends)
        st[C.F_DISCARD : C.F_DISCARD + C.N_DISCARD] = self.discard
        st[C.F_JUICY_SEEN : C.F_JUICY_SEEN + C.MAX_KINDS] = self.juicy_seen
        if 0 <= self.seat < self.n:  # the hand the deciding seat's bot sees (cards.py)
            st[C.F_ACTIVE_HAND : C.F_ACTIVE_HAND + C.N_TYPES] = self.hands[self.seat]
        for s in range(C.MAX_PLAYERS):
            b = C.seat_base(s)
            st[b + C.TREE_SENDER : b + C.TREE_SENDER + C.MAX_KINDS] = -1
            if s >= self.n:
                continue
            for k, tree in enumerate(self.trees[s]):
                st[b + C.TREE_SIZE + k] = tree.size
                st[b + C.TREE_CROW + k] = tree.crow
                st[b + C.TREE_SCARECROW + k] = int(tree.scarecrow)
                st[b + C.TREE_SENDER + k] = tree.sender
            st[b + C.HAND_COUNT] = self.hand_total(s)
            h = C.F_HANDS + s * C.N_TYPES
            st[h : h + C.N_TYPES] = self.hands[s]
            c = C.F_COUNTERS + s * C.N_COUNTERS
            st[c : c + C.N_COUNTERS] = self.counters[s]
            if self.saved is not None:
                v = C.F_SAVED + s * C.SAVED_LEN
                st[v : v + C.SAVED_LEN] = self.saved[s]
        st[C.F_FRUIT_TREES], st[C.F_OPEN_TREES], st[C.F_CROWED_TREES] = self.tree_bits()
        st[C.F_RESERVE : C.F_RESERVE + len(self.reserve)] = self.reserve
        st[C.F_RESERVE_OUT_TURN] = self.reserve_out_turn
        st[C.F_CROWS_LEFT] = self.crows_left
        st[C.F_TIE_MASK] = self.tie_mask
        st[C.F_TIE_REPLAYS] = self.tie_replays
        if self.saved is not None:
            st[C.F_SAVED_RESERVE_OUT_TURN] = self.saved_reserve_out_turn
            st[C.F_SAVED_CROWS_LEFT] = self.saved_crows_left
        return st

    # Result (R25, R26, A14) ----------------------------------------------------------------------
    def result(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """(scores, trees, ranks, wins) per seat of a finished game, as reported."""
        n = self.n
        if self.saved is None:  # R25, R26; several rank-1 seats share the win (A14 shared)
            keys = self.keys()
            ranks = ranks_of(keys)
            return [k[0] for k in keys], [k[1] for k in keys], ranks, [int(r == 1) for r in ranks]
        # A14 replay: the first game's results; the winners are decided by the replays
        saved_keys = [(row[0], row[1]) for row in self.saved]
        saved_ranks = ranks_of(saved_keys)
        mask = [s for s in range(n) if self.tie_mask >> s & 1]
        if self.end_reason == L.END_TURN_CAP:
            winners = mask
        else:
            keys = self.keys()
            best = max(keys[s] for s in mask)
            winners = [s for s in mask if keys[s] == best]
            assert len(winners) == 1
        ranks = []
        for s in range(n):
            if s in winners:
                ranks.append(1)
            elif saved_ranks[s] == 1:
                ranks.append(len(winners) + 1)
            else:
                ranks.append(saved_ranks[s])
        wins = [int(s in winners) for s in range(n)]
        return [k[0] for k in saved_keys], [k[1] for k in saved_keys], ranks, wins

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
        saved = self.saved is not None
        game_row[g + C.GAME_COUNTERS.index("reserve_out_turn")] = (
            self.saved_reserve_out_turn if saved else self.reserve_out_turn
        )
        game_row[g + C.GAME_COUNTERS.index("crows_left")] = (
            self.saved_crows_left if saved else self.crows_left
        )
        game_row[g + C.GAME_COUNTERS.index("tie_replays")] = self.tie_replays
        seat_rows = np.zeros((self.n, len(L.SEAT_COLUMNS) + C.N_COUNTERS), np.int32)
        scores, _, ranks, wins = self.result()
        c = len(L.SEAT_COLUMNS)
        for s in range(self.n):
            row = seat_rows[s]
            row[L.S_SCORE], row[L.S_RANK], row[L.S_WIN] = scores[s], ranks[s], wins[s]
            row[c:] = self.saved[s][C.SAVED_COUNTERS :] if saved else self.counters[s]
        return game_row, seat_rows

    def log_result(self) -> None:
        scores, trees, ranks, wins = self.result()
        self.events.append(
            {
                "kind": EV_RESULT,
                "scores": scores,
                "trees": trees,
                "ranks": ranks,
                "wins": wins,
                "orchards": [self.sizes(s) for s in range(self.n)],
            }
        )


def play_reference(spec, game: int) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Play game ``game`` of ``spec`` (a ``runner.RunSpec``) in plain Python: ``(game_row,
    seat_rows, events)`` as ``ReferenceGame.outcome_rows`` gives them, and the event log."""
    return reference.play_reference(spec, game, ReferenceGame)
