"""Human-readable replay of one Piña Pirata game, round by round, told from the reference's event
log in the words of ``pina-pirata.md`` (Action pile, deck, Adventure tiles, map pieces).

``replay(spec, game)`` plays game ``game`` of a ``runner.RunSpec`` with the plain-Python reference
(``reference.py``), tells its ``EV_*`` events, then plays the same game on the compiled engine and
says whether both outcome rows agree. With a ``TableView`` (``cardsim replay --table``), each
turn starts with table lines (``core/table.py``): the Action pile top(s), the tiles in play (face
down marked), the deck's size, then a line per seat: its Hand's size (the cards for the followed
seat or every seat), the face-up card of a one-card Hand under Moonlight (T33), the cards in front
of it, and its map pieces (Treasure Hunt) or rounds won (Cruise).
"""

from __future__ import annotations

from cardsim.core.options import changed_values
from cardsim.core.reference import engine_check, seat_bots
from cardsim.core.table import TableView, table_lines
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import reference as REF
from cardsim.games.pina_pirata import reference_events as EV


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class _Teller:
    def __init__(self, spec, view: TableView | None = None):
        self.masks = C.card_masks(spec.rules["pirate_types"], spec.rules["solitary_per_type"])
        self.discard_to_top = spec.rules["discard_to_top"]
        self.cruise = spec.rules["mode"] == "cruise"
        self.aside_face_up = spec.rules["aside_face_up"]  # A15's alternative: name T11's cards
        self.two_piles = False  # Double Rations (T37) in play this round: say which pile (A32)
        self.view = view  # None: no table lines
        self.skipped = 0  # turns skipped this round (T12): the round's turn count leaves them out

    def card(self, card: int) -> str:
        return C.card_name(self.masks[card]) if card >= 0 else "nothing"

    def pile(self, pile: int) -> str:
        """`` (pile N)`` while two Action piles are in play, else nothing."""
        return f" (pile {pile + 1})" if self.two_piles else ""

    def discarded(self, ev: dict) -> str:
        """Where a discard went (R19, A3; A32: the pile of the discarder's choice)."""
        pile = f"pile {ev['pile'] + 1}" if self.two_piles else "the Action pile"
        if self.discard_to_top:
            return f" onto {pile}" if self.two_piles else ""
        return f", beneath the top card of {pile}"


# What a tile turned face down by Old Sea Dog (T27) does with what it holds (A40)
FACE_DOWN_LOSES = {
    11: "its set-aside cards go to the bottom of the deck",
    13: "the deck's top card is turned face down",
    22: "its holder may play their last card again",
    37: "the second Action pile is shuffled into the deck",
    39: "the Voodoo cards go under the Action pile's top card",
    40: "the named pirate is forgotten",
}

# How a round was won (reference.py ``WIN_*``; pina-pirata.md R10, T28, T32)
WON_WITH = {
    EV.WIN_LUCKY_CHARM: "with Lucky Charm (T28): every card in its Hand shows a Rabbit",
    EV.WIN_PLAN_B: "with Plan B (T32): its 3 cards show an Octopus, a Walrus and a Crocodile",
}


# What lets a card go onto one that shares no pirate with it, as printed (R21, A4, A20, A39)
ALLOWED_BY = {
    6: "a Parrot may go onto a Monkey",
    7: "the solitary Walrus is every pirate",
    9: "Walruses are Jokers",
    29: "any card may go onto a Rabbit",
    31: "Crocodiles are Turtles and Turtles Crocodiles",
    34: "with 8 or more cards in Hand, all its pirates are Jokers",
    39: "the pirates in front of it are Jokers for it",
}

# A play a static tile gives on top of the turn's own (after it, A24, A29): said beside the play,
# since the rules let no other play follow a turn's play or draw (R9)
EXTRA_PLAY = {
    26: ", the extra card of the player with most cards in front (Rabbit Hunt, T26)",
    36: ", its extra card (Full Sails, T36)",
}


def _allowed_by(t: _Teller, ev: dict) -> str:
    """Why a play whose two cards share no printed pirate was allowed (R21 and the match tiles),
    so that a reader can check it as a player at the table would."""
    why = []
    for tile in ev["allowed_by"]:
        if tile == 13:
            face_up = t.card(ev["face_up"])
            reason = f"Octopuses are Jokers while the deck's face-up card, the {face_up}, shows one"
        elif tile == 40:
            reason = f"the named {C.PIRATES[ev['ghost']]} is a Joker"
        else:
            reason = ALLOWED_BY[tile]
        why.append(f"{reason} ({C.TILE_NAMES[tile]}, T{tile})")
    return ": " + "; ".join(why) if why else ""


