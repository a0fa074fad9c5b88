"""Human-readable replay of one Pajarracos game, told from the reference's event log.

``replay(spec, game)`` plays game ``game`` of a ``runner.RunSpec`` with the plain-Python reference
(``reference.py``), turns its ``EV_*`` events into the words of ``pajarracos.md`` (orchard, tree,
lone crow, flock of crows, scarecrow, juicy fruit, reserve pile), then plays the same game on the
compiled engine and says whether both outcome rows agree.

The teller keeps the tree sizes itself (a fruit event gives a tree's size after the play, an eat
event what is left), so that a crow's line can say how big the tree it lands on is and the final
orchards of a game whose tie is replayed (A14) can be shown before the replay clears the table.

With a ``TableView`` (``cardsim replay --table``), each turn starts with table lines
(``core/table.py``): the reserve pile's size, then per seat its hand's size (the cards for the
followed seat or every seat) and its orchard: each tree's kind and size, the crow card on it and
who sent it, and a scarecrow.
"""

from __future__ import annotations

from cardsim.core import layout as L
from cardsim.core.options import changed_values
from cardsim.core.reference import engine_check, seat_bots
from cardsim.core.table import TableView, table_lines
from cardsim.games.pajarracos import cards as C
from cardsim.games.pajarracos import reference as REF

_CROW_NAMES = {C.LONE: "lone crow", C.FLOCK_ON: "flock of crows"}
_CROW_SHORT = {C.LONE: "lone crow", C.FLOCK_ON: "flock"}
_SCARECROW_EVENTS = (REF.EV_PROTECT, REF.EV_SHOO_OUT, REF.EV_SHOO_TO)


def _n(count: int, word: str) -> str:
    """``_n(1, "card")`` -> "1 card", ``_n(3, "card")`` -> "3 cards"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _ordinal(i: int) -> str:
    return f"{i}{'th' if 10 <= i % 100 < 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(i % 10, 'th')}"


def _and(items: list[str]) -> str:
    """``["a", "b", "c"]`` -> "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _seats(seats: list[int]) -> str:
    return _and([f"Seat {s}" for s in seats])


def _all(count: int) -> str:
    return "its only card" if count == 1 else f"all {count} cards"


def _non_default_rules(spec) -> str:
    return ", ".join(changed_values(spec.ruleset.options, spec.rules)) or "standard rules"


