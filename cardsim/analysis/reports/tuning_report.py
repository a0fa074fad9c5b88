"""The reports of ``cardsim tune`` (search history, the best candidates on fresh deals with
intervals, the winner against the defaults) and ``cardsim screen`` (options ranked, tornado
charts), made of ``cardsim.analysis.reports.report``'s blocks."""

from __future__ import annotations

import pandas as pd

from cardsim.analysis.experiments.tuning.output import (
    ladder_note,
    ladder_rows,
    tune_header,
    verdict,
)
from cardsim.analysis.experiments.tuning.result import ScreenResult, TuneResult
from cardsim.analysis.experiments.tuning.screen import FIGURES
from cardsim.analysis.reports.experiment_report import setup_section
from cardsim.analysis.reports.report import Report, Section, Table, render_figure
from cardsim.charts.render import run_caption
from cardsim.text import interval, number, points


def _with_interval(row, name: str, fmt=points) -> str:
    return f"{fmt(row[name])} {interval(row[f'{name}_low'], row[f'{name}_high'], fmt)}"


def _turns(x: float) -> str:
    return number(x, 1)


def _history_section(result: TuneResult) -> Section:
    from cardsim.charts.tuning import history

    s = result.setup
    fig = history(result.trials, f"{s.objective.describe} (points)", "Search history")
    text = [
        "Each dot is a trial: the mean over its blocks of deals of the objective. A hollow dot "
        "is a trial the Wilcoxon pruner stopped early, being clearly worse than the best on the "
        "same blocks; the line is the best fully played trial so far (keeping the length window "
        "if there is one). These figures are on the search's own deals and flatter the best "
        "candidates: see the verification below."
    ]
    shown = run_caption(s.games, s.seed, s.players, "every trial on the same deals")
    return Section(
        "Search history", text=text, figures=[render_figure("Search history", fig, shown)]
    )


def _candidates_section(result: TuneResult) -> Section:
    from cardsim.charts.forest import forest

    v = result.verification
    table = pd.DataFrame(
        {
            "candidate": [
                ("* " if w else "") + c for c, w in zip(v["candidate"], v["winner"], strict=True)
            ],
            "first-player edge, points": [
                _with_interval(r, "first_player_edge") for _, r in v.iterrows()
            ],
            "change vs defaults": [
                "" if i == 0 else _with_interval(r, "edge_change") for i, r in v.iterrows()
            ],
            "seat spread, points": [_with_interval(r, "seat_spread") for _, r in v.iterrows()],
            "mean turns": [_with_interval(r, "mean_turns", _turns) for _, r in v.iterrows()],
        }
    )
    shown = v.copy()
    for col in ("first_player_edge", "edge_change"):
        for suffix in ("", "_low", "_high"):
            shown[col + suffix] = 100 * shown[col + suffix]
    fig = forest(
        shown,
        "candidate",
        [
            ("first_player_edge", "first-player edge, points"),
            ("edge_change", "change vs defaults, points"),
        ],
        "Best candidates on fresh deals",
    )
    text = [
        f"The best {len(v) - 1} candidates of the search and the defaults played again on "
        f"{result.verify_games:,} games the search never saw, the same games for each. "
        "Intervals are 95%, from a bootstrap over those games; the change against the defaults "
        "is paired game by game. The winner (*) is the best on these games."
    ]
    return Section(
        "Best candidates on fresh deals",
        text=text,
        verdicts=[verdict(result)],
        tables=[Table("Best candidates on fresh deals", table)],
        figures=[
            render_figure(
                "Best candidates on fresh deals",
                fig,
                run_caption(
                    result.verify_games,
                    result.setup.seed,
                    result.setup.players,
                    "deals the search never saw; 95% bootstrap intervals",
                ),  # fmt: skip
            )
        ],
    )


def _winner_section(result: TuneResult) -> Section:
    win, base = result.winner_row, result.defaults_row
    if win is None:
        return Section("Winner against the defaults", text=["No candidate kept the length window."])
    rules = pd.DataFrame(
        [(k, str(v_def), str(v)) for k, v, v_def in _changed(result)],
        columns=["rule option", "defaults", "winner"],
    )
    rows = []
    for name, label, fmt in (
        ("first_player_edge", "first-player edge, points", points),
        ("seat_spread", "seat spread, points", points),
        ("mean_turns", "mean turns", _turns),
    ):
        rows.append((label, _with_interval(base, name, fmt), _with_interval(win, name, fmt)))
    figures = pd.DataFrame(rows, columns=["figure", "defaults", "winner"])
    return Section(
        "Winner against the defaults",
        text=[
            "The rule values the winner changes, and its figures beside the defaults' on the fresh games."
        ],
        tables=[Table("Rules changed", rules), Table("Figures on fresh games", figures)],
    )


