"""What the replay-table tests share: a game of a run played by the reference with the replay's
bots, its decisions replayed on the compiled engine (``RULESET.kernels()``'s ``deal``/``step``,
with the play loop's turn-cap check), and the table blocks of a story cut out of its text.

A table event is checked against the engine when it is the last event the reference logged
before a real choice (two or more legal decisions): the reference then stands where the engine
stands after the same decisions (the lockstep tests prove the two states equal there). A forced
decision may be applied by the engine itself (kernel.py's contract), so none is compared.
"""

from __future__ import annotations

import numpy as np

from cardsim.core import kernel, reference
from cardsim.core import layout as L
from cardsim.core.rng import CHANCE_STREAM, stream_start
from cardsim.core.table import TABLE_MARK


def recorded(game_class):
    """``game_class`` whose ``marks`` list (events logged so far, code, legal codes) for every
    decision."""

    class Recorded(game_class):
        def __init__(self, *args, **kwargs):
            self.marks: list[tuple[int, int, int]] = []
            super().__init__(*args, **kwargs)

        def apply(self, code: int) -> None:
            self.marks.append((len(self.events), int(code), len(self.legal())))
            super().apply(code)

    return Recorded


def play_recorded(spec, game: int, game_class, quiet: tuple[str, ...] = ()):
    """``(events, {event index: engine state})``: game ``game`` of ``spec`` on the reference with
    the replay's bots, and the compiled engine's state (a copy) at each table event (kind
    ``"table"``) logged just before a decision, or before events of the ``quiet`` kinds only
    (events that change nothing, such as Piepmatz's turn line)."""
    cls = recorded(game_class)
    made = []

    def make(*args, **kwargs):
        made.append(cls(*args, **kwargs))
        return made[-1]

    _, _, events = reference.play_reference(spec, game, make)
    marks = made[0].marks
    deal, step, _, _ = spec.ruleset.kernels()
    rules = spec.ruleset.encode_rules(spec.rules, spec.n_players)
    state = np.zeros(spec.ruleset.state_len, np.int32)
    legal = np.zeros(spec.ruleset.legal_len, np.int32)
    state[L.H_CAP_TURNS] = spec.turn_cap() * spec.n_players
    rng = np.array([stream_start(spec.seed, game, CHANCE_STREAM)], np.uint64)
    n = deal(state, rules, spec.n_players, rng, legal)
    if n == 1 and legal[0] < 0:
        n = step(state, rules, legal[0], rng, legal)  # the loop's first step, no decision (C_BEGIN)
    at = {}
    for logged, code, n_legal in marks:
        if n_legal == 1 and not (n == 1 and legal[0] == code):
            continue  # a forced decision the engine applied itself (kernel.py's contract)
        last = logged - 1
        while last >= 0 and events[last]["kind"] in quiet:
            last -= 1
        if n_legal > 1 and last >= 0 and events[last]["kind"] == "table" and last not in at:
            # the turn's first real choice (the engine stops there, kernel.py); later ones of
            # the turn may come before the next event (a discard is told when it stops)
            at[last] = state.copy()
        n = step(state, rules, code, rng, legal)
        kernel.end_turn_cap_reached(state)
    return events, at


def table_blocks(text: str) -> list[list[str]]:
    """The table blocks of a story: runs of lines starting ``TABLE_MARK``, mark removed; a block
    starts at each ``Table at`` line."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if not line.startswith(TABLE_MARK):
            continue
        line = line[len(TABLE_MARK) :]
        if line.startswith("Table at"):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def assert_tables_match(story, events, engine_states, view, parse, engine_table, share=2) -> list:
    """``story(view)``: the story's lines with table lines for ``view``. Its own lines stay as
    without a view; it holds one table block per table event; each block compared with the engine
    (``engine_states``) reads back (``parse``) equal to ``engine_table(state, view)``, and more
    than 1/``share`` of them are compared. Returns the parsed blocks."""
    text = "\n".join(story(view))
    plain = "\n".join(story(None)).splitlines()
    assert [line for line in text.splitlines() if not line.startswith(TABLE_MARK)] == plain
    tables = [i for i, ev in enumerate(events) if ev["kind"] == "table"]
    blocks = table_blocks(text)
    assert len(blocks) == len(tables) > 5
    told, checked = [], 0
    for i, block in zip(tables, blocks, strict=True):
        told.append(parse(block))
        if i in engine_states:
            assert told[-1] == engine_table(engine_states[i], view), f"event {i}: {block}"
            checked += 1
    assert checked > len(tables) // share
    return told
