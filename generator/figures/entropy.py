"""Entropy bars against the maximum ln Tx (a dashed reference line)."""

from __future__ import annotations

from . import palette as P
from ._canvas import FONT, WIDTH, Axes, Canvas, Figure, text_box
from ._words import Words, english, say, title


_LABEL_AT = -0.55  # the bottom of the maximum's label, in bar positions (bars at 0, 1, …)


def fig_entropy(problem, solution, spec=None, words: Words | None = None) -> Figure:
    """`words`: ui.yaml's figures.entropy (_words)."""
    spec = spec or next(f for f in solution.figures if f.kind == "entropy")
    words = words or english("entropy")
    d = spec.data
    n = len(d["values"])
    canvas = Canvas("entropy", WIDTH, 0.9 + 0.45 * n)
    # the names left of the axes, as wide as the widest needs; beyond the
    # maximum, room for a value label right of the dashed line
    left = max(text_box(lab, FONT)[0] for lab in d["labels"]) + 0.02 * canvas.width
    span = canvas.width - left - 4  # the axes' width in points
    label = max(text_box(say(words, "figures.entropy.value", value=s), FONT)[0] for s in d["shown"])
    top = d["max"] * span / (span - label - 0.04 * span - 2)
    ax = Axes(canvas, (left / canvas.width, 0.12, span / canvas.width, 0.62), (0, top), (n - 0.5, -0.6))
    highlight = d.get("highlight")
    canvas.group(canvas.clip(ax))
    for i, v in enumerate(d["values"]):
        fill = canvas.hatch(P.VERMILLION, P.INK) if i == highlight else P.SKY
        canvas.rect(ax.x(0), ax.y(i - 0.275), ax.x(v) - ax.x(0), ax.y(i + 0.275) - ax.y(i - 0.275), fill, P.INK, 0.8)
    # the dashed maximum stops 2 pt short of its label, which sits on top of it
    canvas.line([(ax.x(d["max"]), ax.bottom), (ax.x(d["max"]), ax.y(_LABEL_AT) + 2)], P.INK, 1, dash="3.7 1.6")
    canvas.line([(ax.x(0), ax.bottom), (ax.x(0), ax.top)], P.INK, 0.8)
    canvas.end_group()
    for i, lab in enumerate(d["labels"]):
        canvas.text(ax.x(-0.02 * top), ax.y(i), lab, FONT, ha="right")
    for i, (v, s) in enumerate(zip(d["values"], d["shown"])):
        # right of the bar, and right of the dashed maximum when the bar nearly
        # reaches it, or the line would cross the label
        label = say(words, "figures.entropy.value", value=s)
        reach = ax.x(v + 0.02 * top) + text_box(label, FONT)[0]
        x = v if v < 0.8 * d["max"] and reach < ax.x(d["max"]) - 2 else max(v, d["max"])
        canvas.text(ax.x(x + 0.02 * top), ax.y(i), label, FONT, ha="left")
    canvas.text(ax.x(d["max"]), ax.y(_LABEL_AT), f"ln {d['tx']} = {d['max_shown']}", FONT, va="bottom")
    canvas.text(0.02 * canvas.width, 0.03 * canvas.height,
                title(d, words, "figures.entropy.title"), FONT, ha="left", va="top")
    return canvas.finish(alt_text(d, words))


def alt_text(d: dict, words: Words | None = None) -> str:
    words = words or english("entropy")
    bars = "; ".join(say(words, "figures.entropy.alt_bar", label=lab, value=s)
                     for lab, s in zip(d["labels"], d["shown"]))
    return say(words, "figures.entropy.alt", bars=bars, tx=d["tx"], max=d["max_shown"])
