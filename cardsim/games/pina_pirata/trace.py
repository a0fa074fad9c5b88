"""Human-readable replay of one Piña Pirata game, round by round, told from the reference's event
log in the words of ``pina-pirata.md`` (Action pile, deck, Adventure tiles, map pieces).

``replay(spec, game)`` plays game ``game`` of a ``runner.RunSpec`` with the plain-Python reference
(``reference.py``), tells its ``EV_*`` events, then plays the same game on the compiled engine and
says whether both outcome rows agree.
"""

from __future__ import annotations

from cardsim.core.options import changed_values
from cardsim.core.reference import engine_check, seat_bots
from cardsim.games.pina_pirata import cards as C
from cardsim.games.pina_pirata import reference as REF


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class _Teller:
    def __init__(self, spec):
        self.masks = C.card_masks(spec.rules["pirate_types"], spec.rules["solitary_per_type"])
        self.two_piles = False

    def card(self, card: int) -> str:
        return C.card_name(self.masks[card]) if card >= 0 else "nothing"


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
        return f"    {name}: Seat {ev['to']} (on the left) draws a card."
    if tile == 11:
        if "taken" in ev:
            if not ev["taken"]:
                return ""
            return f"    {name}: Seat {seat} played no Crocodile and takes the {_n(ev['taken'], 'set-aside card')}."
        return f"    {name}: the deck's top card is set aside face down."
    if tile == 12:
        return f"    {name}: the next player will skip their turn."
    if tile == 14:
        what = "reveals a Rabbit" if ev["revealed"] else "draws a card"
        return f"    {name}: Seat {ev['player']} {what}."
    if tile == 15:
        return f"    {name}: Seat {seat} {'draws a card and may play again' if ev['drew'] else 'draws nothing'}."
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
    if tile == 24:
        return f"    {name}: Seat {seat} gives the Turtle it drew ({t.card(ev['card'])}) to Seat {ev['to']}."
    if tile == 25:
        return (
            f"    {name}: the deck's top card, the {t.card(ev['card'])}, goes onto the Action pile."
        )
    if tile == 26:
        return f"    {name}: Seat {seat} puts the {t.card(ev['card'])} in front of itself."
    if tile == 27:
        return f"    {name}: Seat {seat} turns {_tile(ev['down'])} face down for the rest of the round."
    if tile == 30:
        return f"    {name}: Seat {ev['player']} reveals the {t.card(ev['revealed'])}."
    if tile == 40:
        return f"    {name}: Seat {seat} names {C.PIRATES[ev['pirate']]}: a Joker for everyone until the next solitary pirate."
    return f"    {name}."


def _story(spec, game: int, events: list[dict]) -> list[str]:
    t = _Teller(spec)
    bots = [spec.bots[b].name for b in seat_bots(spec, game)]
    rules = ", ".join(changed_values(spec.ruleset.options, spec.rules)) or "standard rules"
    mode = "Cruise" if spec.rules["mode"] == "cruise" else "Treasure Hunt"
    lines = [
        f"Piña Pirata, game {game} of the run seeded {spec.seed}: {spec.n_players} players "
        f"({', '.join(f'Seat {s} {b}' for s, b in enumerate(bots))}), {mode} mode, {rules}."
    ]
    for ev in events:
        kind = ev["kind"]
        if kind == REF.EV_ROUND:
            tops = " and ".join(t.card(c) for c in ev["tops"])
            lines.append("")
            lines.append(
                f"Round {ev['round'] + 1}: Seat {ev['dealer']} deals; Seat {ev['first']} plays first. "
                f"Tiles in play: {_tiles(ev['tiles'])}. Action pile: {tops}."
            )
            for s, cards in enumerate(ev["voodoo"]):
                if cards:
                    lines.append(
                        f"    Voodoo (T39): Seat {s} has the {t.card(cards[0])} in front of it."
                    )
        elif kind == REF.EV_PLAY:
            where = (
                "in front of itself (New Captain, T38)"
                if ev["onto"] < 0
                else f"onto the {t.card(ev['onto'])}"
            )
            pile = f" (pile {ev['pile'] + 1})" if ev["pile"] else ""
            lines.append(f"  Seat {ev['seat']} plays the {t.card(ev['card'])} {where}{pile}.")
        elif kind == REF.EV_DRAW:
            lines.append(f"  Seat {ev['seat']} draws a card ({t.card(ev['card'])}).")
        elif kind == REF.EV_NO_CARD:
            lines.append(f"  Seat {ev['seat']} should draw, but no card is left to draw.")
        elif kind == REF.EV_TILE:
            line = _tile_line(t, ev)
            if line:
                lines.append(line)
        elif kind == REF.EV_DISCARD:
            lines.append(f"    {ev['why']}: Seat {ev['seat']} discards the {t.card(ev['card'])}.")
        elif kind == REF.EV_WIN:
            lines.append(
                f"Seat {ev['seat']} wins round {ev['round']} after {_n(ev['turns'], 'turn')}."
            )
        elif kind == REF.EV_CAPPED:
            if ev.get("turn_plays"):
                lines.append(
                    f"Round {ev['round']} ends with no winner: the turn reaches the round turn "
                    f"cap in plays ({_n(ev['turn_plays'], 'play')}, another extra play open; A16)."
                )
            else:
                lines.append(
                    f"Round {ev['round']} reaches the round turn cap ({_n(ev['turns'], 'turn')}): no winner."
                )
        elif kind == REF.EV_ASSIGN:
            parts = []
            if ev["play"]:
                parts.append(f"puts {_tile(ev['play'])} into play")
            if ev["map"]:
                parts.append(f"keeps {_tile(ev['map'])} as a map piece")
            if ev["bottom"]:
                parts.append(f"puts {_tiles(ev['bottom'])} at the bottom of the Adventure pile")
            lines.append(f"  Seat {ev['seat']} draws the tiles and " + ", ".join(parts) + ".")
        elif kind == REF.EV_REPLACE:
            lines.append(
                f"  Six tiles are in play: {_tile(ev['added'])} replaces {_tile(ev['removed'])}, which leaves the game."
            )
        elif kind == REF.EV_RESET:
            lines.append(
                "  The tiles are shuffled together and the voyage starts again (Cruise reset)."
            )
        elif kind == REF.EV_END:
            if ev["winner"] >= 0:
                lines.append(
                    f"\nSeat {ev['winner']} holds the whole Treasure Map and finds the Golden Pineapple."
                )
            elif ev["reason"] == "cruise_over":
                lines.append("\nThe cruise is over.")
            else:
                lines.append("\nThe game's turn cap ends the game.")
        elif kind == REF.EV_RESULT:
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


def replay(spec, game: int) -> str:
    """The round-by-round story of game ``game`` of ``spec``, ending with the engine cross-check."""
    game_row, seat_rows, events = REF.play_reference(spec, game)
    lines = _story(spec, game, events)
    lines.append(engine_check(spec, game, game_row, seat_rows))
    return "\n".join(lines)
