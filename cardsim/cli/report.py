"""``cardsim report RESULTS --report DIR``: the balance report of a saved run.

Reads the results dataset written by ``cardsim run --out`` (or ``Results.save``; single files of
earlier versions too) and writes ``report.html``
(self-contained: charts embedded), ``report.md`` and ``figures/`` into DIR. The games are read
batch by batch (``balance.dataset_report``), so memory stays bounded whatever the run's size,
with a progress bar on stderr.
"""

from __future__ import annotations

import click

from cardsim.cli import options


def write_report(results, out_dir: str) -> tuple:
    """Build the standard balance report of ``results`` and write it; the two paths."""
    from cardsim.analysis.report import balance_report

    return balance_report(results).write(out_dir)


@click.command("report", short_help="Write the balance report (HTML + markdown) of a saved run.")
@options.results_argument
@options.report_dir_option
@options.force_option
def report(results, out_dir, force) -> None:
    """Write the balance report of RESULTS.parquet (from `cardsim run --out`) into --report DIR:
    seat advantage, game length, scores, end reasons and counter impact, with charts and
    plain-words verdicts."""
    from cardsim.analysis.balance import dataset_stats, report_from_stats
    from cardsim.analysis.report import prepare_dir
    from cardsim.cli.progress import progress_bar
    from cardsim.cli.targets import check_report_dir
    from cardsim.core import io

    check_report_dir(out_dir, force)

    meta = io.read_metadata(results)  # one-line error for a missing or foreign file, first
    total = io.count_games(results)
    if meta.get("writer"):
        click.echo(
            f"cardsim: note: a run is still writing {results} ({meta['writer']}): this report "
            f"covers the {total:,} games saved so far",
            err=True,
        )
    prepare_dir(out_dir)
    with progress_bar(total, 0, quiet=False) as bar:
        stats = dataset_stats(results, progress=bar.update)
    html, md = report_from_stats(stats).write(out_dir)
    click.echo(f"Report of {stats.games:,} games written to {html} and {md}")
