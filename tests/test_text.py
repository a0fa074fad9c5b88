"""Text tables: the plain drawing of a table that fits is exactly what rich draws for it."""

import itertools
import subprocess
import sys

import pytest

from cardsim import text

WORDS = ("", "a", "turns", "rounds (turns / 2)", "1st (starts)", "[56.98%, 57.18%]", "+7.08",
         "1,000,000", "n/a", "shared win (2+ winners)", "x y z", "a  b", "0.00%")  # fmt: skip


def drawn_by_rich(monkeypatch, header, rows, right, width):
    with monkeypatch.context() as patch:
        patch.setattr(text, "_plain_table", lambda *args: None)
        return text.rich_table(header, rows, right=right, fill=[0], width=width, share=False)


def tables():
    """Summary-like tables of 1-5 columns with every alignment, each at the width it needs
    exactly and one column narrower (where rich must wrap)."""
    for n_columns, n_rows in itertools.product(range(1, 6), (1, 3)):
        for offset in range(0, len(WORDS), 3):
            cells = [WORDS[(offset + i) % len(WORDS)] for i in range(n_columns * (n_rows + 1))]
            cells = [c or "-" if i % n_columns == n_columns - 1 else c for i, c in enumerate(cells)]
            header, *rows = [cells[r * n_columns : (r + 1) * n_columns] for r in range(n_rows + 1)]
            for right in (range(1, n_columns), range(n_columns), ()):
                needed = sum(
                    max(len(row[i]) for row in [header, *rows]) for i in range(n_columns)
                ) + 3 * (n_columns - 1)
                yield header, rows, right, needed
                yield header, rows, right, needed - 1


def test_a_plain_table_is_what_rich_draws(monkeypatch):
    plain = 0
    for header, rows, right, width in tables():
        drawn = text._plain_table(header, rows, right, width)
        if drawn is None:
            continue
        plain += 1
        assert drawn == drawn_by_rich(monkeypatch, header, rows, right, width), (header, rows)
    assert plain > 100


@pytest.mark.parametrize(
    "header, rows",
    [
        (["", "games"], [["  indented", "1"]]),
        (["bot", "wins"], [["vögel", "1"]]),
        (["", ""], [["", ""]]),
    ],
)
def test_rich_draws_what_the_plain_drawing_does_not_cover(monkeypatch, header, rows):
    assert text._plain_table(header, rows, [1], 80) is None
    assert text.rich_table(header, rows, right=[1], fill=[0], share=False, width=80) == (
        drawn_by_rich(monkeypatch, header, rows, [1], 80)
    )


def test_a_summary_that_fits_does_not_import_rich():
    code = (
        "import sys; from cardsim.text import rich_table; "
        "rich_table(['seat', 'wins'], [['seat 0', '1,000']], right=[1], fill=[0], share=False); "
        "sys.exit('rich' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
