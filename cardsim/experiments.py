"""Experiments: several runs played on common games, so that what differs between them is only
what the experiment changes.

Every run of an experiment has the same seed and the same game indices ``0 .. games-1``. Game
``i`` draws its chance and bot streams from ``(seed, i)`` alone (``cardsim.core.rng``), so game
``i`` of every run starts from the same deal and the same starting seat:

- ``compare``: one run per seating of the bots (each run seats every game the same way, a one-row
  seating table), so deal ``i`` is played under every seating and seat advantage cancels;
- ``sweep``: one run per grid point of rule values;
- ``diff``: one run per variant;
- ``ladder``: the self-play of each level on games ``0 .. N-1`` and one run per seating of each
  pair of levels on games ``0 .. M-1`` (``--matrix-deals M``, at most ``N``): the first ``M``
  deals of the self-play, so the runs stay paired on the deals they share.

This module runs the compiled engine; the analysis of the runs is in ``cardsim.analysis``
(``compare``, ``sweep``, ``paired``), which never imports numba.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from cardsim.analysis.results import FrameSink, Results, run_metadata
from cardsim.core import registry, runner
from cardsim.core.errors import CardsimError


def play(
    spec: runner.RunSpec,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
) -> Results:
    """Play one run and keep every game in memory (``cluster``: on a Dask cluster in tasks of
    ``task_size`` games, see ``runner.run``)."""
    sink = FrameSink(spec)
    stats = runner.run(
        spec, [sink], threads, chunk_size, progress, cluster=cluster, task_size=task_size
    )
    return Results(sink.frame(), run_metadata(spec, stats))


def play_on_common_games(
    specs: Sequence[runner.RunSpec],
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
) -> list[Results]:
    """Play every run of an experiment; they must share seed, first game and game count."""
    return list(play_each(specs, threads, progress, cluster, task_size))


BLOCK_GAMES = 1 << 18  # games of all the runs of an experiment held at once by play_blocks


def block_size(n_runs: int, block_games: int = BLOCK_GAMES) -> int:
    """Games per run in a block of ``play_blocks``: about ``block_games`` games over all the runs,
    whole chunks, at least one chunk."""
    chunk = runner.DEFAULT_CHUNK
    per_run = max(block_games // max(n_runs, 1), 1024)
    return per_run // chunk * chunk if per_run >= chunk else per_run


def play_blocks(
    specs: Sequence[runner.RunSpec],
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
    block: int | None = None,
) -> Iterator[list]:
    """Play the runs of an experiment block by block: for each range of ``block`` game indices
    (default ``block_size``), every run's games of that range, one frame per run in ``specs``
    order. The analysis can pair game i of every run and drop the block before the next is
    played, so memory holds one block, whatever the number of games. The games are those of the
    whole runs (a game depends only on the seed and its index)."""
    from cardsim.core.cluster import session

    _check_common(specs)
    runner.set_threads(threads)
    first = specs[0]
    block = block or block_size(len(specs))
    with session(cluster) as client:
        for lo in range(0, first.n_games, block):
            n = min(block, first.n_games - lo)
            frames = []
            for spec in specs:
                part = dataclasses.replace(spec, first_game=spec.first_game + lo, n_games=n)
                sink = FrameSink(part)
                runner.run(
                    part, [sink], threads, progress=progress, cluster=client, task_size=task_size
                )
                frames.append(sink.frame())
            yield frames


def _check_common(specs: Sequence[runner.RunSpec], same_count: bool = True) -> None:
    """The runs start on the same game of the same seed (deal ``i`` is game ``i`` of every run)
    and, with ``same_count``, play as many games (a ladder's matrix may play fewer: the first
    deals of its self-play)."""
    first = specs[0]

    def games(spec: runner.RunSpec) -> tuple:
        count = spec.n_games if same_count else None
        return (spec.seed, spec.first_game, count, spec.n_players)

    for spec in specs[1:]:
        if games(spec) != games(first):
            raise ValueError("the runs of an experiment must be played on the same games")


def play_each(
    specs: Sequence[runner.RunSpec],
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
) -> Iterator[Results]:
    """The runs of an experiment one at a time (each can be summarized and dropped before the
    next is played, so memory holds one run, not all). ``cluster``: played on a Dask cluster
    (one connection, or one local cluster, for every run)."""
    from cardsim.core.cluster import session

    _check_common(specs)
    runner.set_threads(threads)
    with session(cluster) as client:
        for spec in specs:
            yield play(spec, threads, progress=progress, cluster=client, task_size=task_size)


def compare_seatings(
    specs: Sequence[runner.RunSpec],
    bot_names: Sequence[str],
    seatings: Sequence[Sequence[str]],
    title: str,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
):
    """Play the runs of ``seating_specs`` block by block and count them as they come
    (``compare.CompareStats``): the ``Comparison``, and an empty frame of the runs' columns."""
    from cardsim.analysis.experiments.compare import CompareStats

    stats = CompareStats(list(bot_names), list(seatings), specs[0].seed, title)
    empty = None
    for frames in play_blocks(specs, threads, progress, cluster, task_size):
        stats.add(frames)
        empty = frames[0].iloc[:0]
        del frames
    return stats.comparison(), empty


