"""The standard balance report of one run: metrics -> display tables, charts and verdicts.

Sections, in order: Run (metadata and rule options, changed ones marked), Seat advantage, Game
length, Scores, End reasons, Counter impact. Verdicts only claim what a 95% interval supports:
"no detectable ..." whenever the interval contains the no-effect value.

Every section reads a ``BalanceStats`` (``cardsim.analysis.stats.balance_stats``): the counts behind
the report, taken from a run in memory (``balance_report(results)``) or streamed from a results
file or dataset in bounded memory (``dataset_report(path)``, what ``cardsim report`` writes); the
same games give the same report either way.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pandas as pd

from cardsim.analysis.reports.report import Report, Section, Table, render_figure
from cardsim.analysis.results import Results
from cardsim.analysis.stats import counters as C
from cardsim.analysis.stats import seats
from cardsim.analysis.stats.balance_stats import BalanceStats
from cardsim.analysis.stats.summary import CONFIDENCE
from cardsim.text import interval, number, p_value, percent, points, show_value

MAX_COUNTER_CHARTS = 12
# the verdicts and the seat chart first; what was run, with every rule option, last
SECTIONS = (
    "Seat advantage",
    "Game length",
    "Scores",
    "End reasons",
    "Counter impact",
    "Run",
)


def balance_report(results: Results, title: str | None = None) -> Report:
    """Every section of the standard report of ``results`` (see the module docstring)."""
    stats = BalanceStats.from_frame(results.frame, results.metadata, results.seat_counters)
    return report_from_stats(stats, title)


def dataset_report(
    path, title: str | None = None, progress: Callable[[int], None] | None = None
) -> Report:
    """The standard report of a results file or dataset, read batch by batch in bounded memory
    (``progress(n)`` after each batch of n games)."""
    return report_from_stats(dataset_stats(path, progress), title)


# Games per batch a report reads: the counts are the same whatever the batch, and a quarter of
# dataset.BATCH_ROWS keeps a 100,000-game Pajarracos report under 400 MB (docs/memory.md)
REPORT_BATCH_ROWS = 16_384


def dataset_stats(path, progress: Callable[[int], None] | None = None) -> BalanceStats:
    """The counts behind the report of a results dataset or file, read batch by batch
    (``dataset.iter_batches``: one batch of games in memory at a time)."""
    import itertools

    from cardsim.core import dataset

    meta = dataset.read_metadata(path)
    batches = dataset.iter_batches(path, batch_rows=REPORT_BATCH_ROWS)
    first = next(batches, None)
    columns = list(first.columns) if first is not None else []
    counters = dataset_counters(meta, BalanceStats(meta, ()).ruleset, columns)
    stream = itertools.chain([first] if first is not None else [], batches)
    return BalanceStats.from_batches(stream, meta, counters, progress)


def dataset_counters(meta: dict, ruleset, columns: list[str]) -> tuple[str, ...]:
    """``Results.seat_counters`` of a file: the ruleset's per-seat counters present in it."""
    names = ruleset.seat_counters if ruleset is not None else meta.get("seat_counters", ())
    return tuple(n for n in names if f"{n}_0" in columns)


def _incomplete(meta: dict) -> str:
    """What the report's games row adds for a run not finished (or still being written)."""
    if meta.get("complete", True):
        return ""
    return " (incomplete run: still being written)" if meta.get("writer") else " (incomplete run)"


def report_from_stats(stats: BalanceStats, title: str | None = None) -> Report:
    """Every section of the standard report from the counts of a run."""
    meta = stats.metadata
    ruleset = stats.ruleset
    name = ruleset.title if ruleset is not None else str(meta.get("ruleset", "cardsim run"))
    title = title or f"Balance report: {name}, {stats.k} players"
    subtitle = f"{stats.games:,} games, seed {meta.get('seed', 0)}"
    if meta.get("variant"):
        subtitle += f", variant {meta['variant'].get('name', '')}"
    subtitle += f", {seating_text(stats)}. {changed_text(stats)}"
    report = Report(title, meta, subtitle=subtitle)
    caption = run_caption(stats)
    report.add(seat_section(stats, caption))
    report.add(length_section(stats, caption))
    report.add(score_section(stats, caption))
    report.add(end_reason_section(stats))
    report.add(counter_section(stats, caption))
    report.add(run_section(stats))
    return report


