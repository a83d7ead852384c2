"""Weight bars: one bar per input position, the value printed on each, the
winner highlighted (colour, hatch and outline), and the amplification
exp(gap) marked where it is the point of the problem."""

from __future__ import annotations

from . import palette as P
from ._canvas import FONT, WIDTH, Axes, Canvas, Figure, text_box, wrap
from ._words import Words, english, say, title

_HEIGHT = 2.3  # inches, where the words and values stand upright
_LINE = 11.0  # pt from one line of a wrapped label to the next


def fig_bars(problem, solution, spec=None, words: Words | None = None) -> Figure:
    """Bars of the weights in `spec.data` (labels, values, shown, winner,
    ratio); `words`: ui.yaml's figures.bars (_words)."""
    spec = spec or next(f for f in solution.figures if f.kind == "bars")
    words = words or english("bars")
    d = spec.data
    canvas, ax, labels, turn = _layout(d)
    winner = d.get("winner")
    for i, v in enumerate(d["values"]):
        left, right, base, peak = ax.x(i - 0.36), ax.x(i + 0.36), ax.y(0), ax.y(v)
        if i == winner:
            canvas.rect(left, peak, right - left, base - peak, canvas.hatch(P.VERMILLION, P.INK), P.INK, 1.4)
        else:
            canvas.rect(left, peak, right - left, base - peak, P.SKY, P.BLUE, 0.6)
    canvas.line([(ax.fx(0), ax.y(0)), (ax.fx(1), ax.y(0))], P.INK, 0.8)
    rotation = 90 if turn else 0
    for i, (v, shown) in enumerate(zip(d["values"], d["shown"])):
        canvas.text(ax.x(i), ax.y(v) - 1.5, shown, FONT, va="bottom", bold=i == winner, rotation=rotation)
    for i, lines in enumerate(labels):
        for j, line in enumerate(lines):
            canvas.text(ax.x(i), ax.y(0) + 3 + j * _LINE, line, FONT, va="top", rotation=rotation)
    heading = title(d, words, "figures.bars.title")
    canvas.text(ax.fx(0), 0.03 * canvas.height, heading, FONT, ha="left", va="top")
    if d.get("ratio"):
        _ratio(canvas, ax, d)
    return canvas.finish(alt_text(d, words))


def _layout(d: dict) -> tuple[Canvas, Axes, list[list[str]], bool]:
    """The canvas, the axes, each word's lines, and whether values and words
    are turned.  More bars than their numbers fit beside one another (typed
    lists of 7 to 12): every value and word turned to read upward, at the
    same size, the figure taller by what they need (up to square) so the
    bars keep an upright chart's height."""
    slots = max(len(d["values"]), 3) + 0.2  # bar positions across the axes (0.6 of a slot beyond each end bar)
    slot = 0.94 * WIDTH * 72 / slots
    turn = any(text_box(s, FONT)[0] > slot - 3 for s in d["shown"])
    labels = [[label] for label in d["labels"]] if turn else [wrap(label, FONT, slot - 4) for label in d["labels"]]
    ascent, descent = text_box("h", FONT)[1:]
    below = (max(text_box(lab, FONT)[0] for lab in d["labels"]) if turn
             else ascent + descent + _LINE * (max(len(lines) for lines in labels) - 1))
    height = _HEIGHT * 72
    rise = max(text_box(s, FONT)[0] for s in d["shown"]) + 4  # a turned value above its bar
    if turn:
        unit = (0.86 * height - 8 - ascent - descent) / 1.2  # pt per unit of weight with one line of words
        height = min(WIDTH * 72, 0.14 * height + unit * 1.02 + rise + below + 8)
    canvas = Canvas("bars", WIDTH, height / 72)
    bottom = (below + 8) / canvas.height  # the words under the axis, and 4 pt below them
    height = 0.86 - bottom
    top = 1.18
    if turn:  # room above a bar of 1 for its turned value
        q = rise / (height * canvas.height)
        top = max(top, (1 + 0.02 * q) / (1 - q))
    return canvas, Axes(canvas, (0.03, bottom, 0.94, height), (-0.6, slots - 0.6), (-0.02, top)), labels, turn


def _ratio(canvas: Canvas, ax: Axes, d: dict) -> None:
    """The ratio label over bar j, its arrow leaving the label's side that
    faces the winner k.  Centred over bar j, unless its end would then come
    within 9 pt of the winner's bar or past the figure's edge; where one line
    does not fit between the two, it breaks after the ratio."""
    ratio, k = d["ratio"], d["winner"]
    j = ratio["over"]
    side = int(j < k)  # 1: the winner is to the right
    # the arrow's head stops at the winner's near side, where it shows (inside the hatched bar it did not)
    near, away = (ax.x(k - 0.36), -1) if side else (ax.x(k + 0.36), 1)
    room = near - 9 - 2 if side else canvas.width - 2 - (near + 9)
    one = f"× {ratio['shown']} = exp({ratio['gap']})"
    lines = [one] if text_box(one, FONT)[0] + 3 <= room else [f"× {ratio['shown']}", f"= exp({ratio['gap']})"]
    lines = [line + " " if side else " " + line for line in lines]  # a space between the label and its arrow
    width = max(text_box(line, FONT)[0] for line in lines)
    ascent, descent = text_box(lines[0], FONT)[1:]
    baseline = ax.y(min(d["values"][j] + 0.22, 1.05)) - _LINE * (len(lines) - 1)
    x = ax.x(j)
    x = min(x, near - 9 - width / 2) if side else max(x, near + 9 + width / 2)
    x = min(max(x, 2 + width / 2), canvas.width - 2 - width / 2)
    start = (x + (side - 0.5) * width, baseline + (descent - ascent) / 2 + _LINE * (len(lines) - 1) / 2)
    canvas.arrow(start, (near + 1.5 * away, ax.y(d["values"][k] * 0.5)), P.VERMILLION, 1.2, FONT)
    for i, line in enumerate(lines):
        canvas.text(x, baseline + i * _LINE, line, FONT, va="baseline", fill=P.VERMILLION)


def alt_text(d: dict, words: Words | None = None) -> str:
    words = words or english("bars")
    bars = "; ".join(say(words, "figures.bars.alt_bar", label=lab, value=val)
                     for lab, val in zip(d["labels"], d["shown"]))
    sentences = [say(words, "figures.bars.alt", title=title(d, words, "figures.bars.title"), bars=bars)]
    if d.get("winner") is not None:
        sentences.append(say(words, "figures.bars.alt_winner", label=d["labels"][d["winner"]]))
    if d.get("ratio"):
        r = d["ratio"]
        sentences.append(say(words, "figures.bars.alt_ratio", ratio=r["shown"], label=d["labels"][r["over"]],
                             gap=r["gap"]))
    return " ".join(sentences)
