"""``cardsim report RESULTS -o DIR``: the balance report of a saved run.

Reads the results dataset written by ``cardsim run --out`` (or ``Results.save``; single files of
earlier versions too) and writes ``report.html``
(self-contained: charts embedded), ``report.md`` and ``figures/`` into DIR, made if missing (and then said so). ``--report DIR``, the
option's earlier name, is a hidden alias kept for one release. The games are read
batch by batch (``balance.dataset_report``), so memory stays bounded whatever the run's size,
with a progress bar on stderr.
"""

from __future__ import annotations

import click

from cardsim.cli import options
from cardsim.cli.output import echo_json, text_json_option


def write_report(results, out_dir: str) -> tuple:
    """Build the standard balance report of ``results`` and write it; the two paths."""
    from cardsim.analysis.reports.balance import balance_report

    return balance_report(results).write(out_dir)


@click.command("report", short_help="Write the balance report (HTML + markdown) of a saved run.")
@options.results_argument
@click.option(
    "--out",
    "-o",
    "out_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Directory for report.html, report.md and figures/ (made if missing).",
)
@click.option("--report", "alias_dir", type=click.Path(file_okay=False), hidden=True)
@click.option(
    "--force", is_flag=True, help="Replace the report already in DIR (refused without it)."
)
@text_json_option
def report(results, out_dir, alias_dir, force, fmt) -> None:
    """Write the balance report of RESULTS (the directory `cardsim run --out` saved) into -o DIR:
    seat advantage, game length, scores, end reasons and counter impact, with charts and
    plain-words verdicts."""
    from pathlib import Path

    from cardsim.analysis.reports.balance import dataset_stats, report_from_stats
    from cardsim.analysis.reports.report import prepare_dir
    from cardsim.cli.progress import progress_bar
    from cardsim.cli.targets import check_report_dir
    from cardsim.core import dataset

    out_dir = _report_dir(out_dir, alias_dir)
    check_report_dir(out_dir, force, "-o" if alias_dir is None else "--report")

    meta = dataset.read_metadata(results)  # one-line error for a missing or foreign file, first
    total = dataset.count_games(results)
    made = not Path(out_dir).exists()
    if meta.get("writer"):
        click.echo(
            f"cardsim: note: a run is still writing {results} ({meta['writer']}): this report "
            f"covers the {total:,} games saved so far",
            err=True,
        )
    prepare_dir(out_dir)
    with progress_bar(total, 0, quiet=False) as bar:
        stats = dataset_stats(results, progress=bar.update)
    built = report_from_stats(stats)
    html, md = built.write(out_dir)
    if fmt == "json":
        from cardsim.analysis.reports.report_record import report_record

        echo_json("report", report_record(stats, built, results, html, md))
        return
    where = f" (made the directory {out_dir})" if made else ""
    click.echo(f"Report of {stats.games:,} games written to {html} and {md}{where}")


def _report_dir(out_dir: str | None, alias_dir: str | None) -> str:
    """The report directory from -o/--out or its old name --report (one of them, once)."""
    from cardsim.core.errors import CardsimError

    if out_dir and alias_dir and out_dir != alias_dir:
        raise CardsimError(
            "give the report directory once: -o/--out DIR (--report is its old name)"
        )
    if not (out_dir or alias_dir):
        raise CardsimError("where should the report go? add -o/--out DIR")
    return out_dir or alias_dir
