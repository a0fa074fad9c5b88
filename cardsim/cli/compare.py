"""``cardsim compare GAME --bots a,b,c``: which bot is stronger, with seat advantage taken out.

Every seating of the bots plays the same deals (game i of the seed); see
``cardsim.analysis.experiments.compare`` for the seatings and what is reported. The seatings are played block
of deals by block (``experiments.play_blocks``) and counted as they come
(``compare.CompareStats``), so memory holds one block of games whatever --games.
"""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, format_option, frame_records, records_csv
from cardsim.cli.progress import compiling, progress_bar
from cardsim.cli.specs import rule_values


@click.command("compare", short_help="Compare bots on the same deals under every seating.")
@options.game_argument
@options.compare_bots_option
@options.players_option
@options.deals_option
@options.seatings_option
@options.seed_option
@options.rules_option
@options.variant_option
@options.bot_file_option
@options.bot_param_option
@options.threads_option
@options.cluster_options
@options.experiment_report_option
@options.quiet_option
@options.force_option
@format_option
def compare(
    game,
    bots,
    players,
    games,
    seatings,
    seed,
    rules,
    variant,
    bot_files,
    threads,
    cluster,
    task_size,
    report_dir,
    quiet,
    fmt,
    bot_params,
    force,
) -> None:
    """Play every seating of --bots on the same --games deals and report win rates by bot, how
    often each bot finishes ahead of each other, a rating with the turn-order effect taken out,
    and how far the strongest bot is ahead of random."""
    from cardsim.cli.targets import check_report_dir

    check_report_dir(report_dir, force)

    from cardsim.analysis.experiments import compare as C
    from cardsim.core import registry

    ruleset = registry.get(game)
    names = options.split_names(bots)
    values, chosen = rule_values(game, rules, variant)
    with compiling(game, bot_files, quiet, bots):
        from cardsim import experiments  # numba: after the compile notice
        from cardsim.core import runner
        from cardsim.core.bots import parse_bot_params

        runner.set_threads(threads)
        specs, distinct, seating_list = experiments.comparison_specs(
            game,
            games,
            players,
            names,
            seatings,
            values,
            seed,
            bot_files,
            variant=chosen.metadata() if chosen is not None else None,
            bot_params=parse_bot_params(bot_params),
        )
        runner.warm(specs[0])
    runner.set_threads(threads)
    cluster, task_size = options.cluster_choice(cluster, task_size)
    total = sum(s.n_games for s in specs)
    with progress_bar(total, 0, quiet) as bar:
        comparison, empty = experiments.compare_seatings(
            specs, distinct, seating_list, ruleset.title, threads, bar.update, cluster, task_size
        )
    if fmt == "json":
        echo_json("compare", C.comparison_record(comparison, ruleset.name))
    elif fmt == "csv":
        click.echo(records_csv(frame_records(comparison.win_rates)))
    else:
        click.echo(C.format_comparison(comparison))
    if report_dir is not None:
        from cardsim.analysis.reports.experiment_report import compare_report
        from cardsim.analysis.results import Results, run_metadata

        html, _ = compare_report(comparison, Results(empty, run_metadata(specs[0]))).write(
            report_dir
        )
        if not quiet:
            click.echo(
                f"\nReport written to {html}" if fmt == "text" else f"Report written to {html}",
                err=fmt != "text",
            )
