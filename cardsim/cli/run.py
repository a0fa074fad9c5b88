"""``cardsim run GAME``: simulate many games, print the balance summary, optionally save them.

Ctrl-C closes the output file cleanly (``FILE.partial`` keeps every finished chunk), prints one
line saying how to resume, and exits with 130.
"""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import format_option, json_text, records_csv
from cardsim.cli.progress import compiling, progress_bar
from cardsim.core.errors import CardsimError

EXIT_INTERRUPTED = 130


@click.command("run", short_help="Simulate many games and print the balance summary.")
@options.game_argument
@options.games_option
@options.spec_options
@options.threads_option
@options.chunk_size_option
@options.out_option
@options.resume_option
@options.quiet_option
@options.report_option
@options.until_ci_option
@options.force_option
@format_option
@click.pass_context
def run(
    ctx,
    game,
    games,
    players,
    bots,
    bot_files,
    bot_params,
    seed,
    rules,
    variant,
    threads,
    chunk_size,
    out,
    resume,
    quiet,
    report_dir,
    until_ci,
    force,
    fmt,
) -> None:
    """Simulate GAME --games times and print who wins how often, and why games end."""
    from cardsim.analysis.summary import SummaryAccumulator
    from cardsim.cli.specs import spec_from_options
    from cardsim.cli.targets import check_data_file, check_report_dir
    from cardsim.core import runner

    spec = summary = sink = None
    check_data_file(out, force, resume)
    check_report_dir(report_dir, force)
    try:
        with compiling(game, bot_files, quiet, bots):
            spec = spec_from_options(
                game, games, players, bots, bot_files, seed, rules, variant, bot_params=bot_params
            )
            runner.warm(spec)
        chunk = runner.parse_count(chunk_size, "--chunk-size") if chunk_size is not None else None
        runner.set_threads(threads)  # check --threads before anything is written
        if resume and out is None:
            raise CardsimError("--resume needs --out FILE (the file of the interrupted run)")
        summary = SummaryAccumulator(spec)
        stop, chunk = _precision_stop(until_ci, summary, chunk)
        feed = [summary]
        if report_dir is not None:  # the report needs every game's row: kept in memory
            from cardsim.analysis.report import prepare_dir
            from cardsim.analysis.results import FrameSink

            prepare_dir(report_dir)  # a bad directory is an error before the run, not after
            frames = FrameSink(spec)
            feed.append(frames)
        if out is not None:
            from cardsim.core.io import ParquetSink  # pandas and pyarrow load only when needed

            sink = ParquetSink(out, spec, resume=resume, feed=feed)
        start = sink.games if sink is not None else 0
        sinks = feed if sink is None else [*feed, sink]
        with progress_bar(spec.n_games, start, quiet) as bar:
            stats = runner.run(
                spec, sinks, threads, chunk, progress=bar.update, start=start, until=stop
            )
        spec = _stopped_early(spec, summary, sink, frames if report_dir is not None else None)
    except KeyboardInterrupt:
        click.echo(_interrupted(spec, out, sink, summary), err=True)
        ctx.exit(EXIT_INTERRUPTED)
    except BaseException:
        if sink is not None:
            sink.abort()  # keep what is done, readable
        raise
    _print_summary(fmt, summary, spec, stats, stop)
    path = sink.close() if sink is not None else None
    if path is not None and not quiet:
        _note(f"\nSaved {sink.games:,} games to {path}", fmt)
    if report_dir is not None:
        _report(spec, stats, frames, report_dir, quiet, fmt)


def _print_summary(fmt: str, summary, spec, stats, stop) -> None:
    """The summary on stdout: text; json (``summary_record``, plus ``until_ci`` when the run
    stopped by it); csv (the win-rate table, ``summary.RATE_COLUMNS``)."""
    from cardsim.analysis import summary as S

    result = summary.summarize()
    if fmt == "json":
        record = S.summary_record(result, spec, stats)
        if stop is not None:
            record["until_ci"] = {
                "width": stop.width,
                "widest": stop.half_width,
                "reached": stop.reached,
            }
        click.echo(json_text(record))
    elif fmt == "csv":
        click.echo(records_csv(S.rate_records(result)))
    else:
        click.echo(S.format_summary(result, spec, stats))
        if stop is not None:
            click.echo(f"\n{_precision_line(stop, summary.games)}")


def _note(text: str, fmt: str) -> None:
    """A closing note: on stdout after a text summary, on stderr when stdout is data."""
    click.echo(text if fmt == "text" else text.lstrip("\n"), err=fmt != "text")


def _precision_stop(until_ci, summary, chunk):
    """The ``--until-ci`` stopping rule (or None) and the chunk size it plays with."""
    if until_ci is None:
        return None, chunk
    from cardsim.analysis.power import UNTIL_CI_CHUNK, PrecisionStop, parse_share

    width = parse_share(until_ci, "--until-ci")
    return PrecisionStop(summary, width), chunk or UNTIL_CI_CHUNK


def _stopped_early(spec, summary, sink, frames):
    """After a run stopped by --until-ci: the spec of the games played (a fixed run of that many
    games), given to the output file and the report so they describe exactly those games."""
    if summary.games >= spec.n_games:
        return spec
    import dataclasses

    spec = dataclasses.replace(spec, n_games=summary.games)
    for holder in (sink, frames):
        if holder is not None:
            holder.spec = spec
    return spec


def _precision_line(stop, games: int) -> str:
    width = f"+/-{100 * stop.width:.2f} points"
    widest = f"+/-{100 * stop.half_width:.2f}"
    if stop.reached:
        return (
            f"Stopped after {games:,} games: every position's and seat's 95% interval is within "
            f"{width} (widest {widest})."
        )
    return (
        f"Reached the cap of {games:,} games before every 95% interval was within {width} "
        f"(widest {widest}): raise --games to go on."
    )


def _report(spec, stats, frames, report_dir: str, quiet: bool, fmt: str = "text") -> None:
    """Write the balance report of the games just played (and resumed) into ``report_dir``."""
    from cardsim.analysis.results import Results, run_metadata
    from cardsim.cli.report import write_report

    results = Results(frames.frame(), run_metadata(spec, stats))
    html, md = write_report(results, report_dir)
    if not quiet:
        _note(f"Report written to {html} and {md}", fmt)


def _interrupted(spec, out, sink, summary) -> str:
    """The one line printed on Ctrl-C (after closing the partial file)."""
    if summary is None:
        return "cardsim: interrupted before the run started"
    if out is None:
        return (
            f"cardsim: interrupted after {summary.games:,} games; nothing saved "
            "(use --out FILE to keep the games of a run)"
        )
    if sink is None:  # while a resume was copying the earlier games: the files are as they were
        return "cardsim: interrupted before the run started; nothing changed on disk"
    path = sink.close()
    if sink.complete:
        return f"cardsim: interrupted, but all {sink.games:,} games are saved in {path}"
    return (
        f"cardsim: interrupted: {sink.games:,} of {spec.n_games:,} games saved in {path}; "
        "run the same command with --resume to continue"
    )
