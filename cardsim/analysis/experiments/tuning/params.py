"""Which rule options a tune searches and a screen varies, checked against the ruleset.

``--param KEY=LO..HI`` searches the whole numbers LO..HI of an integer option; ``--param
KEY=a,b,c`` searches those values of any option (semicolons separate values of list options, as
in ``cardsim sweep``). Every value is parsed by the option itself (``RuleOption.parse``), so a
value outside the option's allowed ones is the same one-line error as in ``--rules``.

A screen gives each option a few levels (``screen_levels``): both values of a true/false or
two-choice option, every choice of a longer choice list, and four whole numbers around an
integer option's default (within its allowed range).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardsim.analysis.experiments.sweep import _split_values
from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption, resolve_options
from cardsim.text import show_value

# options that pick a seat or stop a runaway game: never balance rules, so a screen leaves them
# out unless named (a fixed first player would also hide the first-player edge it measures)
NOT_BALANCE = ("first_player", "first_dealer", "turn_cap", "round_turn_cap")
INT_LEVELS = 4  # levels of an integer option in a Morris screen (SALib's num_levels)


def json_value(value: Any) -> Any:
    """A rule value as JSON keeps it: numbers as numbers, true/false, lists as lists."""
    return list(value) if isinstance(value, tuple) else value


def rule_values(rules: dict) -> dict:
    return {k: json_value(v) for k, v in rules.items()}


@dataclass(frozen=True)
class TuneParam:
    """One searched option: an integer range (``lo``..``hi``) or a list of ``values``."""

    name: str
    lo: int | None = None
    hi: int | None = None
    values: tuple[Any, ...] = ()

    @property
    def is_range(self) -> bool:
        return self.lo is not None

    def suggest(self, trial) -> Any:
        """The value an optuna trial proposes (choices by their label: optuna stores text)."""
        if self.is_range:
            return trial.suggest_int(self.name, self.lo, self.hi)
        labels = [show_value(v) for v in self.values]
        return self.values[labels.index(trial.suggest_categorical(self.name, labels))]

    def from_label(self, raw: Any) -> Any:
        """A value as optuna stored it -> the rule value."""
        if self.is_range:
            return int(raw)
        return self.values[[show_value(v) for v in self.values].index(raw)]

    def describe(self) -> str:
        if self.is_range:
            return f"{self.name}={self.lo}..{self.hi}"
        return f"{self.name}=" + ",".join(show_value(v) for v in self.values)

    def size(self) -> int:
        return self.hi - self.lo + 1 if self.is_range else len(self.values)


def _option(by_name: dict[str, RuleOption], key: str, game: str) -> RuleOption:
    if key not in by_name:  # the one unknown-option error, with its did-you-mean
        resolve_options(by_name.values(), {key: None}, game)
    return by_name[key]


def _whole(option: RuleOption, text: str, raw: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        try:
            float(text)
        except ValueError:
            raise CardsimError(f"--param {option.name}={raw}: {text!r} is not a number") from None
        raise CardsimError(
            f"--param {option.name}={raw}: {option.name} takes whole numbers"
        ) from None


def _range(option: RuleOption, raw: str) -> TuneParam:
    lo_text, _, hi_text = raw.partition("..")
    if option.kind not in ("int", "int_or_choice"):
        raise CardsimError(
            f"--param {option.name}={raw}: a range is for integer options; give the values of "
            f"{option.name} as a,b,c (allowed: {option.allowed()})"
        )
    lo, hi = _whole(option, lo_text, raw), _whole(option, hi_text, raw)
    if lo >= hi:
        raise CardsimError(
            f"--param {option.name}={raw}: the range is empty or one value (LO must be below HI)"
        )
    for end in (lo, hi):
        if (option.lo is not None and end < option.lo) or (
            option.hi is not None and end > option.hi
        ):
            raise CardsimError(
                f"--param {option.name}={raw}: {end} is outside {option.name}'s allowed "
                f"{option.lo}..{option.hi}"
            )
    return TuneParam(option.name, lo=lo, hi=hi)


def _assignment(
    by_name: dict[str, RuleOption], text: str, flag: str, shape: str, game: str
) -> tuple[RuleOption, str]:
    """``"KEY=value"`` -> (the option named, the value text); one-line errors."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key or not raw.strip():
        raise CardsimError(f"{flag} expects {shape}, got {text!r}")
    return _option(by_name, key, game), raw.strip()


def _values(option: RuleOption, raw: str, flag: str) -> tuple[Any, ...]:
    """At least two different values of ``option``, each checked by the option."""
    values = tuple(option.parse(p) for p in _split_values(option, raw))
    labels = {show_value(v) for v in values}
    if len(labels) != len(values):
        raise CardsimError(f"{flag} {option.name} repeats a value")
    if len(values) < 2:
        raise CardsimError(f"{flag} {option.name}={raw}: give at least two values")
    return values


