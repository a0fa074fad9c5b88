"""The report of ``cardsim ladder``: the matchup matrix as a heatmap with intervals, the
first-player edge against skill level with intervals, and how much skill matters.

``ladder_sections`` are the section a balance report of the same game can carry; ``ladder_report``
puts them after the experiment's setup in a report of their own.
"""

from __future__ import annotations

import math

import pandas as pd

from cardsim.analysis.experiments.ladder import Ladder, deals_text
from cardsim.analysis.reports.experiment_report import _run_rows, setup_section, strength_table
from cardsim.analysis.reports.report import Report, Section, Table, render_figure
from cardsim.analysis.results import Results
from cardsim.text import interval, number, percent


def _signed(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:+.1f}"


def matchup_section(lad: Ladder) -> Section:
    """The matrix (table and heatmap with 95% intervals) and every pair's counts."""
    from cardsim.charts.heatmap import heatmap

    matrix = lad.matrix()
    shown = matrix.map(lambda x: "-" if pd.isna(x) else percent(x, 1)).reset_index()
    m = lad.matchups
    pairs = pd.DataFrame(
        {
            "level": m["level"],
            "opponent": m["opponent"],
            "meetings": [number(x) for x in m["meetings"]],
            "finishes ahead": [percent(x) for x in m["score"]],
            "95% interval": [
                interval(a, b) for a, b in zip(m["ci_low"], m["ci_high"], strict=True)
            ],
            "win share": [percent(x) for x in m["win_rate"]],
        }
    )
    caption = (
        f"Each cell: how often the row level finishes ahead of the column level where both sit "
        f"(ties count half), 95% interval under it, bold when it excludes 50%. "
        f"{lad.matrix_deals:,} deals per seating, seed {lad.seed}, {lad.n_players} players."
    )
    fig = heatmap(
        matrix,
        "Matchups: how often the row level finishes ahead",
        row_label="level",
        column_label="opponent",
        colorbar_label="finishes ahead (ties count half)",
        center=0.5,
        low=lad.matrix("ci_low"),
        high=lad.matrix("ci_high"),
        percent_bar=True,
    )
    seatings = (
        "both seatings"
        if lad.n_players == 2
        else "one of each level against copies of the other, in every seat in turn"
    )
    return Section(
        "Matchups",
        text=[
            f"Every pair of levels on the same deals, {seatings}. Intervals are 95% Wilson "
            "intervals clustered by deal."
        ],
        tables=[
            Table("Finishes ahead (row vs column)", shown.rename(columns={"level": ""})),
            Table("Every pair with its interval", pairs),
        ],
        figures=[render_figure("Matchups", fig, caption)],
    )


def first_player_section(lad: Ladder) -> Section:
    """The self-play first-player edge per level: table and chart with 95% intervals."""
    from cardsim.charts.forest import forest

    f = lad.first_player
    table = pd.DataFrame(
        {
            "level": f["level"],
            "games": [number(x) for x in f["games"]],
            "starter wins": [percent(x) for x in f["first_player_win_rate"]],
            "fair": [percent(x) for x in f["fair_rate"]],
            "edge, points": [_signed(x) for x in f["edge_points"]],
            "95% interval, points": [
                f"[{_signed(a)}, {_signed(b)}]"
                for a, b in zip(f["edge_low_points"], f["edge_high_points"], strict=True)
            ],
        }
    )
    chart = pd.DataFrame(
        {
            "level": f["level"],
            "edge": f["edge_points"],
            "edge_low": f["edge_low_points"],
            "edge_high": f["edge_high_points"],
        }
    )
    caption = (
        "The starting player's win share minus fair in self-play (every seat the same level), "
        f"{lad.deals:,} deals a level, weakest level at the top; bars are 95% intervals."
    )
    fig = forest(chart, "level", [("edge", "first-player edge, points")], "First-player edge by "
                 "skill level")  # fmt: skip
    return Section(
        "First-player edge by skill level",
        text=["Self-play at each level: does the start matter more, or less, as play improves?"],
        tables=[Table("First-player edge", table)],
        figures=[render_figure("First-player edge by skill level", fig, caption)],
    )


def skill_section(lad: Ladder) -> Section:
    """The order score and the rating spread, with the verdict."""
    s = lad.skill.iloc[0]
    rows = [
        (
            f"order score of {s['top_level']} among random players",
            f"{s['order_score']:.2f}",
            f"[{s['order_low']:.2f}, {s['order_high']:.2f}]",
        ),
        (
            f"rating spread {s['bottom_level']} -> {s['top_level']} (log-strength)",
            f"{s['rating_spread']:.2f}",
            f"[{s['rating_spread_low']:.2f}, {s['rating_spread_high']:.2f}]",
        ),
        (
            "the same on the Elo scale",
            f"{s['elo_spread']:+.0f}",
            f"[{s['elo_spread_low']:+.0f}, {s['elo_spread_high']:+.0f}]",
        ),
    ]
    rating_table = strength_table(lad.ratings(), "level")
    return Section(
        "How much skill matters",
        text=[
            "Order score (CardStock): (w - 1/K) / (1 - 1/K) for the top level's win share w "
            "among random players: 0 is no better than random, 1 always wins. Rating spread: "
            "Plackett-Luce over every matchup game with the turn order in the model."
        ],
        verdicts=[lad.verdict],
        tables=[
            Table("Skill", pd.DataFrame(rows, columns=["measure", "value", "95% interval"])),
            Table("Strength by level (centred)", rating_table),
        ],
    )


def ladder_sections(lad: Ladder) -> list[Section]:
    return [matchup_section(lad), first_player_section(lad), skill_section(lad)]


def _deals_row(lad: Ladder) -> str:
    if lad.matrix_deals == lad.deals:
        return f"{lad.deals:,} per run (self-play of each level, each seating of each pair)"
    return deals_text(lad)  # the self-play's and the matrix's counts, which differ


def ladder_report(lad: Ladder, first: Results) -> Report:
    """The report of ``cardsim ladder``; ``first``: a run of the ladder (for the metadata every
    run shares: rules, seed, version)."""
    title = f"Skill ladder: {lad.game_title}, {lad.n_players} players"
    subtitle = f"{', '.join(lad.levels)}; {lad.games:,} games, seed {lad.seed}"
    report = Report(title, dict(first.metadata), subtitle=subtitle)
    rows = _run_rows(first)
    rows[3:3] = [
        ("levels, weakest first", ", ".join(lad.levels)),
        ("deals", _deals_row(lad)),
        ("games", f"{lad.games:,}"),
    ]
    text = ["Deal i is game i of the seed in every run: every level meets the same cards."]
    if lad.note:
        text.append(lad.note)
    report.add(setup_section(rows, text))
    for section in ladder_sections(lad):
        report.add(section)
    return report
