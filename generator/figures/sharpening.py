"""Sharpening: each weight against the dial (β, or the gap Δ), the asked
values marked, and the limits drawn as dashed lines."""

from __future__ import annotations

import math

from . import palette as P
from ._canvas import FONT, WIDTH, Axes, Canvas, Figure, distance, escape, minus, num, overlap, text_box
from ._words import Words, english, given, say, title

AXIS = "#000000"  # axes, ticks and their labels: black, as matplotlib draws them
# marker outlines around their centre (size 5 pt, y down), matplotlib's shapes
_R = 2.5
_MARKERS = {
    "s": ((-_R, -_R), (_R, -_R), (_R, _R), (-_R, _R)),
    "^": ((0, -_R), (-_R, _R), (_R, _R)),
    "v": ((0, _R), (-_R, -_R), (_R, -_R)),
    "D": ((0, -5 * math.sqrt(0.5)), (5 * math.sqrt(0.5), 0), (0, 5 * math.sqrt(0.5)), (-5 * math.sqrt(0.5), 0)),
    "P": tuple((x * _R / 3, y * _R / 3) for x, y in ((-1, -3), (1, -3), (1, -1), (3, -1), (3, 1), (1, 1), (1, 3),
                                                       (-1, 3), (-1, 1), (-3, 1), (-3, -1), (-1, -1))),
}
# matplotlib's dash patterns, in units of the line width
_DASHES = {"--": (3.7, 1.6), ":": (1, 1.65), "-.": (6.4, 1.6, 1, 1.6)}
_YTICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def _dash(style, width: float) -> str | None:
    if style == "-":
        return None
    pattern = style[1] if isinstance(style, tuple) else _DASHES[style]
    return " ".join(num(v * width) for v in pattern)


_HEIGHT = 2.6  # inches, without the list of weights (see _weights)
_TOP, _BOTTOM = 30.0, 38.0  # pt above the axes (title and legend) and below them (ticks and the x label)
_ROW = 12.0  # pt from one row of the list of weights to the next


def fig_sharpening(problem, solution, spec=None, words: Words | None = None) -> Figure:
    """`words`: ui.yaml's figures.sharpening (_words)."""
    spec = spec or next(f for f in solution.figures if f.kind == "sharpening")
    words = words or english("sharpening")
    d = spec.data
    canvas, ax, places, asked, top = _drawn(d, 0, words)
    if None in places:  # too crowded to label each marker plainly: a list under the axes
        canvas, ax, places, asked, top = _drawn(d, len(_list_rows(d, asked, top, WIDTH * 72 - 8, words)), words)
        _weight_list(canvas, ax, d, asked, top, words)
    else:
        for place, (_, _, shown, _) in zip(places, asked):
            canvas.text(*place, shown, FONT, va="baseline")
    return canvas.finish(alt_text(d, words))


