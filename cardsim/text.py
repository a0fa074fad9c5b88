"""Plain text shared by the summaries, reports and commands: a rule value as a user types it, an
aligned text table, a table laid out by rich to fit the terminal (``rich_table``) and paragraphs
wrapped to it (``wrap``). No dependencies but rich (imported when a table is drawn), so any layer
may use it."""

from __future__ import annotations

import math
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


def terminal_width() -> int:
    """Columns to fit: the terminal's (``COLUMNS`` when set), 80 when the output is not a
    terminal, never below 60."""
    import shutil

    return max(60, shutil.get_terminal_size((80, 24)).columns)


def wrap(text: str, width: int | None = None, indent: str = "") -> str:
    """A paragraph filled to the terminal's width (words are never broken)."""
    import textwrap

    return textwrap.fill(
        text,
        width or terminal_width(),
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    )


def rich_table(
    header: list[str],
    rows: list[list[Any]],
    title: str | None = None,
    right: Any = (),
    fill: Any = None,
    width: int | None = None,
    share: bool = True,
) -> str:
    """The table as text that fits the terminal (rich, ``width`` columns, default
    ``terminal_width``): columns in ``right`` right-aligned; the columns in ``fill`` (default:
    the last) wrap when the table is too wide (at words: each keeps its longest word whole, up
    to 16 characters), the others never wrap. ``share``: the ``fill`` columns share the width the
    others leave equally (a listing's long descriptions); otherwise every column takes the width
    of its content, and only a table too wide for the terminal wraps its ``fill`` columns."""
    cells = [["" if v is None else str(v) for v in row] for row in rows]
    width = width or terminal_width()
    if not share and title is None:
        plain = _plain_table(header, cells, right, width)
        if plain is not None:
            return plain
    import io

    from rich import box
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=title, box=box.SIMPLE_HEAD, show_edge=False, title_justify="left", pad_edge=False
    )
    fill = [len(header) - 1] if fill is None else list(fill)
    minimum = []  # a wrapping column keeps its longest word whole (up to 16 characters)
    for i, name in enumerate(header):
        words = [w for c in [name, *(r[i] for r in cells)] for w in c.split()]
        minimum.append(min(max(map(cell_len, words), default=1), 16) if i in fill else None)
    widths = [None] * len(header) if share else _fitted(header, cells, fill, minimum, width)
    for i, name in enumerate(header):
        table.add_column(
            name,
            justify="right" if i in right else "left",
            overflow="fold",
            no_wrap=i not in fill,
            ratio=1 if share and i in fill else None,
            min_width=minimum[i],
            width=widths[i],
        )
    for row in cells:
        table.add_row(*row)
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, emoji=False, markup=False)
    console.print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines())


def _plain_table(header: list[str], cells: list[list[str]], right: Any, width: int) -> str | None:
    """What rich draws for a ``rich_table`` with ``share=False`` and no title that fits ``width``
    as it is (every column as wide as its content, three spaces apart, a rule under the
    header), drawn without importing rich (~50 ms of a ``cardsim run``'s start-up, for its
    summary's few small tables); ``None`` when rich must lay it out (a table too wide, text
    that is not plain ASCII or starts or ends with a space, an empty column, no rows).
    ``tests/test_text.py`` checks it against rich."""
    texts = [header, *cells]
    if not cells or not all(
        c.isascii() and c.isprintable() and c == c.strip() for row in texts for c in row
    ):
        return None
    widths = [max(len(row[i]) for row in texts) for i in range(len(header))]
    total = sum(widths) + 3 * (len(header) - 1)
    if total > width or not all(widths):
        return None
    right = set(right)
    lines = [
        "   ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in texts
    ]
    lines.insert(1, "\u2500" * total)
    return "\n".join(lines)


def _fitted(header, cells, fill, minimum, width: int) -> list[int | None]:
    """Column widths that fit ``width``: every column as wide as its content, and, while the
    table is too wide, the widest column of ``fill`` one narrower (never below its ``minimum``).
    ``None`` everywhere when it fits as it is (rich lays it out)."""
    from rich.cells import cell_len

    natural = [
        max(cell_len(c) for c in [name, *(r[i] for r in cells)]) for i, name in enumerate(header)
    ]
    room = width - 3 * (len(header) - 1)  # a column, a space and a column between columns
    if sum(natural) <= room:
        return [None] * len(header)
    widths = list(natural)
    while sum(widths) > room:
        shrinkable = [i for i in fill if widths[i] > minimum[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


# -- number formats shared by every report and summary ---------------------------------------------


def percent(x: float, digits: int = 2) -> str:
    """``0.5712`` -> ``"57.12%"``; ``"n/a"`` for NaN."""
    return "n/a" if x is None or _isnan(x) else f"{100 * x:.{digits}f}%"


def points(x: float, digits: int = 2) -> str:
    """A difference of proportions in percentage points: ``0.0712`` -> ``"+7.12"``."""
    return "n/a" if x is None or _isnan(x) else f"{100 * x:+.{digits}f}"


def interval(lo: float, hi: float, fmt=percent) -> str:
    """``"[lo, hi]"`` in the given format; ``"n/a"`` if either end is NaN."""
    if lo is None or hi is None or _isnan(lo) or _isnan(hi):
        return "n/a"
    return f"[{fmt(lo)}, {fmt(hi)}]"


def number(x: float, digits: int = 2) -> str:
    """A plain number with thousands separators: whole numbers without decimals."""
    if x is None or _isnan(x):
        return "n/a"
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.{digits}f}"


def p_value(p: float) -> str:
    if p is None or _isnan(p):
        return "n/a"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _isnan(x) -> bool:
    try:
        return math.isnan(float(x))
    except (TypeError, ValueError):
        return False
