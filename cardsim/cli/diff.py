"""``cardsim diff GAME --variant a.toml --variant b.toml``: what a rule change does, both rule sets
played on the same games, every metric's change with a paired interval
(``cardsim.analysis.experiments.variant_diff``).

The two runs are played block by block on the same games (``experiments.play_blocks``) and
paired as they come (``paired.PairedStats``), so memory holds one block of games whatever
--games; the table is ``paired_diff`` of all the games."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, format_option, frame_records, records_csv
from cardsim.cli.progress import compiling, progress_bar
from cardsim.core.errors import CardsimError


@click.command("diff", short_help="The change of every metric between two variants.")
@options.game_argument
@options.diff_variants_option
@options.deals_option
@options.players_option
@options.bots_option
@options.bot_file_option
@options.bot_param_option
@options.seed_option
@options.rules_option
@options.threads_option
@options.cluster_options
@options.experiment_report_option
@options.quiet_option
@options.force_option
@format_option
def diff(
    game,
    variants,
    games,
    players,
    bots,
    bot_files,
    seed,
    rules,
    threads,
    cluster,
    task_size,
    report_dir,
    quiet,
    fmt,
    bot_params,
    force,
) -> None:
    """Play the two variants on the same --games games and print the change of every balance
    metric (win rates by position and seat, first-player advantage, length, score spread,
    winning margin) with its paired 95% interval."""
    from cardsim.cli.targets import check_report_dir

    check_report_dir(report_dir, force)

    from cardsim.analysis.experiments import variant_diff as D
    from cardsim.analysis.reports.report import prepare_dir
    from cardsim.core import registry
    from cardsim.core.options import parse_assignments
    from cardsim.core.variants import combine_rules, load_variant

    ruleset = registry.get(game)
    if len(variants) > 2:
        raise CardsimError(f"diff compares two variants, got {len(variants)} --variant files")
    chosen = [load_variant(path, ruleset) for path in variants]
    if len(chosen) == 1:
        chosen.insert(0, None)  # the rules without a file, then the variant
    extra = parse_assignments(rules)
    names = [v.name if v is not None else "base rules" for v in chosen]
    if names[0] == names[1]:
        names = [f"{names[0]} (first)", f"{names[1]} (second)"]
    with compiling(game, bot_files, quiet, bots):
        from cardsim import experiments  # numba: after the compile notice
        from cardsim.core import runner
        from cardsim.core.bots import parse_bot_params

        specs = experiments.rule_specs(
            game,
            games,
            players,
            options.split_names(bots),
            [combine_rules(v, extra) for v in chosen],
            seed,
            bot_files,
            variants=[v.metadata() if v is not None else None for v in chosen],
            bot_params=parse_bot_params(bot_params),
        )
        runner.warm(specs[0])
    cluster, task_size = options.cluster_choice(cluster, task_size)
    if report_dir is not None:
        prepare_dir(report_dir)
    # game by game, block by block: memory does not grow with --games
    with progress_bar(sum(s.n_games for s in specs), 0, quiet) as bar:
        table, empty = experiments.paired_runs(specs, threads, bar.update, cluster, task_size)
    spec = specs[0]
    header = (
        f"{ruleset.title}: {names[0]} vs {names[1]}, {spec.n_games:,} games each (the same games), "
        f"{spec.n_players} players, seed {spec.seed}"
    )
    if fmt == "json":
        body = {
            "game": ruleset.name,
            "title": ruleset.title,
            "description": header,
            "first": names[0],
            "second": names[1],
            "variants": [v.metadata() if v is not None else None for v in chosen],
            "games": spec.n_games,
            "players": spec.n_players,
            "seed": spec.seed,
            "bots": spec.seat_bots(),
            "metrics": D.metric_records(table),
            "verdicts": D.verdicts(table, names[0], names[1]),
        }
        echo_json("diff", body)
    elif fmt == "csv":
        click.echo(records_csv(frame_records(table)))
    else:
        click.echo(D.format_diff(table, names[0], names[1], header))
    if report_dir is not None:
        from cardsim.analysis.reports.experiment_report import diff_report
        from cardsim.analysis.results import Results, run_metadata

        a, b = (Results(empty, run_metadata(s)) for s in specs)
        html, _ = diff_report(table, a, b, names[0], names[1]).write(report_dir)
        if not quiet:
            click.echo(
                f"\nReport written to {html}" if fmt == "text" else f"Report written to {html}",
                err=fmt != "text",
            )