def _drawn(d: dict, rows: int, words: Words):
    """The figure with `rows` rows of listed weights under it: axes, curves,
    ticks, legend and title drawn; the weights' places found (a place is None
    where a weight finds none).  Returns (canvas, axes, places, asked, top)."""
    log = bool(d.get("log"))
    extra = rows * _ROW + (4 if rows else 0)
    canvas = Canvas("sharpening", WIDTH, _HEIGHT + extra / 72)
    # the x range of the data with a 5% margin each side (on the log scale when logarithmic)
    xs = list(d["grid"]) + list(d["marks"])
    scale = math.log10 if log else float
    low, high = scale(min(xs)), scale(max(xs))
    low, high = low - 0.05 * (high - low), high + 0.05 * (high - low)
    xlim = (10 ** low, 10 ** high) if log else (low, high)
    H, W = canvas.height, canvas.width
    ax = Axes(canvas, (32 / W, (_BOTTOM + extra) / H, (W - 32 - 6) / W, (_HEIGHT * 72 - _TOP - _BOTTOM) / H), xlim,
              (-0.03, 1.03), xlog=log)
    _x_axis(canvas, ax, d, log, words)
    _y_axis(canvas, ax, say(words, "figures.sharpening.weight"))
    lines, limits = _curves(canvas, ax, d)
    heading = title(d, words, "figures.sharpening.title")
    width, ascent, descent = text_box(heading, FONT)
    tx, ty = 0.02 * W, 0.03 * H
    canvas.text(tx, ty, heading, FONT, ha="left", va="top")
    legend = _legend(canvas, d, ty + ascent)
    # the top curve's weight at each asked value, by its marker (of curves
    # tied there, the last drawn: its markers are the ones on top); at a single
    # asked value every curve's, where each finds a place
    top = max(range(len(d["marked"])), key=lambda i: (d["marked"][i][-1], i))
    taken = [(tx, ty, tx + width, ty + ascent + descent + 2), legend]  # the title (2 pt below it), legend, markers
    markers = [(ax.x(x), ax.y(y)) for row in d["marked"] for x, y in zip(d["marks"], row)]
    taken += [(u - 3.6, v - 3.6, u + 3.6, v + 3.6) for u, v in markers]
    asked = sorted(zip(d["marks"], d["marked"][top], (shown[top] for shown in d["marked_shown"]), d["mark_labels"]))
    # each stretch of a curve or dashed limit with its box, grown by 1 pt: most are ruled out by the box alone
    segments = [(min(p[0], q[0]) - 1, max(p[0], q[0]) + 1, min(p[1], q[1]) - 1, max(p[1], q[1]) + 1, p, q)
                for points in lines + limits for p, q in zip(points, points[1:])]
    frame = (ax.left + 1, W - 2, ax.bottom - 1)  # off the y axis' ticks, inside the figure, above the x axis
    if len(d["marks"]) == 1:
        every = [(d["marks"][0], row[0], shown, d["mark_labels"][0])
                 for row, shown in zip(d["marked"], d["marked_shown"][0])]
        held = list(taken)
        places = [_label_place(ax.x(x), ax.y(y), shown, held, markers, segments, frame) for x, y, shown, _ in every]
        if None not in places:
            return canvas, ax, places, every, top
    places = [_label_place(ax.x(x), ax.y(y), shown, taken, markers, segments, frame) for x, y, shown, _ in asked]
    return canvas, ax, places, asked, top


def _x_axis(canvas: Canvas, ax: Axes, d: dict, log: bool, words: Words) -> None:
    """Ticks below the lines: the asked values on x, and the ends of the range
    (and 0 inside a linear one) where their labels keep 4 pt from an asked one's;
    the x label under them."""
    ticks = list(zip(d["marks"], d["mark_labels"]))
    spans = [_span(ax.x(x), minus(label)) for x, label in ticks]
    ends = (d["grid"][0], d["grid"][-1]) if log else sorted({d["grid"][0], d["grid"][-1]} |
                                                            ({0.0} if d["grid"][0] < 0 < d["grid"][-1] else set()))
    for x in ends:
        span = _span(ax.x(x), minus(f"{x:g}"))
        if all(span[1] + 4 <= other[0] or other[1] + 4 <= span[0] for other in spans):
            ticks.append((x, f"{x:g}"))
            spans.append(span)
    for x, label in ticks:
        canvas.line([(ax.x(x), ax.bottom), (ax.x(x), ax.bottom + 3.5)], AXIS, 0.8)
        canvas.text(ax.x(x), ax.bottom + 7, minus(label), FONT, va="top", fill=AXIS)
    xlabel = given(d["xlabel"], words, "figures.sharpening.xlabel_log", dial=d["xname"]) if log else d["xlabel"]
    canvas.text(ax.fx(0.5), ax.bottom + 7 + sum(text_box("0", FONT)[1:]) + 3, xlabel, FONT, va="top", fill=AXIS)


def _y_axis(canvas: Canvas, ax: Axes, name: str) -> None:
    for y in _YTICKS:
        canvas.line([(ax.left - 3.5, ax.y(y)), (ax.left, ax.y(y))], AXIS, 0.8)
        ascent = text_box(f"{y:.1f}", FONT)[1]
        canvas.text(ax.left - 5, ax.y(y) + ascent / 2, f"{y:.1f}", FONT, ha="right", va="baseline", fill=AXIS)
    # its name ("weight") turned, in the figure's left margin, clear of the tick labels
    canvas.parts.append(_vertical(ax.left - 5 - text_box("0.0", FONT)[0] - 3, ax.fy(0.5), name))


