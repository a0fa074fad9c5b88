"""``cardsim screen GAME``: which rule options move balance most, every option varied in a
screening design on the same deals (``cardsim.analysis.experiments.tuning.screen``)."""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import format_option, json_text, records_csv
from cardsim.cli.progress import compiling, progress_bar


@click.command("screen", short_help="Which rule options move balance most, on the same deals.")
@options.game_argument
@options.screen_options_option
@options.levels_option
@options.design_option
@options.trajectories_option
@options.two_level_option
@options.screen_games_option
@options.spec_options
@options.threads_option
@options.cluster_options
@options.experiment_report_option
@options.quiet_option
@options.force_option
@format_option
def screen(
    game,
    option_names,
    levels,
    design,
    trajectories,
    two_level,
    games,
    players,
    bots,
    bot_files,
    bot_params,
    seed,
    rules,
    variant,
    threads,
    cluster,
    task_size,
    report_dir,
    quiet,
    force,
    fmt,
) -> None:
    """Vary every rule option (or --options) in a screening design, every run on the same
    --games games, and print each option's effect on the first-player edge, the seat spread,
    the game length and (with several bots) the strongest bot's win share, with 95% intervals,
    most important first. Options set by --rules or --variant stay fixed."""
    from cardsim import api
    from cardsim.analysis.experiments.tuning import output as O
    from cardsim.analysis.experiments.tuning import params as P
    from cardsim.analysis.experiments.tuning import screen as S
    from cardsim.cli.specs import rule_values
    from cardsim.cli.targets import check_report_dir
    from cardsim.core import registry
    from cardsim.core.bots import parse_bot_params

    check_report_dir(report_dir, force)
    ruleset = registry.get(game)
    names = options.split_names(option_names, "--options") if option_names else None
    factors = P.screen_factors(ruleset.options, names, ruleset.name, two_level, levels)
    chosen = S.choose_design(factors, design)
    runs = len(S.design_matrix(factors, chosen, seed, trajectories))
    base, _ = rule_values(game, rules, variant)
    with compiling(game, bot_files, quiet, bots):
        from cardsim.cli.specs import spec_from_options
        from cardsim.core import runner

        spec = spec_from_options(
            game, 1, players, bots, bot_files, seed, rules, variant, bot_params=bot_params
        )
        runner.warm(spec)
    address, task_size = options.cluster_choice(cluster, task_size)
    with progress_bar(runs, 0, quiet) as bar:
        result = api.screen(
            game,
            names,
            design,
            games,
            trajectories,
            two_level,
            players,
            options.split_names(bots),
            base,
            seed,
            threads,
            bot_files,
            parse_bot_params(bot_params),
            address,
            task_size,
            progress=lambda n: bar.update(1),
            levels=levels,
        )
    if fmt == "json":
        click.echo(json_text(result.to_dict()))
    elif fmt == "csv":
        from cardsim.analysis.experiments.tuning.result import records

        click.echo(records_csv(records(result.effects)))
    else:
        click.echo(O.format_screen(result))
    if report_dir is not None:
        from cardsim.analysis.reports.tuning_report import screen_report

        html, _ = screen_report(result).write(report_dir)
        if not quiet:
            click.echo(
                ("\n" if fmt == "text" else "") + f"Report written to {html}", err=fmt != "text"
            )