def run_caption(stats: BalanceStats) -> str:
    """What was run: games, players, seed (each chart adds what it shows: ``shows``)."""
    from cardsim.charts.render import run_caption as caption

    return caption(stats.games, int(stats.metadata.get("seed", 0)), stats.k)


def shows(run: str, what: str) -> str:
    """A chart's caption: what it shows, then what was run."""
    return f"{what} ({run})."


WIN_RATE_CHART = (
    "Points: the win rate of each {what} (a win shared by k players counts 1/k; turn-cap games "
    "left out); bars: 95% Wilson intervals; dashed line: the fair share"
)


# -- run -----------------------------------------------------------------------------------------


def _shown(value) -> str:
    """A rule value in a report; an unset one is derived from other options."""
    return show_value(value, none="(derived)")


def rule_table(results: Results | BalanceStats) -> pd.DataFrame:
    """option, value, default, changed ("yes" if not the default), rule: every rule option."""
    rules = results.metadata.get("rules", {})
    ruleset = results.ruleset
    defaults = {o.name: o for o in ruleset.options} if ruleset is not None else {}
    rows = []
    for key, value in rules.items():
        opt = defaults.get(key)
        default = json.loads(json.dumps(opt.default)) if opt is not None else None
        changed = opt is not None and value != default
        rows.append(
            {
                "option": key,
                "value": _shown(value),
                "default": _shown(default) if opt is not None else "?",
                "changed": "yes" if changed else "",
                "rule": opt.refers if opt is not None else "",
            }
        )
    return pd.DataFrame(rows, columns=["option", "value", "default", "changed", "rule"])


def bot_params_text(stats: BalanceStats, bot: str, values: list) -> str:
    """``name=value, ...`` of a bot's parameters: names from the run's metadata, or (results of
    earlier versions) from the ruleset's built-in bot of that name; p0, p1, ... for a bot that
    names none (a --bot-file bot without names)."""
    names = list(stats.metadata.get("bot_param_names", {}).get(bot, []))
    if not names and "bot_param_names" not in stats.metadata and stats.ruleset is not None:
        try:  # imports the game's bots (numba), only for results saved without the names
            builtin = stats.ruleset.bots().get(bot)
        except Exception:  # noqa: BLE001 - a label is not worth failing a report for
            builtin = None
        if builtin is not None and len(builtin.param_names) == len(values):
            names = list(builtin.param_names)
    if len(names) != len(values):
        names = [f"p{i}" for i in range(len(values))]
    return ", ".join(f"{n}={v:g}" for n, v in zip(names, values, strict=True))


def load_text(meta: dict) -> str:
    """The machine's load when the run ended, for the speed row: a speed means little without it."""
    load = meta.get("load_average")
    return "" if load is None else f" (load average {load} at the end of the run)"


def seating_text(stats: BalanceStats) -> str:
    """``planner in every seat``, ``seat 0: planner, seat 1: greedy`` or the rotated bots."""
    seating = [stats.seat_bot(s) for s in range(stats.k)]
    if all(b is not None for b in seating) and len(set(seating)) == 1:
        return f"{seating[0]} in every seat"
    if all(b is not None for b in seating):
        return ", ".join(f"seat {s}: {b}" for s, b in enumerate(seating))
    return "rotated over the seats: " + ", ".join(stats.metadata.get("bots", []))


def changed_text(stats: BalanceStats) -> str:
    """The rule options that differ from their defaults, in one sentence."""
    rules = rule_table(stats)
    changed = rules[rules["changed"] == "yes"]["option"].tolist()
    if not changed:
        return "Every rule option has its default value."
    return "Rule options that differ from the default: " + ", ".join(changed) + "."


def run_section(stats: BalanceStats) -> Section:
    meta = stats.metadata
    k = stats.k
    bots = seating_text(stats)
    params = meta.get("bot_params", {})
    speed = meta.get("games_per_second")
    rows = [
        ("ruleset", meta.get("ruleset", "?")),
        ("players", str(k)),
        ("games", f"{stats.games:,}" + _incomplete(meta)),
        ("seed", str(meta.get("seed", 0))),
        ("bots", bots),
        *((f"parameters of {b}", bot_params_text(stats, b, p)) for b, p in params.items() if p),
        ("cardsim version", str(meta.get("version", "?"))),
        (
            "speed",
            f"{speed:,.0f} games/s on {meta.get('threads', '?')} threads{load_text(meta)}"
            if speed
            else "not recorded (results read from a file)",
        ),
    ]
    variant = meta.get("variant")
    if variant:
        rows.insert(2, ("variant", f"{variant.get('name', '')}: {variant.get('description', '')}"))
    text = [changed_text(stats)]
    ruleset = stats.ruleset
    if ruleset is not None and ruleset.rules_doc:
        text.append(
            f"The rule column cites the game's rules reference, {ruleset.rules_doc} in the "
            "cardsim repository (R: rules, V: variants, A: ambiguities and their readings)."
        )
    return Section(
        "Run",
        text=text,
        tables=[
            Table("Run", pd.DataFrame(rows, columns=["", "value"])),
            Table("Rule options (changed ones marked)", rule_table(stats), folded=True),
        ],
    )