def _curves(canvas: Canvas, ax: Axes, d: dict) -> tuple[list, list]:
    """The curves with their markers, the dashed limits and the axes' corner;
    returns the curves' and the limits' points."""
    canvas.group(canvas.clip(ax))
    lines = [[(ax.x(x), ax.y(y)) for x, y in zip(d["grid"], curve)] for curve in d["curves"]]
    limits = [[(ax.left, ax.y(y)), (ax.right, ax.y(y))] for y in sorted(set(d["limit_high"]))]
    for i, points in enumerate(lines):
        colour, style, marker = P.LINES[i % len(P.LINES)]
        canvas.line(points, colour, 1.6, dash=_dash(style, 1.6), cap="square" if style == "-" else "butt")
        for x, y in zip(d["marks"], d["marked"][i]):
            if marker == "o":
                canvas.circle(ax.x(x), ax.y(y), _R, colour, colour)
            else:
                canvas.polygon([(ax.x(x) + u, ax.y(y) + v) for u, v in _MARKERS[marker]], colour, colour)
    for points in limits:
        canvas.line(points, P.GRID, 0.8, dash=_dash("--", 0.8))
    canvas.end_group()
    canvas.line([(ax.left, ax.top), (ax.left, ax.bottom), (ax.right, ax.bottom)], AXIS, 0.8, cap="square",
                join="miter")
    return lines, limits


def _legend(canvas: Canvas, d: dict, baseline: float) -> tuple:
    """The legend on the title's line, against the right edge: a 16 pt sample
    of each line and its name, 8 pt between entries (a legend right of the
    axes took a quarter of a phone-wide figure).  Returns its box."""
    ascent, descent = text_box("α", FONT)[1:]
    entries = [16 + 4 + text_box(label, FONT)[0] for label in d["labels"]]
    left = x = canvas.width - 4 - sum(entries) - 8 * (len(entries) - 1)
    for i, (label, width) in enumerate(zip(d["labels"], entries)):
        colour, style, _ = P.LINES[i % len(P.LINES)]
        canvas.line([(x, baseline - 2.8), (x + 16, baseline - 2.8)], colour, 1.6, dash=_dash(style, 1.6),
                    cap="square" if style == "-" else "butt")
        canvas.text(x + 20, baseline, label, FONT, ha="left", va="baseline", fill=AXIS)
        x += width + 8
    return left, baseline - ascent, canvas.width - 4, baseline + descent


def _list_rows(d: dict, asked: list, top: int, room: float, words: Words) -> list[list[tuple[float, str]]]:
    """The list of the top curve's weights in rows of (x offset, text) no
    wider than `room`: "α₂ at β =" (naming every curve tied with the top one:
    they lie under it), then "1: 0.9852" for each asked value, 10 pt apart."""
    tied = [i for i in range(len(d["marked"])) if all(shown[i] == shown[top] for shown in d["marked_shown"])]
    curves = " = ".join(d["labels"][i] for i in tied)
    texts = [say(words, "figures.sharpening.list_head", curves=curves, dial=d["xname"])] + [
        f"{minus(label)}: {shown}" for _, _, shown, label in asked]
    rows, x = [[]], 0.0
    for text in texts:
        width = text_box(text, FONT)[0]
        if rows[-1] and x + width > room:
            rows.append([])
            x = 0.0
        rows[-1].append((x, text))
        x += width + 10
    return rows


def _weight_list(canvas: Canvas, ax: Axes, d: dict, asked: list, top: int, words: Words) -> None:
    """The weights listed under the x label, the first entry in the top curve's colour."""
    ascent = text_box("0", FONT)[1]
    rows = _list_rows(d, asked, top, canvas.width - 8, words)
    first = canvas.height - len(rows) * _ROW - 4 + ascent
    for r, row in enumerate(rows):
        for x, text in row:
            canvas.text(4 + x, first + r * _ROW, text, FONT, ha="left", va="baseline",
                        fill=P.LINES[top % len(P.LINES)][0] if (r, x) == (0, 0.0) else AXIS)


