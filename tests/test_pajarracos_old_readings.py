"""The earlier readings of pajarracos.md (A8/A11, A10/A13, A17) remain playable exactly: with
``shoo_to_ends_action=false``, ``extra_turn_optional=false`` and ``empty_extra_turn=lost`` the
engine plays, game for game, the games the code played before those readings became options.

The expected digests below were computed once from the code at commit b375684 (the last one with
the old readings as the only rules; its default rules are these options' old values), by running
the same runs and hashing the same columns. They can fail meaningfully: any change in what the
old reading does, in the deal, in the bots' choices under it, or in a counter shows up. Columns
added since (``extra_turns_declined``) are not part of the digest; the strategist's weights are
pinned to their values at that commit, so that retuning the bot does not change these games.
The scenario tests of each old reading are in tests/test_pajarracos_examples.py (E8, E9, A17).
"""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np
import pytest

from cardsim.core import runner
from cardsim.core.outcomes import game_column_names, seat_column_names

OLD_READINGS = {
    "shoo_to_ends_action": False,  # A8, A11: the action's other scarecrows may follow a shoo-to
    "extra_turn_optional": False,  # A17: an extra turn is compulsory
    "empty_extra_turn": "lost",  # A10, A13: an empty-handed extra turn never ends the game
}
STRATEGIST_AT_B375684 = (1.0, 1.0, 0.56, 0.44, 7.7, 0.12, 0.03, 0.48, 0.14, 1.0)
COLUMNS_ADDED_SINCE = ("extra_turns_declined",)

# (players, bots, games, seed, sha256 of the outcome columns at b375684)
RUNS = [
    (3, ["random"], 300, 5, "d5bbbd291eff6ab9819be1ebcb5687170653237f192229ff2be0437b7536ae62"),
    (4, ["greedy"], 300, 6, "7e6ae22985a2218ad680f39f4f58ed7c39e5240e37b7938053a2620ff40f68dc"),
    (
        5,
        ["random", "greedy", "crow-attacker", "defender", "strategist"],
        200,
        7,
        "6e5255b9018cfcc5080c7106a2ef96609409ba5b8bf16f4efcc7cd5a25716213",
    ),
    (
        6,
        ["defender", "strategist", "crow-attacker"] * 2,
        150,
        8,
        "49203dc426631c6a877f40423ea8296b3859d859d8ec7573685ce1d7ceb5ed6a",
    ),
]


def outcome_digest(spec) -> str:
    """sha256 over every outcome column by name (game columns, then seat columns of every seat),
    as int64, leaving out the columns added since b375684."""
    chunks = list(runner.iter_chunks(spec))
    games = np.concatenate([c.game_out for c in chunks])
    seats = np.concatenate([c.seat_out for c in chunks])[:, : spec.n_players]
    digest = hashlib.sha256()
    for j, name in enumerate(game_column_names(spec.ruleset)):
        digest.update(name.encode())
        digest.update(games[:, j].astype(np.int64).tobytes())
    for j, name in enumerate(seat_column_names(spec.ruleset)):
        if name in COLUMNS_ADDED_SINCE:
            continue
        digest.update(name.encode())
        digest.update(seats[:, :, j].astype(np.int64).tobytes())
    return digest.hexdigest()


def pinned_spec(players, bots, games, seed, rules):
    spec = runner.make_spec("pajarracos", games, players, bots, rules, seed=seed)
    pinned = tuple(
        dataclasses.replace(b, params=STRATEGIST_AT_B375684 + (0.0,) * (len(b.params) - 10))
        if b.name == "strategist"
        else b
        for b in spec.bots
    )
    return dataclasses.replace(spec, bots=pinned)


@pytest.mark.parametrize(("players", "bots", "games", "seed", "expected"), RUNS)
def test_old_readings_replay_the_old_games(players, bots, games, seed, expected):
    spec = pinned_spec(players, bots, games, seed, OLD_READINGS)
    assert outcome_digest(spec) == expected


def test_the_new_defaults_change_games():
    # the digest is sensitive to the readings: under the new defaults the same runs differ
    players, bots, games, seed, expected = RUNS[1]
    assert outcome_digest(pinned_spec(players, bots, games, seed, {})) != expected