# What a player may decline (pina-pirata.md A21 and the tiles' "may"), by tile (0: T8/T15's play)
DECLINED = {
    0: "the extra play (Walrus Attack T8 or Shipwreck T15, A21)",
    3: "to discard a Penguin (Iceberg, T3)",
    19: "to take the card it played onto (Labyrinth, T19)",
    24: "to give the Turtle to the left (Migration, T24)",
    26: "the extra play (Rabbit Hunt, T26)",
    27: "to turn a tile face down (Old Sea Dog, T27)",
    35: "to discard a card (Favorable Current, T35)",
}


def _cards(t: _Teller, cards: list[int]) -> str:
    return ", ".join(t.card(c) for c in cards) if cards else "none"


def _table(t: _Teller, ev: dict) -> list[str]:
    """The table at the start of a turn (``EV_TABLE``), as table lines."""
    tiles = ", ".join(
        f"{C.TILE_NAMES[tile]} (T{tile}{', face down' if down else ''})"
        for tile, down in ev["tiles"]
    )
    if len(ev["tops"]) == 2:
        tops = "Action piles: " + " and ".join(t.card(c) for c in ev["tops"])
    else:
        tops = f"Action pile: {t.card(ev['tops'][0])}"
    lines = [
        f"Table at the start of Seat {ev['seat']}'s turn: {tops}; tiles in play: "
        f"{tiles or 'none'}; deck: {_n(ev['deck'], 'card')}."
    ]
    for s, hand in enumerate(ev["hands"]):
        held = _n(len(hand), "card")
        if t.view.shows_hand(s):
            held += f" ({_cards(t, hand)})"
        if ev["shown"][s] >= 0:
            held += f", face up: {t.card(ev['shown'][s])} (Moonlight, T33)"
        count = f"rounds won: {ev['rounds_won'][s]}" if t.cruise else f"map pieces: {ev['maps'][s]}"
        lines.append(f"Seat {s}: {held}; in front: {_cards(t, ev['front'][s])}; {count}.")
    if ev["aside"]:  # T11's set-aside cards: their faces only when they lie face up (A15)
        what = f" face up: {_cards(t, ev['aside'])}" if ev["aside_face_up"] else " face down"
        lines.append(f"Set aside by Bayou (T11): {_n(len(ev['aside']), 'card')},{what}.")
    return table_lines(lines)


def _turns(t: _Teller, turns: int) -> str:
    """A round's turn count as the engine counts it (turns played, ``F_ROUND_TURNS``), and the
    skipped turns (T12) it leaves out."""
    skipped = f", not counting {_n(t.skipped, 'skipped turn')}" if t.skipped else ""
    return f"{_n(turns, 'turn')}{skipped}"


def _tile(t: int) -> str:
    return f"{C.TILE_NAMES[t]} (T{t})"


def _tiles(tiles: list[int]) -> str:
    return ", ".join(_tile(x) for x in tiles) if tiles else "none"


