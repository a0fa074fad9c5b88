"""``cardsim tune GAME --param KEY=LO..HI``: search rule values for a fairer game, every candidate
on the same deals, the best verified on fresh ones (``cardsim.analysis.experiments.tuning``)."""

from __future__ import annotations

from pathlib import Path

import click

from cardsim.cli import options
from cardsim.cli.output import format_option, json_text, records_csv
from cardsim.cli.progress import compiling, progress_bar
from cardsim.core.errors import CardsimError


def study_path(game: str, given: str | None) -> tuple[Path, bool]:
    """The journal file of the search and whether to keep it when the tune ends (only one the
    user named)."""
    if given is not None:
        return Path(given), True
    return Path(f"tune-{game}.journal"), False


def check_study(path: Path, resume: bool, quiet: bool) -> None:
    if path.exists() and not resume:
        raise CardsimError(
            f"{path} holds the trials of an earlier tune: add --resume to continue it, or remove "
            "the file (or give another --study FILE)"
        )
    if resume and not path.exists() and not quiet:
        click.echo(f"cardsim: nothing to resume in {path}: starting afresh", err=True)


tune_levels_option = click.option(
    "--levels",
    "-l",
    "levels",
    default="",
    metavar="LEVEL,LEVEL[,...]",
    help="With --objective ladder: the ladder, weakest first, as cardsim ladder takes it "
    "(random,greedy,planner or ...,ismcts:iterations=50). Default: random, greedy and the "
    "game's strongest heuristic bot (no search bot: see docs/tuning.md for the cost).",
)


@click.command("tune", short_help="Search rule values for a fairer game, on the same deals.")
@options.game_argument
@options.tune_param_option
@options.objective_option
@tune_levels_option
@options.budget_option
@options.trial_games_option
@options.blocks_option
@options.verify_games_option
@options.top_option
@options.spec_options
@options.threads_option
@options.cluster_options
@options.experiment_report_option
@options.save_option
@options.study_option
@options.tune_resume_option
@options.quiet_option
@options.force_option
@format_option
def tune(
    game,
    params,
    objective,
    levels,
    budget,
    games,
    blocks,
    verify_games,
    top,
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
    save,
    study,
    resume,
    quiet,
    force,
    fmt,
) -> None:
    """Search the --param values with optuna (TPE) for the --objective, --budget trials of
    --games games each on the same deals (a paired Wilcoxon pruner stops clear losers early),
    then play the --top best and the defaults again on fresh games and print their figures
    with 95% intervals. Rules not searched come from --rules and --variant."""
    from cardsim import api
    from cardsim.analysis.experiments.tuning import objectives
    from cardsim.analysis.experiments.tuning import output as O
    from cardsim.analysis.experiments.tuning.ladder_values import given_levels
    from cardsim.analysis.experiments.tuning.params import parse_tune_params
    from cardsim.cli.specs import rule_values
    from cardsim.cli.targets import check_report_dir
    from cardsim.core import registry

    check_report_dir(report_dir, force)
    ruleset = registry.get(game)
    goal = objectives.parse_objective(objective)  # a bad objective before anything compiles
    given_levels(goal, levels)  # their bots and parameters are checked with the rules
    parse_tune_params(ruleset.options, params, ruleset.name)
    if budget < 1:
        raise CardsimError(f"--budget must be at least 1 trial, got {budget}")
    if save is not None and Path(save).exists():
        raise CardsimError(f"--save {save!r} exists already: choose another file")
    base, _ = rule_values(game, rules, variant)
    path, keep = study_path(ruleset.name, study)
    check_study(path, resume, quiet)
    with compiling(game, bot_files, quiet, bots):
        from cardsim.cli.specs import spec_from_options
        from cardsim.core import runner

        spec = spec_from_options(
            game, 1, players, bots, bot_files, seed, rules, variant, bot_params=bot_params
        )
        runner.warm(spec)
    address, task_size = options.cluster_choice(cluster, task_size)
    from cardsim.core.bots import parse_bot_params

    done = 0
    try:
        with progress_bar(budget, 0, quiet) as bar:

            def advance(n: int) -> None:
                nonlocal done
                bar.update(n - done)
                done = n

            result = api.tune(
                game,
                list(params),
                list(objective) or ["first-player"],
                budget,
                games,
                blocks,
                verify_games,
                top,
                players,
                options.split_names(bots),
                base,
                seed,
                threads,
                bot_files,
                parse_bot_params(bot_params),
                address,
                task_size,
                str(path),
                resume,
                advance,
                levels or None,
            )
    except KeyboardInterrupt:
        from cardsim.cli.exits import EXIT_INTERRUPTED

        click.echo(
            f"cardsim: interrupted after {done} trials; they are kept in {path}: run the same "
            "command with --resume to continue",
            err=True,
        )
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    if not keep:
        path.unlink(missing_ok=True)
    if fmt == "json":
        click.echo(json_text(result.to_dict()))
    elif fmt == "csv":
        from cardsim.analysis.experiments.tuning.result import records

        click.echo(records_csv(records(result.trials)))
    else:
        click.echo(O.format_tune(result))
    notes: list[str] = []
    if save is not None and result.winner:
        from cardsim.analysis.experiments.tuning.variant_file import save_tuned

        notes.append(f"Winning rules saved as {save_tuned(save, result)}")
    elif save is not None:
        notes.append(f"No winner: nothing saved to {save}")
    if report_dir is not None:
        from cardsim.analysis.reports.tuning_report import tune_report

        html, _ = tune_report(result).write(report_dir)
        notes.append(f"Report written to {html}")
    if not quiet:
        for line in notes:
            click.echo(("\n" if fmt == "text" else "") + line, err=fmt != "text")
