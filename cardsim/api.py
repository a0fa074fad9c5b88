"""The library entry points: ``simulate`` plays a run and returns its ``Results`` in memory;
``compare``, ``sweep`` and ``diff`` play an experiment as the commands of those names do and
return its tables (docs/api.md).

This is the one module of the public API that runs the compiled engine; it is imported only when
``cardsim.simulate`` is first used, so ``import cardsim`` stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardsim.analysis.results import FrameSink, Results, run_metadata
from cardsim.core.errors import CardsimError


def bot_names(bots: str | Sequence[str]) -> list[str]:
    """``"a,b"`` or ``["a", "b"]`` or ``"a"`` -> bot names per seat, as ``--bots`` takes them."""
    if isinstance(bots, str):
        bots = bots.split(",")
    return [b.strip() for b in bots if b and b.strip()]


def simulate(
    game: str,
    games: int | str = 100_000,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    bot_files: Iterable[str] = (),
    progress: Callable[[int], None] | None = None,
    bot_params: Mapping[str, Mapping[str, float]] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
) -> Results:
    """Play ``games`` games of ``game`` and return every game's outcome with the run metadata.

    ``bots``: one name for every seat or one per seat (built-ins, functions of ``bot_files``, or
    ``package.module:function``); ``rules``: option name -> value or text as ``--rules`` takes it
    (``{"variant_umbrella": True}`` or ``{"variant_umbrella": "true"}``); ``bot_params``: bot
    name -> {parameter: value} changes a bot's parameters as ``--bot-param NAME.KEY=VALUE`` does
    (``{"planner": {"money": 1.2}}``; ``cardsim bots GAME`` lists them). The same arguments give
    the same games whatever ``threads`` and ``chunk_size``. Bad input is a ``CardsimError``.

    ``cluster``: play on a Dask cluster instead of this process's threads: ``"local:N"`` (N
    worker processes here), a scheduler address (``"tcp://host:8786"``) or a
    ``distributed.Client``; ``task_size`` games per task. The games are the same; every row
    comes back to this process (the returned frame holds them all).
    """
    from cardsim.core import runner

    spec = runner.make_spec(
        game,
        games,
        players,
        bot_names(bots),
        dict(rules or {}),
        seed,
        list(bot_files),
        bot_params=bot_params,
    )
    sink = FrameSink(spec)
    stats = runner.run(
        spec, [sink], threads, chunk_size, progress=progress, cluster=cluster, task_size=task_size
    )
    return Results(sink.frame(), run_metadata(spec, stats))


def _bot_params(bot_params):
    from cardsim.core.bots import parse_bot_params

    return parse_bot_params(bot_params) if bot_params else None


def compare(
    game: str,
    bots: str | Sequence[str],
    games: int | str = 10_000,
    players: int | None = None,
    seatings: str = "all",
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    threads: int | None = None,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, float]] | None = None,
    progress: Callable[[int], None] | None = None,
):
    """Compare ``bots`` as ``cardsim compare`` does: every seating (``seatings``: ``"all"``,
    ``"rotations"``...) plays the same ``games`` deals. Returns the ``Comparison``
    (``cardsim.analysis.compare``): ``win_rates`` by bot, ``pairs`` (head to head), ``rating``
    (turn-order effect taken out), ``skill_depth``; ``compare.comparison_record(c)`` gives the
    JSON of ``--format json``."""
    from cardsim import experiments

    specs, distinct, seating_list = experiments.comparison_specs(
        game,
        games,
        players,
        bot_names(bots),
        seatings,
        dict(rules or {}),
        seed,
        list(bot_files),
        bot_params=_bot_params(bot_params),
    )
    title = specs[0].ruleset.title
    comparison, _ = experiments.compare_seatings(
        specs, distinct, seating_list, title, threads, progress
    )
    return comparison


def sweep(
    game: str,
    params: Mapping[str, Sequence[Any]],
    games: int | str = 10_000,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    threads: int | None = None,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, float]] | None = None,
    progress: Callable[[int], None] | None = None,
):
    """Play every combination of ``params`` (option -> values, as values or as the texts
    ``--param`` takes: ``{"market_slots": [4, 5, 6]}``) on the same ``games`` games, as
    ``cardsim sweep`` does. Returns one row per setting (``sweep.records_frame``): the swept
    values with their types, win rate by turn order, the first-player edge with its interval
    (fractions of 1), length and end reasons."""
    from cardsim import experiments
    from cardsim.analysis import sweep as S

    swept = _swept(game, params)
    points = S.grid(swept)
    specs = experiments.rule_specs(
        game,
        games,
        players,
        bot_names(bots),
        [{**(rules or {}), **point} for point in points],
        seed,
        list(bot_files),
        bot_params=_bot_params(bot_params),
    )
    runs = experiments.play_each(specs, threads, progress)
    return S.records_frame(
        [S.setting_record(p, r.frame) for p, r in zip(points, runs, strict=True)]
    )


def _swept(game: str, params: Mapping[str, Sequence[Any]]):
    """``params`` as ``sweep.parse_params`` checks them (every value through its option)."""
    from cardsim.analysis import sweep as S
    from cardsim.core import registry
    from cardsim.text import show_value

    ruleset = registry.get(game)
    if isinstance(params, str) or not isinstance(params, Mapping):
        raise CardsimError("params must map option names to lists of values")
    texts = []
    for name, values in params.items():
        if isinstance(values, str):
            raise CardsimError(f"params[{name!r}] must be a list of values, not a string")
        texts.append(f"{name}=" + ";".join(show_value(v) for v in values))
    return S.parse_params(ruleset.options, texts, ruleset.name)


def diff(
    game: str,
    a: Mapping[str, Any] | None,
    b: Mapping[str, Any] | None,
    games: int | str = 10_000,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    seed: int = 0,
    threads: int | None = None,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, float]] | None = None,
    progress: Callable[[int], None] | None = None,
):
    """Play rule set ``a`` and rule set ``b`` (option -> value; ``None`` or ``{}`` for the
    defaults) on the same ``games`` games, as ``cardsim diff`` does. Returns the paired table
    (``paired.paired_diff``): one row per metric, ``key`` its snake_case name, the means ``a``
    and ``b``, ``diff`` (b - a) with its 95% interval, ``p_value`` and ``p_holm``; shares are
    fractions of 1."""
    from cardsim import experiments

    specs = experiments.rule_specs(
        game,
        games,
        players,
        bot_names(bots),
        [dict(a or {}), dict(b or {})],
        seed,
        list(bot_files),
        bot_params=_bot_params(bot_params),
    )
    table, _ = experiments.paired_runs(specs, threads, progress)
    return table
