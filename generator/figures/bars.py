"""Weight bars: one bar per input position, the value printed on each, the
winner highlighted (colour, hatch and outline), and the amplification
exp(gap) marked where it is the point of the problem."""

from __future__ import annotations

from . import palette as P
from ._canvas import Axes, Canvas, Figure, text_box


def fig_bars(problem, solution, spec=None) -> Figure:
    """Bars of the weights in `spec.data` (labels, values, shown, winner, ratio)."""
    spec = spec or next(f for f in solution.figures if f.kind == "bars")
    d = spec.data
    n = len(d["values"])
    canvas = Canvas("bars", 4.6, 2.7)
    ax = Axes(canvas, (0.03, 0.14, 0.94, 0.74), (-0.6, max(n, 3) - 0.4), (-0.02, 1.18))
    small = 7 if n > 6 else 8.5
    winner = d.get("winner")
    for i, v in enumerate(d["values"]):
        left, right, base, top = ax.x(i - 0.36), ax.x(i + 0.36), ax.y(0), ax.y(v)
        if i == winner:
            canvas.rect(left, top, right - left, base - top, canvas.hatch(P.VERMILLION, P.INK), P.INK, 1.4)
        else:
            canvas.rect(left, top, right - left, base - top, P.SKY, P.BLUE, 0.6)
    canvas.line([(ax.fx(0), ax.y(0)), (ax.fx(1), ax.y(0))], P.INK, 0.8)
    for i, (v, shown) in enumerate(zip(d["values"], d["shown"])):
        canvas.text(ax.x(i), ax.y(v + 0.015), shown, small, va="bottom", bold=i == winner)
    for i, label in enumerate(d["labels"]):
        canvas.text(ax.x(i), ax.y(-0.04), label, small, va="top")
    canvas.text(ax.fx(0), 0.03 * canvas.height, d.get("title", "attention weights"), 9, ha="left", va="top")  # as the other figures
    ratio = d.get("ratio")
    if ratio:
        # the ratio label, with its arrow leaving the label's side that faces the winner
        k, j = winner, ratio["over"]
        side = int(j < k)  # 1: the winner is to the right
        label = f"× {ratio['shown']} = exp({ratio['gap']})"
        label = label + " " if side else " " + label  # a space between the label and its arrow
        x, baseline = ax.x(j), ax.y(min(d["values"][j] + 0.22, 1.05))
        width, ascent, descent = text_box(label, 8.5)
        # centred over bar j, unless its end would then come within 9 pt of the
        # winner's bar; the arrow's head stops at that bar's near side, where it
        # shows (inside the hatched bar it did not)
        near, away = (ax.x(k - 0.36), -1) if side else (ax.x(k + 0.36), 1)
        x = min(x, near - 9 - width / 2) if side else max(x, near + 9 + width / 2)
        start = (x + (side - 0.5) * width, baseline + (descent - ascent) / 2)
        canvas.arrow(start, (near + 1.5 * away, ax.y(d["values"][k] * 0.5)), P.VERMILLION, 1.2, 8.5)
        canvas.text(x, baseline, label, 8.5, va="baseline", fill=P.VERMILLION)
    return canvas.finish(alt_text(d))


def alt_text(d: dict) -> str:
    parts = [f"{lab}: {val}" for lab, val in zip(d["labels"], d["shown"])]
    text = f"Bar chart of {d.get('title', 'attention weights')}, one bar per position — " + "; ".join(parts) + "."
    if d.get("winner") is not None:
        text += f" The highlighted bar is {d['labels'][d['winner']]}."
    if d.get("ratio"):
        text += f" It is {d['ratio']['shown']} times the bar of {d['labels'][d['ratio']['over']]}, exactly exp({d['ratio']['gap']})."
    return text