def _span(x: float, label: str) -> tuple[float, float]:
    """From left to right, an x tick's label centred at x."""
    half = text_box(label, FONT)[0] / 2
    return x - half, x + half


_APART = 4.0  # pt between two weights side by side ("0.92410.9933" read as one)


def _label_place(x: float, y: float, s: str, taken: list, markers: list, segments: list, frame: tuple):
    """Where the weight of the marker at (x, y) goes (its centre and
    baseline), or None if nowhere plainly.  Tried in turn: 6 pt above the
    marker, centred or a third of its width to one side; at its upper
    left, upper right, left or right; a line higher; at its lower left,
    lower right, or below it.  A place must cover nothing `taken` (the
    title, markers, labels placed), cross none of the `segments` (curves
    and dashed limits), lie within 14.5 pt of its marker and nearer it than
    any other of `markers` by 2 pt, from its edge and from its middle (so
    the label reads as its own), and stay inside `frame` (left, right and
    bottom limits).  Its box, with _APART either side, joins `taken`."""
    width, ascent, descent = text_box(s, FONT)
    line = ascent + descent + 1
    reach = width + 6  # no place's box goes farther than this from the marker, left or right
    near = [seg for seg in segments if seg[1] > x - reach and seg[0] < x + reach]

    def box(place):
        return (place[0] - width / 2, place[1] - ascent, place[0] + width / 2, place[1] + descent)

    def fits(b):
        centre = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
        own = distance(b, (x, y))
        return (b[1] >= 0 and b[0] >= frame[0] and b[2] <= frame[1] and b[3] <= frame[2] and own < 14.5
                and not any(overlap(b, t) for t in taken)
                and all(distance(b, m) > own + 2 and math.dist(centre, m) > math.dist(centre, (x, y)) + 2
                        for m in markers if m != (x, y))
                and not any(x1 > b[0] and x0 < b[2] and y1 > b[1] and y0 < b[3] and _crosses(b, p, q)
                            for x0, x1, y0, y1, p, q in near))

    above = [(x + shift, y - 6 - k * line) for k in range(2) for shift in (0, -width / 3, width / 3)]
    side, middle = 4 + width / 2, y + (ascent - descent) / 2
    beside = [(x - side, y - 4 - descent), (x + side, y - 4 - descent), (x - side - 1, middle), (x + side + 1, middle),
              (x - side, y + 4 + ascent), (x + side, y + 4 + ascent), (x, y + 6 + ascent)]
    place = next((p for p in above[:3] + beside[:4] + above[3:] + beside[4:] if fits(box(p))), None)
    if place is not None:  # taken with 4 pt either side: two weights on one line must not read as one
        b = box(place)
        taken.append((b[0] - _APART, b[1], b[2] + _APART, b[3]))
    return place


def _crosses(box: tuple, p: tuple, q: tuple, pad: float = 1.0) -> bool:
    """Whether the segment p-q (a curve, drawn 1.6 pt wide) passes through
    `box` grown by `pad` (Liang-Barsky clipping)."""
    left, top, right, bottom = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for step, room in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if step == 0:
            if room < 0:
                return False
        elif step < 0:
            low = max(low, room / step)
        else:
            high = min(high, room / step)
    return low <= high


def _vertical(x: float, y: float, s: str) -> str:
    """A label reading upward, centred on (x, y) along its baseline."""
    return (f'<text x="{num(x)}" y="{num(y)}" transform="rotate(-90 {num(x)} {num(y)})" font-size="{num(FONT)}" '
            f'fill="{AXIS}" text-anchor="middle">{escape(s)}</text>')


def alt_text(d: dict, words: Words | None = None) -> str:
    words = words or english("sharpening")
    marks = "; ".join(say(words, "figures.sharpening.alt_mark", dial=d["xname"], value=m, weights=", ".join(r))
                      for m, r in zip(d["mark_labels"], d["marked_shown"]))
    return say(words, "figures.sharpening.alt", dial=d["xname"], marks=marks, high=", ".join(d["limit_high_shown"]),
               low=", ".join(d["limit_low_shown"]))
