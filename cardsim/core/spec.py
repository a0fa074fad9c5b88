"""What a run plays: the ``RunSpec`` record (ruleset, games, players, bots and their seating,
rules, seed, first game) and ``make_spec``, which checks what a user asked for and builds it.

Below both ways of playing a run (``play.py`` on this machine, ``cluster.py`` on a Dask
cluster), which both take a ``RunSpec``; ``runner.run`` chooses between them.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardsim.core import kernel, registry, specialize
from cardsim.core.bots import (
    Bot,
    check_compiled,
    load_bot_file,
    load_bot_reference,
    with_params,
)
from cardsim.core.errors import CardsimError
from cardsim.core.options import resolve_options
from cardsim.version import __version__

MAX_GAMES = 10**10


@dataclass(frozen=True)
class RunSpec:
    """A fully checked run: which games, which seats, which rules."""

    ruleset: registry.Ruleset
    n_games: int
    n_players: int
    bots: tuple[Bot, ...]  # distinct bots, indexed by seat_bot_table
    seat_bot_table: np.ndarray = field(
        repr=False
    )  # int16 (rows, n_players); game i uses row i % rows
    rules: dict = field(default_factory=dict)  # resolved rule option values
    seed: int = 0
    first_game: int = 0
    variant: dict | None = None  # Variant.metadata() of a --variant file, shown by reports
    # per bot: True unless it is one of the ruleset's built-in bots (kernel.py, the bot boundary)
    guarded: tuple[bool, ...] | None = None

    @property
    def bot_names(self) -> list[str]:
        return [b.name for b in self.bots]

    def seat_bots(self) -> list[str]:
        """Bot name per seat for the first row of the seating table."""
        return [self.bots[i].name for i in self.seat_bot_table[0]]

    def metadata(self) -> dict:
        """Everything needed to reproduce the run, stored with its outputs."""
        return {
            "ruleset": self.ruleset.name,
            "rules": {k: list(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
            "n_players": self.n_players,
            "bots": self.bot_names,
            "bot_params": {b.name: list(b.params) for b in self.bots},
            "bot_param_names": {b.name: list(b.param_names) for b in self.bots if b.param_names},
            "seating": self.seat_bot_table.tolist(),
            "seed": self.seed,
            "first_game": self.first_game,
            "games": self.n_games,
            "version": __version__,
            **({"variant": self.variant} if self.variant is not None else {}),
        }

    def guard_flags(self) -> tuple[bool, ...]:
        """Which bots play behind the guarded boundary: every bot but the ruleset's own."""
        if self.guarded is not None:
            return tuple(self.guarded)
        builtins = self.ruleset.bots()
        return tuple(not (b.name in builtins and builtins[b.name].fn is b.fn) for b in self.bots)

    def rules_vector(self) -> np.ndarray:
        return self.ruleset.encode_rules(self.rules, self.n_players)

    def turn_cap(self) -> int:
        return int(self.rules[self.ruleset.turn_cap_option])


def parse_count(text: str | int | float, what: str = "--games") -> int:
    """``"1e6"`` / ``"1000000"`` / ``"1_000_000"`` -> 1000000; positive whole numbers only."""
    try:
        value = float(str(text).replace("_", ""))
    except ValueError:
        raise CardsimError(f"{what} must be a positive whole number, got {text!r}") from None
    if not math.isfinite(value) or value < 1 or value != int(value) or value > MAX_GAMES:
        raise CardsimError(f"{what} must be a positive whole number up to 1e10, got {text!r}")
    return int(value)


def parse_index(text: str | int, what: str = "--game") -> int:
    """``"12345"`` / ``"1e6"`` / ``"1_000"`` -> a game index, 0 up to (not including) 1e10."""
    try:
        value = float(str(text).replace("_", ""))
    except ValueError:
        raise CardsimError(f"{what} must be a game index (0, 1, 2, ...), got {text!r}") from None
    if not math.isfinite(value) or value < 0 or value != int(value) or value >= MAX_GAMES:
        raise CardsimError(
            f"{what} must be a game index from 0 to {MAX_GAMES - 1:,} (1e10 - 1), got {text!r}"
        )
    return int(value)