def parse_tune_params(
    options: Iterable[RuleOption], texts: Sequence[str], game: str
) -> list[TuneParam]:
    """``["hand_size=3..7", "final_tie=shared,replay"]`` -> checked ``TuneParam``s."""
    by_name = {o.name: o for o in options}
    out: list[TuneParam] = []
    for text in texts:
        option, raw = _assignment(by_name, text, "--param", "KEY=LO..HI or KEY=a,b,c", game)
        if any(p.name == option.name for p in out):
            raise CardsimError(f"--param {option.name} is given twice")
        if ".." in raw and ";" not in raw and "," not in raw:
            out.append(_range(option, raw))
            continue
        out.append(TuneParam(option.name, values=_values(option, raw, "--param")))
    if not out:
        raise CardsimError("tune needs at least one --param KEY=LO..HI or KEY=a,b,c")
    return out


# -- screening levels ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Factor:
    """One screened option and the values it takes, lowest first (two for a two-level design)."""

    name: str
    levels: tuple[Any, ...]

    @property
    def two_level(self) -> bool:
        return len(self.levels) == 2

    def at(self, x: float) -> Any:
        """The level at ``x`` in [0, 1] (Morris's unit interval): the nearest of evenly spaced
        levels."""
        return self.levels[
            min(int(math.floor(x * (len(self.levels) - 1) + 0.5)), len(self.levels) - 1)
        ]

    def labels(self) -> tuple[str, ...]:
        return tuple(show_value(v) for v in self.levels)


def int_levels(option: RuleOption, count: int = INT_LEVELS) -> tuple[int, ...]:
    """``count`` whole numbers evenly over default ± max(2, 30% of it), within the allowed range
    (fewer if the range is narrower)."""
    d = int(option.default)
    width = max(2, math.ceil(0.3 * abs(d)))
    lo = max(option.lo if option.lo is not None else d - width, d - width)
    hi = min(option.hi if option.hi is not None else d + width, d + width)
    if hi - lo + 1 <= count:
        return tuple(range(lo, hi + 1))
    return tuple(sorted({round(lo + i * (hi - lo) / (count - 1)) for i in range(count)}))


def screen_levels(option: RuleOption) -> tuple[Any, ...] | None:
    """The levels a screen gives ``option``, or ``None`` when it cannot be screened as it is
    (list options, options whose default another option decides)."""
    if option.default is None:
        return None
    if option.kind == "bool":
        return (False, True)
    if option.kind == "choice":
        return tuple(option.choices)
    if option.kind == "int":
        return int_levels(option)
    return None


def given_levels(
    by_name: Mapping[str, RuleOption], texts: Sequence[str], game: str
) -> dict[str, tuple[Any, ...]]:
    """``--levels KEY=a,b,...`` (repeatable) -> option -> its checked levels, in the order given
    (the first is the "low" level of a two-level design)."""
    out: dict[str, tuple[Any, ...]] = {}
    for text in texts:
        option, raw = _assignment(dict(by_name), text, "--levels", "KEY=a,b,...", game)
        if option.name in out:
            raise CardsimError(f"--levels {option.name} is given twice")
        out[option.name] = _values(option, raw, "--levels")
    return out


def screen_factors(
    options: Iterable[RuleOption],
    names: Sequence[str] | None,
    game: str,
    two_level: bool,
    levels: Sequence[str] = (),
) -> list[Factor]:
    """The factors of a screen: the options named (``--options``) or every balance option that
    can be screened; with ``two_level`` an integer option keeps its lowest and highest level.
    ``levels``: ``--levels KEY=a,b`` texts that set an option's levels (and add it to the
    screen if ``names`` does not list it)."""
    by_name = {o.name: o for o in options}
    chosen_levels = given_levels(by_name, levels, game)
    if names:
        chosen = []
        for name in names:
            option = _option(by_name, name.strip().replace("-", "_"), game)
            if screen_levels(option) is None and option.name not in chosen_levels:
                raise CardsimError(
                    f"--options {option.name}: a screen varies true/false, choice and integer "
                    f"options with a default; tune {option.name} with --param instead"
                )
            if option in chosen:
                raise CardsimError(f"--options names {option.name} twice")
            chosen.append(option)
    else:
        chosen = [
            o
            for o in by_name.values()
            if o.name not in NOT_BALANCE and screen_levels(o) is not None
        ]
    chosen += [by_name[k] for k in chosen_levels if by_name[k] not in chosen]
    factors = []
    for option in chosen:
        levels = chosen_levels.get(option.name) or screen_levels(option)
        if len(levels) < 2:
            continue
        if (
            two_level
            and len(levels) > 2
            and option.kind == "int"
            and option.name not in chosen_levels
        ):
            levels = (levels[0], levels[-1])
        factors.append(Factor(option.name, levels))
    if len(factors) < 2:
        raise CardsimError("a screen needs at least two options to vary")
    return factors
