"""How a command prints what it found: ``--format text`` for people, ``json`` and ``csv`` for
scripts and notebooks.

- ``text``: tables laid out by rich to fit the terminal (long cells wrap inside their column;
  80 columns when the output is not a terminal);
- ``json``: one JSON document on stdout (``{"table": [...records...]}`` for a listing, the
  command's own record for a summary), numbers as numbers, NaN as null;
- ``csv``: one table with a header row, numbers unformatted (a listing: the listing; a summary:
  its main table, documented per command).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import click

FORMATS = ("text", "json", "csv")

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text for reading; json (every table, with the run's settings) or csv (the main table) "
    "for scripts and notebooks.",
)


def _plain(value: Any) -> Any:
    """JSON-safe: numpy scalars as Python numbers, NaN and inf as null, tuples as lists."""
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def json_text(document: Any) -> str:
    return json.dumps(_plain(document), indent=2, ensure_ascii=False)


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if v is None else _plain(v) for v in row])
    return out.getvalue().rstrip("\n")


def records_csv(records: Sequence[Mapping[str, Any]]) -> str:
    header = list(records[0]) if records else []
    return csv_text(header, [[r.get(h) for h in header] for r in records])


def frame_records(frame) -> list[dict]:
    """A DataFrame's rows as JSON-ready dicts (the index is not kept)."""
    return [
        _plain(dict(zip(frame.columns, row, strict=True))) for row in frame.itertuples(index=False)
    ]


def rich_table(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    title: str | None = None,
    right: Sequence[int] = (),
    fill: Sequence[int] | None = None,
) -> str:
    """``cardsim.text.rich_table``: the table as text that fits the terminal."""
    from cardsim.text import rich_table as table

    return table(list(header), [list(r) for r in rows], title, right, fill)


def _width() -> int:
    from cardsim.text import terminal_width

    return terminal_width()


def echo_listing(
    fmt: str,
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    records: list[dict],
    footer: str = "",
    right: Sequence[int] = (),
    fill: Sequence[int] | None = None,
) -> None:
    """Print a listing (games, bots, rules, counters) in the chosen format."""
    if fmt == "json":
        click.echo(json_text({"table": records}))
    elif fmt == "csv":
        click.echo(records_csv(records))
    else:
        click.echo(rich_table(header, rows, right=right, fill=fill))
        if footer:
            import textwrap

            wrapped = textwrap.fill(
                footer, _width(), break_on_hyphens=False, break_long_words=False
            )
            click.echo("\n" + wrapped)