def _ladder_section(result: TuneResult) -> Section:
    """``--objective ladder``: whether each candidate kept the ladder's order on fresh deals."""
    head, rows = ladder_rows(result)
    table = pd.DataFrame(rows, columns=head)
    return Section(
        "Ladder order on fresh deals",
        text=[ladder_note(result)],
        tables=[Table("Stronger level's win share above fair, per adjacent pair", table)],
    )


def _changed(result: TuneResult) -> list[tuple[str, object, object]]:
    from cardsim.core import registry
    from cardsim.text import show_value

    options = {o.name: o for o in registry.get(result.setup.game).options}
    out = []
    for key, value in result.winner.items():
        default = result.setup.base_rules.get(key, options[key].default)
        out.append((key, show_value(value), show_value(default)))
    return out


def tune_report(result: TuneResult) -> Report:
    s = result.setup
    report = Report(f"Tune: {result.title}, {s.players} players", {}, subtitle=tune_header(result))
    rows = [
        ("game", result.title),
        ("players", str(s.players)),
        ("bots", ", ".join(s.bots)),
        ("searched", "; ".join(p.describe() for p in s.params)),
        ("objective", s.objective.describe),
        ("fixed rules", ", ".join(f"{k}={v}" for k, v in s.base_rules.items()) or "defaults"),
        (
            "trials",
            f"{len(result.trials)} of {s.games:,} games in {s.blocks} blocks (the same deals)",
        ),
        ("verification", f"{result.verify_games:,} fresh games per candidate"),
        ("seed", str(s.seed)),
    ]
    report.add(setup_section(rows))
    report.add(_history_section(result))
    report.add(_candidates_section(result))
    if result.setup.objective.ladder:
        report.add(_ladder_section(result))
    report.add(_winner_section(result))
    return report


# -- screen --------------------------------------------------------------------------------------


def screen_report(result: ScreenResult) -> Report:
    from cardsim.charts.tuning import tornado

    report = Report(
        f"Screen: {result.title}, {result.players} players",
        {},
        subtitle=f"{len(result.factors)} options, {result.design} design, {len(result.runs)} runs",
    )
    rows = [
        ("game", result.title),
        ("players", str(result.players)),
        ("bots", ", ".join(result.bots)),
        ("design", result.design),
        ("runs", f"{len(result.runs)} x {result.games:,} games (the same deals in every run)"),
        ("fixed rules", ", ".join(f"{k}={v}" for k, v in result.fixed_rules.items()) or "defaults"),
        ("seed", str(result.seed)),
    ]
    report.add(setup_section(rows))
    caption = run_caption(
        result.games,
        result.seed,
        result.players,
        f"{len(result.runs)} runs, {result.design} design",
    )
    for figure, label in FIGURES.items():
        if figure not in set(result.effects["figure"]):
            continue
        ranked = result.ranking(figure)
        scale, unit = (1.0, "turns") if figure == "mean_turns" else (100.0, "points")
        fig = tornado(
            ranked,
            f"effect on the {label}, {unit} (95% interval)",
            f"Effect on the {label}",
            scale,
        )
        fmt = _turns if figure == "mean_turns" else points
        table = pd.DataFrame(
            {
                "rank": ranked["rank"],
                "option": ranked["option"],
                "levels": ranked["levels"],
                f"effect, {unit}": [_with_interval(r, "effect", fmt) for _, r in ranked.iterrows()],
                f"importance, {unit}": [
                    _with_interval(r, "importance", fmt) for _, r in ranked.iterrows()
                ],
            }
        )
        text = [_meaning(result.design)]
        if figure == "strongest_bot_share":
            text.append(f"Strongest bot: {result.strongest_bot}, its win rate per seat.")
        report.add(
            Section(
                f"Effect on the {label}",
                text=text,
                tables=[Table(f"Options by effect on the {label}", table)],
                figures=[render_figure(f"Effect on the {label}", fig, caption)],
            )
        )
    return report


def _meaning(design: str) -> str:
    if design == "morris":
        return (
            "Effect: Morris's mu, the mean elementary effect of moving the option from its lowest "
            "to its highest level; importance: mu*, the mean of its absolute value (options are "
            "ranked by it). Intervals: 95%, a bootstrap over the deals, the same deals in every run."
        )
    return (
        "Effect: the mean over the design's runs at the option's last level minus the mean at its "
        "first; importance: its absolute value (options are ranked by it). Intervals: 95%, a "
        "bootstrap over the deals, the same deals in every run."
    )
