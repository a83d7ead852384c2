"""Words the recipe's prose is built from, chosen by facts: how positions
are named, how a number reads in a sentence, how printed numbers were
rounded, where an entropy sits against its maximum."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np

from ...inputs import number_text
from ...maths import exact
from ...maths.attention import convex_hull
from ...maths.exact import ExactReal
from ...mathlines import Num, NumText
from ...exam.numbers import value_of
from ...text import Sayer
from .._base import SolutionBuilder

say = Sayer("shared")


def where(labels: Sequence[str] | None, i: int) -> str:
    """How prose names input position i (0-based)."""
    if labels:
        return say.text("words.where_labelled", label=labels[i], n=i + 1)
    return say.text("words.position", n=i + 1)


def and_list(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return say.text("words.and_list", items=say.text("words.list_sep").join(items[:-1]), last=items[-1])


def positions(idx: Sequence[int], each: bool = False, labels: Sequence[str] | None = None) -> str:
    """Names every position of a (tied) group: "position 2", "positions 1 and 3";
    with `each`, a group of several is named one by one ("each of positions 1
    and 3")."""
    if labels:
        names = and_list([say.text("quoted", word=labels[i]) for i in idx])
        return names if len(idx) == 1 else say.text(
            "words.positions.each_labelled" if each else "words.positions.labelled", list=names)
    if len(idx) == 1:
        return say.text("words.position", n=idx[0] + 1)
    return say.text("words.positions.each_numbered" if each else "words.positions.numbered",
                    list=and_list([str(i + 1) for i in idx]))


def pct(x: ExactReal, places: int = 1) -> str:
    return say.text("words.percent", x=exact.shown(x * 100, places).text)


def rounded_to(nums: Sequence[Num]) -> str:
    """How printed numbers were rounded, read off the numbers themselves:
    "4 places", "4–6 places" (small exponentials keep four significant
    digits), "4 places, the smallest to 4 significant digits"."""
    places = sorted({len(n.mant.partition(".")[2]) for n in nums if n.exp10 is None})
    sig = sorted({len(n.mant.lstrip("-").replace(".", "")) for n in nums if n.exp10 is not None})
    span = lambda v: str(v[0]) if len(v) == 1 else say.text("words.span", lo=v[0], hi=v[-1])
    if places and sig:
        return say.text("words.rounded.places_and_digits", places=span(places), digits=span(sig))
    if sig:
        return say.text("words.rounded.digits", digits=span(sig))
    return say.text("words.rounded.places", places=span(places)) if places else ""


def rounding_cause(exp_nums: Sequence[Num], z: Num) -> str:
    """Why a quotient of printed numbers strays from the exact weight: the
    exponentials' rounding, and the sum's where it was rounded too."""
    if value_of(z) != sum(value_of(n) for n in exp_nums):
        return say.text("notes.cause.exps_and_sum", exps=rounded_to(exp_nums), sum=rounded_to([z]))
    return say.text("notes.cause.exps", exps=rounded_to(exp_nums))


def printed_apart(first: Sequence[Num], second: Sequence[Num]) -> str:
    """How far apart two printed lists of the same weights read: "" where
    alike, "in the last place" (one unit at most) or "slightly"."""
    if [a.text for a in first] == [b.text for b in second]:
        return ""
    unit = max((Fraction(1, 10 ** len(n.mant.partition(".")[2])) for n in (*first, *second) if n.exp10 is None),
               default=Fraction(0))
    close = all(abs(value_of(a) - value_of(b)) <= unit for a, b in zip(first, second))
    return say.text("words.apart.last_place" if close else "words.apart.slightly")


def forecast_thresholds(x: float) -> tuple[str, str]:
    """Two round thresholds just below a weight, for the Forecast's guess
    (never "above 1.0": no weight is)."""
    if x >= 0.99:
        return NumText("0.9"), NumText("0.99")
    hi = max(0.1, min(0.9, np.floor(x * 10) / 10))
    return NumText(f"{hi - 0.1:.1f}"), NumText(f"{hi:.1f}")


def signed(x: Fraction, paren: bool = False) -> str:
    """A number for prose, with a true minus sign (U+2212); in parentheses
    when negative and `paren` (after a minus: 2.1 − (−0.5))."""
    text = number_text(x).replace("-", "−")
    return NumText(f"({text})" if paren and x < 0 else text)


def hull_words(states) -> tuple[str, str, str]:
    """What the context figure draws as the states' convex hull, in words: a
    shaded region only where the states span a plane, a segment where they
    lie on one line (two states), a point where they coincide.  Returns the
    sentence that names it, the word for a point of it ("inside", "on",
    "at") and where the centroid sits."""
    case = hull_case(states)
    return tuple(say.text(f"words.hull.{case}.{part}") for part in ("region", "point", "centroid"))


def hull_case(states) -> str:
    """Which hull the states make, by the keys of words.hull: "plane" (a
    shaded region), "segment" (two states), "line" (states on one line, the
    outermost two joined) or "point" (they coincide)."""
    corners = len(convex_hull(states))
    if corners >= 3:
        return "plane"
    if corners == 2 and len({tuple(s) for s in states}) == 2:  # two states: the segment that joins them
        return "segment"
    return "line" if corners == 2 else "point"


def against_max(w: SolutionBuilder, H: ExactReal, tx: int) -> str:
    """How an entropy compares with its maximum ln Tx, in words the ratio
    bears out (with the ratio itself)."""
    lnT = exact.log(ExactReal.of(tx))
    if tx <= 1:
        return say.text("words.against_max.one_position")
    r = float(H) / float(lnT)
    shown = w.shown_answer(lnT).text
    if exact.compare(H, lnT) == 0:  # uniform weights: exactly at it
        return say.text("words.against_max.at", tx=tx, max=shown)
    key = "well_below" if r < 0.5 else "below" if r < 0.8 else "large_part" if r < 0.95 else "close"
    return say.text(f"words.against_max.{key}", tx=tx, max=shown, pct=f"{r * 100:.0f}")
