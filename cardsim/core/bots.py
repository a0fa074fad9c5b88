"""Bots: compiled decision functions with one signature, plus a parameter vector.

A bot is ``bot(obs, legal, n_legal, params, rng) -> int``: it sees the public state ``obs`` (int32,
layout documented in the ruleset's ``cards.py``), the legal decision codes ``legal[:n_legal]``, its
own parameters (float64, padded with zeros) and a random stream (``cardsim.core.rng``), and returns
the index of its choice in ``legal``. Built-in bots are registered per ruleset; a user's bot is any
``numba.njit`` function in their own file or module.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba.core.registry import CPUDispatcher

from cardsim.core.errors import CardsimError


@dataclass(frozen=True)
class Bot:
    """A named bot: compiled function, default parameters and a one-line description."""

    name: str
    fn: CPUDispatcher = field(repr=False)
    params: tuple[float, ...] = ()
    description: str = ""
    param_names: tuple[str, ...] = ()
    # False: the bot never reads ``obs`` (a uniform random bot). A loop whose bots are all the
    # ruleset's own and all say so plays the ruleset's ``blind_step`` (``registry.Ruleset``),
    # which need not keep the observation's derived fields up to date. A bot from a file is
    # always treated as reading it.
    reads_observation: bool = True
    # True: a search bot (``core/ismcts.py``): the play loop calls it with the game's functions
    # and per-thread search buffers besides the bot arguments (``specialize.py``), and seats it
    # only where it is named.
    search: bool = False
    # parameters that take names: (parameter, (name of value 0, name of value 1, ...)), e.g.
    # ("rollout", ("random", "greedy")); ``--bot-param ismcts.rollout=greedy`` stores 1
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # limits of numeric parameters: (parameter, lowest, highest, whole numbers only)
    bounds: tuple[tuple[str, float, float, bool], ...] = ()


def check_compiled(fn, name: str) -> CPUDispatcher:
    """``fn`` if it is a compiled (njit) function; a one-line ``CardsimError`` otherwise.

    Whether it fits ``BOT_SIGNATURE`` is ``compile_bot``'s question, asked when the bot's play
    loop is first built (``specialize.check_bots``): a loop found in the cache compiles no bot.
    """
    if not isinstance(fn, CPUDispatcher):
        raise CardsimError(f"bot {name!r} is not a compiled function: decorate it with @numba.njit")
    return fn


def compile_bot(fn, name: str) -> CPUDispatcher:
    """``fn`` compiled for ``BOT_SIGNATURE``; a one-line ``CardsimError`` naming the bot if it is
    not a compiled function or does not fit the signature."""
    from cardsim.core.kernel import BOT_SIGNATURE

    check_compiled(fn, name)
    try:
        fn.compile(BOT_SIGNATURE.args)
    except Exception as exc:  # numba's typing errors are many screens long: keep one line
        lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
        first = next((ln for ln in lines if not ln.startswith("-")), type(exc).__name__)
        raise CardsimError(
            f"bot {name!r} does not fit the bot signature "
            "bot(obs: int32[:], legal: int32[:], n_legal: int64, params: float64[:], rng: uint64[:]) "
            f"-> int: {first}"
        ) from None
    return fn


USER_MODULE_PREFIX = "cardsim_user_bots_"


def load_bot_module(path: str | Path):
    """The module of a user's bot file, loaded once per content (an edited file loads anew)."""
    path = Path(path).resolve()
    digest = hashlib.sha256(str(path).encode() + b"\0" + path.read_bytes()).hexdigest()[:16]
    module_name = f"{USER_MODULE_PREFIX}{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    # an explicit source loader: a bot file is Python whatever its name ends with
    loader = importlib.machinery.SourceFileLoader(module_name, str(path))
    spec = importlib.util.spec_from_file_location(module_name, path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def load_bot_file(path: str | Path) -> dict[str, Bot]:
    """Every njit function at the top level of a Python file, as a bot named after it.

    A module-level ``BOT_PARAMS = {"name": [..]}`` gives default parameters, and a function's
    docstring's first line becomes its description.
    """
    path = Path(path)
    if not path.is_file():
        what = "is a directory, not a Python file" if path.is_dir() else "does not exist"
        raise CardsimError(f"bot file {str(path)!r} {what}")
    try:
        module = load_bot_module(path)
    except Exception as exc:
        raise CardsimError(
            f"bot file {str(path)!r} failed to load: {type(exc).__name__}: {exc}"
        ) from None
    return _bots_of_module(module, f"bot file {str(path)!r}")


def load_bot_reference(ref: str) -> Bot:
    """``package.module:function`` -> a Bot."""
    module_name, _, attr = ref.partition(":")
    if not module_name.strip() or not attr.isidentifier():
        raise CardsimError(f"bot {ref!r}: a bot reference is package.module:function")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # ImportError, or whatever the module raises while importing
        raise CardsimError(
            f"bot {ref!r}: cannot import {module_name!r} ({type(exc).__name__}: {exc})"
        ) from None
    bots = _bots_of_module(module, f"module {module_name!r}")
    if attr not in bots:
        raise CardsimError(f"bot {ref!r}: {module_name!r} has no compiled function {attr!r}")
    return bots[attr]


def _bots_of_module(module, where: str) -> dict[str, Bot]:
    """Public functions defined in ``module``: compiled ones are bots; plain ones are listed too,
    so that naming one gets the one-line "not a compiled function" error, not "unknown bot"."""
    params = _bot_params(getattr(module, "BOT_PARAMS", {}), where)
    found = {}
    for attr, value in vars(module).items():
        plain = inspect.isfunction(value) and value.__module__ == module.__name__
        if (isinstance(value, CPUDispatcher) or plain) and not attr.startswith("_"):
            doc = (getattr(value, "py_func", value).__doc__ or "").strip().splitlines()
            found[attr] = Bot(
                attr,
                value,
                params.get(attr, ()),
                doc[0] if doc else "user bot",
            )
    return found


def _bot_params(raw, where: str) -> dict[str, tuple[float, ...]]:
    """A module's ``BOT_PARAMS``, checked: bot name -> a list of finite numbers."""
    if not isinstance(raw, dict):
        raise CardsimError(
            f"{where}: BOT_PARAMS must be a dict of bot name -> list of numbers, "
            f"not a {type(raw).__name__}"
        )
    out = {}
    for name, values in raw.items():
        if not isinstance(values, list | tuple | np.ndarray):
            raise CardsimError(
                f"{where}: BOT_PARAMS[{name!r}] must be a list of numbers, got {values!r}"
            )
        numbers = []
        for value in values:
            ok = isinstance(value, int | float | np.integer | np.floating)
            if not ok or isinstance(value, bool) or not np.isfinite(value):
                raise CardsimError(
                    f"{where}: BOT_PARAMS[{name!r}] must be finite numbers, got {value!r}"
                )
            numbers.append(float(value))
        out[str(name)] = tuple(numbers)
    return out


def params_matrix(bots: list[Bot]) -> np.ndarray:
    """One row of parameters per bot, padded with zeros to a common width (at least 1)."""
    width = max([1] + [len(b.params) for b in bots])
    out = np.zeros((len(bots), width), np.float64)
    for i, bot in enumerate(bots):
        out[i, : len(bot.params)] = bot.params
    return out


def parse_bot_params(pairs: Iterable[str]) -> dict[str, dict[str, str]]:
    """``["planner.money=1.2", "planner.p0=3"]`` -> ``{"planner": {"money": "1.2", "p0": "3"}}``
    (``--bot-param NAME.KEY=VALUE``); one-line error for a malformed pair."""
    out: dict[str, dict[str, str]] = {}
    for pair in pairs:
        target, sep, value = str(pair).partition("=")
        name, dot, key = target.strip().rpartition(".")
        if not sep or not dot or not name or not key:
            raise CardsimError(f"--bot-param expects NAME.KEY=VALUE, got {pair!r}")
        out.setdefault(name, {})[key.strip()] = value.strip()
    return out


def with_params(bots: Sequence[Bot], overrides: Mapping[str, Mapping[str, Any]]) -> list[Bot]:
    """The bots with the parameters in ``overrides`` (bot name -> {key: value}) changed. A key is
    a parameter name (``cardsim bots GAME``), or ``p<i>`` / ``<i>`` for the i-th parameter (bots
    from a file have no names). One-line errors for a bot that is not seated, an unknown key, or
    a value that is not a number."""
    by_name = {b.name: b for b in bots}
    for name in overrides:
        if name not in by_name:
            seated = ", ".join(sorted(by_name))
            raise CardsimError(f"--bot-param names bot {name!r}, which is not seated ({seated})")
    out = []
    for bot in bots:
        changes = overrides.get(bot.name)
        if not changes:
            out.append(bot)
            continue
        params = list(bot.params)
        for key, raw in changes.items():
            index = _param_index(bot, key)
            value = _param_value(bot, key, raw)
            params += [0.0] * (index + 1 - len(params))
            params[index] = value
        out.append(dataclasses.replace(bot, params=tuple(params)))
    return out


def _param_value(bot: Bot, key: str, raw) -> float:
    """The number ``raw`` stands for as ``bot``'s parameter ``key``: a name among its choices,
    or a finite number within its bounds; one line otherwise."""
    where = f"--bot-param {bot.name}.{key}"
    choices = dict(bot.choices).get(key)
    if choices is not None:
        if str(raw).strip() in choices:
            return float(choices.index(str(raw).strip()))
        raise CardsimError(f"{where}: {raw!r} is not one of {', '.join(choices)}")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise CardsimError(f"{where}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        raise CardsimError(f"{where}: {raw!r} is not a finite number")
    for name, lo, hi, whole in bot.bounds:
        if name != key:
            continue
        if whole and value != int(value):
            raise CardsimError(f"{where}: {raw!r} is not a whole number")
        if not lo <= value <= hi:
            raise CardsimError(f"{where}: {raw!r} is outside {lo:g}..{hi:g}")
    return value


def _param_index(bot: Bot, key: str) -> int:
    if key in bot.param_names:
        return bot.param_names.index(key)
    digits = key[1:] if key[:1] == "p" else key
    if digits.isdigit() and int(digits) < len(bot.params) and not bot.param_names:
        return int(digits)
    known = ", ".join(bot.param_names) or ", ".join(f"p{i}" for i in range(len(bot.params)))
    raise CardsimError(
        f"--bot-param {bot.name}.{key}: {bot.name} has no parameter {key!r} "
        f"(its parameters: {known or 'none'})"
    )