# -- seats ---------------------------------------------------------------------------------------


def _pts(x: float, half: float) -> str:
    """Points with as many decimals as the interval deserves."""
    digits = 1 if half >= 0.095 else 2
    return f"{abs(x):.{digits}f} ± {half:.{digits}f}"


def advantage_verdict(adv: seats.FirstPlayerAdvantage) -> str:
    """Plain words for the first-player advantage, claiming only what the interval supports."""
    if math.isnan(adv.points):
        return "No first-player advantage can be measured: no game was decided."
    ci = f"95% interval {adv.low:+.2f} to {adv.high:+.2f} points"
    if not adv.detected:
        return (
            f"No detectable first-player advantage: the starting player wins "
            f"{percent(adv.rate)} of games against a fair {percent(adv.fair)} ({ci}, which "
            "contains 0)."
        )
    way = "more" if adv.points > 0 else "less"
    return (
        f"The first player wins {_pts(adv.points, adv.half_width)} points {way} often than fair "
        f"({percent(adv.rate)} against {percent(adv.fair)}; {ci})."
    )


def equal_test_verdict(test: seats.EqualSeatsTest, what: str) -> str:
    if test.games == 0:
        return f"No test of {what}: no game was decided."
    stat = f"chi-squared {test.statistic:.1f} on {test.dof} df, p {p_value(test.p_value)}"
    if test.rejects():
        return f"The {what} do not all win equally often ({stat})."
    return f"No detectable difference between the {what} ({stat})."


def position_verdicts(rates: pd.DataFrame) -> list[str]:
    """One line per later position whose interval excludes the fair rate."""
    out = []
    for _, r in rates[(rates["kind"] == "position") & (rates["index"] > 0)].iterrows():
        lo, hi = r["ci_low"] - r["fair_rate"], r["ci_high"] - r["fair_rate"]
        if lo > 0 or hi < 0:
            half = 100 * (hi - lo) / 2
            way = "more" if r["vs_fair"] > 0 else "less"
            out.append(
                f"The {r['label']} player wins {_pts(100 * r['vs_fair'], half)} points {way} "
                "often than fair."
            )
    return out


def rate_table(rates: pd.DataFrame, name: str) -> pd.DataFrame:
    k = rates["fair_rate"]
    return pd.DataFrame(
        {
            name: rates["label"].astype(str),
            "games": rates["games"].map(number),
            "wins": rates["wins"].map(number),
            "outright wins": rates["outright_wins"].map(number),
            "shared wins": rates["shared_wins"].map(number),
            "win rate": rates["win_rate"].map(percent),
            "95% interval": [
                interval(a, b) for a, b in zip(rates["ci_low"], rates["ci_high"], strict=True)
            ],
            "vs fair, points": [points(x) for x in rates["win_rate"] - k],
        }
    )


