"""Alignment heatmap: rows are output words, columns input words, the weight
printed in every cell, the aligned cells outlined and an arrow at the cell
the caption points out."""

from __future__ import annotations

from . import palette as P
from ._canvas import FONT, WIDTH, Axes, Canvas, Figure, text_box
from ._words import Words, english, say, title


def fig_heatmap(problem, solution, spec=None, words: Words | None = None) -> Figure:
    """`words`: ui.yaml's figures.heatmap (_words)."""
    spec = spec or next(f for f in solution.figures if f.kind == "heatmap")
    words = words or english("heatmap")
    d = spec.data
    values = d["values"]
    ny, nx = len(values), len(values[0])
    # the axes take (0.24, 0.06, 0.74, 0.70) of a figure W × H points, which
    # grows where the words would not fit it: on the left for long output
    # words, at the top and the right for long input words (turned, they
    # rise toward the title and reach past the last column)
    boxes = [text_box(word, FONT) for word in d["cols"]]  # (width, ascent, descent)
    inches = _width(nx, ny, d["shown"]), 0.9 + 0.5 * ny
    W, H = 72 * inches[0], 72 * inches[1]
    cell_w, cell_h = 0.74 * W / nx, 0.70 * H / ny
    # the input words turned only where one is wider than its column (a lone
    # "I" turned reads as a backslash)
    turn = 30 if any(w > 0.95 * cell_w for w, _, _ in boxes) else 0
    cos, sin = (0.866, 0.5) if turn else (1, 0)
    rise = max(w * sin + (a + dd) * cos for w, a, dd in boxes)
    last, a, dd = boxes[-1]
    left = max(0.0, 2 + max(text_box(word, FONT)[0] for word in d["rows"]) - (0.24 * W - 0.1 * cell_w))
    top = max(0.0, (13.5 + 0.12 * cell_h + rise - 0.21 * H) / 0.97)  # clear of the title by 3 pt
    right = max(0.0, (last * cos + (a + dd) * sin) / 2 + 2 - 0.02 * W - cell_w / 2)
    canvas = Canvas("heatmap", inches[0] + (left + right) / 72, inches[1] + top / 72)
    wide, tall = W / canvas.width, H / canvas.height  # exactly 1 where nothing grew
    ax = Axes(canvas, (0.24 * wide + left / canvas.width, 0.06 * tall, 0.74 * wide, 0.70 * tall),
              (-0.5, nx - 0.5), (ny - 0.5, -0.5))
    width, height = ax.x(1) - ax.x(0), ax.y(1) - ax.y(0)
    canvas.group(canvas.clip(ax))
    for r in range(ny):
        for c in range(nx):
            # one vector cell per weight: sharp in print, no embedded bitmap
            canvas.rect(ax.x(c - 0.5), ax.y(r - 0.5), width, height, P.blues(values[r][c]))
    for r, c in d["marked"]:  # inside the cell by half the line: at the edge rows and columns the clip cut it
        canvas.rect(ax.x(c - 0.5) + 1.1, ax.y(r - 0.5) + 1.1, width - 2.2, height - 2.2, "none", P.VERMILLION, 2.2)
    canvas.end_group()
    for r in range(ny):
        canvas.text(ax.x(-0.6), ax.y(r), d["rows"][r], FONT, ha="right")
    for r in range(ny):
        for c in range(nx):
            canvas.text(ax.x(c), ax.y(r), d["shown"][r][c], FONT, fill="#ffffff" if values[r][c] > 0.55 else P.INK)
    for c in range(nx):
        canvas.text(ax.x(c), ax.y(-0.62), d["cols"][c], FONT, va="bottom", rotation=turn)
    if d["darkest"]:  # the cell the caption points out (an idealised heatmap has none)
        r, c = d["darkest"]
        canvas.arrow(*_arrow(ax, r, c), P.VERMILLION, 1.6, FONT)
    canvas.text(0.02 * canvas.width, 0.03 * canvas.height,
                title(d, words, "figures.heatmap.title"), FONT, ha="left", va="top")
    return canvas.finish(alt_text(d, words))


def _arrow(ax: Axes, r: int, c: int) -> tuple[tuple, tuple]:
    """(start, end) of the arrow at cell (r, c): in the next cell of its row
    (the named cell lies left of an earlier row's dark cell, so never in the
    last column), level with the row's upper part, pointing at the cell's
    right edge.  A row outlines only its own aligned cell and prints its
    numbers at mid-height, so the arrow crosses neither an outline nor a
    number."""
    left, right = sorted((ax.x(c - 0.5), ax.x(c + 0.5)))
    y = ax.y(r) - 0.28 * abs(ax.y(r + 0.5) - ax.y(r - 0.5))
    return (right + 1.5 + min(16.0, 0.4 * (right - left)), y), (right + 1.5, y)


def _width(nx: int, ny: int, shown) -> float:
    """The figure's width in inches: WIDTH, as every figure, so that a phone
    shows its numbers at 9 pt nearly unscaled.  More input words make
    narrower cells, not a wider figure, and words wider than their column
    are turned (fig_heatmap); it grows only where a cell would be too narrow
    for its number (six words or more, typed), and it is never narrower than
    tall (the PDF layout counts on that)."""
    numbers = nx * (max(text_box(s, FONT)[0] for row in shown for s in row) + 6)
    return max(WIDTH, numbers / 72 / 0.74, 0.9 + 0.5 * ny)  # the axes take 0.74 of the width


def alt_text(d: dict, words: Words | None = None) -> str:
    words = words or english("heatmap")
    rows = "; ".join(
        say(words, "figures.heatmap.alt_row", word=w,
            cells=", ".join(say(words, "figures.heatmap.alt_cell", word=c, value=s)
                            for c, s in zip(d["cols"], d["shown"][r])))
        for r, w in enumerate(d["rows"]))
    marked = ", ".join(say(words, "figures.heatmap.alt_pair", row=d["rows"][r], col=d["cols"][c])
                       for r, c in d["marked"])
    return say(words, "figures.heatmap.alt", rows=rows, marked=marked)