def resolve_bots(
    ruleset,
    names: Sequence[str],
    n_players: int,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Bot]:
    """Bot per seat from names: built-ins, then bots of ``bot_files``, then ``module:function``.

    One name fills every seat; otherwise exactly one name per seat. ``bot_params`` changes
    parameters by bot name (``bots.with_params``).
    """
    builtins = ruleset.bots()
    user: dict[str, Bot] = {}
    for path in bot_files:
        user.update(load_bot_file(path))
    names = [n.strip() for n in names if n.strip()] or list(ruleset.default_bots)
    if len(names) == 1:
        names = names * n_players
    if len(names) != n_players:
        raise CardsimError(f"--bots names {len(names)} bots for {n_players} players")
    out = []
    for name in names:
        if name in builtins:
            bot = builtins[name]
        elif name in user or name.replace("-", "_") in user:
            bot = user.get(name) or user[name.replace("-", "_")]
        elif ":" in name:
            bot = load_bot_reference(name)
        else:
            known = ", ".join(sorted(builtins) + sorted(user))
            raise CardsimError(f"unknown bot {name!r} for {ruleset.name} (known: {known})")
        out.append(bot)
    return with_params(out, bot_params) if bot_params else out


def check_players(ruleset, players: int | None) -> int:
    """The player count of a run (the ruleset's usual one when ``None``), checked."""
    n_players = ruleset.default_players if players is None else int(players)
    if not ruleset.min_players <= n_players <= ruleset.max_players:
        raise CardsimError(
            f"{ruleset.name} is for {ruleset.min_players}-{ruleset.max_players} players, "
            f"not {n_players}"
        )
    return n_players


def check_seating(seat_bot_table: np.ndarray, n_players: int, n_bots: int) -> None:
    """The play loop reads a game's bots from ``seat_bot_table`` without bounds checks: a row of
    another width than the player count, or a bot number past the run's bots, would read memory
    that is not the run's. One line instead."""
    if seat_bot_table.ndim != 2 or seat_bot_table.shape[1] != n_players:
        raise CardsimError(
            f"a {n_players}-player run needs a bot for each of its {n_players} seats, "
            f"got a seating table of shape {seat_bot_table.shape}"
        )
    if seat_bot_table.size and not (0 <= seat_bot_table.min() and seat_bot_table.max() < n_bots):
        raise CardsimError(f"a seating names a bot outside the run's {n_bots} bots")


def make_spec(
    game: str,
    games,
    players: int | None = None,
    bots: Sequence[str] = (),
    rules: dict | None = None,
    seed: int = 0,
    bot_files: Iterable[str] = (),
    seat_bot_table: np.ndarray | None = None,
    first_game: int = 0,
    seat_bots: Sequence[Bot] | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> RunSpec:
    """Check every input of a run and return its ``RunSpec`` (one-line errors on bad input)."""
    ruleset = registry.get(game)
    n_games = parse_count(games)
    n_players = check_players(ruleset, players)
    if not 0 <= int(seed) < 2**63:
        raise CardsimError(f"--seed must be a whole number in 0..2**63-1, got {seed}")
    values = resolve_options(ruleset.options, rules or {}, ruleset.name)
    ruleset.check_rules(values, n_players)
    per_seat = (
        list(seat_bots)
        if seat_bots is not None
        else resolve_bots(ruleset, bots, n_players, bot_files, bot_params)
    )
    distinct: list[Bot] = []
    for bot in per_seat:
        if bot.name not in [d.name for d in distinct]:
            distinct.append(bot)
    if len(distinct) > kernel.MAX_BOTS:
        raise CardsimError(f"a run seats at most {kernel.MAX_BOTS} different bots")
    if seat_bot_table is None:
        seat_bot_table = np.array(
            [[[d.name for d in distinct].index(b.name) for b in per_seat]], np.int16
        )
    check_seating(seat_bot_table, n_players, len(distinct))
    compiled = tuple(dataclasses.replace(b, fn=check_compiled(b.fn, b.name)) for b in distinct)
    spec = RunSpec(
        ruleset,
        n_games,
        n_players,
        compiled,
        np.ascontiguousarray(seat_bot_table, np.int16),
        values,
        int(seed),
        int(first_game),
    )
    specialize.check_bots(spec)
    return spec
