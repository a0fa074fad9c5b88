"""Sweeps: a grid over rule options, every setting played on the same games (same seed, same game
indices), and one row of balance figures per setting.

``--param key=v1,v2,...`` gives the values of one option. Values are separated by commas, or by
semicolons for options whose one value is itself a comma list (``--param
"setup_seeds=2,2,2;3,3,3"``); an integer option also takes a range ``lo..hi`` (``3..6`` is 3, 4,
5, 6). Several ``--param`` make the grid of every combination, the first one varying slowest.
Every value is checked against the ruleset before anything runs (one-line errors).

Per setting (``setting_row``): games; the win rate of every turn-order position (shared wins split,
turn-cap games out, ``seats.seat_win_rates``); the first-player advantage in points with its 95%
interval; mean and median length in turns; the share of games per end reason; games ended by
the turn cap.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from cardsim.analysis import frame as F
from cardsim.analysis import scores, seats
from cardsim.core.errors import CardsimError
from cardsim.core.options import RuleOption, resolve_options
from cardsim.text import rich_table, show_value, wrap

MAX_SETTINGS = 5000  # settings (grid points) of one sweep: 50 values of two parameters fit

LIST_KINDS = ("int_list", "list_or_choice")


@dataclass(frozen=True)
class SweepParam:
    """One swept rule option: its name, checked values and how each is shown."""

    name: str
    values: tuple[Any, ...]
    labels: tuple[str, ...]


def _split_values(option: RuleOption, text: str) -> list[str]:
    if option.kind in LIST_KINDS or ";" in text:
        parts = text.split(";")
    else:
        parts = text.split(",")
    parts = [p.strip() for p in parts if p.strip()]
    if option.kind == "int" and len(parts) == 1 and ".." in parts[0]:
        lo, _, hi = parts[0].partition("..")
        try:
            values = range(int(lo), int(hi) + 1)
        except ValueError:
            raise CardsimError(f"--param {option.name}: {text!r} is not a range lo..hi") from None
        if len(values) > MAX_SETTINGS:
            raise CardsimError(
                f"--param {option.name}: {text!r} has {len(values):,} values, more than the "
                f"{MAX_SETTINGS:,} settings a sweep plays"
            )
        parts = [str(v) for v in values]
    return parts


def parse_params(
    options: Iterable[RuleOption], texts: Sequence[str], game: str
) -> list[SweepParam]:
    """``["key=v1,v2", ...]`` -> the swept options with checked values (see the module)."""
    by_name = {o.name: o for o in options}
    out: list[SweepParam] = []
    for text in texts:
        key, sep, raw = text.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise CardsimError(f"--param expects key=v1,v2,..., got {text!r}")
        if key not in by_name:  # the one unknown-option error, with its did-you-mean
            resolve_options(by_name.values(), {key: None}, game)
        option = by_name[key]
        if any(p.name == key for p in out):
            raise CardsimError(f"--param {key} is given twice")
        parts = _split_values(option, raw)
        if not parts:
            raise CardsimError(f"--param {key} has no values")
        values = tuple(option.parse(p) for p in parts)
        labels = tuple(show_value(v) for v in values)
        if len(set(labels)) != len(labels):
            raise CardsimError(f"--param {key} repeats a value")
        out.append(SweepParam(key, values, labels))
    if not out:
        raise CardsimError("sweep needs at least one --param key=v1,v2,...")
    settings = math.prod(len(p.values) for p in out)
    if settings > MAX_SETTINGS:
        raise CardsimError(
            f"the --param grid has {settings:,} settings, more than the {MAX_SETTINGS:,} a sweep "
            "plays: sweep fewer values, or one parameter at a time"
        )
    return out


def grid(params: Sequence[SweepParam]) -> list[dict[str, Any]]:
    """Every combination of the params' values, the first param varying slowest."""
    names = [p.name for p in params]
    return [
        dict(zip(names, combo, strict=True))
        for combo in itertools.product(*(p.values for p in params))
    ]


def setting_row(point: Mapping[str, Any], frame: pd.DataFrame) -> dict[str, Any]:
    """The balance figures of one setting (see the module docstring)."""
    row: dict[str, Any] = {name: show_value(value) for name, value in point.items()}
    row["games"] = len(frame)
    rates = seats.seat_win_rates(frame)
    for r in rates[rates["kind"] == "position"].itertuples():
        row[f"win {F.ORDINALS[r.index]}"] = r.win_rate
    adv = seats.first_player_advantage(frame)
    row["first_player_points"] = adv.points
    row["fpa_low"], row["fpa_high"] = adv.low, adv.high
    turns = frame["turns"]
    row["mean_turns"] = float(turns.mean()) if len(frame) else math.nan
    half = 1.96 * float(turns.std()) / math.sqrt(len(frame)) if len(frame) > 1 else math.nan
    row["mean_turns_low"], row["mean_turns_high"] = (
        row["mean_turns"] - half,
        row["mean_turns"] + half,
    )
    row["median_turns"] = float(turns.median()) if len(frame) else math.nan
    for r in scores.end_reasons(frame).itertuples():
        if r.reason != "turn_cap":
            row[f"ends: {r.reason}"] = r.share
    row["turn_cap_games"] = int(frame["turn_cap_hit"].sum())
    return row


