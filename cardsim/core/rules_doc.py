"""Tables of a rules reference (``docs/rules/GAME.md``) read as data, so that tests and reference
implementations take the rulebook's values from the document itself rather than from a copy.

- ``doc_path(ruleset)``: the ruleset's rules document in the source tree;
- ``table(text, heading)``: the first Markdown table under a heading, as one dict per row keyed by
  the header cells (rows added later are read too; columns are found by name, not position);
- ``parameter_cells(ruleset)``: ``{parameter name: its Default cell}`` of the Parameters table;
- ``literal(cell)``: the value a Default cell states when it is a literal (``18 [R]``, ```2014```,
  ``false``, ``[2, 2, 2] on positions 1–3``), or ``None`` when it is prose.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from cardsim.core.errors import CardsimError

_ROOT = Path(__file__).resolve().parents[2]  # the source tree holding cardsim/ and docs/
_TAG = re.compile(r"\s*\[(?:R|S|A)\](?:\s*name\s*/\s*\[S\]\s*text)?")  # source tags, [R] ...
_NOTE = re.compile(r"\s*\([^)]*\)")  # "(3 in V3)", "(Treasure Hunt)"


def doc_path(ruleset) -> Path:
    """The rules document of ``ruleset`` (a registry entry with ``rules_doc``); a one-line
    ``CardsimError`` when it is not there (cardsim installed without its source tree)."""
    path = _ROOT / ruleset.rules_doc
    if not path.is_file():
        raise CardsimError(
            f"{ruleset.rules_doc} not found under {_ROOT}: run from a source checkout"
        )
    return path


@cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(text: str, heading: str) -> list[dict[str, str]]:
    """Rows of the first table under the Markdown heading ``heading`` (any level), each a dict
    keyed by the header's cells."""
    lines = text.splitlines()
    start = next(
        (
            i
            for i, line in enumerate(lines)
            if line.lstrip("#").strip() == heading and line[0] == "#"
        ),
        None,
    )
    if start is None:
        raise CardsimError(f"no heading {heading!r} in the rules document")
    i = start + 1
    while i < len(lines) and not lines[i].startswith("|"):
        if lines[i].startswith("#"):
            raise CardsimError(f"no table under {heading!r} in the rules document")
        i += 1
    header = _cells(lines[i])
    rows = []
    for line in lines[i + 2 :]:  # past the |---| line
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, _cells(line), strict=False)))
    return rows


def parameter_cells(ruleset) -> dict[str, str]:
    """``{name: Default cell}`` of the rules document's Parameters table (names unquoted)."""
    rows = table(_text(doc_path(ruleset)), "Parameters")
    return {row["Parameter"].strip("`"): row["Default"] for row in rows}


def bare(cell: str) -> str:
    """The cell without source tags and parenthetical notes: ``6 [R] (Treasure Hunt)`` -> ``6``."""
    return _NOTE.sub("", _TAG.sub("", cell)).strip()


def literal(cell: str):
    """The value a Default cell states, or ``None`` when it is prose: an integer, ``true`` or
    ``false``, a back-quoted word, a bracketed list of integers (as a tuple) or a braced
    ``{key: count}`` (as a dict)."""
    text = bare(cell)
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"`[^`]+`", text):
        return text.strip("`")
    if m := re.match(r"(\[[\d,\s]*\]|\{[\d:,\s]*\})", text):
        value = ast.literal_eval(m.group(1))
        return tuple(value) if isinstance(value, list) else value
    return None


def tile_numbers(ruleset) -> list[int]:
    """The T-numbers of the tile table (Piña Pirata: ``### The 40 Adventure tiles``), in order."""
    rows = table(_text(doc_path(ruleset)), "The 40 Adventure tiles")
    return [int(row["#"].lstrip("T")) for row in rows]
