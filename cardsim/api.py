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
    progress: bool | str | Callable[[int], None] | None = "auto",
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

    ``progress``: ``"auto"`` shows a first run's compile (a tqdm.auto widget in a notebook, a
    spinner on a terminal, two lines on stderr elsewhere) and the games' bar in a notebook or on
    a terminal; ``True`` the same with the games' bar everywhere (tqdm.auto); ``False`` nothing;
    a function is called with each number of games played (the compile shown as ``"auto"``).
    """
    from cardsim import feedback

    notebook = feedback.in_notebook()
    style = "off" if progress is False else "notebook" if notebook else "auto"
    bot_list = bot_names(bots)
    with feedback.compiling(game, bot_files, bot_list, style=style):
        from cardsim.core import runner  # numba: after the compile is announced

        spec = runner.make_spec(
            game,
            games,
            players,
            bot_list,
            dict(rules or {}),
            seed,
            list(bot_files),
            bot_params=bot_params,
        )
        if cluster is None:
            runner.warm(spec)
    sink = FrameSink(spec)
    with _games_bar(progress, spec.n_games, notebook) as bar:
        stats = runner.run(
            spec,
            [sink],
            threads,
            chunk_size,
            progress=progress if callable(progress) else bar.update,
            cluster=cluster,
            task_size=task_size,
        )
    return Results(sink.frame(), run_metadata(spec, stats))


def _games_bar(progress, total: int, notebook: bool):
    """The games' bar ``progress`` asks for (one that shows nothing when it asks for none)."""
    from cardsim import feedback

    if progress is True:
        return feedback.progress_bar(total, notebook=True)  # tqdm.auto: a widget or a text bar
    if progress == "auto":
        return feedback.progress_bar(total, notebook=notebook)
    return feedback.progress_bar(total, quiet=True)
