"""Plain text of a tune and of a screen: what was searched or varied, the figures with their
intervals, and one line that says what was found (rates in points: 100 x a fraction)."""

from __future__ import annotations

import pandas as pd

from cardsim.analysis.experiments.tuning.result import ScreenResult, TuneResult
from cardsim.text import interval, number, points, rich_table, wrap


def tune_header(result: TuneResult) -> str:
    s = result.setup
    searched = "; ".join(p.describe() for p in s.params)
    return (
        f"{result.title}: tune of {searched} for {s.objective.describe}, {s.players} players, "
        f"bots {','.join(s.bots)}, seed {s.seed}"
    )


def _figure(row, name: str, fmt=points) -> str:
    return f"{fmt(row[name])} {interval(row[f'{name}_low'], row[f'{name}_high'], fmt)}"


def _turns(x: float) -> str:
    return number(x, 1)


def verification_rows(result: TuneResult) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the verification table: candidates by number (the legend names their
    rules), the first-player edge and its change against the defaults, the seat spread when it
    is the objective, the mean length."""
    spread = result.setup.objective.name == "seats"
    head = ["#", "first-player edge", "change vs defaults"]
    head += ["seat spread"] * spread + ["mean turns"]
    rows = []
    for r in result.verification.itertuples():
        row = r._asdict()
        cells = [f"{r.Index}{'*' if r.winner else ''}", _figure(row, "first_player_edge")]
        cells.append("" if r.Index == 0 else _figure(row, "edge_change"))
        # the length's interval is in the JSON and the report: the table keeps to 80 columns
        cells += [_figure(row, "seat_spread")] * spread + [_turns(row["mean_turns"])]
        rows.append(cells)
    return head, rows


def ladder_rows(result: TuneResult) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the ladder table (``--objective ladder``): per candidate, each
    adjacent pair's margin (the stronger level's win share above its fair share) with its
    interval, and whether the ladder kept its order."""
    rows, head = [], ["#"]
    for i, r in enumerate(result.verification.to_dict("records")):
        parts = r["ladder"]
        if i == 0:
            head += [f"{p['stronger']} > {p['weaker']}" for p in parts["pairs"]] + ["ordered"]
        cells = [f"{i}{'*' if r['winner'] else ''}"]
        cells += [_figure(p, "margin") for p in parts["pairs"]]
        rows.append(cells + ["yes" if parts["ordered"] else "no"])
    return head, rows


def ladder_note(result: TuneResult) -> str:
    parts = result.defaults_row["ladder"]
    return (
        "Ladder: the first-player edge above is the top level's in self-play; each pair's "
        "column is the stronger level's win share above its fair share in their meetings "
        f"(points, 95% interval); ordered: every one at least {points(parts['order_margin'])} "
        "points above fair, so the objective adds no shortfall."
    )


def legend(result: TuneResult) -> list[str]:
    return [
        f"{i}{'*' if w else ''}: {c}"
        for i, (c, w) in enumerate(
            zip(result.verification["candidate"], result.verification["winner"], strict=True)
        )
    ]


def verdict(result: TuneResult) -> str:
    """One sentence: the winner and its first-player edge on fresh deals, beside the defaults'."""
    win, base = result.winner_row, result.defaults_row
    if win is None:
        return "No candidate kept the length window on the fresh deals: no winner."
    return (
        f"Winner: {win['candidate']}. On {result.verify_games:,} fresh games its first-player "
        f"edge is {points(win['first_player_edge'])} points "
        f"(95% interval {points(win['first_player_edge_low'])} .. "
        f"{points(win['first_player_edge_high'])}), against {points(base['first_player_edge'])} "
        f"with the defaults: a change of {points(win['edge_change'])} "
        f"({points(win['edge_change_low'])} .. {points(win['edge_change_high'])})."
    )


