"""Reports of experiments played on common games: a bot comparison (``compare_report``), a sweep
over rule values (``sweep_report``) and a diff between two variants (``diff_report``).

Each is a ``report.Report`` (self-contained HTML and markdown) made of the same building blocks as
the balance report of one run; charts are drawn by ``cardsim.charts`` (imported when drawn).
"""

from __future__ import annotations

import pandas as pd

from cardsim.analysis.experiments.compare import Comparison
from cardsim.analysis.reports.report import Report, Section, Table, render_figure
from cardsim.analysis.results import Results
from cardsim.analysis.stats import frame as F
from cardsim.core.options import changed_values
from cardsim.text import interval, number, percent, show_value


def changed_rules(results: Results) -> str:
    """``key=value`` for every rule option of the run that differs from its default."""
    ruleset = results.ruleset
    rules = results.metadata.get("rules", {})
    if ruleset is None:
        return ", ".join(f"{k}={show_value(v, none='(derived)')}" for k, v in rules.items())
    return ", ".join(changed_values(ruleset.options, rules)) or "defaults"


def setup_section(rows: list[tuple[str, str]], text: list[str] | None = None) -> Section:
    """The last section of an experiment report: what was played (the verdicts come first)."""
    table = Table("Experiment", pd.DataFrame(rows, columns=["", "value"]))
    return Section("Experiment", text=text or [], tables=[table])


def _run_rows(results: Results) -> list[tuple[str, str]]:
    meta = results.metadata
    rows = [
        ("ruleset", str(meta.get("ruleset", "?"))),
        ("players", str(meta.get("n_players", "?"))),
        ("seed", str(meta.get("seed", 0))),
        ("rules", changed_rules(results)),
    ]
    variant = meta.get("variant")
    if variant:
        rows.append(("variant", f"{variant.get('name', '')} ({variant.get('file', '')})"))
    rows.append(("cardsim version", str(meta.get("version", "?"))))
    return rows


def strength_table(rating: pd.DataFrame, name: str) -> pd.DataFrame:
    """A ``Rating.table()`` for a report: ``name`` (its first column, bot or level), strength,
    95% interval and the Elo scale, formatted."""
    return pd.DataFrame(
        {
            name: rating.iloc[:, 0],
            "strength": [f"{x:+.3f}" for x in rating["strength"]],
            "95% interval": [
                f"[{a:+.3f}, {b:+.3f}]"
                for a, b in zip(rating["ci_low"], rating["ci_high"], strict=True)
            ],
            "Elo scale": [
                f"{e:+.0f} ± {1.96 * s:.0f}"
                for e, s in zip(rating["elo"], rating["elo_se"], strict=True)
            ],
        }
    )


# -- compare -------------------------------------------------------------------------------------


