"""Human-readable replay of one Piepmatz game, told from the reference's event log.

``replay(spec, game)`` plays game ``game`` of a ``runner.RunSpec`` with the plain-Python reference
(``reference.py``), turns its ``EV_*`` events into the words of ``piepmatz.md`` (perch, perched
bird, ground birds, seed column, bad cards, feeder deck, queue, collection, scoring pile), then
plays the same game on the compiled engine and says whether both outcome rows agree. The replay
tells everything, hidden cards included: it is the game's record, not a player's view.

With a ``TableView`` (``cardsim replay --table``), each turn starts with table lines
(``core/table.py``): the decks' sizes, the seed and bad-card columns, the queue, each row (perched
bird, ground birds), then a line per seat: its hand's size (the cards for the followed seat or
every seat), its scoring pile's size and the cards the squirrels took from it (public, A22) and,
as the followed seat knows it, the pile's seed cards (card for card, or those seen entering it),
and its collection.
"""

from __future__ import annotations

from cardsim.core import layout as L
from cardsim.core.options import changed_values
from cardsim.core.reference import engine_check, seat_bots
from cardsim.core.table import TableView, table_lines
from cardsim.games.piepmatz import cards as C
from cardsim.games.piepmatz import reference as REF

_TRIGGERS = {
    C.TRIGGER_CHAIN_DRAW: "a chain had to draw from the empty feeder deck (R17)",
    C.TRIGGER_REFILL: "the seed column could not be refilled from the empty feeder deck (R28)",
    C.TRIGGER_LAST_CARD: "the last feeder card was drawn (end_trigger=deck_emptied, A17)",
    C.TRIGGER_BIRDS: "a bird draw found no bird (bird_exhaustion=trigger_end, A16)",
}


def _plural(word: str) -> str:
    """English plural of a card or bird name: chaffinches, blackbirds, crows."""
    return word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {_plural(word)}"


def _and(items: list[str]) -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _bird(b: int) -> str:
    return C.bird_name(b)


def _birds(birds: list[int]) -> str:
    return _and([_bird(b) for b in birds])


def _column(values: list[int]) -> str:
    return " ".join(str(v) for v in values) if values else "empty"


class _Teller:
    def __init__(self, spec, game: int, view: TableView | None = None):
        self.view = view  # None: no table lines
        names = [spec.bots[b].name for b in seat_bots(spec, game)]
        self.labels = [f"Seat {s} ({name})" for s, name in enumerate(names)]
        self.n = spec.n_players
        self.rules = spec.rules

    def seat(self, s: int) -> str:
        return self.labels[s]


def _deal(t: _Teller, ev: dict) -> list[str]:
    lines = [f"{t.seat(ev['first'])} is the start player (R7)."]
    if ev["removed"] >= 0:
        lines.append(
            f"2 players: the {_plural(C.SPECIES_NAMES[ev['removed']])} leave the game (R4)."
        )
    perched = "; ".join(f"perch {p + 1}: {_bird(b)}" for p, b in enumerate(ev["perches"]))
    lines.append(f"Perched birds: {perched}. Queue: {_birds(ev['queue'])}.")
    lines.append(
        f"Seed column, position 1 first: {_column(ev['column'])}; "
        f"{_n(ev['feeder'], 'card')} in the feeder deck."
    )
    return lines


def _pile_known(t: _Teller, ev: dict, owner: int) -> str:
    """What the table says of a scoring pile's seed cards: all of them with ``--all-hands`` (the
    record); as the followed seat knows them (A22); nothing when no seat is followed."""
    if t.view.all_hands:
        counts, how = ev["piles"][owner], "seeds"
    elif t.view.seat is not None:
        piles, exact = ev["known"][t.view.seat]
        if not exact[owner] and not t.rules["public_scoring_piles"]:
            return ""
        counts, how = piles[owner], "seeds" if exact[owner] else "entered"
    else:
        return ""
    return f" [{how} worth 1/2/3: {'/'.join(map(str, counts))}]"


def _table(t: _Teller, ev: dict) -> list[str]:
    """The table at the start of a turn (``EV_TABLE``), as table lines."""
    bad = ", ".join(_bad_place(c) for c in ev["bad"]) or "empty"
    lines = [
        f"Table at the start of Seat {ev['seat']}'s turn: feeder deck: {_n(ev['feeder'], 'card')}; "
        f"bird deck: {_n(ev['birds'], 'card')}; seed column: {_column(ev['column'])}; "
        f"bad cards: {bad}; queue: {', '.join(map(_bird, ev['queue'])) or 'empty'}."
    ]
    for p, row in enumerate(ev["rows"]):
        ground = ", ".join(map(_bird, row[1:])) or "none"
        lines.append(f"Row {p + 1}: perch {_bird(row[0])}; ground: {ground}.")
    for s in range(t.n):
        hand = _n(ev["hand_shown"][s], "card")
        if t.view.shows_hand(s):
            hand += f" ({', '.join(map(_bird, ev['hands'][s])) or 'none'})"
        size = sum(ev["piles"][s])
        collection = ", ".join(map(_bird, ev["collections"][s])) or "none"
        lines.append(
            f"Seat {s}: hand: {hand}; scoring pile: {_n(size, 'card')}, {ev['lost'][s]} lost"
            f"{_pile_known(t, ev, s)}; collection: {collection}."
        )
    return table_lines(lines)


