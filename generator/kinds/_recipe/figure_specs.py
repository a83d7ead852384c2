"""Figure specs: the data a figure draws and its "what to see" caption,
said from this problem's numbers (figures/ only draw)."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np

from ...inputs import number_text
from ...maths import exact
from ...maths import numeric
from ...maths.attention import Softmax, convex_hull, nearest_state, top_positions
from ...maths.exact import ExactReal
from ...model import FigureSpec
from ...text import Sayer
from .._base import SolutionBuilder
from .wording import and_list, hull_case, positions, signed

say = Sayer("shared")


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def position_labels(n: int, words: Sequence[str] | None = None) -> list[str]:
    return list(words) if words else [f"h{str(i + 1).translate(_SUB)}" for i in range(n)]


def figure_number(x) -> str:
    """An input number as a figure's label shows it: with a true minus sign, as
    the figures' axes and the typeset text have it, not a hyphen."""
    return number_text(x).replace("-", "\u2212")


def shifted_labels(base: Sequence[Fraction], shifted: Sequence[Fraction]) -> list[str]:
    """Bar labels that show each score before and after a shift: "h₁: 1.2 → 3.2"."""
    return [f"{label}: {figure_number(a)}\u2009→\u2009{figure_number(b)}"
            for label, a, b in zip(position_labels(len(base)), base, shifted)]


def bars_figure(w: SolutionBuilder, weights: Sequence[ExactReal], labels: Sequence[str], caption: tuple, *,
                winner: int | None = None, ratio: tuple[int, ExactReal, Fraction] | None = None,
                title: str | None = None) -> FigureSpec:
    """A bar chart of the weights; the title defaults to figure.bars.title."""
    data = {"labels": list(labels), "values": [float(a) for a in weights],
            "shown": [w.shown_answer(a).text for a in weights], "winner": winner,
            "title": say.text("figure.bars.title") if title is None else title}
    if ratio is not None:
        over, value, gap = ratio
        data["ratio"] = {"over": over, "shown": exact.shown(value, 2).text, "gap": number_text(gap)}
    return FigureSpec("bars", data, caption)


def winner_caption(w: SolutionBuilder, sm: Softmax, labels: Sequence[str], k: int, second: int | None) -> tuple:
    """The seed's Example 1 caption, on this problem's numbers: how much the
    tallest bar stands out is said from the ratio to the runner-up."""
    tops = top_positions(sm.scores)
    if len(tops) > 1:
        names = positions(tops, labels=[labels[i] for i in range(len(labels))])
        return say("figure.winner.tied", names=names, height=w.shown_answer(sm.weights[tops[0]]).text)
    name = say.text("quoted", word=labels[k])
    rest = [i for i in range(len(sm.weights)) if i != k]
    if not rest:
        return say("figure.winner.single", name=name)
    runners = [rest[i] for i in top_positions([sm.scores[i] for i in rest])]  # every tied runner-up
    runner = runners[0]
    # the weights' ratio is exp of the score gap (floats of tiny weights underflow)
    gap = float(sm.scores[k] - sm.scores[runner])
    stands = "towers" if gap >= np.log(2) else "clearly_above" if gap >= np.log(1.25) else "slightly_taller"
    runner_words = say.text("figure.winner.runner.one" if len(runners) == 1 else "figure.winner.runner.tied",
                            second=positions(runners, labels=labels), weight=w.shown_answer(sm.weights[runner]).text)
    amplification = ""
    if second is not None and second != k:
        gap = sm.scores[k] - sm.scores[second]
        amplification = say.text(
            "figure.winner.amplification.small_gap" if gap <= 3 else "figure.winner.amplification.large_gap",
            gap=signed(gap), ratio=exact.shown(exact.exp(ExactReal.of(gap)), 2).text,
            second=say.text("quoted", word=labels[second]), top=signed(sm.scores[k]),
            sec=signed(sm.scores[second], paren=True))
    return say(f"figure.winner.{stands}", name=name, height=w.shown_answer(sm.weights[k]).text,
               runner=runner_words, amplification=amplification)