def compare_report(c: Comparison, first: Results) -> Report:
    """The report of ``cardsim compare``: win rates by bot, head to head (table and heatmap),
    ratings with the turn-order effect, skill depth. ``first``: the run of the first seating
    (for the metadata every seating shares)."""
    from cardsim.charts.heatmap import head_to_head
    from cardsim.charts.render import run_caption

    title = f"Bot comparison: {c.game_title}, {c.n_players} players"
    subtitle = f"{', '.join(c.bot_names)}; {c.games:,} games, seed {c.seed}"
    report = Report(title, dict(first.metadata), subtitle=subtitle)
    rows = _run_rows(first)
    rows[3:3] = [
        ("bots", ", ".join(c.bot_names)),
        ("seatings", f"{len(c.seatings)}: " + "; ".join(",".join(s) for s in c.seatings)),
        ("deals", f"{c.deals:,}, each played under every seating"),
        (
            "games",
            f"{c.games:,}"
            + (
                f" ({c.turn_cap_games:,} ended by the turn cap, left out)"
                if c.turn_cap_games
                else ""
            ),
        ),
    ]
    text = [
        "Deal i is game i of the seed under every seating: the same cards whoever sits where, so "
        "a seat's advantage falls on every bot alike. Intervals are 95% and clustered by deal "
        "(the games of one deal are not independent)."
    ]
    setup = setup_section(rows, text)  # last: the verdicts and charts come first
    caption = (
        "Each cell: how often the row bot finishes ahead of the column bot in the games where "
        "both sit (ties count half); 50% is even ("
        + run_caption(c.games, c.seed, c.n_players, "every seating on the same deals")
        + ")."
    )
    rates = c.win_rates
    table = pd.DataFrame(
        {
            "bot": rates["bot"],
            "seats played": [number(x) for x in rates["seats_played"]],
            "win rate": [percent(x) for x in rates["win_rate"]],
            "95% interval": [
                interval(a, b) for a, b in zip(rates["ci_low"], rates["ci_high"], strict=True)
            ],
            "fair share": [percent(x) for x in rates["fair_rate"]],
        }
    )
    report.add(
        Section(
            "Win rate by bot",
            text=["Win rate per seat played; a shared win is split between the winners."],
            tables=[Table("Win rate by bot", table)],
        )
    )
    matrix = c.matrix()
    shown = matrix.map(lambda x: "-" if pd.isna(x) else percent(x, 1)).reset_index()
    pairs = c.pairs
    pair_table = pd.DataFrame(
        {
            "bot": pairs["bot"],
            "opponent": pairs["opponent"],
            "meetings": [number(x) for x in pairs["meetings"]],
            "ahead": [number(x) for x in pairs["ahead"]],
            "tied": [number(x) for x in pairs["tied"]],
            "behind": [number(x) for x in pairs["behind"]],
            "finishes ahead": [percent(x) for x in pairs["score"]],
            "95% interval": [
                interval(a, b) for a, b in zip(pairs["ci_low"], pairs["ci_high"], strict=True)
            ],
        }
    )
    report.add(
        Section(
            "Head to head",
            text=[
                "How often the row bot finishes ahead of the column bot when both are seated "
                "(ties count half)."
            ],
            tables=[
                Table("Finishes ahead (row vs column)", shown.rename(columns={"bot": ""})),
                Table("Every pair with its interval", pair_table),
            ],
            figures=[render_figure("Head to head", head_to_head(matrix), caption)],
        )
    )
    rating_table = strength_table(c.rating.table(), "bot")
    pos = c.rating.position_table()
    pos_table = pd.DataFrame(
        {
            "position": [F.position_label(int(p)) for p in pos["position"]],
            "effect": [f"{x:+.3f}" for x in pos["effect"]],
            "95% interval": [
                "reference" if p == 0 else f"[{e - 1.96 * s:+.3f}, {e + 1.96 * s:+.3f}]"
                for p, e, s in zip(pos["position"], pos["effect"], pos["se"], strict=True)
            ],
        }
    )
    report.add(
        Section(
            "Rating",
            text=[
                "Plackett-Luce model of the finishing orders, fitted by maximum likelihood with "
                "the turn-order position in the model, so seat advantage does not leak into the "
                "ratings. exp(strength gap) is the odds that one bot finishes ahead of the other "
                "from the same position; the Elo scale has the same odds (400 points = 10:1).",
                *([c.rating_note] if c.rating_note else []),
            ],
            verdicts=[c.skill_depth],
            tables=[
                Table("Strength by bot (centred)", rating_table),
                Table("Turn-order effect (vs the starting player)", pos_table),
            ],
        )
    )
    report.add(setup)
    return report


# -- sweep ---------------------------------------------------------------------------------------


def sweep_report(table: pd.DataFrame, params, first: Results, title: str) -> Report:
    """The report of ``cardsim sweep``: the table of every setting and its chart (a line per
    position for one parameter, a heatmap of the first-player advantage for two)."""
    from cardsim.charts import sweep as charts
    from cardsim.charts.render import run_caption

    names = [p.name for p in params]
    games = int(table["games"].iloc[0]) if len(table) else 0
    k = F.seat_count(first.frame)
    report = Report(
        f"Sweep: {title}, {k} players",
        dict(first.metadata),
        subtitle=f"{', '.join(names)}; {len(table)} settings x {games:,} games, seed {first.seed}",
    )
    rows = _run_rows(first)
    rows[3] = ("rules (besides the swept ones)", _without(changed_rules(first), names))
    rows[3:3] = [
        *((f"swept: {p.name}", ", ".join(p.labels)) for p in params),
        ("games per setting", f"{games:,} (game i is the same deal in every setting)"),
    ]
    setup = setup_section(rows)  # last: the verdicts and charts come first
    run = run_caption(games, first.seed, k, "per setting, the same games in every setting")
    if len(params) == 1:
        shows = (
            "Lines: the win rate of each turn-order position at each value (a win shared by k "
            "players counts 1/k); band: the first player's 95% interval; dashed: the fair "
            "share; lower panel: the mean game length in turns"
        )
    elif len(params) == 2:
        shows = (
            "Each cell: the first-player advantage in points over the fair share, with its 95% "
            "interval; bold where the interval excludes 0; the colour scale reaches the widest "
            "interval end"
        )
    else:
        shows = "Points: the first-player advantage at every setting; bars: 95% intervals"
    caption = f"{shows} ({run})."
    section = Section(
        "Balance by setting",
        text=[
            "Win rates split shared wins and leave out games ended by the turn cap. The "
            "first-player advantage is the starter's win rate minus the fair share, in points, "
            "with its 95% interval."
        ],
        tables=[Table("Every setting", _display(table, names))],
    )
    section.verdicts += _sweep_verdicts(table, names)
    if len(params) == 1:
        fair = float(seats_fair(first))
        fig = charts.one_parameter(table, names[0], fair)
    elif len(params) == 2:
        from cardsim.analysis.experiments.sweep import advantage_grid

        fig = charts.two_parameters(
            advantage_grid(table, params),
            names[0],
            names[1],
            low=advantage_grid(table, params, "fpa_low"),
            high=advantage_grid(table, params, "fpa_high"),
        )
    else:
        fig = charts.grid_points(table, names)
    section.figures.append(render_figure("Sweep", fig, caption))
    report.add(section)
    report.add(setup)
    return report


