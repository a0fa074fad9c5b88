"""Variant files: a named set of rule option values in TOML, checked against a ruleset's options.

A variant file is small and readable by a designer::

    name = "Beginners"                 # required: how reports and tables call the variant
    game = "fruit-picking"             # optional: the ruleset it is for (refused for another one)
    description = "3 slots, no surcharge, 5 cards end the game"   # optional, one line

    [rules]                            # rule options as in `cardsim rules GAME`
    variant_beginners = true
    beginner_cards_to_end = 6
    setup_seeds = [2, 2, 2]            # lists as TOML arrays (or "2,2,2" as on the command line)

Values take the TOML types (``true``, ``6``, ``[2, 2, 2]``, ``"random"``) or the text a user would
give to ``--rules``. Every mistake (missing or unreadable file, malformed TOML, an unknown key with a
did-you-mean, a bad value, another game's file) is a one-line ``CardsimError`` naming the file.

On the command line ``--variant FILE`` sets the file's values and ``--rules key=value`` is applied
on top of them: ``--rules`` wins over the file.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsim.core import registry
from cardsim.core.errors import CardsimError
from cardsim.core.options import resolve_options

TOP_LEVEL_KEYS = ("name", "game", "description", "rules")


@dataclass(frozen=True)
class Variant:
    """A variant read from a file: its name and the rule values it sets (checked, as given)."""

    name: str
    path: str
    rules: dict[str, Any] = field(default_factory=dict)  # only the options the file sets
    game: str | None = None
    description: str = ""

    def metadata(self) -> dict:
        """What a run stores about its variant (JSON-ready), so reports can show it."""
        return {
            "name": self.name,
            "file": self.path,
            "description": self.description,
            "rules": {k: list(v) if isinstance(v, tuple) else v for k, v in self.rules.items()},
        }


def _problem(path: Path, text: str) -> CardsimError:
    return CardsimError(f"variant file {str(path)!r}: {text}")


def _read_toml(path: Path) -> dict:
    if not path.is_file():
        what = "is a directory" if path.is_dir() else "does not exist"
        raise CardsimError(f"variant file {str(path)!r} {what}")
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise _problem(path, f"malformed TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _problem(path, f"cannot be read: {exc}") from None


def _check_top_level(path: Path, data: Mapping[str, Any]) -> None:
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            close = difflib.get_close_matches(key, TOP_LEVEL_KEYS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise _problem(
                path,
                f"unknown key {key!r}{hint}; a variant file has name, game, description "
                "and a [rules] table",
            )
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise _problem(path, 'needs a name, e.g. name = "Beginners"')
    for key in ("game", "description"):
        if key in data and not isinstance(data[key], str):
            raise _problem(path, f"{key} must be text, got {data[key]!r}")
    if not isinstance(data.get("rules", {}), dict):
        raise _problem(path, "rules must be a table: a [rules] line followed by key = value lines")


def load_variant(path: str | Path, ruleset: registry.Ruleset) -> Variant:
    """Read and check the variant file ``path`` for ``ruleset`` (one-line errors naming the file)."""
    path = Path(path)
    data = _read_toml(path)
    _check_top_level(path, data)
    game = data.get("game")
    if game is not None:
        try:
            named = registry.get(game).name
        except CardsimError:
            raise _problem(path, f"unknown game {game!r}") from None
        if named != ruleset.name:
            raise _problem(path, f"is a variant of {named}, not of {ruleset.name}")
    given: dict[str, Any] = {}
    for key, value in data.get("rules", {}).items():
        name = str(key).replace("-", "_")
        if name in given:
            raise _problem(path, f"[rules] sets {name} twice (as {name} and {key}): keep one")
        given[name] = value
    try:
        values = resolve_options(ruleset.options, given, ruleset.name)
    except CardsimError as exc:
        raise _problem(path, str(exc)) from None
    return Variant(
        name=data["name"].strip(),
        path=str(path),
        rules={k: values[k] for k in given},
        game=game,
        description=data.get("description", "").strip(),
    )


def combine_rules(variant: Variant | None, assignments: Mapping[str, Any]) -> dict[str, Any]:
    """The rule values of a run: the variant's, then ``--rules`` assignments on top (they win)."""
    rules = dict(variant.rules) if variant is not None else {}
    rules.update(assignments)
    return rules


def load_variants(paths: Iterable[str | Path], ruleset: registry.Ruleset) -> list[Variant]:
    """Every variant file of ``paths``, in order (for commands that take several)."""
    return [load_variant(p, ruleset) for p in paths]