def context_figure(w: SolutionBuilder, weights: Sequence[ExactReal], states, c: Sequence[ExactReal], caption: tuple) -> FigureSpec | None:
    if len(states[0]) != 2:
        return None
    data = {"states": [[float(v) for v in h] for h in states], "labels": position_labels(len(states)),
            "weights": [float(a) for a in weights], "weights_shown": [w.shown_answer(a).text for a in weights],
            "hull": [[float(x), float(y)] for x, y in convex_hull(states)],
            "context": [float(x) for x in c], "context_shown": [w.shown_answer(x).text for x in c]}
    return FigureSpec("context", data, caption)


def context_caption(w: SolutionBuilder, weights: Sequence[ExactReal], c: Sequence[ExactReal], states) -> tuple:
    """Where the context sits, said from the geometry: the nearest state, and
    whether it is the one with the largest weight."""
    heavy = top_positions(weights)
    near = nearest_state(c, states)
    sub = lambda i: f"h{str(i + 1).translate(_SUB)}"
    names = lambda idx: and_list([sub(i) for i in idx])
    hull = hull_case(states)
    if len(heavy) == 1 and near == heavy:
        lean = "nearest_heaviest"
    elif len(heavy) == 1 and heavy[0] in near:  # equally near to several, the heaviest among them
        lean = "among_nearest"
    else:
        lean = "pulled_away" if len(heavy) == 1 else "shared"
    said = {"region": say.text(f"words.hull.{hull}.region"), "sits": say.text(f"words.hull.{hull}.sits"),
            "c1": w.shown_answer(c[0]).text, "c2": w.shown_answer(c[1]).text, "near": names(near),
            "weight": w.shown_answer(weights[heavy[0]]).text}
    if lean == "nearest_heaviest":  # the state it is nearest to is the heaviest: named once
        return say("figure.context.nearest_heaviest", **said)
    return say(f"figure.context.{lean}", **said, heavy=names(heavy))


def entropy_figure(w: SolutionBuilder, labels: Sequence[str], values: Sequence[ExactReal], tx: int, caption: tuple,
                   highlight: int | None = None) -> FigureSpec:
    lnT = exact.log(ExactReal.of(tx))
    data = {"labels": list(labels), "values": [float(v) for v in values], "shown": [w.shown_answer(v).text for v in values],
            "max": float(lnT), "max_shown": w.shown_answer(lnT).text, "tx": tx, "highlight": highlight}
    return FigureSpec("entropy", data, caption)


def heatmap_figure(w: SolutionBuilder, rows: Sequence[str], cols: Sequence[str], weights, marked, darkest,
                   caption: tuple) -> FigureSpec:
    data = {"rows": list(rows), "cols": list(cols), "values": [[float(a) for a in r] for r in weights],
            "shown": [[w.shown_answer(a).text for a in r] for r in weights], "marked": marked,
            "darkest": list(darkest) if darkest else None}
    return FigureSpec("heatmap", data, caption)


def sharpening_figure(w: SolutionBuilder, scores, dials, sms, hi, lo, xname: str, caption: tuple, *,
                      log: bool, labels: Sequence[str] | None = None, base: Fraction = Fraction(0)) -> FigureSpec:
    """Weights against the dial: β scales the scores (log axis), or Δ is the gap of two scores."""
    floats = np.array([float(s) for s in scores])
    if log:
        grid = np.geomspace(min(0.05, float(min(dials)) / 2), max(50.0, float(max(dials)) * 2), 60)
        curves = np.array([numeric.softmax(floats * b) for b in grid]).T
    else:
        grid = np.linspace(-8.0, 8.0, 65)
        curves = np.array([numeric.softmax([0.0, d]) for d in grid]).T
    data = {"grid": [float(g) for g in grid], "curves": curves.tolist(), "log": log,
            "labels": list(labels or [f"α{str(i + 1).translate(_SUB)}" for i in range(len(scores))]),
            "marks": [float(d) for d in dials], "mark_labels": [number_text(d) for d in dials],
            "marked": [[float(sm.weights[i]) for sm in sms] for i in range(len(sms[0].weights))],
            "marked_shown": [[w.shown_answer(a).text for a in sm.weights] for sm in sms],
            "limit_high": [float(v) for v in hi], "limit_high_shown": [str(v) for v in hi],
            "limit_low_shown": [str(v) for v in lo], "xlabel": say.text("figure.sharpening.log_axis", name=xname) if log else xname,
            "xname": xname}
    return FigureSpec("sharpening", data, caption)