def _hand(counts: list[int]) -> str:
    parts = [f"{C.card_type_name(t)} x{n}" for t, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "no cards"


class _Teller:
    """Words for one game: seat labels, trees, and the tree sizes on the table."""

    def __init__(self, spec, game: int):
        self.spec = spec
        self.n = spec.n_players
        names = [spec.bots[b].name for b in seat_bots(spec, game)]
        self.labels = [f"Seat {s} ({name})" for s, name in enumerate(names)]
        self.sizes = [[0] * C.MAX_KINDS for _ in range(self.n)]
        self.candidates = list(range(self.n))  # seats that can still win (A14 replays)

    # Names ---------------------------------------------------------------------------------------
    def seat(self, s: int) -> str:
        return self.labels[s]

    def tree(self, ref: list[int], actor: int | None = None) -> str:
        """``"Seat 0's apples"``, or ``"its apples"`` when the tree is the actor's."""
        seat, kind = ref
        owner = "its" if seat == actor else f"Seat {seat}'s"
        return f"{owner} {C.KIND_NAMES[kind]}"

    def orchard(self, sizes: list[int]) -> str:
        trees = [f"{C.KIND_NAMES[k]} {n}" for k, n in enumerate(sizes) if n]
        return ", ".join(trees) if trees else "no trees"

    def score_line(self, s: int, sizes: list[int]) -> str:
        """R25, R26: ``"cherries 3, apples 2: 5 fruit + 3 largest = 8 points, 2 kinds"``."""
        score, kinds = REF.score_and_trees(sizes)
        return (
            f"{self.orchard(sizes)}: {sum(sizes)} fruit + {max(sizes, default=0)} largest = "
            f"{_n(score, 'point')}, {_n(kinds, 'kind')}"
        )

    # Final orchards and the tie-break (R25, R26, A14) --------------------------------------------
    def tie_break(self, keys: list[tuple[int, int]], replay_ties: bool) -> str:
        """Who leads on score (R25), and how the kinds tie-break settles a tie (R26, A14); after
        a tie replay only the seats of the replay can win."""
        seats = self.candidates
        among = "" if len(seats) == self.n else f"Among {_seats(seats)}: "
        top = max(keys[s][0] for s in seats)
        tied = [s for s in seats if keys[s][0] == top]
        if len(tied) == 1:
            return f"{among}Seat {tied[0]} has the highest score, {_n(top, 'point')}."
        most = max(keys[s][1] for s in tied)
        best = [s for s in tied if keys[s][1] == most]
        head = f"{among}{_seats(tied)} tie on {_n(top, 'point')}"
        if len(best) == 1:
            others = sorted({keys[s][1] for s in tied if s not in best}, reverse=True)
            return (
                f"{head}; Seat {best[0]} wins the tie-break on kinds of fruit "
                f"({most} against {_and([str(k) for k in others])}, R26)."
            )
        kinds = "and on kinds too" if best == tied else f"and {_seats(best)} on kinds too"
        outcome = "they play another game" if replay_ties else "a shared win"
        return f"{head} {kinds} ({most} each): {outcome} (A14)."

    def final_orchards(self) -> list[str]:
        lines = ["Final orchards (score = fruit cards + the largest tree, R25):"]
        lines += [f"  {self.seat(s)}: {self.score_line(s, self.sizes[s])}." for s in range(self.n)]
        keys = [REF.score_and_trees(self.sizes[s]) for s in range(self.n)]
        replay_ties = self.spec.rules["final_tie"] == "replay"
        lines.append(self.tie_break(keys, replay_ties))
        return lines


# Events to words -----------------------------------------------------------------------------------
def _deal(t: _Teller, ev: dict) -> list[str]:
    t.sizes = [[0] * C.MAX_KINDS for _ in range(t.n)]
    first = "chosen at random, R4" if t.spec.rules["first_player"] == "random" else "first_player"
    head = "Deal" if ev["replay"] == 0 else "New deal"
    lines = [
        f"{head}: {_n(ev['reserve_left'], 'card')} left in the reserve pile; "
        f"{t.seat(ev['first'])} takes the first turn ({first})."
    ]
    lines += [f"  {t.seat(s)} holds {_hand(h)}." for s, h in enumerate(ev["hands"])]
    return lines


def _turn(t: _Teller, ev: dict) -> list[str]:
    if ev["extra"]:
        return [f"Turn {ev['turn']}, extra turn {ev['extra']}: {t.seat(ev['seat'])} acts again."]
    return [f"Turn {ev['turn']}: {t.seat(ev['seat'])}."]


def _fruit(t: _Teller, ev: dict, nxt: dict | None) -> list[str]:
    """R6-R10: a play onto a new or existing tree; a juicy card with no crow on the table."""
    seat, (owner, kind) = ev["seat"], ev["tree"]
    t.sizes[owner][kind] = ev["size"]
    count = ev["ordinary"] + ev["juicy"]
    cards = _n(count, "card")
    juicy = f" ({ev['juicy']} juicy)" if ev["juicy"] else ""
    where = "its own orchard" if owner == seat else f"Seat {owner}'s orchard"
    if ev["new"]:
        what = f"starts a tree of {C.KIND_NAMES[kind]} in {where} with {cards}{juicy}"
    else:
        what = f"plays {cards}{juicy} onto {t.tree(ev['tree'], seat)}: {ev['size']} now"
    line = f"  {t.seat(seat)} {what}."
    if ev["juicy"] and (nxt is None or nxt["kind"] != REF.EV_ATTRACT):
        if t.spec.rules["juicy_attracts_own_crows"]:
            line += " No crow is on the table: the juicy fruit counts as ordinary fruit (R10)."
        else:
            line += (
                " No crow is on another player's tree: the juicy fruit counts as ordinary fruit "
                "(R10; A4: juicy_attracts_own_crows=false)."
            )
    return [line]


def _attract(t: _Teller, ev: dict) -> list[str]:
    crow = _CROW_NAMES[ev["crow"]]
    return [
        f"  Juicy attraction: the {crow} on {t.tree(ev['source'])} flies to "
        f"{t.tree(ev['tree'])} (R10)."
    ]


def _crow(t: _Teller, ev: dict) -> list[str]:
    owner, kind = ev["tree"]
    article = "a lone crow" if ev["crow"] == C.LONE else "a flock of crows"
    return [
        f"  {t.seat(ev['seat'])} plays {article} on {t.tree(ev['tree'])} "
        f"({_n(t.sizes[owner][kind], 'card')})."
    ]


def _scarecrow(t: _Teller, ev: dict, closing: str) -> list[str]:
    """R16, R17, R19: one scarecrow of an action; ``closing`` ends the action's last one."""
    seat = ev["seat"]
    crow = _CROW_SHORT.get(ev.get("crow"))
    if ev["kind"] == REF.EV_PROTECT:
        what = f"protects {t.tree(ev['tree'], seat)} with a scarecrow for the rest of the game"
    elif ev["kind"] == REF.EV_SHOO_OUT:
        what = f"shoos the {crow} on {t.tree(ev['tree'], seat)} out of the orchard"
    else:
        what = f"shoos the {crow} from {t.tree(ev['source'], seat)} to {t.tree(ev['tree'], seat)}"
    return [f"  {t.seat(seat)} {what}{closing}."]


def _action_closing(t: _Teller, events: list[dict], i: int) -> str:
    """The end of a scarecrow action (A8), said after its last scarecrow: a shoo-to ends the turn
    (R19), else a shoo-out earns one extra turn (R18), which the player takes or declines (A17);
    begun with an empty hand it is lost, or ends the game when the reserve pile is empty too
    (A10, A13)."""
    j = i
    while j > 0 and events[j - 1]["kind"] in _SCARECROW_EVENTS:
        j -= 1
    action = [ev["kind"] for ev in events[j : i + 1]]
    if REF.EV_SHOO_TO in action:
        lost = " (no extra turn for the shoo-out, R19)" if REF.EV_SHOO_OUT in action else ""
        if t.spec.rules["shoo_to_ends_action"]:
            return f"; that ends its action and its turn at once{lost}"
        return f"; its turn ends{lost}"
    if REF.EV_SHOO_OUT not in action:
        return ""
    after = (REF.EV_EXTRA_TURN, REF.EV_END)
    extra = next((ev for ev in events[i + 1 :] if ev["kind"] in after), None)
    if extra is not None and extra["kind"] == REF.EV_END:
        return (
            "; its extra turn begins with no cards in hand and the reserve pile empty: "
            "the game ends (R23, A10)"
        )
    if extra is None or not extra["taken"]:
        return "; the extra turn is lost: its hand is empty (A10)"
    turn = events.index(extra, i + 1) + 1  # the extra turn's EV_TURN, then its first decision
    if turn + 1 < len(events) and events[turn + 1]["kind"] == REF.EV_DECLINE:
        return " and earns an extra turn, which it declines (R18, A17)"
    return " and takes an extra turn (R18)"


def _discard(t: _Teller, ev: dict) -> list[str]:
    if not ev["cards"]:
        return [f"  {t.seat(ev['seat'])} passes: discards nothing (discard_min=0, A12)."]
    counts = [ev["cards"].count(x) for x in range(C.N_TYPES)]
    return [f"  {t.seat(ev['seat'])} discards {_hand(counts)} (R20)."]


def _eat(t: _Teller, ev: dict) -> list[str]:
    """R12, R13: at the end of the owner's turn; the tree and crow card may go."""
    owner, kind = ev["tree"]
    t.sizes[owner][kind] = ev["left"]
    tree = t.tree(ev["tree"])
    sent = f" sent by Seat {ev['sender']}" if ev["sender"] >= 0 else ""
    if ev["crow"] == C.FLOCK_ON:
        return [
            f"  The flock of crows{sent} eats {tree}, {_all(ev['eaten'])}: "
            "the tree is gone and the flock is discarded (R13)."
        ]
    if ev["left"] == 0:
        return [
            f"  The lone crow{sent} eats the last of {tree}: the tree is gone and the crow "
            "card is discarded (R12)."
        ]
    return [f"  The lone crow{sent} eats one of {tree}: {ev['left']} left."]


def _draw(t: _Teller, ev: dict) -> list[str]:
    left = ev["reserve_left"]
    pile = f"{left} left in the reserve pile" if left else "the reserve pile is empty"
    return [f"  {t.seat(ev['seat'])} draws {_n(ev['cards'], 'card')}; {pile}."]


def _reserve_out(t: _Teller, ev: dict) -> list[str]:
    return [
        f"  The reserve pile runs out (after {_n(ev['turn'], 'completed turn')}): from now on "
        "players play the cards in their hands only (R22)."
    ]


def _end(t: _Teller, ev: dict) -> list[str]:
    if ev["reason"] == L.END_TURN_CAP:
        why = f"the turn cap of {_n(t.spec.turn_cap(), 'round')} (a safeguard, not a rule)"
    elif ev["reason"] == C.END_EMPTY_EXTRA_TURN:
        why = (
            f"{t.seat(ev['seat'])} has no cards in hand at the start of its extra turn and the "
            "reserve pile is empty (R23, A10)"
        )
    else:
        why = f"{t.seat(ev['seat'])} has no cards in hand at the start of its turn (R23)"
    crows = ev["crows_left"]
    left = ""
    if crows:
        where = "a tree flies" if crows == 1 else "trees fly"
        left = f"; {_n(crows, 'crow card')} on {where} away without eating (R23, R24)"
    return [f"Game over after {_n(ev['turns'], 'turn')}: {why}{left}.", *t.final_orchards()]


def _tie_replay(t: _Teller, ev: dict) -> list[str]:
    t.candidates = list(ev["seats"])
    return [
        f"Replay {ev['replays']} (final_tie=replay, A14): "
        f"{_seats(ev['seats'])} play another game; the scores reported are "
        "the first game's, the replay decides the winner among them."
    ]


def _result(t: _Teller, ev: dict) -> list[str]:
    lines = ["Result:"]
    for s in range(t.n):
        status = "WINS" if ev["wins"][s] else "-"
        lines.append(
            f"  {t.seat(s)}: {_ordinal(ev['ranks'][s])}, {status}; "
            f"{_n(ev['scores'][s], 'point')}, {_n(ev['trees'][s], 'kind')}."
        )
    winners = [t.seat(s) for s in range(t.n) if ev["wins"][s]]
    shared = " (a shared win)" if len(winners) > 1 else ""
    lines.append("Winner(s): " + (", ".join(winners) if winners else "nobody") + f"{shared}.")
    return lines


_SIMPLE = {
    REF.EV_DEAL: _deal,
    REF.EV_TURN: _turn,
    REF.EV_ATTRACT: _attract,
    REF.EV_CROW: _crow,
    REF.EV_DISCARD: _discard,
    REF.EV_EAT: _eat,
    REF.EV_DRAW: _draw,
    REF.EV_RESERVE_OUT: _reserve_out,
    REF.EV_END: _end,
    REF.EV_TIE_REPLAY: _tie_replay,
    REF.EV_RESULT: _result,
}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


CROW_ON = {C.LONE: "lone crow", C.FLOCK_ON: "flock of crows"}


def _tree(kind: int, size: int, crow: int, sender: int, scarecrow: bool) -> str:
    marks = [f"{CROW_ON[crow]} sent by Seat {sender}"] if crow != C.NO_CROW else []
    marks += ["scarecrow"] if scarecrow else []
    return f"{C.KIND_NAMES[kind]} {size}" + (f" [{', '.join(marks)}]" if marks else "")


def _table(view: TableView, ev: dict) -> list[str]:
    """The table at the start of a turn (``EV_TABLE``), as table lines."""
    lines = [
        f"Table at the start of Seat {ev['seat']}'s turn: reserve pile: {_cards(ev['reserve'])}."
    ]
    for s, hand in enumerate(ev["hands"]):
        held = _cards(sum(hand))
        if view.shows_hand(s):
            cards = ", ".join(f"{C.card_type_name(t)} x{n}" for t, n in enumerate(hand) if n)
            held += f" ({cards or 'none'})"
        trees = ", ".join(
            _tree(kind, *tree)
            for kind, tree in enumerate(ev["trees"][s])
            if tree[0] or tree[1] != C.NO_CROW or tree[3]
        )
        lines.append(f"Seat {s}: hand: {held}; orchard: {trees or 'none'}.")
    return table_lines(lines)


def _story(spec, game: int, events: list[dict], view: TableView | None = None) -> list[str]:
    t = _Teller(spec, game)
    lines = [
        f"Pajarracos, game {game} of the run seeded {spec.seed}: {spec.n_players} players, "
        f"{_non_default_rules(spec)}.",
    ]
    for i, ev in enumerate(events):
        kind = ev["kind"]
        if kind == REF.EV_TABLE:
            lines += _table(view, ev) if view is not None else []
        elif kind == REF.EV_TURN and ev["extra"] and events[i + 1]["kind"] == REF.EV_DECLINE:
            continue  # a declined extra turn is told with the shoo-out that earned it
        elif kind in _SIMPLE:
            lines += _SIMPLE[kind](t, ev)
        elif kind == REF.EV_FRUIT:
            lines += _fruit(t, ev, events[i + 1] if i + 1 < len(events) else None)
        elif kind in _SCARECROW_EVENTS:
            last = i + 1 == len(events) or events[i + 1]["kind"] not in _SCARECROW_EVENTS
            lines += _scarecrow(t, ev, _action_closing(t, events, i) if last else "")
        elif kind not in (REF.EV_EXTRA_TURN, REF.EV_DECLINE):  # told with the shoo-out too
            raise ValueError(f"no words for event {ev}")
    return lines


def replay(spec, game: int, table: TableView | None = None) -> str:
    """The turn-by-turn story of game ``game`` of ``spec``, ending with the engine cross-check;
    with ``table``, table lines at each turn's start."""
    game_row, seat_rows, events = REF.play_reference(spec, game)
    lines = _story(spec, game, events, table)
    lines.append(engine_check(spec, game, game_row, seat_rows))
    return "\n".join(lines)
