"""Piña Pirata in slow, plain Python: the reference the compiled engine is tested against.

Written from ``pina-pirata.md`` without the engine's task stack: a game is a Python generator
that reads like the rules (a turn, a play, a tile's effect, a round end) and ``yield``s each
decision with two or more legal choices (``Ask``); a single legal choice is taken at once, as
the play loop does. It draws chance in the engine's documented order (``engine.py`` docstring),
lists legal decisions in the same canonical (ascending code) order and builds the bot's
observation in the engine's layout, so that game by game the outcome rows are equal.

Cards are ids with pirate masks (``cards.py``); places are Python lists and dicts.

``ReferenceGame`` is written in four files along the rules document: here the game's frame (the
decisions, the log, the outcome, the observation); ``reference_table.py`` the table and what may
be played onto what; ``reference_tiles.py`` what each tile does; ``reference_rounds.py`` setup,
turns and the ends of turns and rounds. The events it logs are in ``reference_events.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cardsim.core import layout as L
from cardsim.core import reference, registry, rules_doc
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import rules as R
from cardsim.games.pina_pirata.reference_events import (
    EV_RESULT,
    EV_TABLE,
    Ask,
    TurnCut,
)
from cardsim.games.pina_pirata.reference_rounds import RoundRules
from cardsim.games.pina_pirata.reference_table import TableRules
from cardsim.games.pina_pirata.reference_tiles import TileRules


def pool_tiles(values: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """(Adventure pile ascending, fixed tiles oldest first): the game's tiles (pina-pirata.md
    Parameters, ``tile_pool``: "all of T1–T40"), without those in play from the start.

    "All" is every T-number of the rules document's tile table, read from the document itself
    (``rules_doc.tile_numbers``), not from ``rules.tiles_of``: that function builds the engine's
    pool, and a mistake in it would otherwise be the same on both sides of the comparison (seen:
    ``tiles_of`` planted to leave T40 out fails the default cases of
    tests/test_pina_pirata_reference.py)."""
    pool = values["tile_pool"]
    pool = (
        rules_doc.tile_numbers(registry.get("pina-pirata")) if pool == "all" else sorted(set(pool))
    )
    fixed = [] if values["fixed_tiles"] == "none" else list(values["fixed_tiles"])
    return [t for t in pool if t not in fixed], fixed


class ReferenceGame(TableRules, TileRules, RoundRules):
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
            aside=sorted(self.aside),
            aside_face_up=self.v["aside_face_up"],
        )

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
            mine = [c for c in self.aside if self.aside_by[c] == s]  # T11's setter: public
            o[C.seat_field(s, C.SH_ASIDE_N)] = len(mine)
            if self.v["aside_face_up"]:  # A15's alternative: their faces too
                for c in mine:
                    set_bit(o, C.F_ASIDE_UP + s * C.HAND_WORDS, c)
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
