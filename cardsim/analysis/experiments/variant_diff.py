"""What a rule change does: two variants played on the same games, the change of every balance
metric with its paired 95% interval (``paired.paired_diff``), as text and plain-words verdicts.

Metrics whose name starts with "win rate" or is "first-player advantage" are shares (shown in %,
their changes in points); the others (game length, score spread, winning margin) are shown in
their own units. The verdicts only name changes whose p-value, Holm-adjusted over all the metrics
of the table, is below 5%: with ten metrics, testing each at 5% would cry wolf in about every
other diff of two identical rule sets.
"""

from __future__ import annotations

import math

import pandas as pd

from cardsim.text import rich_table, wrap

SHARE_PREFIXES = ("win rate", "first-player advantage")


def is_share(metric: str) -> bool:
    return metric.startswith(SHARE_PREFIXES)


def value_text(metric: str, x: float) -> str:
    if x is None or math.isnan(x):
        return "n/a"
    if metric.startswith("first-player advantage"):  # already a difference from the fair share
        return f"{100 * x:+.2f} points"
    return f"{100 * x:.2f}%" if is_share(metric) else f"{x:,.2f}"


def holm(table: pd.DataFrame) -> pd.Series:
    """The table's Holm-adjusted p-values (``paired_diff`` computes them: column p_holm)."""
    if "p_holm" in table:
        return table["p_holm"]
    from cardsim.analysis.stats.paired import holm as adjust

    return adjust(table["p_value"])


def change_text(metric: str, x: float) -> str:
    if x is None or math.isnan(x):
        return "n/a"
    return f"{100 * x:+.2f}" if is_share(metric) else f"{x:+,.2f}"


def unit(metric: str) -> str:
    return " points" if is_share(metric) else ""


def display_table(table: pd.DataFrame, name_a: str, name_b: str) -> pd.DataFrame:
    """The paired table with formatted cells: metric, games, a, b, change, 95% interval, p."""
    from cardsim.text import p_value

    rows = []
    adjusted = holm(table)
    for r in table.itertuples():
        m = r.metric
        rows.append(
            {
                "metric": m,
                "games": f"{r.games:,}",
                name_a: value_text(m, r.a),
                name_b: value_text(m, r.b),
                "change": change_text(m, r.diff) + unit(m),
                "95% interval": f"[{change_text(m, r.ci_low)}, {change_text(m, r.ci_high)}]",
                "p": p_value(r.p_value),
                "p (Holm)": p_value(adjusted[r.Index]),
            }
        )
    return pd.DataFrame(rows)


def verdicts(table: pd.DataFrame, name_a: str, name_b: str, alpha: float = 0.05) -> list[str]:
    """One line per metric the change moves beyond doubt (Holm-adjusted p below ``alpha``, so
    that the ten metrics together make at most a 5% chance of a false alarm), or one line saying
    nothing moved."""
    out = []
    adjusted = holm(table)
    for r in table.itertuples():
        if not adjusted[r.Index] < alpha:
            continue
        m = r.metric
        out.append(
            f"{name_b} changes {m} by {change_text(m, r.diff)}{unit(m)} against {name_a} "
            f"(95% interval {change_text(m, r.ci_low)} .. {change_text(m, r.ci_high)}): "
            f"{value_text(m, r.a)} -> {value_text(m, r.b)}."
        )
    if not out:
        out.append(
            f"No detectable change between {name_a} and {name_b} in any metric (Holm-adjusted "
            f"p >= {alpha:g} for all)."
        )
    return out


def metric_records(table: pd.DataFrame) -> list[dict]:
    """The paired table as JSON records (``cardsim diff --format json``): ``metric`` the
    snake_case key, ``label`` as printed, ``unit`` (``paired.metric_unit``: shares are fractions
    of 1), the means ``a`` and ``b``, ``change`` (b - a) with its 95% interval, ``p_value`` and
    ``p_holm``."""
    from cardsim.analysis.stats.paired import metric_unit

    return [
        {
            "metric": r.key,
            "label": r.metric,
            "unit": metric_unit(r.key),
            "games": int(r.games),
            "a": r.a,
            "b": r.b,
            "change": r.diff,
            "ci_low": r.ci_low,
            "ci_high": r.ci_high,
            "p_value": r.p_value,
            "p_holm": r.p_holm,
        }
        for r in table.itertuples()
    ]


def _short_value(metric: str, x: float) -> str:
    """``value_text`` for a terminal table: the first-player advantage without " points"."""
    return value_text(metric, x).replace(" points", "")


SHORT_NAME = 10  # longer variant names head their columns as "first" and "second"


def games_note(table: pd.DataFrame) -> str:
    """How many games stand behind the metrics: one count, or the usual one and the others."""
    counts = table["games"].astype(int)
    usual = int(counts.mode().iloc[0]) if len(counts) else 0
    others = [f"{r.metric} {r.games:,}" for r in table.itertuples() if r.games != usual]
    if not others:
        return f"Every metric stands on {usual:,} games."
    return f"Games behind each metric: {usual:,}, except " + ", ".join(others) + "."


def format_diff(table: pd.DataFrame, name_a: str, name_b: str, header: str) -> str:
    """Plain-text report: the table (laid out by rich to fit the terminal), then the verdicts.
    The games behind each metric are said below the table (they differ only where the turn cap
    or games without a loser leave games out)."""
    from cardsim.text import p_value

    adjusted = holm(table)
    short = len(name_a) <= SHORT_NAME and len(name_b) <= SHORT_NAME
    head = ["metric", *((name_a, name_b) if short else ("first", "second")), "change"]
    head += ["95% interval", "p (Holm)"]
    rows = []
    for r in table.itertuples():
        m = r.metric
        rows.append(
            [
                m,
                _short_value(m, r.a),
                _short_value(m, r.b),
                change_text(m, r.diff),
                f"[{change_text(m, r.ci_low)}, {change_text(m, r.ci_high)}]",
                p_value(adjusted[r.Index]),
            ]
        )
    lines = [wrap(header), ""]
    if not short:
        lines += [wrap(f"first: {name_a}; second: {name_b}"), ""]
    shown = rich_table(head, rows, right=range(1, len(head)), fill=[0], share=False)
    lines += [shown, wrap(games_note(table))]
    lines += [
        "",
        wrap(
            "Change = second minus first, game by game on the same games, in points for win "
            "rates and the first-player advantage (starter's rate minus the fair share), in "
            "turns or score points for the others, with its paired 95% t interval; p: the paired t "
            "test's p-value Holm-adjusted over all the metrics, which the verdicts use (the "
            "unadjusted ones: --format json). Win rates split shared wins and leave out games "
            "either run ended by the turn cap."
        ),
        "",
        *(wrap(v) for v in verdicts(table, name_a, name_b)),
    ]
    return "\n".join(lines)
