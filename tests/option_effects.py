"""What every engine-against-reference configuration must show (issue 36): each rule option it
sets took effect in its games. Shared by ``tests/test_GAME_reference.py``.

An option took effect when putting it back to its default, alone, changes the engine's outcome
rows on the same seeds, players and bots: the games played differ, so the option was read and
mattered in them. The engine's rows are enough here: the same file shows they equal the
reference's game by game. An option that only changes what the players see (piepmatz.md A22,
"for agents only") cannot change the rows while no built-in heuristic bot reads that part of
its view; it took effect when some observation handed to a bot differs (on the reference).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from cardsim.core import runner
from cardsim.core.errors import CardsimError


def engine_rows(game: str, rules: dict, players: int, bots, games: int, seed: int):
    """(game rows, seat rows) of the compiled engine for this configuration, every chunk."""
    spec = runner.make_spec(game, games, players, bots, rules, seed=seed)
    chunks = list(runner.iter_chunks(spec))
    games_out = np.concatenate([c.game_out for c in chunks])
    return games_out, np.concatenate([c.seat_out for c in chunks])


def bot_views(spec, game: int, play_reference) -> list[np.ndarray]:
    """Every observation handed to a bot in game ``game`` of ``spec``, played by the reference
    (``play_reference(spec, game)``), in order."""
    seen = []

    def watching(fn):
        def bot(obs, *rest):
            seen.append(obs.copy())  # before the bot writes its scratch room
            return fn(obs, *rest)

        return bot

    watched = tuple(dataclasses.replace(b, fn=watching(b.fn)) for b in spec.bots)
    play_reference(dataclasses.replace(spec, bots=watched), game)
    return seen


def _views_differ(game, rules, alt_rules, players, bots, games, seed, play_reference) -> bool:
    specs = [runner.make_spec(game, games, players, bots, r, seed=seed) for r in (rules, alt_rules)]
    for g in range(games):  # stops at the first game that shows it
        a, b = (bot_views(spec, g, play_reference) for spec in specs)
        if len(a) != len(b) or any(not np.array_equal(x, y) for x, y in zip(a, b, strict=True)):
            return True
    return False


def assert_options_took_effect(
    game: str,
    rules: dict,
    players: int,
    bots,
    games: int,
    seed: int,
    rows,
    context=(),
    seen_only=(),
    play_reference=None,
) -> None:
    """Each option of ``rules`` (but those in ``context``, which only set a case up) changes
    ``rows`` (the engine's rows of the configuration) when put back to its default alone; an
    option in ``seen_only`` (it changes only what players see) changes instead some observation
    handed to a bot in the reference's games (``play_reference``). A key whose default alone
    makes an invalid configuration (a deck too small for the hands) is judged with the others;
    at least one key must be judged."""
    keys = [k for k in rules if k not in context] or list(rules)
    shown = []
    for key in keys:
        alt_rules = {k: v for k, v in rules.items() if k != key}
        try:
            alt = engine_rows(game, alt_rules, players, bots, games, seed)
        except CardsimError:
            continue
        if key in seen_only:
            args = (game, rules, alt_rules, players, bots, games, seed, play_reference)
            assert _views_differ(*args), f"rule option {key} changed nothing the bots saw"
        else:
            same = np.array_equal(alt[0], rows[0]) and np.array_equal(alt[1], rows[1])
            assert not same, f"rule option {key} changed nothing in these games"
        shown.append(key)
    assert shown or not rules, f"no option of {rules} could be put back to its default alone"


def assert_lockstep_options_shown(lockstep_rules, whole_game_rules) -> None:
    """Lockstep cases play random decisions and are not checked for effect themselves: every
    option they set must be set by a whole-game configuration too, where
    ``assert_options_took_effect`` shows it took effect."""
    missing = {k for r in lockstep_rules for k in r} - {k for r in whole_game_rules for k in r}
    assert not missing, f"options set in lockstep cases only: {sorted(missing)}"