def seat_section(stats: BalanceStats, caption: str) -> Section:
    from cardsim.charts import balance as charts

    rates = stats.seat_win_rates()
    k = stats.k
    adv = stats.first_player_advantage()
    by_position = stats.seats_equal_test("position")
    by_seat = stats.seats_equal_test("seat")
    fair = rates["fair_rate"].iloc[0]
    verdicts = [advantage_verdict(adv), equal_test_verdict(by_position, "turn-order positions")]
    verdicts += position_verdicts(rates)
    seat_verdict = equal_test_verdict(by_seat, "physical seats")
    bots = stats.bot_win_rates()
    if len(bots) > 1:
        seat_verdict += (
            " The seats hold different bots, so this compares the bots as much as the seats."
        )
    verdicts.append(seat_verdict)
    pos, seat = rates[rates["kind"] == "position"], rates[rates["kind"] == "seat"]
    tables = [
        Table("Win rate by turn order (1st = the player who starts)", rate_table(pos, "position")),
        Table("Win rate by seat", rate_table(seat, "seat")),
    ]
    if len(bots) > 1:
        tables.append(
            Table(
                "Win rate by bot (per seat played)",
                pd.DataFrame(
                    {
                        "bot": bots["bot"],
                        "seats played": bots["seat_games"].map(number),
                        "wins": bots["wins"].map(number),
                        "win rate": bots["win_rate"].map(percent),
                        "95% interval": [
                            interval(a, b)
                            for a, b in zip(bots["ci_low"], bots["ci_high"], strict=True)
                        ],
                    }
                ),
            )
        )
    win = stats.winners()
    tables.append(
        Table(
            "Winners per game",
            pd.DataFrame(
                {
                    "outcome": win["outcome"],
                    "games": win["games"].map(number),
                    "share": win["share"].map(percent),
                }
            ),
        )
    )
    text = [
        f"A shared win counts as 1/k of a win for each of the k tied winners, so the win rates of "
        f"a game's seats add up to 1 and the fair rate is {percent(fair)} (1/{k} of the games "
        "somebody won); outright wins (the only winner) and shared wins are counted apart. Games "
        "ended by the turn cap are left out. Intervals are 95% Wilson intervals.",
    ]
    by_position = shows(caption, WIN_RATE_CHART.format(what="turn-order position"))
    by_seat = shows(caption, WIN_RATE_CHART.format(what="physical seat"))
    figures = [
        render_figure(
            "Win rate by turn order",
            charts.seat_win_rates(pos, "Win rate by turn order against the fair share"),
            by_position,
        ),
        render_figure(
            "Win rate by seat",
            charts.seat_win_rates(seat, "Win rate by physical seat against the fair share"),
            by_seat,
        ),
    ]
    return Section("Seat advantage", text=text, verdicts=verdicts, tables=tables, figures=figures)


# -- length, scores, end reasons -----------------------------------------------------------------


def _stats_table(table: pd.DataFrame, first: str) -> pd.DataFrame:
    out = table.copy()
    for col in out.columns:
        if col not in (first,) and out[col].dtype.kind in "fiu":
            out[col] = out[col].map(number)
    return out


def laps(stats: BalanceStats, turns: float) -> str:
    """``turns`` as laps of the table, in the game's words (``Ruleset.table_rounds``)."""
    k = stats.k
    if stats.table_rounds == "rounds":
        return f"{turns / k:.1f} rounds of {k} turns"
    return f"{turns / k:.1f} {stats.table_rounds}"


def length_section(stats: BalanceStats, caption: str) -> Section:
    from cardsim.charts import balance as charts

    k = stats.k
    summary = stats.length_summary()
    turns = summary.iloc[0]
    verdicts = [
        f"Games last {turns['mean']:.1f} turns on average ({laps(stats, turns['mean'])}); half "
        f"of them last {number(turns['p25'])} to {number(turns['p75'])} turns, and 90% "
        f"{number(turns['p05'])} to {number(turns['p95'])}."
    ]
    for label, row in summary.iloc[2:].iterrows():  # the game's own units (length_counters)
        heading = label[0].upper() + label[1:]
        verdicts.append(
            f"{heading}: {row['mean']:.3g} per game on average (median {number(row['median'])}), "
            f"from {number(row['min'])} to {number(row['max'])}."
            if row["max"] > 0
            else f"{heading}: none in these games."
        )
    by_winner = stats.length_by_winner()
    table = summary.reset_index(names="unit")
    chart_caption = shows(
        caption,
        "Bars: the share of games that lasted each number of turns (every game; those ended by "
        "the turn cap in red); dotted line: the median",
    )
    return Section(
        "Game length",
        text=["Every game counts here, those ended by the turn cap included."],
        verdicts=verdicts,
        tables=[
            Table("Game length", _stats_table(table, "unit")),
            Table("Game length (turns) by who won", _stats_table(by_winner, "winner")),
        ],
        figures=[
            render_figure(
                "Game length",
                charts.length_histogram(stats.length_histogram(), k),
                chart_caption,
            )
        ],
    )


