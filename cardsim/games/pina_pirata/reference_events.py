"""The events of the plain-Python reference (``EV_*``: what ``trace.py`` tells), and the small
records every part of it shares: a pending decision (``Ask``), a turn cut short (``TurnCut``,
A16), the pirate bits it tests.

Part of the plain-Python reference (``reference.py``: its docstring says how it is written and
drives the game); written from ``pina-pirata.md``, never from the engine's code.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardsim.games.pina_pirata import cards as C

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
