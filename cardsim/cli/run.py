"""``cardsim run GAME``: simulate many games, print the balance summary, optionally save them.

With ``--out PATH`` every chunk is a part file of the results dataset as soon as it is played
(``cardsim.core.dataset``), and the dataset is marked complete before anything is printed. Ctrl-C
lets the chunk in flight finish and be saved, prints one line saying how to resume, and exits
with 130; a second Ctrl-C ends the process at once (the chunk in flight is lost, every saved one
kept). A broken pipe while printing says, in one line, that the games are saved (exit 141).
"""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.exits import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, end_now, quiet_stdout
from cardsim.cli.output import echo_json, format_option, records_csv
from cardsim.cli.progress import compiling, progress_bar
from cardsim.core.errors import CardsimError, StopNow


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
@options.cluster_options
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
    cluster,
    task_size,
    fmt,
) -> None:
    """Simulate GAME --games times and print who wins how often, and why games end."""
    from cardsim.analysis.stats.summary import SummaryAccumulator
    from cardsim.cli.specs import spec_from_options
    from cardsim.cli.targets import check_report_dir

    spec = summary = sink = stats = frames = lock = None
    check_report_dir(report_dir, force)  # an existing --out dataset: refused by DatasetSink
    try:
        with compiling(game, bot_files, quiet, bots):
            from cardsim.core import runner  # numba: after the compile notice

            spec = spec_from_options(
                game, games, players, bots, bot_files, seed, rules, variant, bot_params=bot_params
            )
            # every input is checked before the engine compiles and before anything is written
            chunk = (
                runner.parse_count(chunk_size, "--chunk-size") if chunk_size is not None else None
            )
            runner.set_threads(threads)
            cluster, task_size = options.cluster_choice(cluster, task_size)
            if resume and out is None:
                raise CardsimError("--resume needs --out PATH (the results of the interrupted run)")
            summary = SummaryAccumulator(spec)
            stop, chunk = _precision_stop(until_ci, summary, chunk)
            if out is not None:
                from cardsim.core.dataset import (
                    lock_out,  # pandas and pyarrow load only when needed
                )

                # held until the dataset is closed, or the command ends whatever way it does:
                # a second writer of --out is refused here, before it compiles or writes
                lock = lock_out(out, spec, resume)
                ctx.call_on_close(lock.release)
            if report_dir is not None:
                from cardsim.analysis.reports.report import prepare_dir

                prepare_dir(report_dir)
            runner.warm(spec, notify=_say)
        feed = [summary]
        if report_dir is not None:  # the report needs every game's row: kept in memory
            from cardsim.analysis.results import FrameSink

            frames = FrameSink(spec)
            feed.append(frames)
        if out is not None:
            from cardsim.core.dataset import DatasetSink  # pandas and pyarrow load only when needed

            sink = DatasetSink(out, spec, resume=resume, feed=feed, lock=lock)
            if sink.note:
                _say(sink.note)
        start = sink.games if sink is not None else 0
        sinks = feed if sink is None else [*feed, sink]
        with progress_bar(spec.n_games, start, quiet) as bar:
            stats = runner.run(
                spec,
                sinks,
                threads,
                chunk,
                progress=bar.update,
                until=stop,
                ranges=sink.missing if sink is not None else None,
                notify=_say,
                cluster=cluster,
                task_size=task_size,
                cluster_log=None if quiet else _say,  # Dask's own lines: none under --quiet
            )
        spec = _stopped_early(spec, summary, sink, frames)
        path = sink.close() if sink is not None else None  # saved before anything is printed
    except StopNow:
        _say(_stopped_at_once(spec, out, sink, summary))
        end_now(EXIT_INTERRUPTED)  # a chunk may still run in compiled code: nothing stops it
    except KeyboardInterrupt:
        _say(_interrupted(spec, out, sink, summary))
        ctx.exit(EXIT_INTERRUPTED)
    try:
        _print_summary(fmt, summary, spec, stats, stop)
        if path is not None and not quiet:
            _note(f"\nSaved {sink.games:,} games to the directory {path} (a Parquet dataset)", fmt)
        if report_dir is not None:
            _report(spec, stats, frames, report_dir, quiet, fmt)
    except KeyboardInterrupt:
        _say(_after_the_games(spec, sink, "interrupted"))
        ctx.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:
        quiet_stdout()
        _say(_after_the_games(spec, sink, "output closed early (broken pipe)"))
        ctx.exit(EXIT_BROKEN_PIPE)


def _say(line: str) -> None:
    """One line on stderr, even when stderr itself is gone (then nothing)."""
    try:
        click.echo(f"cardsim: {line}", err=True)
    except OSError:
        pass


def _after_the_games(spec, sink, what: str) -> str:
    """The line for a run whose games are all played and saved, stopped while printing."""
    if sink is None:
        return f"{what} after all {spec.n_games:,} games were played (no --out: nothing saved)"
    return f"{what}, but all {sink.games:,} games are saved in {sink.path}"


def _print_summary(fmt: str, summary, spec, stats, stop) -> None:
    """The summary on stdout: text; json (``summary_record``, plus ``until_ci`` when the run
    stopped by it); csv (the win-rate table, ``summary.RATE_COLUMNS``)."""
    from cardsim.analysis.stats import summary as S

    result = summary.summarize()
    if fmt == "json":
        record = S.summary_record(result, spec, stats)
        if stop is not None:
            record["until_ci"] = {
                "width": stop.width,
                "widest": stop.half_width,
                "reached": stop.reached,
            }
        echo_json("run", record)
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
    from cardsim.analysis.stats.power import UNTIL_CI_CHUNK, PrecisionStop, parse_share

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
    from cardsim.text import wrap

    width = f"+/-{100 * stop.width:.2f} points"
    widest = f"+/-{100 * stop.half_width:.2f}"
    if stop.reached:
        return wrap(
            f"Stopped after {games:,} games: every position's and seat's 95% interval is within "
            f"{width} (widest {widest})."
        )
    return wrap(
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
    """The one line printed on Ctrl-C (the parts written so far are complete on disk)."""
    if summary is None:
        return "interrupted before the run started"
    if out is None:
        return (
            f"interrupted after {summary.games:,} games; nothing saved "
            "(use --out PATH to keep the games of a run)"
        )
    if sink is None:  # while a resume was reading the earlier games: nothing was written
        return "interrupted before the run started; the saved games are as they were"
    if sink.complete:
        path = sink.close()
        return f"interrupted, but all {sink.games:,} games are saved in {path}"
    return (
        f"interrupted: {sink.games:,} of {spec.n_games:,} games saved in {sink.path}; "
        "run the same command with --resume to continue"
    )


def _stopped_at_once(spec, out, sink, summary) -> str:
    """The line for a second Ctrl-C: the games in flight are lost, every saved one kept."""
    if out is None or sink is None:
        return "stopped at once; nothing saved"
    return (
        f"stopped at once: {sink.games:,} of {spec.n_games:,} games saved in {sink.path} (the "
        "games in flight are lost); run the same command with --resume to continue"
    )
