"""Rule options as data: every rule parameter of a ruleset is a named, typed, validated option.

A ruleset lists its ``RuleOption``s (name, default, allowed values, the rule it refers to);
``resolve_options`` turns user text (``--rules key=value``, a variant file) into checked Python
values, with one-line ``CardsimError``s for unknown names and bad values.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsim.core.errors import CardsimError
from cardsim.text import show_value

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class RuleOption:
    """One rule parameter.

    ``kind``: ``bool``, ``int``, ``choice`` (one of ``choices``), ``int_list`` (comma-separated
    integers, each in [lo, hi], length in ``lengths`` when given; or one of ``choices`` if it has
    any, such as ``all`` or ``none``), ``int_or_choice`` (an integer in
    [lo, hi] or one of ``choices``), ``list_or_choice`` (a list of names from ``items`` or one of
    ``choices``). ``default`` may be ``None`` when another option decides it (documented in ``doc``).
    ``prefix``: an ``int_list`` item may also be written with it, as the rules doc names the
    things counted (Piña Pirata's tiles: ``T17`` or ``17``).
    """

    name: str
    kind: str
    default: Any
    doc: str
    refers: str = ""
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    lengths: tuple[int, ...] = ()
    prefix: str = ""
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        rng = f"{self.lo}..{self.hi}" if self.lo is not None else ""
        if self.kind == "bool":
            return "true/false"
        if self.kind == "int":
            return rng
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "int_list":
            size = f" ({' or '.join(map(str, self.lengths))} values)" if self.lengths else ""
            named = "".join(f"{c} | " for c in self.choices)
            written = f", as {self.prefix}{self.lo} or {self.lo}" if self.prefix else ""
            return f"{named}comma list of integers in {rng}{size}{written}"
        if self.kind == "int_or_choice":
            return f"{' | '.join(self.choices)} | integer {rng}"
        if self.kind == "list_or_choice":
            return f"{' | '.join(self.choices)} | comma list of {len(self.items)} of {','.join(self.items)}"
        return self.kind

    def parse(self, raw: Any) -> Any:
        """Convert text (or a TOML value) to a checked value; raise ``CardsimError`` if it is bad."""
        self._check_type(raw)
        value = self._convert(raw)
        if self.check is not None and (problem := self.check(value)):
            raise CardsimError(f"rule option {self.name}: {problem}")
        return value

    def _bad(self, raw: Any) -> CardsimError:
        return CardsimError(
            f"rule option {self.name}: {raw!r} is not allowed (allowed: {self.allowed()})"
        )

    def _check_type(self, raw: Any) -> None:
        """A value from a variant file has the shape of the option: a table is never a rule
        value, and a list only for the list kinds, of plain integers or names (not nested)."""
        scalars = (str, int, float)
        if isinstance(raw, list | tuple):
            if self.kind not in ("int_list", "list_or_choice"):
                raise self._bad(raw)
            if any(not isinstance(v, scalars) or isinstance(v, bool) for v in raw):
                raise self._bad(raw)
        elif not isinstance(raw, scalars):  # tables, dates and times
            raise self._bad(raw)

    def _list_item(self, item: Any) -> int:
        """One ``int_list`` item, written with ``prefix`` (any case) or without; an error names
        the item as written."""
        text = item.strip() if isinstance(item, str) else item
        if self.prefix and isinstance(text, str) and text.upper().startswith(self.prefix.upper()):
            text = text[len(self.prefix) :]
        try:
            return self._int(text)
        except CardsimError:
            raise self._bad(item) from None

    def _int(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise self._bad(raw)
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise self._bad(raw) from None
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise self._bad(raw)
        return value

    def _convert(self, raw: Any) -> Any:
        text = raw.strip().lower() if isinstance(raw, str) else raw
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise self._bad(raw)
        if self.kind == "int":
            return self._int(raw)
        if self.kind == "choice":
            if text in self.choices:
                return text
            raise self._bad(raw)
        if self.kind == "int_or_choice":
            return text if text in self.choices else self._int(raw)
        if self.kind == "int_list":
            if isinstance(text, str) and text in self.choices:
                return text
            parts = raw if isinstance(raw, list | tuple) else str(raw).split(",")
            values = tuple(self._list_item(p) for p in parts)
            if self.lengths and len(values) not in self.lengths:
                raise self._bad(raw)
            return values
        if self.kind == "list_or_choice":
            if text in self.choices:
                return text
            parts = raw if isinstance(raw, list | tuple) else str(raw).split(",")
            names = tuple(str(p).strip().lower() for p in parts)
            if sorted(names) != sorted(self.items):
                raise CardsimError(
                    f"rule option {self.name}: {raw!r} must name each of {','.join(self.items)} once"
                )
            return names
        raise AssertionError(f"unknown option kind {self.kind}")


def changed_values(options: Iterable[RuleOption], values: Mapping[str, Any]) -> list[str]:
    """``name=value`` for every option whose value in ``values`` differs from its default (a
    list from a results file equals the tuple default it was saved from)."""

    def plain(v: Any) -> Any:
        return list(v) if isinstance(v, tuple) else v

    return [
        f"{o.name}={show_value(values[o.name])}"
        for o in options
        if o.name in values and plain(values[o.name]) != plain(o.default)
    ]


def parse_assignments(pairs: Iterable[str]) -> dict[str, str]:
    """``["a=1", "b=x,y"]`` -> ``{"a": "1", "b": "x,y"}``; one-line error for a malformed pair."""
    out: dict[str, str] = {}
    given: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CardsimError(f"--rules expects key=value, got {pair!r}")
        name = key.strip().replace("-", "_")
        if name in out:
            raise CardsimError(
                f"--rules sets {name} twice ({given[name]!r} and {pair!r}): give it once"
            )
        out[name] = value.strip()
        given[name] = pair
    return out


def resolve_options(options: Iterable[RuleOption], given: Mapping[str, Any], game: str) -> dict:
    """Defaults overlaid with ``given`` (parsed and checked). Unknown names are one-line errors."""
    by_name = {o.name: o for o in options}
    for key in given:
        if key not in by_name:
            close = difflib.get_close_matches(key, by_name, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise CardsimError(f"unknown rule option {key!r} for {game}{hint}")
    values = {name: opt.default for name, opt in by_name.items()}
    for key, raw in given.items():
        values[key] = by_name[key].parse(raw)
    return values
