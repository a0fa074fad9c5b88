"""The library entry point: ``simulate`` plays a run and returns its ``Results`` in memory.

This is the one module of the public API that runs the compiled engine; it is imported only when
``cardsim.simulate`` is first used, so ``import cardsim`` stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from cardsim.analysis.results import FrameSink, Results, run_metadata


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


def ladder(
    game: str,
    levels: str | Sequence[str] | None = None,
    games: int | str = 1200,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    threads: int | None = None,
    bot_files: Iterable[str] = (),
    out: str | None = None,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
):
    """Play the skill ladder of ``game`` and return its ``analysis.ladder.Ladder``: the tables
    ``matchups`` (one row per ordered pair of levels; ``matrix()`` the wide score table),
    ``first_player`` (one row per level), ``skill`` (order score and rating spread) and
    ``ratings()`` as DataFrames, with ``verdict`` in one line.

    ``levels``: ``"random,greedy,planner:money=1.2"`` or a list of level texts, weakest first
    (default: random, greedy, the strongest heuristic bot, then ``ismcts`` at half and at its
    default budget when the game has it); ``games``: deals per run (every level's self-play,
    every seating of every pair); ``out``: a directory for each run's results dataset, which
    ``resume=True`` continues after an interruption. Bad input is a ``CardsimError``.
    """
    from pathlib import Path

    from cardsim import experiments
    from cardsim.analysis import ladder as L
    from cardsim.core import registry

    setup = experiments.ladder_setup(game, levels, games, players, rules, seed, bot_files, out=out)
    if out is not None and not (resume and Path(out).is_dir()):
        from cardsim.core.io import prepare_new_dataset

        prepare_new_dataset(Path(out))  # the directory of the runs' datasets
    frames = experiments.play_saved(
        setup.specs, setup.paths, resume, threads, progress, cluster, task_size
    )
    runs = {run.key: f for run, f in zip(setup.plan, frames, strict=True)}
    return L.analyse(runs, setup.labels, seed, registry.get(game).title, setup.note)
