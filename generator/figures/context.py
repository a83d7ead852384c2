"""Context plane: 2-D states as points labelled with their weights, their
convex hull, and the context point inside it."""

from __future__ import annotations

import math

from . import palette as P
from ._canvas import FONT, WIDTH, Axes, Canvas, Figure, distance, minus, overlap, text_box
from ._words import Words, english, say, title

# matplotlib's filled "X" marker, in units of half its size
_CROSS = ((-0.5, 1), (0, 0.5), (0.5, 1), (1, 0.5), (0.5, 0), (1, -0.5), (0.5, -1), (0, -0.5), (-0.5, -1),
          (-1, -0.5), (-0.5, 0), (-1, 0.5))


def fig_context(problem, solution, spec=None, words: Words | None = None) -> Figure:
    """`words`: ui.yaml's figures.context (_words)."""
    spec = spec or next(f for f in solution.figures if f.kind == "context")
    words = words or english("context")
    d = spec.data
    xs = [p[0] for p in d["states"]]
    ys = [p[1] for p in d["states"]]
    pad = 0.15 * max(max(xs) - min(xs), max(ys) - min(ys), 1)
    xlim, ylim = (min(xs) - 3 * pad, max(xs) + 3 * pad), (min(ys) - pad, max(ys) + pad)
    canvas = Canvas("context", WIDTH, 3.5)
    ax = Axes(canvas, (0.13, 0.12, 0.82, 0.76), xlim, ylim)
    clip = canvas.clip(ax)
    _plane(canvas, ax, d, clip)
    markers = [(ax.x(x), ax.y(y), math.sqrt(30 + 220 * w) / 2) for x, y, w in zip(xs, ys, d["weights"])]
    canvas.group(clip)
    for px, py, r in markers:
        canvas.circle(px, py, r, P.BLUE, P.BLUE)
    canvas.end_group()
    cx, cy = ax.x(d["context"][0]), ax.y(d["context"][1])
    half = math.sqrt(90) / 2
    canvas.group(clip)
    canvas.polygon([(cx + half * u, cy - half * v) for u, v in _CROSS], P.VERMILLION, P.INK, 1)
    canvas.end_group()
    # the labels where they cover no marker and no other label, inside the axes'
    # frame and clear of the title (states at one point share a label)
    fixed = [(px - r, py - r, px + r, py + r) for px, py, r in markers]
    fixed += [(cx - half, cy - half, cx + half, cy + half), (0, 0, canvas.width, 0.03 * canvas.height + 11)]
    labels, points = _labels(d, words, ax, markers, (cx, cy, half))
    inside = (ax.left + 1, 1, canvas.width - 1, ax.bottom - 1)  # right of the y-axis, above the x-axis
    for label, (left, top, _, _, lines) in zip(labels, _place(labels, fixed, points, inside)):
        for j, line in enumerate(lines):
            canvas.text(left, top + label.ascent + j * label.step, line, FONT, ha="left", va="baseline",
                        fill=label.fill, bold=label.bold)
    # a state's label is its name and its weight ("h₁ (0.1000)"), the title
    # saying once what the number is: "α = " in every label made them too
    # wide for a phone-sized plane at 9 pt
    heading = title(d, words, "figures.context.title")
    canvas.text(0.02 * canvas.width, 0.03 * canvas.height, heading, FONT, ha="left", va="top")
    return canvas.finish(alt_text(d, words))


