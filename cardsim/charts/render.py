"""Figures made the same way everywhere: Agg canvas, one style, PNG and SVG bytes.

``figure()`` creates a figure on the Agg canvas directly (no pyplot, so no global figure
registry, no GUI backend, and nothing to leak between calls); ``render()`` gives it as PNG (for
screens and the self-contained HTML) and SVG (for print) and releases it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable

import numpy as np
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


# An axis of estimates spans at least this many of its widest 95% intervals: a difference
# smaller than the noise then fills a small part of the axis and looks like noise, not like an
# effect (a sweep's mean game length moving by 0.03 turns was drawn across the whole panel).
NOISE_SPANS = 4


def value_axis(
    lows: Iterable[float],
    highs: Iterable[float],
    include: Iterable[float] = (),
    min_span: float = 0.0,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> tuple[float, float]:
    """Axis limits holding every interval ``[low, high]`` and the values of ``include`` (a fair
    share, 0), at least ``min_span`` and ``NOISE_SPANS`` widest intervals wide (centred on what
    is shown), with a margin, inside ``bounds``. NaN ends are left out."""
    lows, highs = np.asarray(list(lows), float), np.asarray(list(highs), float)
    widths = (highs - lows)[np.isfinite(highs - lows)]
    ends = [x for x in (*lows, *highs, *include) if math.isfinite(x)]
    if not ends:
        return max(bounds[0], 0.0), min(bounds[1], 1.0)
    lo, hi = min(ends), max(ends)
    floor = max(min_span, NOISE_SPANS * float(widths.max()) if len(widths) else 0.0)
    if hi - lo < floor:
        mid = (lo + hi) / 2
        lo, hi = mid - floor / 2, mid + floor / 2
    margin = 0.06 * (hi - lo) if hi > lo else 1.0
    return max(bounds[0], lo - margin), min(bounds[1], hi + margin)


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
