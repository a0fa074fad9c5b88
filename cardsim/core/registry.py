"""The ruleset registry: name -> ``Ruleset``, imported only when asked for.

A ruleset is a package under ``cardsim.games`` (or any installed package announcing an entry point
in the ``cardsim.rulesets`` group) exposing ``RULESET``. The runner and the CLI know rulesets only
through this record, so a new one plugs in with a line in ``_BUILTIN`` and nothing else.
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption

_BUILTIN = {
    "fruit-picking": "cardsim.games.fruit_picking:RULESET",
    "pajarracos": "cardsim.games.pajarracos:RULESET",
    "piepmatz": "cardsim.games.piepmatz:RULESET",
    "pina-pirata": "cardsim.games.pina_pirata:RULESET",
}
# other names players know a game by (the published English title of Piepmatz)
_ALIASES = {"songbirds": "piepmatz"}


@dataclass(frozen=True)
class Ruleset:
    """Everything the runner, the analysis layer and the CLI need to know about one game.

    ``kernels()`` returns the compiled (deal, step, observe, finalize) functions;
    ``encode_rules(values, n_players)`` turns resolved option values into the int32 rules vector;
    ``bots()`` the built-in bots by name; ``replay(...)`` the story of one game.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[RuleOption, ...]
    encode_rules: Callable[[Mapping[str, Any], int], Any]
    check_rules: Callable[[Mapping[str, Any], int], None]
    kernels: Callable[[], tuple]
    bots: Callable[[], dict]
    default_bots: tuple[str, ...]
    state_len: int
    legal_len: int
    obs_len: int  # length of a bot's observation vector
    obs_is_state_prefix: bool  # the observation is state[:obs_len] (nothing seat-specific hidden)
    game_counters: tuple[str, ...]
    seat_counters: tuple[str, ...]
    end_reasons: tuple[str, ...]
    replay: Callable[..., Any] | None = field(default=None, compare=False)
    turn_cap_option: str = "turn_cap"
    # names of ``bots()``, known without compiling them (shell completion; a test checks them)
    bot_names: tuple[str, ...] = ()
    # counter name -> what it counts, in the game's words (``cardsim counters``, reports)
    counter_glossary: Mapping[str, str] = field(default_factory=dict, compare=False)
    # seat counters that encode the result (the winner's score, "completed a set"): listed, but
    # kept out of the counter-impact regression, where they would only restate who won
    outcome_counters: tuple[str, ...] = ()
    # the project's rules reference of the game, relative to the repository (``[R12]`` tags)
    rules_doc: str = ""
    # seconds a cold compile of the engine and its built-in bots takes (engine benchmark, 2 cores)
    compile_seconds: int = 30
    # what reports call ``turns / players`` (one turn of every player, the unit of the turn cap):
    # "rounds", unless the game's own rounds are something else (Piña Pirata's end when a Hand is
    # empty, so there a lap of the table is "turns per player")
    table_rounds: str = "rounds"
    # game counters that measure a game's length in the game's own units, with their labels
    # (Piña Pirata: the rounds a game lasts); the run summary and the report show them beside turns
    length_counters: tuple[tuple[str, str], ...] = ()
    # a function of no argument returning a module-level @njit ``step`` with ``step``'s contract
    # except that it may leave the observation's derived fields (what only bots read) stale: the
    # play loop plays it instead of ``step`` when every bot of the loop is the ruleset's own and
    # reads no observation (``Bot.reads_observation``). None: always ``step``.
    blind_step: Callable[[], Any] | None = None
    # a function of no argument returning the ruleset's module-level @njit ``determinize``
    # (``games/<game>/determinize.py``): search bots (ismcts) need it. None: no search bot.
    determinize: Callable[[], Any] | None = None

    @property
    def short_title(self) -> str:
        """The title without its year: "Fruit Picking (2014)" -> "Fruit Picking"."""
        return self.title.split(" (")[0]


@dataclass(frozen=True)
class Lazy:
    """``module.attr``, imported when first called: how a ruleset names its compiled engine,
    bots and replay without importing them (and numba) when the CLI starts. ``call``: the
    attribute is a function, called with the arguments (``lazy_call``); otherwise the call
    returns the attribute (``lazy``). Plain data, so a ruleset pickles by value."""

    module: str
    attr: str
    call: bool = False

    def __call__(self, *args, **kwargs):
        value = getattr(importlib.import_module(self.module), self.attr)
        return value(*args, **kwargs) if self.call else value


def lazy(module: str, attr: str) -> Lazy:
    """A function of no argument returning ``module.attr`` (imported on the first call)."""
    return Lazy(module, attr)


def lazy_call(module: str, attr: str) -> Lazy:
    """A function calling ``module.attr`` with its arguments (imported on the first call)."""
    return Lazy(module, attr, call=True)


def available() -> list[str]:
    """Names of every registered ruleset."""
    names = set(_BUILTIN)
    names.update(ep.name for ep in entry_points(group="cardsim.rulesets"))
    return sorted(names)


def game_key(name: str) -> str:
    """``name`` as the registry spells games: lower case, words joined by hyphens, accents
    dropped ("Piña Pirata" -> "pina-pirata"), another known title mapped ("Songbirds")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    key = "-".join(plain.strip().lower().replace("_", " ").replace("-", " ").split())
    return _ALIASES.get(key, key)


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (or written as ``game_key`` reads it); one-line
    ``CardsimError`` if there is none."""
    key = game_key(name)
    target = _BUILTIN.get(key)
    if target is None:
        eps = {ep.name: ep.value for ep in entry_points(group="cardsim.rulesets")}
        target = eps.get(key)
    if target is None:
        raise CardsimError(f"unknown game {name!r} (known: {', '.join(available())})")
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)