def _plane(canvas: Canvas, ax: Axes, d: dict, clip: str) -> None:
    """The plane drawn by hand: a light whole-number grid (states sit on a
    small integer grid), whole-number labels, a left and bottom frame, and
    the hull (shaded, or a segment where the states lie on one line)."""
    xs = [p[0] for p in d["states"]]
    ys = [p[1] for p in d["states"]]
    xticks = range(int(min(xs)), int(max(xs)) + 1)
    yticks = range(int(min(ys)), int(max(ys)) + 1)
    canvas.group(clip)
    for x in xticks:
        canvas.line([(ax.x(x), ax.bottom), (ax.x(x), ax.top)], P.GRID, 0.5)
    for y in yticks:
        canvas.line([(ax.left, ax.y(y)), (ax.right, ax.y(y))], P.GRID, 0.5)
    hull = [(ax.x(x), ax.y(y)) for x, y in d["hull"]]
    if len(hull) >= 3:
        canvas.polygon(hull, P.SKY, P.BLUE, 1, opacity=0.25)
    elif len(hull) == 2:
        canvas.line(hull, P.BLUE, 1, cap="square")
    canvas.end_group()
    canvas.line([(ax.left, ax.top), (ax.left, ax.bottom), (ax.right, ax.bottom)], "#000000", 0.8, cap="square")
    for x in xticks:
        canvas.text(ax.x(x), ax.bottom + 3.5, minus(f"{x:d}"), FONT, va="top")
    for y in yticks:
        canvas.text(ax.left - 3.5, ax.y(y), minus(f"{y:d}"), FONT, ha="right")


def _labels(d: dict, words: Words, ax: Axes, markers: list, cross: tuple) -> tuple[list, list]:
    """The context's label, then one per point of the states (states at one
    point share it), and those points, the context's first."""
    groups: dict[tuple, list[int]] = {}
    for i, (x, y) in enumerate(d["states"]):
        groups.setdefault((x, y), []).append(i)
    point = say(words, "figures.context.point", x=minus(d["context_shown"][0]), y=minus(d["context_shown"][1]))
    labels = [_Label([[point]], cross,
                     below=True, fill=P.VERMILLION, bold=True, gaps=(2.5, 6.5, 14, 24))]
    for (x, y), members in groups.items():
        names, weights = [d["labels"][i] for i in members], [minus(d["weights_shown"][i]) for i in members]
        forms = [[f"{n} ({a})" for n, a in zip(names, weights)], [t for pair in zip(names, weights) for t in pair]]
        labels.append(_Label(forms, (ax.x(x), ax.y(y), max(markers[i][2] for i in members))))
    return labels, [cross[:2]] + [(ax.x(x), ax.y(y)) for x, y in groups]


class _Label:
    """Text of FONT pt to set beside a marker (x, y, radius): its forms (each a
    list of lines: a state's label on one line, or its name above its weight,
    narrower where states crowd a row), and the twelve places around the
    marker where each form may go (at its corners, at its sides just above its
    grid line, and above and below it centred or from either end), close to
    it and farther (`gaps`, in points), in order of preference."""

    def __init__(self, forms: list[list[str]], marker: tuple, below: bool = False, fill: str = P.INK,
                 bold: bool = False, gaps: tuple = (2.5, 6.5)):
        self.fill, self.bold = fill, bold
        # the name that begins each line ("h₂", "c"): what a reader pins to a point
        self.name = max(text_box(line.split(" ")[0], FONT, bold)[0] for line in forms[0])
        ascent, descent = text_box(forms[0][0], FONT, bold)[1:]
        self.ascent, self.step = ascent, ascent + descent + 1
        x, y, r = marker
        sizes = [(max(text_box(s, FONT, bold)[0] for s in lines), self.step * len(lines) - 1, lines) for lines in forms]
        self.spots: list[tuple] = []  # (left, top, width, height, lines)
        for g in (r + gap for gap in gaps):  # from the marker's centre to the label's nearest edge
            d = 0.7 * g
            for w, h, lines in sizes:
                corners = [(x + d, y - d - h), (x + d, y + d), (x - d - w, y - d - h), (x - d - w, y + d)]
                if below:
                    corners = [corners[1], corners[0], corners[3], corners[2]]
                self.spots += [(left, top, w, h, lines) for left, top in corners + [
                    (x + g, y - h - 1), (x - g - w, y - h - 1), (x - w / 2, y - g - h), (x - w / 2, y + g),
                    (x - 2, y - g - h), (x - 2, y + g), (x + 2 - w, y - g - h), (x + 2 - w, y + g)]]

    def box(self, spot: int) -> tuple:
        left, top, w, h, _ = self.spots[spot]
        return left, top, left + w, top + h