def setting_record(point: Mapping[str, Any], frame: pd.DataFrame) -> dict[str, Any]:
    """One setting of ``cardsim sweep --format json``: the swept ``values`` with their types
    (an int stays an int), then the figures of ``setting_row`` as fractions of 1 (see
    docs/json.md)."""
    from cardsim.analysis.summary import end_reason_records, table_advantage

    rates = seats.seat_win_rates(frame)
    by_position = rates[rates["kind"] == "position"]
    ends = scores.end_reasons(frame)
    return {
        "values": dict(point),
        "games": len(frame),
        "win_rates": [
            {
                "position": int(r.index),
                "label": r.label,
                "win_rate": r.win_rate,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
            }
            for r in by_position.itertuples()
        ],
        "first_player_advantage": table_advantage(rates),
        "length": {
            "mean_turns": float(frame["turns"].mean()) if len(frame) else math.nan,
            "median_turns": float(frame["turns"].median()) if len(frame) else math.nan,
        },
        "end_reasons": end_reason_records(
            dict(zip(ends["reason"], ends["games"], strict=True)), len(frame)
        ),
        "turn_cap_games": int(frame["turn_cap_hit"].sum()),
    }


def records_frame(records: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """``setting_record``s as one flat row per setting, numbers as numbers (``cardsim.sweep``):
    the swept options with their typed values, games, ``win_rate_position_<p>``,
    ``first_player_edge`` with ``first_player_edge_ci_low`` / ``_ci_high`` (fractions of 1),
    ``mean_turns``, ``median_turns``, ``end_<reason>`` (share of the games) and
    ``turn_cap_games``."""
    rows = []
    for r in records:
        adv = r["first_player_advantage"]
        row = {**r["values"], "games": r["games"]}
        row |= {f"win_rate_position_{w['position']}": w["win_rate"] for w in r["win_rates"]}
        row |= {
            "first_player_edge": adv["edge"],
            "first_player_edge_ci_low": adv["ci_low"],
            "first_player_edge_ci_high": adv["ci_high"],
            **r["length"],
        }
        row |= {f"end_{reason}": e["share"] for reason, e in r["end_reasons"].items()}
        rows.append({**row, "turn_cap_games": r["turn_cap_games"]})
    return pd.DataFrame(rows)


def sweep_table(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per setting, in grid order."""
    return pd.DataFrame(list(rows))


def advantage_grid(
    table: pd.DataFrame, params: Sequence[SweepParam], column: str = "first_player_points"
) -> pd.DataFrame:
    """First-player advantage (points; ``column="fpa_low"``/``"fpa_high"`` for its interval)
    as a wide table: rows the first param's values, columns the second's (for the heatmap)."""
    a, b = params[0], params[1]
    wide = table.pivot(index=a.name, columns=b.name, values=column)
    return wide.reindex(index=list(a.labels), columns=list(b.labels))


# -- text ----------------------------------------------------------------------------------------


def format_sweep(table: pd.DataFrame, params: Sequence[SweepParam], header: str) -> str:
    """Plain text of a sweep: one line per setting in three tables laid out by rich to fit the
    terminal (first-player advantage and length; win rate by turn order; why games ended)."""
    names = [p.name for p in params]
    win_cols = [c for c in table.columns if c.startswith("win ")]
    end_cols = [c for c in table.columns if c.startswith("ends: ")]
    records = table.to_dict("records")
    n = len(names)

    def table_text(head: list[str], rows: list[list[str]]) -> str:
        # the swept values and the long headers wrap; numbers never do
        return rich_table(head, rows, right=range(n, len(head)), fill=range(len(head)), share=False)

    balance = table_text(
        [*names, "games", "first-player advantage (95% CI)", "mean turns"],
        [
            [
                *[str(r[name]) for name in names],
                f"{r['games']:,}",
                f"{r['first_player_points']:+.2f} [{r['fpa_low']:+.2f}, {r['fpa_high']:+.2f}]",
                f"{r['mean_turns']:.1f}",
            ]
            for r in records
        ],
    )
    wins = table_text(
        [*names, *[c.removeprefix("win ") for c in win_cols]],
        [
            [*[str(r[name]) for name in names], *[f"{100 * r[c]:.1f}%" for c in win_cols]]
            for r in records
        ],
    )
    ends = table_text(
        [*names, *[c.removeprefix("ends: ").replace("_", " ") for c in end_cols], "turn cap"],
        [
            [
                *[str(r[name]) for name in names],
                *[f"{100 * r[c]:.1f}%" for c in end_cols],
                f"{r['turn_cap_games']:,}",
            ]
            for r in records
        ],
    )
    note = (
        "Win rates split shared wins and leave out games ended by the turn cap; the "
        "first-player advantage is in points over the fair share, with its 95% interval."
    )
    lines = [wrap(header), "", balance, "", "Win rate by turn order", wins, ""]
    lines += ["Why games ended", ends, "", wrap(note)]
    return "\n".join(lines)
