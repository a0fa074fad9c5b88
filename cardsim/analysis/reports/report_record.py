"""``cardsim report --format json``: what the balance report of a saved run says, as plain data
(the files written, the headline figures, every verdict), rates as fractions of 1."""

from __future__ import annotations

from pathlib import Path

from cardsim.analysis.reports.report import Report
from cardsim.analysis.stats.balance_stats import BalanceStats
from cardsim.analysis.stats.summary import end_reason_records, table_advantage


def rate_records(table) -> list[dict]:
    """``seat_win_rates`` rows as the ``win_rates`` records of ``cardsim run --format json``."""
    return [
        {
            "group": r.kind,
            "index": int(r.index),
            "label": r.label,
            "games": int(r.games),
            "wins": r.wins,
            "shared_wins": int(r.shared_wins),
            "win_rate": r.win_rate,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "vs_fair": r.vs_fair,
        }
        for r in table.itertuples()
    ]


def report_record(stats: BalanceStats, report: Report, results, html: Path, md: Path) -> dict:
    """The JSON body of ``cardsim report``: the dataset read, the files written, the win rates
    by position and seat, the first-player advantage, the mean length and why games ended, and
    the report's verdicts section by section."""
    rates = stats.seat_win_rates()
    first = rates.iloc[0]
    ends = stats.end_reason_table()
    figures = sorted(p.name for p in (html.parent / "figures").glob("*.png"))
    return {
        "results": str(results),
        "game": stats.metadata.get("ruleset"),
        "games": stats.games,
        "players": stats.k,
        "seed": stats.metadata.get("seed"),
        "html": str(html),
        "markdown": str(md),
        "figures": [f"figures/{name}" for name in figures],
        "fair_rate": float(first["fair_rate"]),
        "win_rates": rate_records(rates),
        "first_player_advantage": table_advantage(rates),
        "mean_turns": float(stats.length_summary().iloc[0]["mean"]),
        "end_reasons": end_reason_records(
            dict(zip(ends["reason"], ends["games"], strict=True)), stats.games
        ),
        "verdicts": [
            {"section": s.heading, "text": v} for s in report.sections for v in s.verdicts
        ],
    }