def _place(labels: list[_Label], fixed: list, points: list, bounds: tuple) -> list[tuple]:
    """A place for every label (one per point of `points`, in order: the
    context first), each clear: covering none of the markers and the title
    (`fixed`), nor another label, inside `bounds`, and nearer its own point
    than any state's, and so the name that begins it (the context's label
    only where it can be: its colour tells it apart).  Each label takes the
    first clear place in turn; where one finds none, the set is searched
    label by label, the most hemmed-in first, each trying its places in order
    of preference (a few thousand tries at most); where no such set is found,
    each label goes where it covers least."""
    boxes = [[label.box(s) for s in range(len(label.spots))] for label in labels]

    def alone(i: int, box: tuple, strict: bool) -> bool:  # clear, other labels aside
        if box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]:
            return False
        if any(overlap(box, f) for f in fixed):
            return False
        if i == 0 and not strict:
            return True
        # the label, and the names that begin its lines, nearer its own point than any state's
        name = (box[0], box[1], box[0] + labels[i].name, box[3])
        own, own_name = distance(box, points[i]) + 2, distance(name, points[i]) + 2
        return all(own <= distance(box, p) and own_name <= distance(name, p)
                   for j, p in enumerate(points) if j not in (0, i))

    def arrange(strict: bool) -> list | None:
        chosen: list = []  # most figures: each label clear at the first place it tries
        for i, row in enumerate(boxes):
            s = next((s for s, box in enumerate(row) if alone(i, box, strict) and
                      not any(overlap(box, boxes[j][t]) for j, t in enumerate(chosen))), None)
            if s is None:
                break
            chosen.append(s)
        if len(chosen) == len(labels):
            return chosen
        free = [[s for s, box in enumerate(row) if alone(i, box, strict)] for i, row in enumerate(boxes)]
        order = sorted(range(len(labels)), key=lambda i: len(free[i]))
        chosen, tries = [-1] * len(labels), [0]

        def search(k: int) -> bool:
            if k == len(order):
                return True
            i = order[k]
            for s in free[i]:
                tries[0] += 1
                if tries[0] > 2000:
                    return False
                if not any(overlap(boxes[i][s], boxes[j][chosen[j]]) for j in order[:k]):
                    chosen[i] = s
                    if search(k + 1):
                        return True
            return False

        return chosen if search(0) else None

    chosen = arrange(True) or arrange(False)
    if chosen is None:
        def covered(i: int, s: int) -> float:
            box = boxes[i][s]
            own = distance(box, points[i])
            near = sum(max(0.0, own + 2 - distance(box, p)) for j, p in enumerate(points) if i and j not in (0, i))
            outside = (box[2] - box[0]) * (box[3] - box[1]) - overlap(box, bounds)
            return (sum(overlap(box, f) for f in fixed) + 10 * outside + 20 * near
                    + sum(overlap(box, boxes[j][chosen[j]]) for j in range(i)))

        chosen = []
        for i in range(len(labels)):
            chosen.append(min(range(len(boxes[i])), key=lambda s: covered(i, s)))  # the first of the least
    return [label.spots[s] for label, s in zip(labels, chosen)]


def alt_text(d: dict, words: Words | None = None) -> str:
    words = words or english("context")
    states = "; ".join(say(words, "figures.context.alt_state", name=n, x=f"{p[0]:g}", y=f"{p[1]:g}",
                           weight=w) for n, p, w in zip(d["labels"], d["states"], d["weights_shown"]))
    x, y = d["context_shown"]
    return say(words, "figures.context.alt", states=states, x=x, y=y)
