"""Plain text shared by the summaries, reports and commands: a rule value as a user types it,
and an aligned text table. No dependencies, so any layer may use it."""

from __future__ import annotations

from typing import Any


def show_value(value: Any, none: str = "auto") -> str:
    """A rule option value as a user would type it (``none``: how to show an unset value)."""
    if value is None:
        return none
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(show_value(v, none) for v in value)
    return str(value)


def text_table(
    header: list[str], rows: list[list[str]], left: int = 1, indent: str = "  "
) -> list[str]:
    """The lines of a table: the first ``left`` columns left-aligned, the others right-aligned,
    columns three spaces apart."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            str(c).ljust(w) if i < left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append(indent + "   ".join(cells).rstrip())
    return lines
