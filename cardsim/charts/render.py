"""Figures made the same way everywhere: Agg canvas, one style, a caption, PNG and SVG bytes.

``figure()`` creates a figure on the Agg canvas directly (no pyplot, so no global figure
registry, no GUI backend, and nothing to leak between calls); ``render()`` gives it as PNG (for
screens and the self-contained HTML) and SVG (for print) and releases it.
"""

from __future__ import annotations

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 110
FAIR_COLOR = "#c0392b"
BAR_COLOR = "#3b78b5"
STYLE = {
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}


def figure(width: float = 7.5, height: float = 4.2) -> Figure:
    """A new figure on an Agg canvas, in the house style."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def styled(fn):
    """Run a chart function under the house style (rcParams apply while artists are created)."""

    def wrapper(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)

    wrapper.__name__, wrapper.__doc__, wrapper.__wrapped__ = fn.__name__, fn.__doc__, fn
    return wrapper


def caption(fig: Figure, text: str) -> None:
    """Small grey text under the plot: what it shows and what was run (games, players, seed),
    wrapped to the figure's width."""
    import textwrap

    if text:
        width = int(fig.get_figwidth() * 16)  # characters of 8-point text per line
        fig.supxlabel(textwrap.fill(text, width), fontsize=8, color="#555555")


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes (the figure is released)."""
    return render(fig)[0]


def render(fig: Figure) -> tuple[bytes, bytes]:
    """The figure as PNG and as SVG bytes (the figure is released). The SVG keeps its text as
    text and carries no date, so the same figure gives the same file."""
    import matplotlib

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    vector = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "cardsim"}):
        fig.savefig(vector, format="svg", metadata={"Date": None})
    fig.clear()
    return buf.getvalue(), vector.getvalue()


def run_caption(games: int, seed: int, players: int | None = None, extra: str = "") -> str:
    """``"100,000 games, 2 players, seed 0"`` (+ extra)."""
    parts = [f"{games:,} games"]
    if players is not None:
        parts.append(f"{players} players")
    parts.append(f"seed {seed}")
    text = ", ".join(parts)
    return f"{text}; {extra}" if extra else text
