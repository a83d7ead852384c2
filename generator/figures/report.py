"""The item analysis's figures (attndrills analyse): bar charts laid out as
the weight bars are (bars._layout), with every marked bar hatched and
outlined, so the marks stay legible in greyscale print, and alt text from
the data."""

from __future__ import annotations

from . import palette as P
from ._canvas import FONT, Canvas, Figure
from .bars import _LINE, _layout


def bar_chart(kind: str, title: str, labels: list[str], values: list[float], shown: list[str],
              marked: set[int], alt: str) -> Figure:
    """One bar per label, heights `values` in [0, 1], `shown` printed on
    each; the bars of `marked` hatched."""
    d = {"labels": labels, "values": values, "shown": shown, "title": title}
    canvas, ax, lines, turn = _layout(d)
    canvas = _renamed(canvas, kind)
    for i, v in enumerate(values):
        left, right, base, peak = ax.x(i - 0.36), ax.x(i + 0.36), ax.y(0), ax.y(v)
        if i in marked:
            canvas.rect(left, peak, right - left, base - peak, canvas.hatch(P.VERMILLION, P.INK), P.INK, 1.4)
        else:
            canvas.rect(left, peak, right - left, base - peak, P.SKY, P.BLUE, 0.6)
    canvas.line([(ax.fx(0), ax.y(0)), (ax.fx(1), ax.y(0))], P.INK, 0.8)
    rotation = 90 if turn else 0
    for i, (v, s) in enumerate(zip(values, shown)):
        canvas.text(ax.x(i), ax.y(v) - 1.5, s, FONT, va="bottom", bold=i in marked, rotation=rotation)
    for i, label_lines in enumerate(lines):
        for j, line in enumerate(label_lines):
            canvas.text(ax.x(i), ax.y(0) + 3 + j * _LINE, line, FONT, va="top", rotation=rotation)
    canvas.text(ax.fx(0), 0.03 * canvas.height, title, FONT, ha="left", va="top")
    return canvas.finish(alt)


def _renamed(canvas: Canvas, kind: str) -> Canvas:
    """The layout's canvas under this figure's name (its file name and the
    ids of its patterns)."""
    canvas.kind = kind
    return canvas
