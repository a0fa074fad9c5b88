"""Reports: sections of tables, figures and plain-words verdicts, written as one self-contained HTML
page and a markdown summary with the same tables.

The building blocks are generic, so every report (one run, a sweep, a diff, a comparison) is made
the same way::

    report = Report("Fruit Picking, 2 players", metadata)
    section = report.add(Section("Seat advantage", text=["..."]))
    section.tables.append(Table("Win rate by turn order", frame))
    section.figures.append(Figure("Win rate by turn order", png_bytes, caption="..."))
    section.verdicts.append("the first player wins 7.1 ± 0.1 points more often than fair")
    html_path, md_path = report.write("out/")

``write`` puts ``report.html`` (figures embedded as base64 PNG: it opens from disk with no
network), ``report.md`` and the figures as ``figures/*.png`` (for the markdown) and
``figures/*.svg`` (for print) in the directory.
Every text is escaped in the HTML (jinja2 autoescape) and in the markdown (``<``, ``>``, ``&``
as entities, ``|`` in cells), since bot names come from user files. Files are written atomically
(a temporary file, then a rename).

``balance_report(results)`` (``cardsim.analysis.reports.balance``) builds the standard report of a run.
"""

from __future__ import annotations

import base64
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import pandas as pd

from cardsim.core.errors import CardsimError

HTML_NAME = "report.html"
MD_NAME = "report.md"
FIGURES_DIR = "figures"


# -- building blocks ------------------------------------------------------------------------------