def score_section(stats: BalanceStats, caption: str) -> Section:
    from cardsim.charts import balance as charts

    dist = stats.score_distribution()
    margin = stats.margin_by_winner()
    spread = stats.spread_summary()
    overall = margin.iloc[-1]
    verdicts = [
        f"Scores of a game are {spread['mean']:.2f} points apart on average (highest minus lowest)."
    ]
    if overall["games"]:
        verdicts.append(
            f"The winner ends {overall['mean']:.2f} points ahead of the best other player on "
            f"average; {percent(overall['score_ties'], 1)} of winners do not have the strictly "
            "highest score (they win on a tie-break or by another rule)."
        )
    margin_shown = _stats_table(margin, "winner")
    margin_shown["score_ties"] = margin["score_ties"].map(lambda x: percent(x, 1))
    margin_shown = margin_shown.rename(columns={"score_ties": "without the top score"})
    chart_caption = shows(
        caption,
        "Boxes: the middle half of the final scores of each turn-order position; whiskers: 5% "
        "to 95%; dots: the means",
    )
    return Section(
        "Scores",
        text=[
            "Final scores by turn-order position, and the winning margin: the best winner's "
            "score minus the best score among the others (games ended by the turn cap left out)."
        ],
        verdicts=verdicts,
        tables=[
            Table(
                "Score by turn order",
                _stats_table(dist, "label").rename(columns={"label": "position"}),
            ),
            Table("Winning margin by who won", margin_shown),
        ],
        figures=[
            render_figure(
                "Score by turn order",
                charts.score_distribution(dist, "Final score by turn-order position"),
                chart_caption,
            )
        ],
    )


def end_reason_section(stats: BalanceStats) -> Section:
    table = stats.end_reason_table()
    capped = stats.turn_cap_games
    n = stats.games
    if capped:
        verdict = (
            f"{capped:,} of {n:,} games ({percent(capped / n)}) were ended by the turn cap "
            "safeguard, not by the rules: their win figures are left out. Check the bots or "
            "raise turn_cap."
        )
    else:
        verdict = "No game was ended by the turn cap: every game ended by the rules."
    top = table.sort_values("games", ascending=False).iloc[0] if n else None
    verdicts = [verdict]
    if top is not None:
        verdicts.insert(0, f"Most games end by {top['reason']} ({percent(top['share'])}).")
    shown = pd.DataFrame(
        {
            "reason": table["reason"],
            "games": table["games"].map(number),
            "share": table["share"].map(percent),
        }
    )
    return Section("End reasons", verdicts=verdicts, tables=[Table("Why games ended", shown)])


# -- counters ------------------------------------------------------------------------------------


def _odds(x: float) -> str:
    if x is None or math.isnan(x):
        return "n/a"
    return f"{x:.3g}" if x < 1000 else f"{x:.3e}"


def _named(counter: str, glossary) -> str:
    meaning = glossary.get(counter, "")
    return f"{counter} ({meaning})" if meaning else counter


def counter_verdicts(effects: pd.DataFrame, top: int = 3, glossary=None) -> list[str]:
    glossary = glossary or {}
    out = []
    for _, r in effects.iterrows():
        if r["note"] == C.SEPARATION_NOTE:
            out.append(
                f"{_named(r['counter'], glossary)} decides who wins by itself: every seat on one "
                "side of a threshold wins and every seat on the other loses."
            )
    finite = effects[effects["odds_ratio_sd"].notna()]
    strong = finite[(finite["or_sd_low"] > 1) | (finite["or_sd_high"] < 1)]
    for _, r in strong.head(top).iterrows():
        out.append(
            f"{_named(r['counter'], glossary)}: one standard deviation more ({r['sd']:.3g}) "
            f"multiplies a seat's odds of winning by {_odds(r['odds_ratio_sd'])} (95% interval "
            f"{_odds(r['or_sd_low'])} to {_odds(r['or_sd_high'])}), turn order held fixed."
        )
    quiet = finite[(finite["or_sd_low"] <= 1) & (finite["or_sd_high"] >= 1)]["counter"].tolist()
    if quiet:
        out.append("No detectable association with winning: " + ", ".join(quiet) + ".")
    return out


def glossary_table(names, glossary, outcome) -> pd.DataFrame:
    """counter, what it counts, role: the report's key to the counter names."""
    return pd.DataFrame(
        {
            "counter": list(names),
            "what it counts": [glossary.get(n, "") for n in names],
            "role": [
                "outcome: restates the result, not in the regression" if n in outcome else ""
                for n in names
            ],
        }
    )


