"""Piña Pirata in plain Python: rounds (pina-pirata.md Setup R1-R5; Playing a round R6-R9; End of
a round R10-R12, R17; game modes M1, M2): the tiles at setup, a deal, a turn and its play or
draw, the end of a turn (R10, A5, T28, T32, T12, the caps A16) and of a round (R11, A8, A41).

Part of the plain-Python reference (``reference.py``: its docstring says how it is written and
drives the game); written from ``pina-pirata.md``, never from the engine's code.
"""

from __future__ import annotations

from cardsim.core import layout as L
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata.reference_events import (
    EV_ASSIGN,
    EV_CAPPED,
    EV_DECLINE,
    EV_END,
    EV_NO_DRAW,
    EV_PLAY,
    EV_REPLACE,
    EV_RESET,
    EV_ROUND,
    EV_SKIP,
    EV_WIN,
    WIN_EMPTY_HAND,
    WIN_LUCKY_CHARM,
    WIN_PLAN_B,
    TurnCut,
)


class RoundRules:
    """Setup, deals, turns and the ends of turns and rounds, as the reference plays them."""

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
