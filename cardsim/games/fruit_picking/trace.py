"""Human-readable replay of one Fruit Picking game, told from the reference's event log.

``replay(spec, game)`` plays game ``game`` of a ``runner.RunSpec`` with the plain-Python reference
(``reference.py``), turns its events into the words a player uses (``fruit-picking.md`` terms:
farm, storage, House, target card, market, stack), then plays the same game on the compiled engine
and says whether both outcome rows agree. With a ``TableView`` (``cardsim replay --table``), each
turn starts with table lines (``core/table.py``): the market (each slot's fruit and price) and the
stack's size, then each seat's farm (seeds per position, the House first), storage and the market
cards it owns per fruit. Everything in Fruit Picking is open, so every seat is shown whole.
"""

from __future__ import annotations

from cardsim.core import layout as L
from cardsim.core.options import changed_values
from cardsim.core.reference import engine_check, seat_bots
from cardsim.core.table import TableView, table_lines
from cardsim.games.fruit_picking import cards as C
from cardsim.games.fruit_picking import reference as REF


def _kind(kind: int) -> str:
    return C.KIND_NAMES[kind]


def _n(count: int, word: str) -> str:
    """``_n(1, "seed")`` -> "1 seed", ``_n(3, "seed")`` -> "3 seeds"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# Why a game ends, in the rulebook's words (cards.END_REASONS)
END_WORDS = {
    L.END_TURN_CAP: "the turn cap ends it (a safeguard, not a rule)",
    C.END_SET_COMPLETED: "a set was completed (R21)",
    C.END_STACK_EXHAUSTED: "the last card was drawn from the market stack (R21, A7)",
    C.END_CARDS_BOUGHT: "a player owns the cards that end a beginners' game (V3, A15)",
}
assert len(END_WORDS) == len(C.END_REASONS)


class _Teller:
    """Words for one game: seat labels, farm positions and market cards."""

    def __init__(self, spec, game: int, farm: list[int]):
        self.spec = spec
        names = [spec.bots[b].name for b in seat_bots(spec, game)]
        self.seats = [f"Seat {s} ({name})" for s, name in enumerate(names)]
        self.farm = farm
        self.per_kind = spec.rules["market_cards_per_kind"]
        self.umbrella_per_kind = spec.rules["umbrella_per_kind"]
        self.umbrella = spec.rules["variant_umbrella"]
        self.qualified = "completed a set, R22"  # who competes for the win
        if spec.rules["variant_beginners"]:  # A15
            owns = f"owns {spec.rules['beginner_cards_to_end']} market cards"
            sets = " or a set" if spec.rules["beginner_sets_end_game"] else ""
            self.qualified = f"{owns}{sets}, A15"
        _, surcharge = REF.market_layout(spec.rules)
        self.slot_names = [f"+{x}" for x in surcharge]

    def seat(self, s: int) -> str:
        return self.seats[s]

    def pos(self, p: int) -> str:
        return "the House" if p == 0 else f"{_kind(self.farm[p])} (position {p})"

    def card(self, card: int) -> str:
        mark = (
            " with umbrella"
            if self.umbrella and card % self.per_kind < self.umbrella_per_kind
            else ""
        )
        return f"{_kind(card // self.per_kind)} card #{card}{mark}"

    def slot(self, s: int) -> str:
        return f"slot {s} ({self.slot_names[s]})"

    def market(self, ev: dict) -> str:
        parts = []
        for s, (card, price) in enumerate(zip(ev["cards"], ev["prices"], strict=True)):
            what = "empty" if card < 0 else f"{_kind(card // self.per_kind)} for {price}"
            parts.append(f"[{self.slot_names[s]}] {what}")
        return " | ".join(parts) + f"; {_n(ev['stack_left'], 'card')} in the stack"

    def farm_line(self, seeds: list[int], storage: int) -> str:
        cells = ", ".join(
            f"{'House' if p == 0 else _kind(self.farm[p])} {n}" for p, n in enumerate(seeds)
        )
        return f"farm now: {cells}; storage {storage}"


def _sets(bits: int) -> str:
    return ", ".join(name for i, name in enumerate(C.SET_NAMES) if bits & (1 << i))


def _non_default_rules(spec) -> str:
    return ", ".join(changed_values(spec.ruleset.options, spec.rules)) or "standard rules"


def _table(ev: dict) -> list[str]:
    """The table at the start of a turn (``EV_TABLE``), as table lines."""
    market = ", ".join(
        "empty" if slot is None else f"{_kind(slot[0])} for {slot[1]}" for slot in ev["market"]
    )
    lines = [
        f"Table at the start of Seat {ev['seat']}'s turn: market: {market}; "
        f"stack: {_n(ev['stack'], 'card')}."
    ]
    for s, seeds in enumerate(ev["seeds"]):
        owned = ", ".join(f"{_kind(k)} {n}" for k, n in enumerate(ev["owned"][s]))
        lines.append(
            f"Seat {s}: farm, House first: {' '.join(map(str, seeds))}; "
            f"storage: {ev['storage'][s]}; cards: {owned}."
        )
    return table_lines(lines)


def _story(spec, game: int, events: list[dict], view: TableView | None = None) -> list[str]:
    setup = events[0]
    t = _Teller(spec, game, setup["farm"])
    lines = [
        f"Fruit Picking, game {game} of the run seeded {spec.seed}: {spec.n_players} players, "
        f"{_non_default_rules(spec)}.",
        "Farm, clockwise from the House (same for everyone): "
        + ", ".join(f"{p} {'House' if p == 0 else _kind(k)}" for p, k in enumerate(setup["farm"]))
        + ".",
        f"{t.seat(setup['first'])} is the initial player.",
    ]
    for ev in events[1:]:
        k = ev["kind"]
        if k == REF.EV_TABLE:
            if view is not None:
                lines += _table(ev)
        elif k == REF.EV_UMBRELLA:
            who = ", ".join(f"{t.seat(s)} +{n}" for s, n in enumerate(ev["seeds"]))
            lines.append(
                f"  Umbrella! The {t.card(ev['card'])} was drawn: each player moves seeds "
                f"from storage onto their {_kind(ev['kind_code'])} card ({who})."
            )
        elif k == REF.EV_MARKET:
            label = "Market" if ev["after"] == "setup" else "  Market now"
            lines.append(f"{label}: {t.market(ev)}.")
        elif k == REF.EV_TURN:
            lines.append(f"Turn {ev['turn']}: {t.seat(ev['seat'])}.")
        elif k == REF.EV_NO_SEEDS:
            why = (
                "the House was the target and no other card holds seeds"
                if ev["after_repeat"]
                else "no farm card except the House holds seeds"
            )
            where = ", ".join(str(p) for p in ev["placed"]) or "none"
            if spec.rules["no_seed_rule"] == "2020":
                house = ", ".join(str(p) for p in ev["house_placed"])
                short = f", the House's for position(s) {house}" if house else ""
                lines.append(
                    f"  No seeds to pick up ({why}): 1 seed each on position(s) {where}, from "
                    f"storage{short} (the 2020 procedure, A11). Turn over."
                )
            else:
                lines.append(
                    f"  No seeds to pick up ({why}): {_n(ev['from_house'], 'seed')} from the "
                    f"House to storage, then 1 seed each on position(s) {where}. Turn over."
                )
        elif k == REF.EV_PLANT:
            path = ", ".join(str(p) for p in ev["path"])
            lines.append(
                f"  Plants {_n(ev['seeds'], 'seed')} from {t.pos(ev['origin'])} onto "
                f"{'position' if len(ev['path']) == 1 else 'positions'} {path}; "
                f"the target is {t.pos(ev['target'])}."
            )
        elif k == REF.EV_HOUSE_REPEAT:
            lines.append("  The House is the target: no watering or buying, plant again.")
        elif k == REF.EV_WATER:
            lines.append(
                f"  Waters {t.pos(ev['target'])}: {_n(ev['amount'], 'seed')} from storage."
            )
        elif k == REF.EV_BUY:
            lines.append(
                f"  Buys the {t.card(ev['card'])} from {t.slot(ev['slot'])} for "
                f"{_n(ev['price'], 'seed')} from the House; {_n(ev['returned'], 'seed')} on "
                f"{t.pos(ev['target'])} back to storage."
            )
        elif k == REF.EV_MARKET_OP:
            if ev["used"]:
                a, b = ev["drawn"]
                lines.append(
                    f"  Market operation: pays {_n(ev['paid'], 'seed')}, draws the {t.card(a)} "
                    f"and the {t.card(b)}, keeps the {t.card(ev['kept'])}; the other goes "
                    "to the bottom of the stack."
                )
            else:
                lines.append("  Declines the market operation and draws one card.")
        elif k == REF.EV_SET:
            lines.append(f"  {t.seat(ev['seat'])} completes a set: {_sets(ev['sets'])}.")
        elif k == REF.EV_TRIGGER:
            who = "during setup" if ev["seat"] < 0 else f"by {t.seat(ev['seat'])}"
            lines.append(
                f"  The end is triggered {who}: {END_WORDS[ev['reason']]}; the round is completed."
            )
        elif k == REF.EV_TURN_END:
            lines.append(f"  {t.farm_line(ev['seeds'], ev['storage'])}.")
        elif k == REF.EV_END:
            lines.append(f"Game over after {ev['turns']} turns: {END_WORDS[ev['reason']]}.")
        elif k == REF.EV_RESULT:
            for s in range(spec.n_players):
                owned = ", ".join(
                    f"{_kind(kind)} x{n}" for kind, n in enumerate(ev["cards"][s]) if n
                )
                status = "WINS" if ev["wins"][s] else "-"
                qual = f" ({t.qualified})" if ev["qualifies"][s] else ""
                in_set = ""
                if ev["tiebreak_fruits"][s] != ev["fruits"][s]:  # tiebreak_fruits=set_cards
                    in_set = f", {ev['tiebreak_fruits'][s]} on the cards of its best set (A9)"
                lines.append(
                    f"  {t.seat(s)}: rank {ev['ranks'][s]}, {status}{qual}; "
                    f"{ev['fruits'][s]} fruits ({owned or 'no cards'}){in_set}, "
                    f"{ev['farm_seeds'][s]} seeds on the farm."
                )
            winners = [t.seat(s) for s in range(spec.n_players) if ev["wins"][s]]
            lines.append("Winner(s): " + (", ".join(winners) if winners else "nobody") + ".")
    return lines


def replay(spec, game: int, table: TableView | None = None) -> str:
    """The turn-by-turn story of game ``game`` of ``spec``, ending with the engine cross-check;
    with ``table``, table lines at each turn's start."""
    game_row, seat_rows, events = REF.play_reference(spec, game)
    lines = _story(spec, game, events, table)
    lines.append(engine_check(spec, game, game_row, seat_rows))
    return "\n".join(lines)