def _turn(t: _Teller, ev: dict) -> list[str]:
    if ev["hand_empty"]:
        return [f"Turn {ev['turn']}: {t.seat(ev['seat'])} has no card: it only draws (A16)."]
    return [f"Turn {ev['turn']}: {t.seat(ev['seat'])}."]


def _play(t: _Teller, ev: dict) -> list[str]:
    perched = C.strength_of(ev["perched"])
    compare = "greater: a chain starts" if ev["total"] > perched else "not greater"
    return [
        f"  plays {_bird(ev['bird'])} at the end of row {ev['perch'] + 1} under "
        f"{_bird(ev['perched'])}: ground total {ev['total']} against {perched}, {compare} (R11)."
    ]


def _no_chain(t: _Teller, ev: dict) -> list[str]:
    return ["  No seed card, no bird (R24)."]


def _seed(t: _Teller, ev: dict) -> list[str]:
    if ev["position"] == 0:
        return [f"  d is 5 or more: the feeder deck gives a {ev['value']}-point seed card (R16)."]
    return [f"  Takes the {ev['value']}-point seed card at position {ev['position']} (R13)."]


def _miss(t: _Teller, ev: dict) -> list[str]:
    if ev["position"] == 0:
        return ["  d is 5 or more but the feeder deck is empty: nothing (R17)."]
    return [f"  No seed card at position {ev['position']}: nothing (R14, A6)."]


def _bad_place(card: int) -> str:
    """A place of the bad-card column: its card, or an empty place below a bad card (A8's
    alternative, ``bad_cards_attached``)."""
    return C.feeder_name(card) if card != C.NO_CARD else "empty place"


def _stayed(t: _Teller, ev: dict) -> list[str]:
    cards = _and(
        [
            f"the {C.feeder_name(c)} at position {p}"
            for c, p in zip(ev["cards"], ev["positions"], strict=True)
        ]
    )
    stay = "stays" if len(ev["cards"]) == 1 else "stay"
    return [
        f"  Beside no seed card, {cards} {stay} in place: bad cards slide only with their seed "
        "cards (A8)."
    ]


def _bad(t: _Teller, ev: dict) -> list[str]:
    what = C.feeder_name(ev["card"])
    if ev["position"] == 0:
        return [f"  The feeder deck gives a {what} (R16)."]
    return [f"  The {what} beside it comes too (R14)."]


def _collect(t: _Teller, ev: dict) -> list[str]:
    return [f"  {_bird(ev['bird'])} joins its collection (R18)."]


def _crow(t: _Teller, ev: dict) -> list[str]:
    return [f"  The crow chases {_bird(ev['bird'])} out of its collection (R20)."]


def _squirrel(t: _Teller, ev: dict) -> list[str]:
    lost = ev["lost"]
    if not lost:
        return ["  The squirrel finds an empty scoring pile and leaves empty-handed (R21)."]
    cards = _and([f"a {v}-point seed card" for v in lost])
    return [
        f"  The squirrel: {t.seat(ev['drawer'])} draws {cards} from the scoring pile of "
        f"{t.seat(ev['seat'])}; they leave the game (R21)."
    ]


def _promote(t: _Teller, ev: dict) -> list[str]:
    return [
        f"  {_bird(ev['bird'])} moves up to perch {ev['perch'] + 1}; "
        f"the ground now totals {ev['ground']} (R22, R23)."
    ]


def _keep(t: _Teller, ev: dict) -> list[str]:
    if ev["bird"] < 0:
        return ["  It adds no hand card to its collection (R24)."]
    return [f"  It adds {_bird(ev['bird'])} from its hand to its collection (R24)."]


def _draw(t: _Teller, ev: dict) -> list[str]:
    if ev["source"] == "deck":
        return [f"  Draws {_bird(ev['bird'])} from the bird deck (R25)."]
    refill = f"; {_bird(ev['refill'])} refills the queue" if ev["refill"] >= 0 else ""
    return [f"  Takes {_bird(ev['bird'])} from the queue{refill} (R25)."]


def _refill(t: _Teller, ev: dict) -> list[str]:
    parts = []
    if ev["seeds"]:
        worth = _and([str(v) for v in ev["seeds"]])
        parts.append(f"{_n(len(ev['seeds']), 'seed card')} worth {worth}")
    if ev["bad"]:
        bad = _and([f"a {C.feeder_name(c)}" for c in ev["bad"]])  # in the order drawn
        parts.append(f"{bad} into the bad-card column")
    if ev["removed"]:
        parts.append(f"{_n(ev['removed'], 'bad card')} out of the game: the column is full")
    rules = "R26, R27" if ev["bad"] or ev["removed"] else "R26"
    return [f"  The feeder refills the seed column: {'; '.join(parts)} ({rules})."]