@dataclass
class Table:
    """A titled table; cells are shown as given (format numbers first: see ``percent`` etc.),
    floats left as numbers are shown with 4 significant digits. The index is not shown.
    ``folded``: shown closed (``<details>``), for reference tables a reader opens on demand."""

    title: str
    frame: pd.DataFrame
    note: str = ""
    folded: bool = False

    def cells(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows as text."""
        header = [str(c) for c in self.frame.columns]
        rows = [[_cell(v) for v in row] for row in self.frame.itertuples(index=False)]
        return header, rows

    def numeric(self) -> list[bool]:
        """Per column, whether every cell reads as a number (right-aligned); text columns (names,
        labels, rule values such as ``2,2,2`` or ``tiebreak``) are left-aligned."""
        _, rows = self.cells()
        columns = list(zip(*rows, strict=True)) if rows else [[] for _ in self.frame.columns]
        return [
            any(c.strip() for c in column) and all(_reads_as_number(c) for c in column)
            for column in columns
        ]


@dataclass
class Figure:
    """A rendered chart: PNG bytes, a title, a caption (what the chart shows, and what was run:
    games, seed) and the same chart as SVG for print (empty if not rendered)."""

    title: str
    png: bytes
    caption: str = ""
    svg: bytes = b""

    @property
    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def render_figure(title: str, fig, caption: str) -> Figure:
    """A matplotlib figure as a report ``Figure`` (PNG and SVG bytes)."""
    from cardsim.charts.render import render

    png, svg = render(fig)
    return Figure(title, png, caption, svg)


@dataclass
class Section:
    """A heading with paragraphs, verdict lines (plain-words conclusions), tables and figures."""

    heading: str
    text: list[str] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)


@dataclass
class Report:
    """A titled list of sections, with the metadata of the run(s) it describes."""

    title: str
    metadata: dict = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)
    subtitle: str = ""

    def add(self, section: Section) -> Section:
        self.sections.append(section)
        return section

    def section(self, heading: str) -> Section:
        """The section called ``heading`` (KeyError if there is none)."""
        for s in self.sections:
            if s.heading == heading:
                return s
        raise KeyError(heading)

    def to_html(self) -> str:
        return _TEMPLATE.render(report=self, slug=_slug)

    def to_markdown(self, figure_paths: dict[int, str] | None = None) -> str:
        return _markdown(self, figure_paths or {})

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        """Write ``report.html``, ``report.md`` and ``figures/*.png`` into ``out_dir`` (created if
        missing); returns the HTML and markdown paths."""
        out = prepare_dir(Path(out_dir))
        figure_paths: dict[int, str] = {}
        figures = [f for s in self.sections for f in s.figures]
        if figures:
            (out / FIGURES_DIR).mkdir(exist_ok=True)
        for i, fig in enumerate(figures):
            name = f"{FIGURES_DIR}/{i + 1:02d}-{_slug(fig.title)}"
            _write_atomic(out / f"{name}.png", fig.png)
            if fig.svg:  # the same chart for print
                _write_atomic(out / f"{name}.svg", fig.svg)
            figure_paths[id(fig)] = f"{name}.png"
        html_path, md_path = out / HTML_NAME, out / MD_NAME
        _write_atomic(html_path, self.to_html().encode("utf-8"))
        _write_atomic(md_path, self.to_markdown(figure_paths).encode("utf-8"))
        return html_path, md_path


# a number as the formats of ``cardsim.text`` write it: a sign, digits with thousands separators, decimals, a
# unit (%, x, s), an interval "[lo, hi]", "< 0.0001", "± 0.6"; "n/a" and blanks go with them
_NUMBER = r"[<>≤≥~x×]?\s*[+\-−]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?(e[+\-]?\d+)?\s*(%|x|s|k|M)?"
_NUMERIC = re.compile(
    rf"({_NUMBER}(\s*±\s*{_NUMBER})?|\[{_NUMBER},\s*{_NUMBER}\]|{_NUMBER}\s*\[{_NUMBER},\s*{_NUMBER}\]"
    r"|n/a|)"
)


def _reads_as_number(text: str) -> bool:
    return _NUMERIC.fullmatch(text.strip()) is not None


def _cell(value) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:,.4g}"
    return str(value)


# -- writing -------------------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "section"


def prepare_dir(out: str | Path) -> Path:
    """Create the report directory ``out`` if missing (one-line error if it cannot be)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise CardsimError(f"report directory {str(out)!r} is a file")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CardsimError(f"cannot create report directory {str(out)!r}: {exc.strerror}") from None
    return out


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CardsimError(f"cannot write {str(path)!r}: {exc.strerror}") from None


_MD_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def _md(text: str) -> str:
    """Markdown text with the characters that start HTML (tags, entities) as entities: bot names
    are user input. ``>`` alone starts nothing inside a line, so "a -> b" stays readable."""
    return re.sub(r"[&<]", lambda m: _MD_ESCAPES[m.group()], str(text))


def _md_cell(text: str) -> str:
    return _md(text).replace("|", "\\|").replace("\n", " ")


def _md_table(table: Table) -> list[str]:
    header, rows = table.cells()
    align = ["---:" if numeric else "---" for numeric in table.numeric()]
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |"]
    lines.append("| " + " | ".join(align) + " |")
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return lines


def _md_section(section: Section, figure_paths: dict[int, str]) -> list[str]:
    """A section in reading order: text, verdicts, charts, then tables (folded ones closed)."""
    lines = [f"## {_md(section.heading)}", ""]
    for paragraph in section.text:
        lines += [_md(paragraph), ""]
    for verdict in section.verdicts:
        lines.append(f"- **{_md(verdict)}**")
    if section.verdicts:
        lines.append("")
    for fig in section.figures:
        if id(fig) in figure_paths:
            path = figure_paths[id(fig)]
            lines += [f"![{_md(fig.title)}]({path})", ""]
            svg = f" ([SVG]({path.removesuffix('.png')}.svg))" if fig.svg else ""
            if fig.caption or svg:
                lines += [f"*{_md(fig.caption)}*{svg}", ""]
    for table in section.tables:
        if table.folded:
            lines += ["<details>", f"<summary><b>{_md(table.title)}</b></summary>", ""]
        else:
            lines += [f"**{_md(table.title)}**", ""]
        lines += _md_table(table)
        lines.append("")
        if table.note:
            lines += [f"*{_md(table.note)}*", ""]
        if table.folded:
            lines += ["</details>", ""]
    return lines


def _markdown(report: Report, figure_paths: dict[int, str]) -> str:
    lines = [f"# {_md(report.title)}", ""]
    if report.subtitle:
        lines += [_md(report.subtitle), ""]
    for section in report.sections:
        lines += _md_section(section, figure_paths)
    return "\n".join(lines).rstrip() + "\n"


_TEMPLATE = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined).from_string(
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ report.title }}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
.subtitle { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5em 0 1.2em; font-size: 0.92em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; }
th { background: #f4f4f4; }
th, td { text-align: left; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; }
details { margin: 0.5em 0 1.2em; }
summary { font-weight: 600; cursor: pointer; }
ul.verdicts { background: #f3f7fb; border-left: 4px solid #3b78b5; padding: 0.6em 1.2em 0.6em 2em; }
ul.verdicts li { margin: 0.2em 0; }
figure { margin: 1em 0 1.5em; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9em; }
.note { color: #555; font-size: 0.9em; margin-top: -0.8em; }
nav ul { columns: 2; }
</style>
</head>
<body>
<h1>{{ report.title }}</h1>
{% if report.subtitle %}<p class="subtitle">{{ report.subtitle }}</p>{% endif %}
<nav><ul>
{% for section in report.sections %}<li><a href="#{{ slug(section.heading) }}">{{ section.heading }}</a></li>
{% endfor %}</ul></nav>
{% for section in report.sections %}
<section id="{{ slug(section.heading) }}">
<h2>{{ section.heading }}</h2>
{% for paragraph in section.text %}<p>{{ paragraph }}</p>
{% endfor %}
{% if section.verdicts %}<ul class="verdicts">
{% for verdict in section.verdicts %}<li>{{ verdict }}</li>
{% endfor %}</ul>{% endif %}
{% for fig in section.figures %}
<figure>
<img src="{{ fig.data_uri }}" alt="{{ fig.title }}">
<figcaption>{{ fig.caption }}</figcaption>
</figure>
{% endfor %}
{% for table in section.tables %}{% set cells = table.cells() %}{% set numeric = table.numeric() %}
{% if table.folded %}<details>
<summary>{{ table.title }}</summary>{% endif %}
<table>
{% if not table.folded %}<caption>{{ table.title }}</caption>{% endif %}
<thead><tr>{% for h in cells[0] %}<th{% if numeric[loop.index0] %} class="num"{% endif %}>{{ h }}</th>{% endfor %}</tr></thead>
<tbody>
{% for row in cells[1] %}<tr>{% for c in row %}<td{% if numeric[loop.index0] %} class="num"{% endif %}>{{ c }}</td>{% endfor %}</tr>
{% endfor %}</tbody>
</table>
{% if table.note %}<p class="note">{{ table.note }}</p>{% endif %}
{% if table.folded %}</details>{% endif %}
{% endfor %}
</section>
{% endfor %}
</body>
</html>
"""
)
