"""Shared drawing plumbing: deterministic SVG settings, no pyplot, and
Figure objects reused between drawings (creating one costs more than the
drawing itself)."""

from __future__ import annotations

import hashlib
import io
from contextlib import contextmanager
from dataclasses import dataclass

import matplotlib

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure

# Deterministic SVG: fixed hash salt for element ids, no date, text kept as
# <text> (searchable, small, and the same on every machine).
RC = {
    "svg.hashsalt": "attention-drills",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "path.simplify": False,
    "hatch.linewidth": 0.8,
}
METADATA = {"Date": None, "Creator": "Attention Drills"}


@dataclass(frozen=True)
class Figure:
    """What a figure function returns: the file's bytes, its name and alt text."""

    data: bytes
    filename: str
    alt: str


@contextmanager
def style():
    """The project's matplotlib settings, for one drawing only (no global state)."""
    with matplotlib.rc_context(RC):
        yield


def new_figure(width: float, height: float) -> MplFigure:
    fig = MplFigure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)  # Agg for PNG; SVG output picks its own canvas in savefig
    return fig


_REUSED: dict[str, tuple] = {}


def reused(kind: str, width: float, height: float, rect: tuple, axis: bool):
    """One Figure and Axes per figure kind, reused: building axes costs more than
    drawing into them.  Every artist the previous drawing added is removed, the
    size, limits, scales, ticks and texts are reset, so output never depends on
    what was drawn before (the determinism tests check it)."""
    if kind not in _REUSED:
        fig = new_figure(width, height)
        ax = fig.add_axes(rect)
        _REUSED[kind] = (fig, ax)
    fig, ax = _REUSED[kind]
    for artist in (*ax.lines, *ax.patches, *ax.texts, *ax.images, *ax.collections, *fig.texts):
        artist.remove()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    fig.set_size_inches(width, height)
    ax.set_position(rect)
    ax.set_xscale("linear")
    ax.set_yscale("linear")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.grid(False)
    ax.set_axis_on() if axis else ax.set_axis_off()
    return fig, ax


def render(fig: MplFigure, fmt: str = "svg") -> bytes:
    """SVG (or PNG, for image comparison) bytes of a figure."""
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format=fmt, metadata=METADATA if fmt == "svg" else {"Software": None})
    return buf.getvalue()


def finish(kind: str, fig: MplFigure, alt: str, fmt: str) -> Figure:
    data = render(fig, fmt)
    digest = hashlib.sha256(data).hexdigest()[:12]
    return Figure(data, f"{kind}-{digest}.{fmt}", alt)
