"""``cardsim ladder GAME``: balance at every skill level.

The levels (``--levels``, default: random, greedy, the game's strongest heuristic bot, then
``ismcts`` at half and at its default budget when the game has it) play every pair's seatings and
their own self-play on the same deals (``-n`` for the self-play, the first ``--matrix-deals`` of
them for the pairs); see ``cardsim.analysis.experiments.ladder`` for what is reported.
With ``--out DIR`` every run is saved as a results dataset in DIR as it is played, and
``--resume`` continues an interrupted ladder.
"""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, format_option
from cardsim.cli.progress import compiling, progress_bar
from cardsim.cli.specs import rule_values

levels_option = click.option(
    "--levels",
    "-l",
    "levels",
    default="",
    metavar="LEVEL,LEVEL[,...]",
    help="The ladder, weakest first: BOT or BOT:KEY=VALUE[,KEY=VALUE] per level "
    "(random,greedy,ismcts:iterations=200,ismcts). Default: random, greedy, the game's "
    "strongest heuristic bot, then ismcts at half and at its default budget when the game has it.",
)

ladder_games_option = click.option(
    "--games",
    "-n",
    "games",
    default="1200",
    show_default=True,
    metavar="N",
    help="Deals of each level's self-play (and of each seating of each pair, unless "
    "--matrix-deals): 1200 gives about ±3 points on every level's first-player edge.",
)

matrix_deals_option = click.option(
    "--matrix-deals",
    "matrix_deals",
    default=None,
    metavar="M",
    help="Deals of each seating of each pair (the matchup matrix): the first M of the "
    "self-play's -n deals, so the matrix stays paired with it. Default: -n. The matrix costs "
    "levels*(levels-1)/2 pairs x 2 seatings (2 players) or 2K (K players) games a deal; its "
    "cells need fewer deals than the self-play's edge.",
)

ladder_out_option = click.option(
    "--out",
    "-o",
    "out",
    default=None,
    metavar="DIR",
    help="Save every run of the ladder as a results dataset in DIR as its games are played "
    "(DIR must not exist yet, or be empty; see --resume).",
)


@click.command("ladder", short_help="Balance at every skill level: matchups, first-player edge.")
@options.game_argument
@levels_option
@options.players_option
@ladder_games_option
@matrix_deals_option
@options.seed_option
@options.rules_option
@options.variant_option
@options.bot_file_option
@options.threads_option
@options.cluster_options
@ladder_out_option
@options.resume_option
@options.experiment_report_option
@options.quiet_option
@options.force_option
@format_option
def ladder(
    game,
    levels,
    players,
    games,
    matrix_deals,
    seed,
    rules,
    variant,
    bot_files,
    threads,
    cluster,
    task_size,
    out,
    resume,
    report_dir,
    quiet,
    force,
    fmt,
) -> None:
    """Play a ladder of skill levels on the same deals and report the matchup matrix (how often
    each level finishes ahead of each other, 95% intervals), the first player's edge at each
    level in self-play, and how much skill matters (order score against random, rating spread)."""
    from cardsim.cli.targets import check_report_dir
    from cardsim.core.errors import CardsimError

    check_report_dir(report_dir, force)
    if resume and out is None:
        raise CardsimError("--resume needs --out DIR (the runs of the interrupted ladder)")
    if fmt == "csv":
        raise CardsimError("ladder prints text or json (--format csv has no one main table)")

    from cardsim.analysis.experiments import ladder as L
    from cardsim.core import registry

    ruleset = registry.get(game)
    values, chosen = rule_values(game, rules, variant)
    with compiling(game, bot_files, quiet, levels or "ladder"):
        from cardsim import experiments  # numba: after the compile notice
        from cardsim.core import runner

        runner.set_threads(threads)
        setup = experiments.ladder_setup(
            game,
            levels or None,
            games,
            players,
            values,
            seed,
            bot_files,
            chosen.metadata() if chosen is not None else None,
            out,
            matrix_deals,
        )
        if out is not None:
            experiments.open_ladder_out(setup, out, resume)
        for spec in setup.specs:
            runner.warm(spec)
    cluster, task_size = options.cluster_choice(cluster, task_size)
    total = sum(s.n_games for s in setup.specs)  # -n a self-play run, --matrix-deals a seating
    try:
        with progress_bar(total, 0, quiet) as bar:
            frames = experiments.play_saved(
                setup.specs, setup.paths, resume, threads, bar.update, cluster, task_size
            )
    except KeyboardInterrupt:
        _interrupted(out)
    runs = {run.key: f for run, f in zip(setup.plan, frames, strict=True)}
    result = L.analyse(runs, setup.labels, seed, ruleset.title, setup.note)
    if fmt == "json":
        echo_json("ladder", L.ladder_record(result, ruleset.name))
    else:
        click.echo(L.format_ladder(result))
    if report_dir is not None:
        from cardsim.analysis.reports.ladder_report import ladder_report
        from cardsim.analysis.results import Results, run_metadata

        first = Results(frames[0].iloc[:0], run_metadata(setup.specs[0]))
        html, _ = ladder_report(result, first).write(report_dir)
        if not quiet:
            click.echo(
                f"\nReport written to {html}" if fmt == "text" else f"Report written to {html}",
                err=fmt != "text",
            )


def _interrupted(out) -> None:
    """Ctrl-C while the ladder plays: one line saying what is kept, exit code 130."""
    from cardsim.cli.exits import EXIT_INTERRUPTED

    if out is None:
        line = "interrupted; nothing saved (use --out DIR to keep the games of a ladder)"
    else:
        line = (
            f"interrupted: every finished chunk of games is saved in {out}; run the same "
            "command with --resume to continue"
        )
    click.echo(f"cardsim: {line}", err=True)
    raise click.exceptions.Exit(EXIT_INTERRUPTED)
