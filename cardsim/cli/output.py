"""How a command prints what it found: ``--format text`` for people, ``json`` and ``csv`` for
scripts and notebooks.

- ``text``: tables laid out by rich to fit the terminal (long cells wrap inside their column;
  80 columns when the output is not a terminal);
- ``json``: one JSON document on stdout, the same envelope for every command (``document``): a
  top-level ``schema`` key naming the document and its version (``"cardsim.run/1"``), then the
  command's own keys: snake_case names, rates as fractions of 1 (a key ending ``_points`` says
  otherwise), numbers as numbers, NaN as null. Each document has a JSON Schema in the package
  (``cardsim/schemas/<command>.schema.json``, ``schema_path``); ``docs/json.md`` describes them;
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

# The version of each command's JSON document: raise it when a key is renamed, removed or changes
# meaning (adding a key is not a new version), together with the ``const`` of the ``schema``
# property in ``cardsim/schemas/<command>.schema.json``. A new command adds its line here and its
# schema file there (docs/json.md, "Adding a command"); tests/test_json_schema.py checks both.
SCHEMA_VERSIONS = {
    "games": 1,
    "bots": 1,
    "rules": 1,
    "counters": 1,
    "cache": 1,
    "run": 1,
    "replay": 1,
    "report": 1,
    "compare": 1,
    "ladder": 1,
    "power": 1,
    "sweep": 1,
    "diff": 1,
    "tune": 1,
    "screen": 1,
}

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


# ``replay`` and ``report`` print no table a spreadsheet could take: text or json only
text_json_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(("text", "json")),
    default="text",
    show_default=True,
    help="text for reading; json for scripts and notebooks (docs/json.md).",
)


def schema_name(command: str) -> str:
    """``"cardsim.run/1"``: the value of the ``schema`` key of ``command``'s JSON document."""
    return f"cardsim.{command}/{SCHEMA_VERSIONS[command]}"


def document(command: str, body: Mapping[str, Any]) -> dict:
    """``command``'s JSON document: the ``schema`` key first, then ``body``'s keys."""
    if "schema" in body:
        raise ValueError("a document's body cannot set its own 'schema' key")
    return {"schema": schema_name(command), **body}


def echo_json(command: str, body: Mapping[str, Any]) -> None:
    """Print ``command``'s JSON document (``document``) on stdout."""
    click.echo(json_text(document(command, body)))


def schema_path(command: str):
    """The JSON Schema of ``command``'s document, shipped in the package (a ``Traversable``:
    ``.read_text()``; ``json.loads`` it for ``jsonschema``)."""
    from importlib.resources import files

    return files("cardsim.schemas") / f"{command}.schema.json"


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
    command: str = "",
    key: str = "",
    context: Mapping[str, Any] | None = None,
) -> None:
    """Print a listing (games, bots, rules, counters) in the chosen format. JSON: ``command``'s
    document, ``context``'s keys (the game listed) then the records under ``key``."""
    if fmt == "json":
        echo_json(command, {**(context or {}), key: records})
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