def format_tune(result: TuneResult) -> str:
    s, trials = result.setup, result.trials
    stopped = int(trials["pruned"].sum()) if len(trials) else 0
    search = (
        f"{len(trials)} trials of {s.games:,} games in {s.blocks} blocks, the same deals for "
        f"every trial; {stopped} stopped early by the Wilcoxon pruner; {result.seconds:.0f} s."
    )
    head, rows = verification_rows(result)
    table = rich_table(head, rows, right=range(1, len(head)), share=False)
    note = (
        f"The best {len(result.verification) - 1} candidates of the search and the defaults "
        f"re-played on {result.verify_games:,} games the search never saw (the same games for "
        "each): figures in points (100 x a fraction) with 95% intervals from a bootstrap over "
        "those games, the change against the defaults paired game by game. * marks the winner, "
        "the best on those games."
    )
    lines = [wrap(tune_header(result)), wrap(search), "", *map(wrap, legend(result)), "", table]
    lines += ["", wrap(note), ""]
    if s.objective.ladder:
        head, rows = ladder_rows(result)
        lines += [rich_table(head, rows, right=range(1, len(head)), share=False), ""]
        lines += [wrap(ladder_note(result)), ""]
    return "\n".join([*lines, wrap(verdict(result))])


# -- screen --------------------------------------------------------------------------------------


def _effect_text(figure: str, value: float) -> str:
    """An effect in one decimal: turns for the length, points for the rates."""
    if value is None or value != value:
        return "n/a"
    return f"{value:+.1f}" if figure == "mean_turns" else f"{100 * value:+.1f}"


def _effect_cell(wide: pd.DataFrame, option: str, figure: str) -> str:
    value = wide.loc[option, ("effect", figure)]
    lo, hi = wide.loc[option, ("effect_low", figure)], wide.loc[option, ("effect_high", figure)]
    return f"{_effect_text(figure, value)} [{_effect_text(figure, lo)}, {_effect_text(figure, hi)}]"


SHORT = {
    "first_player_edge": "1st-player edge",
    "seat_spread": "seat spread",
    "mean_turns": "turns",
    "strongest_bot_share": "strongest bot's share",
}


def screen_tables(result: ScreenResult) -> list[str]:
    """The options ranked, with their effects: the balance figures in one table, the
    strongest bot's share (when the runs seat several bots) in a second one, to fit 80
    columns."""
    wide = result.effects.pivot(index="option", columns="figure")
    ranked = result.ranking()
    groups = [["first_player_edge", "seat_spread", "mean_turns"], ["strongest_bot_share"]]
    tables = []
    for group in groups:
        shown = [f for f in group if f in set(result.effects["figure"])]
        if not shown:
            continue
        rows = [
            [
                str(r.rank),
                f"{r.option}: {r.levels}",
                *(_effect_cell(wide, r.option, f) for f in shown),
            ]
            for r in ranked.itertuples()
        ]
        head = ["#", "option: levels", *[SHORT[f] for f in shown]]
        tables.append(rich_table(head, rows, right=range(2, len(head)), fill=[1], share=False))
    return tables


def format_screen(result: ScreenResult) -> str:
    header = (
        f"{result.title}: screen of {len(result.factors)} rule options, {result.design} design, "
        f"{len(result.runs)} runs x {result.games:,} games (the same games in every run), "
        f"{result.players} players, bots {','.join(result.bots)}, seed {result.seed}; "
        f"{result.seconds:.0f} s"
    )
    ranked = result.ranking()
    if result.design == "morris":
        meaning = (
            "Effect: Morris's mu, the mean elementary effect of moving the option from its "
            "lowest to its highest level; options ranked by mu* (mean |effect|) on the "
            "first-player edge."
        )
    else:
        meaning = (
            "Effect: the mean at the option's last level minus the mean at its first, over the "
            "design's runs; options ranked by |effect| on the first-player edge."
        )
    note = (
        f"{meaning} Rates in points, length in turns, with 95% intervals from a bootstrap over "
        "the deals, the same deals in every run."
    )
    rejected = result.runs["rejected"].dropna()
    if len(rejected):
        note += (
            f" {len(rejected)} runs were left out, their rule values not playable together "
            f"(first: {rejected.iloc[0]})."
        )
    if result.strongest_bot:
        note += f" Strongest bot: {result.strongest_bot} (its win rate per seat)."
    top = ranked.iloc[0]
    found = (
        f"{top['option']} moves the first-player edge most: "
        f"{points(top['effect'])} points ({points(top['effect_low'])} .. "
        f"{points(top['effect_high'])}) from {top['levels'].split(', ')[0]} to "
        f"{top['levels'].split(', ')[-1]}."
    )
    tables = "\n\n".join(screen_tables(result))
    return "\n".join([wrap(header), "", tables, "", wrap(note), "", wrap(found)])