def paired_runs(
    specs: Sequence[runner.RunSpec],
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
):
    """Play two runs of ``rule_specs`` block by block on the same games and pair them as they
    come (``paired.PairedStats``): the table of ``paired.paired_diff``, and an empty frame of
    the runs' columns."""
    from cardsim.analysis.stats.paired import PairedStats

    paired = PairedStats(specs[0].ruleset.length_counters)
    empty = None
    for fa, fb in play_blocks(specs, threads, progress, cluster, task_size):
        paired.add(fa, fb)
        empty = fa.iloc[:0]
    return paired.table(), empty


def comparison_specs(
    game: str,
    games,
    players: int | None,
    names: Sequence[str],
    seatings: str = "all",
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    bot_files: Iterable[str] = (),
    variant: dict | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[list[runner.RunSpec], list[str], list[tuple[str, ...]]]:
    """A comparison of the bots ``names`` (``cardsim compare``, ``cardsim.compare``): the runs
    of its seatings (``compare.seatings``, mode ``seatings``), the distinct bots and the
    seatings; the player count is checked before the seatings are enumerated."""
    from cardsim.analysis.experiments.compare import seatings as enumerate_seatings

    k = runner.check_players(registry.get(game), players)
    runner.parse_count(games)
    seating_list = enumerate_seatings(names, k, seatings)
    distinct = list(dict.fromkeys(names))
    specs = seating_specs(
        game, games, k, distinct, seating_list, rules, seed, bot_files, variant, bot_params
    )
    return specs, distinct, seating_list


def seating_specs(
    game: str,
    games,
    n_players: int,
    bot_names: Sequence[str],
    seatings: Sequence[Sequence[str]],
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    bot_files: Iterable[str] = (),
    variant: dict | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[runner.RunSpec]:
    """One run per seating (bot name per seat), all with the same bot list ``bot_names`` so the
    runs' bot categories agree: deal ``i`` is game ``i`` of every run."""
    ruleset = registry.get(game)
    bots = runner.resolve_bots(ruleset, list(bot_names), len(bot_names), bot_files, bot_params)
    specs = []
    for seating in seatings:
        row = np.array([[list(bot_names).index(name) for name in seating]], np.int16)
        spec = runner.make_spec(
            game, games, n_players, rules=rules, seed=seed, seat_bots=bots, seat_bot_table=row
        )
        specs.append(dataclasses.replace(spec, variant=variant))
    return specs


def rule_specs(
    game: str,
    games,
    n_players: int | None,
    bots: Sequence[str],
    settings: Sequence[Mapping[str, Any]],
    seed: int = 0,
    bot_files: Iterable[str] = (),
    variants: Sequence[dict | None] | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[runner.RunSpec]:
    """One run per rule setting (a sweep's grid points, a diff's variants), same bots and seed.

    Every setting is checked before any game is played, so a bad value further down the grid
    fails at once rather than after the first runs.
    """
    specs = []
    for i, rules in enumerate(settings):
        spec = runner.make_spec(
            game, games, n_players, list(bots), dict(rules), seed, bot_files, bot_params=bot_params
        )
        if variants is not None and variants[i] is not None:
            spec = dataclasses.replace(spec, variant=variants[i])
        specs.append(spec)
    if not specs:
        raise CardsimError("nothing to run: no rule setting given")
    return specs


def level_bots(ruleset, levels, bot_files: Iterable[str] = ()) -> list:
    """The ``Bot`` of each ladder level (``analysis.ladder.Level``), named by the level's label
    and with its parameters, checked as ``--bot-param`` checks them (``bots.with_params``): two
    levels may be the same bot with different parameters."""
    from cardsim.core.bots import with_params

    out = []
    for level in levels:
        bot = runner.resolve_bots(ruleset, [level.bot], 1, bot_files)[0]
        if level.params:
            try:
                bot = with_params([bot], {bot.name: level.overrides()})[0]
            except CardsimError as exc:
                raise CardsimError(str(exc).replace("--bot-param", "--levels", 1)) from None
        out.append(dataclasses.replace(bot, name=level.label))
    return out


def ladder_specs(
    game: str,
    games,
    n_players: int,
    levels,
    plan,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    bot_files: Iterable[str] = (),
    variant: dict | None = None,
    first_game: int = 0,
    matrix_games=None,
) -> list[runner.RunSpec]:
    """One run per ``plan`` entry (``analysis.ladder.ladder_plan``): its bots are the levels it
    seats, its one-row seating table the entry's seating; deal ``i`` is game ``i`` of every run
    (games from ``first_game`` on: a tune's blocks). A self-play run plays ``games`` games, a
    matchup run ``matrix_games`` (default ``games``; ``ladder_setup`` checks it is not more).
    A built-in bot renamed after its level still plays unguarded, as itself."""
    ruleset = registry.get(game)
    bots = {b.name: b for b in level_bots(ruleset, levels, bot_files)}
    builtin = {b.fn for b in ruleset.bots().values()}
    specs = []
    for entry in plan:
        seated = [bots[name] for name in entry.bots]
        row = np.array([[list(entry.bots).index(name) for name in entry.seating]], np.int16)
        count = games if entry.self_play or matrix_games is None else matrix_games
        spec = runner.make_spec(
            game,
            count,
            n_players,
            rules=rules,
            seed=seed,
            seat_bots=seated,
            seat_bot_table=row,
            first_game=first_game,
        )
        guarded = tuple(b.fn not in builtin for b in seated)
        specs.append(dataclasses.replace(spec, variant=variant, guarded=guarded))
    return specs


def play_saved(
    specs: Sequence[runner.RunSpec],
    paths: Sequence | None = None,
    resume: bool = False,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    cluster: Any = None,
    task_size: int | None = None,
) -> list:
    """Play every run of an experiment and return its games (one frame per run). ``paths``:
    each run's results dataset (``dataset.DatasetSink``), written as its games are played; with
    ``resume`` the saved games are read back and only the missing ones played, so an
    interrupted experiment continues where it stopped. ``progress`` counts saved games too.
    The runs start on the same game but may play different counts (a ladder's matrix)."""
    from cardsim.core.cluster import session

    _check_common(specs, same_count=False)
    runner.set_threads(threads)
    frames = []
    with session(cluster) as client:
        for n, spec in enumerate(specs):
            frame = FrameSink(spec)
            sinks: list = [frame]
            ranges = None
            if paths is not None:
                from cardsim.core.dataset import DatasetSink

                saved = DatasetSink(paths[n], spec, resume=resume, feed=[frame])
                sinks.append(saved)
                ranges = saved.missing
                if progress is not None and saved.games:
                    progress(saved.games)
            if ranges != []:
                runner.run(
                    spec,
                    sinks,
                    threads,
                    progress=progress,
                    ranges=ranges,
                    cluster=client,
                    task_size=task_size,
                )
            if paths is not None:
                saved.close()
            frames.append(frame.frame())
    return frames


@dataclasses.dataclass(frozen=True)
class LadderSetup:
    """A checked ladder, ready to play: its levels (labels), the note on a default ladder
    without the search bot, its runs (``ladder_plan``) and their specs, the dataset
    directory of each run under ``out`` (``None`` without ``out``), the deals of each self-play
    run and of each matchup run, and whether the latter were given (else they follow ``-n``)."""

    labels: list[str]
    note: str
    plan: list
    specs: list[runner.RunSpec]
    paths: list | None
    deals: int
    matrix_deals: int
    matrix_given: bool


def ladder_setup(
    game: str,
    levels=None,
    games=1200,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    seed: int = 0,
    bot_files: Iterable[str] = (),
    variant: dict | None = None,
    out=None,
    matrix_deals=None,
) -> LadderSetup:
    """Check every input of a ladder (levels as ``--levels`` text or a list; ``None``: the
    game's default ladder; ``matrix_deals``: the deals of each matchup run, at most ``games``,
    ``None`` for ``games``) and build its runs; one-line errors before any game is played."""
    from pathlib import Path

    from cardsim.analysis.experiments import ladder as L

    ruleset = registry.get(game)
    k = runner.check_players(ruleset, players)
    deals = runner.parse_count(games)
    given = matrix_deals is not None
    matrix = runner.parse_count(matrix_deals, "--matrix-deals") if given else deals
    if matrix > deals:
        raise CardsimError(
            f"--matrix-deals {matrix:,} is more than the self-play's {deals:,} deals (-n): the "
            "matchup runs play the first deals of the self-play's"
        )
    note = ""
    if levels is None or (isinstance(levels, str) and not levels.strip()):
        chosen, note = L.default_levels(ruleset.bots())
    else:
        chosen = L.parse_levels(levels)
    labels = [lv.label for lv in chosen]
    plan = L.ladder_plan(labels, k)
    specs = ladder_specs(
        game, deals, k, chosen, plan, rules, seed, bot_files, variant, matrix_games=matrix
    )
    paths = None if out is None else [Path(out) / run.key for run in plan]
    return LadderSetup(labels, note, plan, specs, paths, deals, matrix, given)


LADDER_RECORD = "_ladder.json"  # in a ladder's --out DIR, beside its runs' datasets


def open_ladder_out(setup: LadderSetup, out, resume: bool = False) -> None:
    """Make ``out`` the ladder's directory (a new, empty one), or with ``resume`` check that the
    ladder saved there is this one's as far as the runs' own datasets cannot tell (the deals
    of its matrix: one-line error); then record the ladder's options in it (``LADDER_RECORD``).
    Each run's dataset checks the rest (rules, bots, seed) when it is opened."""
    from pathlib import Path

    from cardsim.core.dataset import prepare_new_dataset

    path = Path(out)
    if resume and path.is_dir():
        _check_saved_matrix(path, setup)
    else:
        prepare_new_dataset(path)
    first = setup.specs[0]
    record = {
        "schema": "cardsim.ladder-runs/1",
        "levels": setup.labels,
        "players": first.n_players,
        "seed": first.seed,
        "matrix_deals": setup.matrix_deals,
        "matrix_deals_given": setup.matrix_given,  # false: they follow -n, as resume may raise it
    }
    tmp = path / f".{LADDER_RECORD}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(tmp, path / LADDER_RECORD)  # atomic: the record is whole or the one before


def _saved_matrix(path) -> tuple[int, bool] | None:
    """The matrix deals of the ladder saved in ``path`` and whether they followed ``-n``: from
    its record, else (saved before ``--matrix-deals``, so following ``-n``) from a saved
    matchup run's count; ``None`` when neither is there."""
    from cardsim.analysis.experiments.ladder import MATCHUP
    from cardsim.core.dataset import is_dataset, read_metadata
    from cardsim.core.dataset.format import quote

    record = path / LADDER_RECORD
    if record.is_file():
        try:
            doc = json.loads(record.read_text())
            return int(doc["matrix_deals"]), not doc["matrix_deals_given"]
        except (ValueError, KeyError, TypeError):
            raise CardsimError(f"cannot resume {quote(path)}: {LADDER_RECORD} is damaged") from None
    for run in sorted(path.glob(f"{MATCHUP}*")):
        if is_dataset(run):
            return int(read_metadata(run)["games"]), True
    return None


def _check_saved_matrix(path, setup: LadderSetup) -> None:
    """A one-line error unless the ladder saved in ``path`` played (or plays) as many matrix
    deals as ``setup``: the same ``--matrix-deals``, or both following ``-n``."""
    from cardsim.core.dataset.format import quote

    saved = _saved_matrix(path)
    if saved is None:
        return
    deals, followed = saved
    if deals == setup.matrix_deals or (followed and not setup.matrix_given):
        return
    hint = "" if setup.matrix_given else f" (-n; give --matrix-deals {deals:,} as before)"
    raise CardsimError(
        f"cannot resume {quote(path)}: its matchup runs were made with --matrix-deals {deals:,}, "
        f"this ladder has --matrix-deals {setup.matrix_deals:,}{hint}"
    )
