"""Plain-text helpers shared by the commands."""

from __future__ import annotations

from typing import Any


def table(header: list[str], rows: list[list[str]], indent: str = "") -> str:
    """Left-aligned columns separated by three spaces."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [str(c).ljust(w) for c, w in zip(row, widths, strict=True)]
        lines.append(indent + "   ".join(cells).rstrip())
    return "\n".join(lines)


def show_value(value: Any) -> str:
    """A rule option value as a user would type it."""
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(map(str, value))
    return str(value)