def _tile_line(t: _Teller, ev: dict) -> str:
    tile, seat = ev["tile"], ev["seat"]
    name = _tile(tile)
    if tile == 1:
        way = "clockwise" if ev["direction"] == 1 else "counter-clockwise"
        return f"    {name}: play now runs {way}."
    if tile == 2:
        return f"    {name}: Seat {ev['to']} (on the right) takes the {t.card(ev['card'])} into their Hand."
    if tile == 4:
        return f"    {name}: Seat {seat} puts a card on top of the deck ({t.card(ev['card'])})."
    if tile == 5:
        pirate = C.PIRATES[ev["pirate"]]
        got = (
            f"gives the {t.card(ev['card'])}"
            if ev["card"] >= 0
            else "has no such card and gives nothing"
        )
        return f"    {name}: Seat {seat} names {pirate} and Seat {ev['opponent']}, who {got}."
    if tile == 8:
        return f"    {name}: Seat {seat} may play another card."
    if tile == 10:
        return f"    {name}: on Seat {seat}'s left, Seat {ev['to']} draws a card."
    if tile == 11:
        if "taken" in ev:
            if not ev["taken"]:
                return ""
            what = f" ({_cards(t, ev['cards'])})" if t.aside_face_up else ""
            return f"    {name}: Seat {seat} played no Crocodile and takes the {_n(ev['taken'], 'set-aside card')}{what}."
        if t.aside_face_up:  # A15's alternative
            return (
                f"    {name}: the deck's top card, {t.card(ev['set_aside'])}, is set aside face up."
            )
        return f"    {name}: the deck's top card is set aside face down."
    if tile == 12:
        return f"    {name}: the next player will skip their turn."
    if tile == 14:
        what = "reveals a Rabbit" if ev["revealed"] else "draws a card"
        return f"    {name}: Seat {ev['player']} {what}."
    if tile == 15:
        return f"    {name}: Seat {seat} {'draws a card and may play again' if ev['drew'] else 'chooses not to draw'}."
    if tile == 16:
        return f"    {name}: Seat {seat} gives the {t.card(ev['card'])} to Seat {ev['to']} (on the left)."
    if tile == 17:
        return f"    {name}: Seat {seat} looks at Seat {ev['frm']}'s Hand and takes the {t.card(ev['card'])}."
    if tile == 18:
        return f"    {name}: every player passes their whole Hand to the left."
    if tile == 19:
        return f"    {name}: Seat {seat} takes the {t.card(ev['card'])} it played onto."
    if tile == 20:
        pirate = C.PIRATES[ev["pirate"]]
        if ev["hit"]:
            return f"    {name}: Seat {seat} names {pirate}; the deck's top card is the {t.card(ev['card'])}: a hit, Seat {seat} discards a card."
        return f"    {name}: Seat {seat} names {pirate}; a miss, the card goes back unseen."
    if tile == 21:
        return f"    {name}: Seat {seat} slips the {t.card(ev['card'])} under the card just played, then draws."
    if tile == 22:
        return f"    {name}: Seat {seat} takes the Fake Map: it may not play its last card."
    if tile == 23:
        return f"    {name}: Seat {seat} draws two cards, then discards one."
    if tile == 24:
        return f"    {name}: Seat {seat} gives the Turtle it drew ({t.card(ev['card'])}) to Seat {ev['to']}."
    if tile == 25:
        return (
            f"    {name}: the deck's top card, the {t.card(ev['card'])}, goes onto the Action pile."
        )
    if tile == 26:
        return f"    {name}: Seat {seat} puts the {t.card(ev['card'])} in front of itself."
    if tile == 27:
        down = ev["down"]
        loses = f"; {FACE_DOWN_LOSES[down]}" if ev["held"] else ""
        if down == 37:
            t.two_piles = False
        return f"    {name}: Seat {seat} turns {_tile(down)} face down for the rest of the round{loses}."
    if tile == 30:
        return f"    {name}: Seat {ev['player']} reveals the {t.card(ev['revealed'])}."
    if tile == 40:
        return f"    {name}: Seat {seat} names {C.PIRATES[ev['pirate']]}: a Joker for everyone until the next solitary pirate."
    return f"    {name}."


def _tell_draw(t: _Teller, ev: dict, lines: list[str]) -> None:
    """A draw: a turn's own at the turn's level; one a tile causes under the tile's line, or
    named in that line when it already says the seat draws (T10, T14, T15)."""
    seat, card = ev["seat"], t.card(ev["card"])
    if ev["extra"]:  # A24: T36's extra attempt found no card to play (or drew by choice, A1)
        lines.append(
            f"  Seat {seat} draws a card ({card}) instead of an extra card (Full Sails, T36)."
        )
        return
    if not ev["tile"]:
        lines.append(f"  Seat {seat} draws a card ({card}).")
        return
    says = f"Seat {seat} draws a card"
    if lines[-1].startswith("    ") and says in lines[-1] and f"{says} (" not in lines[-1]:
        lines[-1] = lines[-1].replace(says, f"{says} ({card})", 1)
    else:
        lines.append(f"    Seat {seat} draws a card ({card}).")


