"""Shared drawing plumbing: SVG written directly, as plain strings.

A figure is a handful of rectangles, lines and labels at fixed places, so
it is built here without a plotting library (importing matplotlib costs half
a second a process, and its layout and drawing about 5 ms a figure).  The
geometry is matplotlib's, as the figures were first drawn with it: an axes
box given as fractions of the figure, data limits mapped linearly into it,
72 points to the inch, text laid out in DejaVu Sans with the font's own
ascent and descent.  Text stays <text> (searchable, small, the same on every
machine), coordinates are printed to 1/100 pt, and nothing depends on the
time or the machine: the same data give the same bytes."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from ._font import FAMILY, ascent_descent, text_width
from .palette import INK


# Every figure is drawn WIDTH inches wide (252 pt, 336 CSS px at its natural
# size) with all its text at FONT points: a 390 px phone's column of 332 px
# shows it nearly unscaled, its text at 11.6 CSS px or more (issue 33.2); a
# desktop page shows it at its natural size (text at 12 px), and print at its
# own size (setup.typ.j2).  Only typed inputs wider than the bank's grow a
# figure past WIDTH (a heatmap of six input words or more).
WIDTH = 3.5
FONT = 9.0


@dataclass(frozen=True)
class Figure:
    """What a figure function returns: the file's bytes, its name and alt text."""

    data: bytes
    filename: str
    alt: str


def num(value: float) -> str:
    """A coordinate to 1/100 pt, without trailing zeros ("12.5", "3", "-0.25")."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def minus(number: str) -> str:
    """A printed number as a figure shows it: with a true minus sign, as the
    axis ticks and the typeset text have it, not a hyphen."""
    return number.replace("-", "\u2212")


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Axes:
    """Data coordinates → SVG points, for an axes box at `rect` (left, bottom,
    width, height as fractions of the figure, matplotlib's convention) showing
    `xlim` × `ylim` (either may run backwards, to flip an axis)."""

    def __init__(self, canvas: "Canvas", rect: tuple, xlim: tuple, ylim: tuple, xlog: bool = False):
        left, bottom, width, height = rect
        self.left, self.right = left * canvas.width, (left + width) * canvas.width
        self.bottom, self.top = (1 - bottom) * canvas.height, (1 - bottom - height) * canvas.height
        self.xlog = xlog
        self.x0, self.x1 = (math.log10(v) for v in xlim) if xlog else xlim
        self.y0, self.y1 = ylim

    def x(self, value: float) -> float:
        if self.xlog:
            value = math.log10(value)
        return self.left + (value - self.x0) / (self.x1 - self.x0) * (self.right - self.left)

    def y(self, value: float) -> float:
        return self.bottom - (value - self.y0) / (self.y1 - self.y0) * (self.bottom - self.top)

    def fx(self, fraction: float) -> float:
        """x of a fraction of the axes' width (0 = left edge)."""
        return self.left + fraction * (self.right - self.left)

    def fy(self, fraction: float) -> float:
        """y of a fraction of the axes' height (0 = bottom edge)."""
        return self.bottom - fraction * (self.bottom - self.top)


def text_box(s: str, size: float, bold: bool = False) -> tuple[float, float, float]:
    """(width, ascent, descent) of one line of text in points."""
    ascent, descent = ascent_descent(size, bold)
    return text_width(s, size, bold), ascent, descent


def wrap(s: str, size: float, room: float) -> list[str]:
    """A label as one line, or where it is wider than `room` points, as two:
    broken at its first space whose rest fits ("h₁ (e = −0.5)" → "h₁",
    "(e = −0.5)": the name, then what is said of it), else at the space that
    leaves the wider line narrowest; a label without a space stays whole."""
    if text_width(s, size) <= room or " " not in s:
        return [s]
    cuts = [k for k, c in enumerate(s) if c == " "]
    k = next((k for k in cuts if text_width(s[k + 1:], size) <= room),
             min(cuts, key=lambda k: max(text_width(s[:k], size), text_width(s[k + 1:], size))))
    return [s[:k], s[k + 1:]]


def overlap(a: tuple, b: tuple) -> float:
    """The area two boxes (left, top, right, bottom) share (no max() or min():
    a figure asks this some thousand times)."""
    w = (a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])
    if w <= 0:
        return 0.0
    h = (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1])
    return w * h if h > 0 else 0.0


