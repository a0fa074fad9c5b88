"""``cardsim report RESULTS.parquet --report DIR``: the balance report of a saved run.

Reads a file written by ``cardsim run --out`` (or ``Results.save``) and writes ``report.html``
(self-contained: charts embedded), ``report.md`` and ``figures/`` into DIR.
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
    from cardsim.analysis.results import Results
    from cardsim.cli.targets import check_report_dir

    check_report_dir(out_dir, force)
    loaded = Results.load(results)
    html, md = write_report(loaded, out_dir)
    click.echo(f"Report of {len(loaded.frame):,} games written to {html} and {md}")