def seats_fair(results: Results) -> float:
    from cardsim.analysis.stats.seats import fair_rate

    return fair_rate(results.frame)


def _without(changed: str, names: list[str]) -> str:
    kept = [c for c in changed.split(", ") if c.split("=")[0] not in names]
    return ", ".join(kept) if kept and kept != ["defaults"] else "defaults"


def _display(table: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    out = table[names].copy()
    out["games"] = [number(x) for x in table["games"]]
    for col in [c for c in table.columns if c.startswith("win ")]:
        out[col] = [percent(x, 1) for x in table[col]]
    out["first-player advantage"] = [
        f"{p:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        for p, lo, hi in zip(
            table["first_player_points"], table["fpa_low"], table["fpa_high"], strict=True
        )
    ]
    out["mean turns"] = [f"{x:.1f}" for x in table["mean_turns"]]
    for col in [c for c in table.columns if c.startswith("ends: ")]:
        out[col.removeprefix("ends: ")] = [percent(x, 1) for x in table[col]]
    out["turn cap"] = [number(x) for x in table["turn_cap_games"]]
    return out


def _sweep_verdicts(table: pd.DataFrame, names: list[str]) -> list[str]:
    """The fairest setting, and the settings whose advantage interval excludes 0."""
    if table.empty:
        return []
    label = lambda r: ", ".join(f"{n}={r[n]}" for n in names)  # noqa: E731
    records = table.to_dict("records")
    fairest = min(records, key=lambda r: abs(r["first_player_points"]))
    out = [
        f"Closest to fair: {label(fairest)} (first player {fairest['first_player_points']:+.2f} "
        f"points, 95% interval {fairest['fpa_low']:+.2f} .. {fairest['fpa_high']:+.2f})."
    ]
    fair = [label(r) for r in records if r["fpa_low"] <= 0 <= r["fpa_high"]]
    if fair:
        out.append("No detectable first-player advantage at: " + "; ".join(fair) + ".")
    else:
        out.append("Every setting gives the first player a detectable advantage or handicap.")
    return out


# -- diff ----------------------------------------------------------------------------------------


def diff_report(table: pd.DataFrame, a: Results, b: Results, name_a: str, name_b: str) -> Report:
    """The report of ``cardsim diff``: both rule sets, the change of every metric with its
    paired interval, verdicts, and the chart of the changes. ``a``, ``b``: the two runs (only
    their metadata is read, so their frames may be empty: a streamed diff keeps no game)."""
    from cardsim.analysis.experiments import variant_diff as D
    from cardsim.charts.diff import changes
    from cardsim.charts.render import run_caption

    k = int(a.metadata["n_players"])
    lengths = table.loc[table["metric"] == "game length (turns)", "games"]
    games = int(lengths.iloc[0]) if len(lengths) else len(a.frame)
    title = a.ruleset.title if a.ruleset is not None else str(a.metadata.get("ruleset"))
    report = Report(
        f"Variant diff: {title}, {k} players",
        {"a": a.metadata, "b": b.metadata},
        subtitle=f"{name_a} vs {name_b}; {games:,} games each, seed {a.seed}",
    )
    rows = _run_rows(a)[:3] + [
        (f"first: {name_a}", changed_rules(a)),
        (f"second: {name_b}", changed_rules(b)),
        ("games", f"{games:,} in each (game i is the same deal in both)"),
        ("cardsim version", str(a.metadata.get("version", "?"))),
    ]
    setup = setup_section(rows)  # last: the verdicts and charts come first
    caption = (
        f"Points: the change of each metric from {name_a} to {name_b}, game by game on the same "
        "games (win rates in points, lengths and scores in their own units); bars: paired 95% "
        "intervals; a change whose bar crosses 0 is not detected "
        f"({run_caption(games, a.seed, k)})."
    )
    report.add(
        Section(
            "Change of every metric",
            text=[
                "Change = second minus first, game by game on the same games, with its paired "
                "95% t interval. Win rates split shared wins and leave out games either run ended "
                "by the turn cap."
            ],
            verdicts=D.verdicts(table, name_a, name_b),
            tables=[Table("Paired changes", D.display_table(table, name_a, name_b))],
            figures=[render_figure("Changes", changes(table, name_a, name_b), caption)],
        )
    )
    report.add(setup)
    return report
