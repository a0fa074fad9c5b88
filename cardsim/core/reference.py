"""What every plain-Python reference implementation shares with the play loop's rules
(``kernel.py``): the game's two random streams, asking a compiled bot only when two or more
decisions are legal, playing game ``i`` of a run, and checking a replayed game against the
compiled engine.

A ruleset's ``reference.py`` keeps its own rules; it plays a ``RunSpec``'s game through
``play_reference(spec, game, ReferenceGame)``, whose game class takes
``(values, n_players, seed, game, bots=, bot_params=, turn_cap=)`` and has ``play()``,
``log_result()``, ``outcome_rows()`` and ``events``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardsim.core.bots import params_matrix
from cardsim.core.errors import CardsimError
from cardsim.core.rng import BOT_STREAM, CHANCE_STREAM, PyStream, py_stream_start


def streams(seed: int, game: int) -> tuple[PyStream, PyStream]:
    """The (chance, bot) streams of game ``game`` of a run seeded ``seed``."""
    return (
        PyStream(py_stream_start(seed, game, CHANCE_STREAM)),
        PyStream(py_stream_start(seed, game, BOT_STREAM)),
    )


def ask_bot(
    bot, obs: np.ndarray, legal: Sequence[int], params: np.ndarray, stream: PyStream, width: int
) -> int:
    """The index in ``legal`` a compiled bot chooses, drawing from (and advancing) ``stream`` as
    the play loop does; ``width`` is the ruleset's legal buffer length."""
    buf = np.zeros(width, np.int32)
    buf[: len(legal)] = legal
    rng = np.array([stream.state], np.uint64)
    choice = int(bot(obs, buf, len(legal), params, rng))
    stream.state = int(rng[0])
    if not 0 <= choice < len(legal):
        name = getattr(bot, "__name__", "a bot")
        raise CardsimError(
            f"bot {name!r} answered {choice}, outside its {len(legal)} legal decisions "
            f"(0..{len(legal) - 1})"
        )
    return choice


def seat_bots(spec, game: int) -> list[int]:
    """Index into ``spec.bots`` of the bot of each seat in game ``game`` (seating table row)."""
    table = spec.seat_bot_table
    return [int(b) for b in table[game % len(table)][: spec.n_players]]


def play_reference(
    spec, game: int, game_class: Callable[..., Any]
) -> tuple[np.ndarray, np.ndarray, list[dict]]:
    """Play game ``game`` of ``spec`` (a ``runner.RunSpec``) with a reference game class; returns
    ``(game_row, seat_rows, events)`` as the ruleset's ``outcome_rows`` gives them."""
    params = params_matrix(list(spec.bots))
    which = seat_bots(spec, game)
    search = search_deciders(spec)
    ref = game_class(
        spec.rules,
        spec.n_players,
        spec.seed,
        game,
        bots=[search.get(b, spec.bots[b].fn) for b in which],
        bot_params=[np.ascontiguousarray(params[b]) for b in which],
        turn_cap=spec.turn_cap(),
    )
    ref.play()
    ref.log_result()
    game_row, seat_rows = ref.outcome_rows()
    SEARCH_LOG.clear()
    for b, decider in search.items():
        SEARCH_LOG.extend((spec.bots[b].name, *entry) for entry in decider.log)
    SEARCH_LOG.sort(key=lambda entry: entry[1])
    return game_row, seat_rows, ref.events


SEARCH_LOG: list[tuple[str, int, int, int, float]] = []
"""The search bots' decisions of the last ``play_reference``: (bot, turn, seat, decision code,
root visit share), in turn order; ``cardsim replay`` prints them."""


def search_deciders(spec) -> dict:
    """Index in ``spec.bots`` -> a plain-Python caller of each search bot (``ismcts``)."""
    if not any(bot.search for bot in spec.bots):
        return {}
    from cardsim.core.search_replay import SearchDecider

    return {b: SearchDecider(spec) for b, bot in enumerate(spec.bots) if bot.search}


ENGINE_AGREES = "Engine check: the compiled engine's outcome row equals the reference's."


def engine_check(spec, game: int, game_row: np.ndarray, seat_rows: np.ndarray) -> str:
    """Play the same game on the compiled engine and compare its outcome rows with the
    reference's: the last line of every replay."""
    from cardsim.core import runner
    from cardsim.core.outcomes import game_column_names, seat_column_names

    one = dataclasses.replace(spec, first_game=game, n_games=1)
    chunk = next(iter(runner.iter_chunks(one)))
    eg, es = chunk.game_out[0], chunk.seat_out[0]
    if np.array_equal(eg, game_row) and np.array_equal(es, seat_rows):
        return ENGINE_AGREES
    diffs = [
        f"{name} engine {eg[j]} vs reference {game_row[j]}"
        for j, name in enumerate(game_column_names(spec.ruleset))
        if eg[j] != game_row[j]
    ]
    for s in range(es.shape[0]):
        diffs += [
            f"seat {s} {name} engine {es[s, j]} vs reference {seat_rows[s, j]}"
            for j, name in enumerate(seat_column_names(spec.ruleset))
            if es[s, j] != seat_rows[s, j]
        ]
    return "WARNING: the compiled engine disagrees with the reference: " + "; ".join(diffs)