def distance(box: tuple, point: tuple) -> float:
    """From a point to the nearest point of a box (left, top, right, bottom)."""
    x, y = point
    dx = box[0] - x if x < box[0] else x - box[2] if x > box[2] else 0.0
    dy = box[1] - y if y < box[1] else y - box[3] if y > box[3] else 0.0
    return math.hypot(dx, dy)


class Canvas:
    """One SVG drawing `width` × `height` inches; elements are drawn in the
    order they are added (later ones on top)."""

    def __init__(self, kind: str, width: float, height: float):
        self.kind = kind
        self.width, self.height = width * 72, height * 72
        self.parts: list[str] = []
        self.defs: dict[str, str] = {}

    # -- shapes ---------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = None,
             stroke_width: float = 1.0, opacity: float | None = None) -> None:
        """A rectangle from its corners in points, either way round; miter joins."""
        x, w = (x + w, -w) if w < 0 else (x, w)
        y, h = (y + h, -h) if h < 0 else (y, h)
        self.parts.append(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"'
                          f'{_paint(fill, stroke, stroke_width, opacity)}/>')

    def line(self, points, stroke: str, stroke_width: float, dash: str | None = None, cap: str = "butt",
             join: str = "round") -> None:
        d = " ".join(f"{num(x)} {num(y)}" for x, y in points)
        self.parts.append(f'<polyline points="{d}" fill="none"{_paint(None, stroke, stroke_width)}'
                          f'{_cap(cap)}{_join(join)}' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")

    def polygon(self, points, fill: str, stroke: str | None = None, stroke_width: float = 1.0,
                opacity: float | None = None, join: str = "miter") -> None:
        d = " ".join(f"{num(x)} {num(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{d}"{_paint(fill, stroke, stroke_width, opacity)}{_join(join)}/>')

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str | None = None,
               stroke_width: float = 1.0) -> None:
        self.parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}"{_paint(fill, stroke, stroke_width)}/>')

    def arrow(self, start: tuple, end: tuple, colour: str, line_width: float, scale: float) -> None:
        """matplotlib's "-|>" arrow: a shaft and a filled head whose stroked tip
        ends at `end`; `scale` is its mutation scale (the label's font size)."""
        (x0, y0), (x1, y1) = start, end
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            return
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head_length, head_width = 0.4 * scale, 0.2 * scale
        # the head is stroked too: pull its tip back so the stroke ends where the arrow points
        pad = 0.5 * line_width / (head_width / math.hypot(head_length, head_width))
        tx, ty = x1 - pad * ux, y1 - pad * uy
        bx, by = tx - head_length * ux, ty - head_length * uy
        self.line([(x0, y0), (tx, ty)], colour, line_width, cap="round")
        self.polygon([(bx - head_width * uy, by + head_width * ux), (tx, ty),
                      (bx + head_width * uy, by - head_width * ux)], colour, colour, line_width, join="round")

    def hatch(self, fill: str, ink: str) -> str:
        """Paint for a fill hatched with "////" (matplotlib's pattern: a line every 3 pt)."""
        key = f"{self.kind}-hatch"
        if key not in self.defs:
            lines = " ".join(f"M{3 * j - 36} {36 + 3 * j}L{36 + 3 * j} {3 * j - 36}" for j in range(25))
            self.defs[key] = (f'<pattern id="{key}" patternUnits="userSpaceOnUse" x="0" y="0" width="72" height="72">'
                              f'<rect width="73" height="73" fill="{fill}"/>'
                              f'<path d="{lines}" fill="none" stroke="{ink}" stroke-width="0.8"/></pattern>')
        return f"url(#{key})"

    def clip(self, axes: Axes) -> str:
        """A clip-path attribute that keeps drawing inside the axes box."""
        key = f"{self.kind}-axes"
        self.defs[key] = (f'<clipPath id="{key}"><rect x="{num(axes.left)}" y="{num(axes.top)}" '
                          f'width="{num(axes.right - axes.left)}" height="{num(axes.bottom - axes.top)}"/></clipPath>')
        return f' clip-path="url(#{key})"'

    def group(self, attributes: str) -> None:
        self.parts.append(f"<g{attributes}>")

    def end_group(self) -> None:
        self.parts.append("</g>")

    # -- text -----------------------------------------------------------------
    def text(self, x: float, y: float, s: str, size: float = 9, ha: str = "center", va: str = "center",
             fill: str = INK, bold: bool = False, rotation: float = 0) -> None:
        """One line of text anchored at (x, y) in points, aligned as matplotlib
        aligns it: `va` against the font's ascent and descent, and for rotated
        text `ha`/`va` against the rotated box."""
        ascent, descent = ascent_descent(size, bold)
        style = f' font-size="{num(size)}"' + (' font-weight="bold"' if bold else "") + (
            f' fill="{fill}"' if fill != INK else "")
        if rotation == 0:
            baseline = {"top": y + ascent, "bottom": y - descent, "center": y + (ascent - descent) / 2,
                        "baseline": y}[va]
            anchor = {"left": "", "center": ' text-anchor="middle"', "right": ' text-anchor="end"'}[ha]
            self.parts.append(f'<text x="{num(x)}" y="{num(baseline)}"{style}{anchor}>{escape(s)}</text>')
            return
        # the corners of the text's box around its origin, turned (y up), then aligned
        width = text_width(s, size, bold)
        c, t = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
        corners = [(u * c - v * t, u * t + v * c) for u in (0, width) for v in (-descent, ascent)]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        dx = {"left": -min(xs), "center": -(min(xs) + max(xs)) / 2, "right": -max(xs)}[ha]
        dy = {"bottom": -min(ys), "center": -(min(ys) + max(ys)) / 2, "top": -max(ys)}[va]
        self.parts.append(f'<text transform="translate({num(x + dx)} {num(y - dy)}) rotate({num(-rotation)})"'
                          f'{style}>{escape(s)}</text>')

    # -- output ---------------------------------------------------------------
    def svg(self) -> bytes:
        w, h = num(self.width), num(self.height)
        defs = "<defs>" + "".join(self.defs[k] for k in sorted(self.defs)) + "</defs>\n" if self.defs else ""
        return (f'<?xml version="1.0" encoding="utf-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" '
                f'version="1.1">\n{defs}'
                f'<rect width="{w}" height="{h}" fill="#ffffff"/>\n'
                f'<g font-family="{FAMILY}" fill="{INK}" stroke-linecap="butt" stroke-linejoin="round">\n'
                + "\n".join(self.parts) + "\n</g>\n</svg>\n").encode("utf-8")

    def finish(self, alt: str) -> Figure:
        data = self.svg()
        digest = hashlib.sha256(data).hexdigest()[:12]
        return Figure(data, f"{self.kind}-{digest}.svg", alt)


def _paint(fill: str | None, stroke: str | None, width: float, opacity: float | None = None) -> str:
    out = f' fill="{fill}"' if fill is not None else ""
    if stroke is not None:
        out += f' stroke="{stroke}"' + (f' stroke-width="{num(width)}"' if width != 1 else "")
    if opacity is not None:
        out += f' opacity="{num(opacity)}"'
    return out


def _cap(cap: str) -> str:
    return "" if cap == "butt" else f' stroke-linecap="{cap}"'


def _join(join: str) -> str:
    return "" if join == "round" else f' stroke-linejoin="{join}"'
