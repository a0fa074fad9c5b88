"""The library entry points: ``simulate`` plays a run and returns its ``Results`` in memory;
``compare``, ``sweep`` and ``diff`` play an experiment as the commands of those names do and
return its tables (docs/api.md); ``ablation`` plays a base and rule variants on the same games.

This is the one module of the public API that runs the compiled engine; it is imported only when
``cardsim.simulate`` is first used, so ``import cardsim`` stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from cardsim.analysis.results import FrameSink, Results, run_metadata
from cardsim.analysis.stats import paired
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


def _player(
    game: str,
    players: int | None,
    bots: Sequence[str],
    seed: int,
    bot_files: Iterable[str],
    bot_params,
    threads: int | None,
    client: Any,
    task_size: int | None,
):
    """``play(rules, first_game, n_games) -> frame`` for the tuning library: games of the seed
    from index ``first_game`` on, under ``rules``, with these bots (each call a checked spec)."""
    from cardsim import experiments
    from cardsim.core import runner

    bot_files = list(bot_files)

    def play(rules, first_game: int, n_games: int):
        spec = runner.make_spec(
            game,
            n_games,
            players,
            list(bots),
            dict(rules),
            seed,
            bot_files,
            first_game=first_game,
            bot_params=bot_params,
        )
        return experiments.play(spec, threads, cluster=client, task_size=task_size).frame

    return play


def _tune_levels(ruleset, goal, levels) -> list | None:
    """The ladder levels of a tune: ``None`` unless the objective is the ladder."""
    from cardsim.analysis.experiments.tuning.ladder_values import given_levels, tuning_levels

    chosen = given_levels(goal, levels)
    if chosen is None and goal.ladder:
        return tuning_levels(ruleset.bots())
    return chosen


def _tune_bots(check, names: Sequence[str], levels) -> tuple[str, ...]:
    """The bots a tune plays: the ladder's levels, else ``--bots`` (or the game's default)."""
    if levels is not None:
        return tuple(lv.label for lv in levels)
    return tuple(b.name for b in check.bots) if not names else tuple(names)


def _ladder_player(
    game: str,
    n_players: int,
    levels,
    seed: int,
    bot_files: Iterable[str],
    threads: int | None,
    client: Any,
    task_size: int | None,
):
    """``play(rules, first_game, n_games) -> LadderValues`` for ``--objective ladder``: the runs
    of ``cardsim ladder`` that the objective reads (``ladder_values.tuning_plan``), games of the
    seed from ``first_game`` on, under ``rules``."""
    from cardsim import experiments
    from cardsim.analysis.experiments import ladder as L
    from cardsim.analysis.experiments.tuning.ladder_values import ladder_values, tuning_plan

    labels = [lv.label for lv in levels]
    plan = tuning_plan(L.ladder_plan(labels, n_players), len(labels))
    bot_files = list(bot_files)

    def play(rules, first_game: int, n_games: int):
        specs = experiments.ladder_specs(
            game, n_games, n_players, levels, plan, dict(rules), seed, bot_files,
            first_game=first_game,
        )  # fmt: skip
        frames = {
            run.key: experiments.play(spec, threads, cluster=client, task_size=task_size).frame
            for run, spec in zip(plan, specs, strict=True)
        }
        return ladder_values(frames, labels)

    return play


def _params_texts(params) -> list[str]:
    """``["k=3..7"]`` or ``{"k": "3..7", "b": [True, False]}`` -> ``--param`` texts."""
    if isinstance(params, Mapping):
        from cardsim.text import show_value

        out = []
        for key, value in params.items():
            if isinstance(value, list | tuple):
                sep = ";" if any(isinstance(v, list | tuple) for v in value) else ","
                value = sep.join(show_value(v) for v in value)
            out.append(f"{key}={value}")
        return out
    return [params] if isinstance(params, str) else list(params)


def tune(
    game: str,
    params,
    objective: str | Sequence[str] = "first-player",
    budget: int = 60,
    games: int = 10_000,
    blocks: int = 10,
    verify_games: int | None = None,
    top: int = 3,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    threads: int | None = None,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, float]] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
    study: str | None = None,
    resume: bool = False,
    on_trial: Callable[[int], None] | None = None,
    levels: str | Sequence[str] | None = None,
):
    """Search rule values for balance and verify the best on fresh deals (``cardsim tune``).

    ``params``: ``["hand_size=3..7", "final_tie=shared,replay"]`` or ``{"hand_size": "3..7"}``;
    ``objective``: ``"first-player"``, ``"seats"``, optionally with ``"length=LO..HI"``
    or ``"ladder"`` (a list); ``levels`` the ladder of ``"ladder"`` as ``cardsim ladder --levels``
    takes it (default: ``ladder_values.tuning_levels``; ``bots`` are then not used); ``budget`` trials of ``games`` games each in ``blocks`` blocks of deals; the
    ``top`` best candidates and the defaults are re-played on ``verify_games`` fresh games
    (default 4 x ``games``). ``study``: a journal file keeping the trials (``resume`` continues
    it). Returns a ``TuneResult`` (``.trials``, ``.verification``, ``.winner``, ``.to_dict()``).
    """
    import time

    from cardsim import experiments
    from cardsim.analysis.experiments.tuning import objectives, search, verify
    from cardsim.analysis.experiments.tuning import params as P
    from cardsim.analysis.experiments.tuning.result import TuneResult
    from cardsim.core import registry, runner
    from cardsim.core.cluster import session

    start = time.perf_counter()
    ruleset = registry.get(game)
    texts = [objective] if isinstance(objective, str) else list(objective)
    goal = objectives.parse_objective(texts)
    searched = P.parse_tune_params(ruleset.options, _params_texts(params), ruleset.name)
    names = bot_names(bots)
    base = dict(rules or {})
    check = runner.make_spec(
        game, 1, players, names, base, seed, list(bot_files), bot_params=bot_params
    )
    chosen = _tune_levels(ruleset, goal, levels)
    if chosen is not None and names:
        raise CardsimError("--objective ladder seats the bots of its --levels: leave out --bots")
    if chosen is not None:  # checked before anything is played: bots and their parameters
        experiments.level_bots(ruleset, chosen, bot_files)
    setup = search.TuneSetup(
        ruleset.name,
        tuple(searched),
        goal,
        check.n_players,
        _tune_bots(check, names, chosen),
        seed,
        int(budget),
        runner.parse_count(games),
        int(blocks),
        {k: check.rules[k] for k in base},
    )
    search.check_setup(setup)
    verify_games = runner.parse_count(verify_games if verify_games is not None else 4 * setup.games)
    if top < 1:
        raise CardsimError(f"--top must be at least 1, got {top}")
    with session(cluster) as client:
        if chosen is None:
            play = _player(
                game, players, names, seed, bot_files, bot_params, threads, client, task_size
            )
        else:
            play = _ladder_player(
                game, check.n_players, chosen, seed, bot_files, threads, client, task_size
            )
        study_ = search.search(setup, play, study, resume, on_trial)
        trials = search.trials_table(study_, setup)
        points = search.top_points(study_, setup, top)
        table = verify.verify(setup, points, play, verify_games)
    return TuneResult(
        setup, ruleset.title, trials, table, verify_games, time.perf_counter() - start
    )


def screen(
    game: str,
    options: Sequence[str] | None = None,
    design: str = "auto",
    games: int = 4000,
    trajectories: int = 10,
    two_level: bool = False,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    threads: int | None = None,
    bot_files: Iterable[str] = (),
    bot_params: Mapping[str, Mapping[str, float]] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    levels: Sequence[str] = (),
):
    """Which rule options move balance most (``cardsim screen``): every option (or ``options``)
    varied in a screening design (``design``: auto, pb, fracfact, morris), every run on the
    same ``games`` deals; ``levels``: ``["scarecrows=0,10"]`` sets an option's levels. Returns a ``ScreenResult`` (``.effects``, ``.ranking()``,
    ``.to_dict()``). ``progress(n)``: called after each run with the runs done."""
    import time

    from cardsim.analysis.experiments.tuning import measures
    from cardsim.analysis.experiments.tuning import params as P
    from cardsim.analysis.experiments.tuning import screen as S
    from cardsim.analysis.experiments.tuning.params import rule_values
    from cardsim.analysis.experiments.tuning.result import ScreenResult
    from cardsim.core import registry, runner
    from cardsim.core.cluster import session
    from cardsim.core.errors import CardsimError

    start = time.perf_counter()
    ruleset = registry.get(game)
    names = bot_names(bots)
    base = dict(rules or {})
    check = runner.make_spec(
        game, 1, players, names, base, seed, list(bot_files), bot_params=bot_params
    )
    n_games = runner.parse_count(games)
    factors = P.screen_factors(ruleset.options, options, ruleset.name, two_level, levels)
    factors = [f for f in factors if f.name not in base]
    chosen = S.choose_design(factors, design)
    matrix = S.design_matrix(factors, chosen, seed, trajectories)
    points = S.settings(factors, matrix)
    runs, rows, rejected = [], [], []
    with session(cluster) as client:
        play = _player(
            game, players, names, seed, bot_files, bot_params, threads, client, task_size
        )
        for i, point in enumerate(points):
            row = {"run": i + 1, **rule_values(point)}
            try:
                frame = play({**base, **point}, 0, n_games)
            except CardsimError as exc:  # rule values that cannot be played together
                rejected.append(f"run {i + 1}: {exc}")
                runs.append(None)
                rows.append({**row, "rejected": str(exc)})
            else:
                values = measures.game_values(frame)
                runs.append(values)
                figures = measures.figures(values)
                for key in ("first_player_edge", "seat_spread", "mean_turns"):
                    row[key] = float(figures[key][0])
                rows.append({**row, "rejected": None})
            if progress is not None:
                progress(i + 1)
    if len(rejected) * 2 > len(points):
        raise CardsimError(
            f"{len(rejected)} of the screen's {len(points)} runs have rule values that cannot be "
            f"played together ({rejected[0]}): narrow them with --levels or fix one with --rules"
        )
    draws = S.run_draws(runs, seed)
    effects = S.effects_table(factors, chosen, matrix, draws, seed)
    table = pd.DataFrame(rows)
    if draws.strongest is not None:
        table["strongest_bot_share"] = draws.figures["strongest_bot_share"][:, 0]
    return ScreenResult(
        ruleset.name,
        ruleset.title,
        check.n_players,
        tuple(names) or tuple(b.name for b in check.bots),
        seed,
        n_games,
        chosen,
        tuple(factors),
        effects,
        table,
        draws.strongest,
        {k: check.rules[k] for k in base},
        time.perf_counter() - start,
    )


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
    (``cardsim.analysis.experiments.compare``): ``win_rates`` by bot, ``pairs`` (head to head), ``rating``
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
    from cardsim.analysis.experiments import sweep as S

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
    from cardsim.analysis.experiments import sweep as S
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
    matrix_deals: int | str | None = None,
):
    """Play the skill ladder of ``game`` and return its ``analysis.ladder.Ladder``: the tables
    ``matchups`` (one row per ordered pair of levels; ``matrix()`` the wide score table),
    ``first_player`` (one row per level), ``skill`` (order score and rating spread) and
    ``ratings()`` as DataFrames, with ``verdict`` in one line.

    ``levels``: ``"random,greedy,planner:money=1.2"`` or a list of level texts, weakest first
    (default: random, greedy, the strongest heuristic bot, then ``ismcts`` at half and at its
    default budget when the game has it); ``games``: deals of every level's self-play;
    ``matrix_deals``: deals of every seating of every pair, the first of the self-play's (at
    most ``games``; default ``games``); ``out``: a directory for each run's results dataset,
    which ``resume=True`` continues after an interruption. Bad input is a ``CardsimError``.
    """
    from cardsim import experiments
    from cardsim.analysis.experiments import ladder as L
    from cardsim.core import registry

    setup = experiments.ladder_setup(
        game, levels, games, players, rules, seed, bot_files, out=out, matrix_deals=matrix_deals
    )
    if out is not None:
        experiments.open_ladder_out(setup, out, resume)  # the directory of the runs' datasets
    frames = experiments.play_saved(
        setup.specs, setup.paths, resume, threads, progress, cluster, task_size
    )
    runs = {run.key: f for run, f in zip(setup.plan, frames, strict=True)}
    return L.analyse(runs, setup.labels, seed, registry.get(game).title, setup.note)


def ablation(
    game: str,
    base_rules: Mapping[str, Any] | None,
    variants: Mapping[str, Mapping[str, Any]],
    games: int | str = 10_000,
    players: int | None = None,
    bots: str | Sequence[str] = (),
    seed: int = 0,
    threads: int | None = None,
    bot_files: Sequence[str] = (),
    results: dict | None = None,
) -> pd.DataFrame:
    """Paired ablation, what a rule change does measured on the very same games: paired diffs of
    each variant against the base, on common games.

    The base rules and every variant are played on the same seed and game indices (common random
    numbers), so the change a rule makes shows through much less noise than two independent runs
    would allow; and because the runs are the rule set's own games, the differences are causes,
    not associations (compare ``cardsim.analysis.stats.counters``). Example, the crow-card study of
    Pajarracos::

        ablation("pajarracos", {}, {"no crows": {"crows": 0}, "no flocks": {"flocks": 0}},
                 games=20_000, players=4)

    ``variants``: name -> rule options changed on top of ``base_rules``. Returns the
    ``paired_diff`` rows of every variant with a first column ``variant`` (diff = variant - base).
    Pass a dict as ``results`` to get the ``Results`` of each run too (key ``"base"`` and each
    variant's name).
    """

    def play(rules: Mapping[str, Any]):
        return simulate(
            game,
            games=games,
            players=players,
            bots=bots,
            rules=rules,
            seed=seed,
            threads=threads,
            bot_files=bot_files,
        )

    base_rules = dict(base_rules or {})
    base = play(base_rules)
    if results is not None:
        results["base"] = base
    tables = []
    for name, change in variants.items():
        run = play({**base_rules, **dict(change)})
        if results is not None:
            results[name] = run
        table = paired.paired_diff(base, run)
        table.insert(0, "variant", name)
        tables.append(table)
    if not tables:
        return pd.DataFrame(columns=["variant", *paired.paired_diff(base, base).columns])
    return pd.concat(tables, ignore_index=True)