def _trigger(t: _Teller, ev: dict) -> list[str]:
    return [f"  The end is triggered: {_TRIGGERS[ev['how']]}; the round is completed (R29, R30)."]


def _discard(t: _Teller, ev: dict) -> list[str]:
    return [f"  {t.seat(ev['seat'])} discards {_birds(ev['birds'])} (R31)."]


def _end(t: _Teller, ev: dict) -> list[str]:
    why = {
        L.END_TURN_CAP: "the turn cap (a safeguard, not a rule) ends it",
        C.END_FEEDER: "the final round is over",
        C.END_BIRDS: "the final round is over",
        C.END_NO_CARDS: "no hand and no bird supply has a card left (A16)",
    }[ev["reason"]]
    return [
        f"Game over after {_n(ev['turns'], 'turn')}: {why}. "
        "The hand cards left join the collections (R31)."
    ]


def _result(t: _Teller, ev: dict) -> list[str]:
    lines = ["Scoring (R32-R36):"]
    for s in range(t.n):
        birds = ", ".join(
            f"{C.SPECIES_NAMES[k]} {count}" for k, count in enumerate(ev["birds"][s]) if count
        )
        win = " - wins" if ev["wins"][s] else ""
        pair_points = ev["scores"][s] - ev["seeds"][s] - ev["majorities"][s]
        lines.append(
            f"  {t.seat(s)}: {ev['scores'][s]} points = {ev['seeds'][s]} seeds + "
            f"{ev['majorities'][s]} majorities + {pair_points} for {_n(ev['pairs'][s], 'pair')} "
            f"[birds: {birds or 'none'}], rank {ev['ranks'][s]}{win}."
        )
    return lines + _tie_break(t, ev)


def _tie_break(t: _Teller, ev: dict) -> list[str]:
    """R36: of the players tied on the most points, the one with more bird pairs wins; still
    tied, they share the victory."""
    scores, pairs = ev["scores"], ev["pairs"]
    tied = [s for s in range(t.n) if scores[s] == max(scores)]
    if len(tied) < 2:
        return []
    names = _and([t.seat(s) for s in tied])
    winners = [s for s in tied if ev["wins"][s]]
    if len(winners) == 1:
        (w,) = winners
        return [
            f"  {names} tie on {scores[w]} points; {t.seat(w)} has the most bird pairs "
            f"({pairs[w]}) and wins (R36)."
        ]
    return [
        f"  {names} tie on {max(scores)} points; {_and([t.seat(s) for s in winners])} also tie on "
        f"{_n(pairs[winners[0]], 'bird pair')} and share the victory (R36)."
    ]


_WORDS = {
    REF.EV_TABLE: lambda t, ev: _table(t, ev) if t.view is not None else [],
    REF.EV_DEAL: _deal,
    REF.EV_TURN: _turn,
    REF.EV_PLAY: _play,
    REF.EV_NO_CHAIN: _no_chain,
    REF.EV_SEED: _seed,
    REF.EV_MISS: _miss,
    REF.EV_BAD: _bad,
    REF.EV_STAYED: _stayed,
    REF.EV_COLLECT: _collect,
    REF.EV_CROW: _crow,
    REF.EV_SQUIRREL: _squirrel,
    REF.EV_PROMOTE: _promote,
    REF.EV_KEEP: _keep,
    REF.EV_DRAW: _draw,
    REF.EV_REFILL: _refill,
    REF.EV_TRIGGER: _trigger,
    REF.EV_DISCARD: _discard,
    REF.EV_END: _end,
    REF.EV_RESULT: _result,
}


def story(spec, game: int, events: list[dict], view: TableView | None = None) -> list[str]:
    """The lines of a game's story from its events; with ``view``, its table lines too."""
    t = _Teller(spec, game, view)
    rules = ", ".join(changed_values(spec.ruleset.options, spec.rules)) or "standard rules"
    lines = [
        f"Piepmatz, game {game} of the run seeded {spec.seed}: {spec.n_players} players, {rules}."
    ]
    told_discards = False
    for ev in events:
        if ev["kind"] == REF.EV_DISCARD and not told_discards:
            lines.append("The final round is over: each seat secretly discards (R31).")
            told_discards = True
        lines += _WORDS[ev["kind"]](t, ev)
    return lines


def replay(spec, game: int, table: TableView | None = None) -> str:
    """The turn-by-turn story of game ``game`` of ``spec``, ending with the engine cross-check;
    with ``table``, table lines at each turn's start."""
    game_row, seat_rows, events = REF.play_reference(spec, game)
    lines = story(spec, game, events, table)
    lines.append(engine_check(spec, game, game_row, seat_rows))
    return "\n".join(lines)
