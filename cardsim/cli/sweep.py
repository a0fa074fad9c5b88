"""``cardsim sweep GAME --param key=v1,v2,...``: balance figures over a grid of rule values, every
setting played on the same games (see ``cardsim.analysis.experiments.sweep``)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, format_option, frame_records, records_csv
from cardsim.cli.progress import compiling, progress_bar
from cardsim.cli.specs import rule_values
from cardsim.core.errors import CardsimError
from cardsim.text import show_value


def setting_file(out_dir: Path, index: int, point: dict) -> Path:
    """``DIR/03-market_slots-5_variant_umbrella-true.parquet``."""
    text = "_".join(f"{k}-{show_value(v)}" for k, v in point.items())
    return out_dir / f"{index:02d}-{re.sub(r'[^A-Za-z0-9_.-]+', '.', text)[:120]}.parquet"


@click.command("sweep", short_help="Balance over a grid of rule values, on the same games.")
@options.game_argument
@options.param_option
@options.deals_option
@options.spec_options
@options.threads_option
@options.cluster_options
@options.experiment_report_option
@options.sweep_out_option
@options.quiet_option
@options.force_option
@format_option
def sweep(
    game,
    params,
    games,
    players,
    bots,
    bot_files,
    seed,
    rules,
    variant,
    threads,
    cluster,
    task_size,
    report_dir,
    out_dir,
    quiet,
    fmt,
    bot_params,
    force,
) -> None:
    """Play every combination of the --param values on the same --games games and print, per
    setting, the win rate by turn order, the first-player advantage with its 95% interval, the
    mean length and the end reasons."""
    from cardsim.cli.targets import check_report_dir

    check_report_dir(report_dir, force)
    from cardsim.analysis.experiments import sweep as S
    from cardsim.analysis.reports.report import prepare_dir
    from cardsim.core import registry

    ruleset = registry.get(game)
    swept = S.parse_params(ruleset.options, params, ruleset.name)
    base, chosen = rule_values(game, rules, variant)
    points = S.grid(swept)
    with compiling(game, bot_files, quiet, bots):
        from cardsim import experiments  # numba: after the compile notice
        from cardsim.core import runner
        from cardsim.core.bots import parse_bot_params

        specs = experiments.rule_specs(
            game,
            games,
            players,
            options.split_names(bots),
            [{**base, **point} for point in points],
            seed,
            bot_files,
            variants=[chosen.metadata() if chosen is not None else None] * len(points),
            bot_params=parse_bot_params(bot_params),
        )
        runner.warm(specs[0])
    cluster, task_size = options.cluster_choice(cluster, task_size)
    for directory in (report_dir, out_dir):
        if directory is not None:
            prepare_dir(directory)  # before anything runs
    if out_dir is not None:
        for i, point in enumerate(points):
            if setting_file(Path(out_dir), i, point).exists():
                raise CardsimError(
                    f"--out {str(out_dir)!r} already holds {setting_file(Path(out_dir), i, point).name}"
                    ": choose another directory"
                )
    rows, settings, first = [], [], None
    with progress_bar(sum(s.n_games for s in specs), 0, quiet) as bar:
        runs = experiments.play_each(specs, threads, bar.update, cluster, task_size)
        for i, (point, results) in enumerate(zip(points, runs, strict=True)):
            rows.append(S.setting_row(point, results.frame))
            if fmt == "json":
                settings.append(S.setting_record(point, results.frame))
            if out_dir is not None:
                results.metadata["sweep"] = {k: show_value(v) for k, v in point.items()}
                results.save(setting_file(Path(out_dir), i, point))
            if first is None:
                first = results
    table = S.sweep_table(rows)
    spec = specs[0]
    header = (
        f"{ruleset.title}: sweep of {', '.join(p.name for p in swept)}, {len(points)} settings x "
        f"{spec.n_games:,} games (the same games in every setting), {spec.n_players} players, "
        f"seed {spec.seed}"
    )
    if fmt == "json":
        body = {
            "game": ruleset.name,
            "title": ruleset.title,
            "description": header,
            "games": spec.n_games,
            "players": spec.n_players,
            "seed": spec.seed,
            "bots": spec.seat_bots(),
            "params": [{"name": p.name, "values": list(p.values)} for p in swept],
            "settings": settings,
        }
        echo_json("sweep", body)
    elif fmt == "csv":
        click.echo(records_csv(frame_records(table)))
    else:
        click.echo(S.format_sweep(table, swept, header))
    notes = fmt == "text"  # data on stdout: the notes go to stderr
    if report_dir is not None:
        from cardsim.analysis.reports.experiment_report import sweep_report

        html, _ = sweep_report(table, swept, first, ruleset.title).write(report_dir)
        if not quiet:
            click.echo(
                f"\nReport written to {html}" if notes else f"Report written to {html}",
                err=not notes,
            )
    if out_dir is not None and not quiet:
        click.echo(f"Games of every setting saved in {out_dir}/", err=not notes)