def _story(spec, game: int, events: list[dict], view: TableView | None = None) -> list[str]:
    t = _Teller(spec, view)
    bots = [spec.bots[b].name for b in seat_bots(spec, game)]
    rules = ", ".join(changed_values(spec.ruleset.options, spec.rules)) or "standard rules"
    mode = "Cruise" if spec.rules["mode"] == "cruise" else "Treasure Hunt"
    lines = [
        f"Piña Pirata, game {game} of the run seeded {spec.seed}: {spec.n_players} players "
        f"({', '.join(f'Seat {s} {b}' for s, b in enumerate(bots))}), {mode} mode, {rules}."
    ]
    for ev in events:
        kind = ev["kind"]
        if kind == EV.EV_TABLE:
            if t.view is not None:
                lines += _table(t, ev)
        elif kind == EV.EV_ROUND:
            t.skipped = 0
            t.two_piles = len(ev["tops"]) == 2
            if t.two_piles:
                tops = " and ".join(f"{t.card(c)}{t.pile(p)}" for p, c in enumerate(ev["tops"]))
                tops = f"Action piles (Double Rations, T37): {tops}"
            else:
                tops = f"Action pile: {t.card(ev['tops'][0])}"
            lines.append("")
            lines.append(
                f"Round {ev['round'] + 1}: Seat {ev['dealer']} deals; Seat {ev['first']} plays first. "
                f"Tiles in play: {_tiles(ev['tiles'])}. {tops}."
            )
            for s, cards in enumerate(ev["voodoo"]):
                if cards:
                    lines.append(
                        f"    Voodoo (T39): Seat {s} has the {t.card(cards[0])} in front of it."
                    )
        elif kind == EV.EV_PLAY:
            if ev["onto"] < 0:
                played_to = f"; played to pile {ev['pile'] + 1}" if t.two_piles else ""
                where = f"in front of itself (New Captain, T38{played_to})"
            else:
                where = f"onto the {t.card(ev['onto'])}{t.pile(ev['pile'])}"
            extra = EXTRA_PLAY.get(ev["extra"], "")
            lines.append(
                f"  Seat {ev['seat']} plays the {t.card(ev['card'])} {where}{extra}"
                f"{_allowed_by(t, ev)}."
            )
        elif kind == EV.EV_DRAW:
            _tell_draw(t, ev, lines)
        elif kind == EV.EV_NO_DRAW:
            lines.append(
                f"  Seat {ev['seat']} cannot play and, with the most cards in front of it, "
                "does not draw (New Captain, T38)."
            )
        elif kind == EV.EV_DECLINE:
            what = DECLINED.get(ev["tile"], f"the effect of {_tile(ev['tile'])}")
            lines.append(f"    Seat {ev['seat']} declines {what}.")
        elif kind == EV.EV_SKIP:
            t.skipped += 1
            lines.append(f"  Seat {ev['seat']} skips its turn (Staredown, T12).")
        elif kind == EV.EV_NO_CARD:
            lines.append(f"  Seat {ev['seat']} should draw, but no card is left to draw.")
        elif kind == EV.EV_TILE:
            line = _tile_line(t, ev)
            if line:
                lines.append(line)
        elif kind == EV.EV_DISCARD:
            lines.append(
                f"    {ev['why']}: Seat {ev['seat']} discards the {t.card(ev['card'])}"
                f"{t.discarded(ev)}."
            )
        elif kind == EV.EV_WIN:
            if ev["how"] in WON_WITH:
                how = f" {WON_WITH[ev['how']]}"
            elif ev["seat"] != ev["active"]:  # win_check_any_player (R10, A5)
                how = f": its Hand is empty at the end of Seat {ev['active']}'s turn"
            else:
                how = ": its Hand is empty"
            lines.append(
                f"Seat {ev['seat']} wins round {ev['round']} after {_turns(t, ev['turns'])}{how}."
            )
        elif kind == EV.EV_CAPPED:
            if ev.get("turn_plays"):
                lines.append(
                    f"Round {ev['round']} ends with no winner: the turn reaches the round turn "
                    f"cap in plays ({_n(ev['turn_plays'], 'play')}, another extra play open; A16)."
                )
            else:
                lines.append(
                    f"Round {ev['round']} reaches the round turn cap ({_turns(t, ev['turns'])}): "
                    "no winner."
                )
        elif kind == EV.EV_ASSIGN:
            parts = []
            if ev["play"]:
                parts.append(f"puts {_tile(ev['play'])} into play")
            if ev["map"]:
                parts.append(f"keeps {_tile(ev['map'])} as a map piece")
            if ev["bottom"]:
                parts.append(f"puts {_tiles(ev['bottom'])} at the bottom of the Adventure pile")
            lines.append(f"  Seat {ev['seat']} draws the tiles and " + ", ".join(parts) + ".")
        elif kind == EV.EV_REPLACE:
            lines.append(
                f"  Six tiles are in play: {_tile(ev['added'])} replaces {_tile(ev['removed'])}, which leaves the game."
            )
        elif kind == EV.EV_RESET:
            lines.append(
                "  The tiles are shuffled together and the voyage starts again (Cruise reset)."
            )
        elif kind == EV.EV_END:
            if ev["winner"] >= 0:
                lines.append(
                    f"\nSeat {ev['winner']} holds the whole Treasure Map and finds the Golden Pineapple."
                )
            elif ev["reason"] == "cruise_over":
                lines.append("\nThe cruise is over.")
            else:
                lines.append("\nThe game's turn cap ends the game.")
        elif kind == EV.EV_RESULT:
            label = "rounds won" if spec.rules["mode"] == "cruise" else "map pieces"
            lines.append(
                "Result ("
                + label
                + "): "
                + ", ".join(
                    f"Seat {s} {score}{' (winner)' if w else ''}"
                    for s, (score, w) in enumerate(zip(ev["scores"], ev["wins"], strict=True))
                )
                + "."
            )
        else:
            raise ValueError(f"no words for event {ev}")
    return lines


def replay(spec, game: int, table: TableView | None = None) -> str:
    """The round-by-round story of game ``game`` of ``spec``, ending with the engine cross-check;
    with ``table``, table lines at each turn's start."""
    game_row, seat_rows, events = REF.play_reference(spec, game)
    lines = _story(spec, game, events, table)
    lines.append(engine_check(spec, game, game_row, seat_rows))
    return "\n".join(lines)