def _rate_rows(rates: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "counter": rates["counter"],
            "value": rates["value"],
            "seat-games": rates["seat_games"].map(number),
            "win rate": rates["win_rate"].map(percent),
            "95% interval": [
                interval(a, b) for a, b in zip(rates["ci_low"], rates["ci_high"], strict=True)
            ],
        }
    )


COUNTER_CHART = (
    "Points: the win rate of the seat-games that ended with each value of the counter (the "
    "count of seat-games under each value; a win shared by k players counts 1/k; turn-cap "
    "games left out); bars: 95% Wilson intervals; dashed line: the fair share"
)


def counter_section(stats: BalanceStats, caption: str) -> Section:
    """Counter impact: the ruleset's glossary names what each counter counts; its outcome
    counters (those that restate the result) are shown by value but kept out of the regression
    and the verdicts."""
    from cardsim.charts import balance as charts

    names = stats.counter_names
    ruleset = stats.ruleset
    glossary = ruleset.counter_glossary if ruleset is not None else {}
    declared = set(ruleset.outcome_counters) if ruleset is not None else set()
    if not names:
        return Section("Counter impact", text=["This ruleset records no per-seat counter."])
    outcome = tuple(n for n in names if n in declared)
    measured = [n for n in names if n not in declared]
    text = [
        "For every per-seat counter the ruleset records: the win rate by the counter's final "
        "value (binned when it takes many values), and a logistic regression of winning on the "
        "counter with the turn-order position held fixed; the effect size is the odds ratio per "
        "unit and per standard deviation of the counter. Counters are outcomes of play, so these "
        "are associations, not causes; a paired ablation measures causes."
    ]
    if outcome:
        text.append(
            "Outcome counters restate the result (" + ", ".join(outcome) + "): they are shown "
            "by value but kept out of the regression and the verdicts, where they would only "
            "say who won."
        )
    effects = C.order_effects(
        pd.DataFrame([stats.counter_effect(n) for n in measured], columns=C.EFFECT_COLUMNS)
    )
    rate_parts = [stats.counter_win_rates(n) for n in measured]
    rates = pd.concat(rate_parts, ignore_index=True) if rate_parts else None
    effect_table = pd.DataFrame(
        {
            "counter": effects["counter"],
            "mean": effects["mean"].map(lambda x: f"{x:.3g}"),
            "sd": effects["sd"].map(lambda x: f"{x:.3g}"),
            "values": effects["values"],
            "odds ratio per unit": effects["odds_ratio"].map(_odds),
            "95% interval": [
                f"[{_odds(a)}, {_odds(b)}]" if not math.isnan(a) else "n/a"
                for a, b in zip(effects["or_low"], effects["or_high"], strict=True)
            ],
            "odds ratio per sd": effects["odds_ratio_sd"].map(_odds),
            "95% interval (sd)": [
                f"[{_odds(a)}, {_odds(b)}]" if not math.isnan(a) else "n/a"
                for a, b in zip(effects["or_sd_low"], effects["or_sd_high"], strict=True)
            ],
            "p-value": effects["p_value"].map(p_value),
            "note": effects["note"],
        }
    )
    tables = [Table("What the counters count", glossary_table(names, glossary, outcome))]
    if measured:
        tables += [
            Table(
                f"Effect of each counter on winning ({int(100 * CONFIDENCE)}% intervals)",
                effect_table,
            ),
            Table("Win rate by counter value", _rate_rows(rates)),
        ]
    if outcome:
        outcome_rates = pd.concat([stats.counter_win_rates(n) for n in outcome])
        tables.append(Table("Win rate by outcome counter value", _rate_rows(outcome_rates)))
    varying = effects[effects["values"] > 1]["counter"].tolist()[:MAX_COUNTER_CHARTS]
    fair = stats.fair_rate
    figures = []
    if varying:
        more = len(effects[effects["values"] > 1]) - len(varying)
        note = f"; the {len(varying)} strongest shown, {more} more in the table" if more else ""
        chart_caption = shows(caption, COUNTER_CHART + note)
        figures.append(
            render_figure(
                "Win rate by counter value",
                charts.counter_impact(rates, varying, fair),
                chart_caption,
            )
        )
    return Section(
        "Counter impact",
        text=text,
        verdicts=counter_verdicts(effects, glossary=glossary) if measured else [],
        tables=tables,
        figures=figures,
    )


__all__ = ["SECTIONS", "balance_report", "dataset_report", "report_from_stats"]
