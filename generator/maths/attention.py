"""The attention recipe's maths (score → softmax → blend), exact beside its
float cross-check: the softmax with its exponentials and denominator, the
entropy of the weights, the context, and the exact questions the pages ask
of them (which position wins, which state the context is nearest, the
states' convex hull)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from . import exact
from . import numeric
from .exact import ExactReal

# Above this size exp() would overflow a float and swamp the page with
# digits, so the worked solution subtracts the largest score first.
SHIFT_ABOVE = 20


@dataclass(frozen=True)
class Softmax:
    scores: tuple[Fraction, ...]
    shift: Fraction  # subtracted from every score before exponentiating
    exps: tuple[ExactReal, ...]
    Z: ExactReal
    weights: tuple[ExactReal, ...]
    neg_log_weights: tuple[ExactReal, ...]  # −ln α_i, built from non-negative parts
    numeric: np.ndarray


def softmax(scores: Sequence[Fraction], scale: Fraction = Fraction(1)) -> Softmax:
    """Exact and numeric softmax of scale × scores."""
    s = [x if type(x) is Fraction else Fraction(x) for x in scores] if scale == 1 else [scale * x for x in scores]
    m, least = max(s), min(s)
    shift = m if max(m, -least) > SHIFT_ABOVE else Fraction(0)
    exps = tuple(exact.exp(ExactReal.of(x - shift if shift else x)) for x in s)
    Z = exact.total(exps)
    if m == least:
        # equal scores: every weight is exactly 1/Tx (symmetry), kept rational
        weights = tuple(ExactReal.of(Fraction(1, len(s))) for _ in s)
    else:
        weights = tuple(e / Z for e in exps)
    # −ln α_i = (m − s_i) + ln(1 + Σ_{j≠top} e^{s_j − m}): both parts are ≥ 0,
    # so nothing cancels even when one weight is within e^-2000 of 1.
    top = s.index(m)
    L = exact.log1p(exact.total(exact.exp(ExactReal.of(x - m)) for j, x in enumerate(s) if j != top))
    neg_logs = tuple(ExactReal.of(m - x) + L for x in s)
    return Softmax(tuple(s), shift, exps, Z, weights, neg_logs, numeric.softmax(float_gaps(s)))


def float_gaps(scores: Sequence[Fraction]) -> list[float]:
    """The numeric path's input: each score minus the largest, subtracted
    exactly and then made a float.  Floats of the scores themselves lose
    their gaps (−999999.99999 and −1000000 are 10⁻⁵ apart, but their floats
    carry errors of 10⁻¹⁰), which a max-subtracted softmax cannot restore."""
    m = max(scores)
    return [float(x - m) for x in scores]


def entropy(weights: Sequence[ExactReal], neg_log_weights: Sequence[ExactReal] | None = None) -> ExactReal:
    """H = Σ α (−ln α), a sum of non-negative terms (0 · ln 0 = 0)."""
    terms = []
    for i, a in enumerate(weights):
        if a.rat == 0:
            continue
        nl = neg_log_weights[i] if neg_log_weights is not None else -exact.log(a)
        terms.append(a * nl)
    return exact.total(terms)


def context(weights: Sequence[ExactReal], states: Sequence[Sequence[Fraction]]) -> list[ExactReal]:
    dim = len(states[0])
    return [exact.total(a * ExactReal.of(h[k]) for a, h in zip(weights, states)) for k in range(dim)]


def top_positions(values: Sequence[ExactReal | Fraction]) -> list[int]:
    """Every position that holds the largest value, ties decided exactly (floats
    pick the candidates; exact comparison only among near-equal ones).  For
    softmax weights pass the scores: the order is the same, and exact."""
    f = [float(v) for v in values]
    m = max(f)
    cand = [i for i, x in enumerate(f) if x >= m - 1e-9 * max(1.0, abs(m))]
    if len(cand) == 1:
        return cand
    cmp = (lambda a, b: (a > b) - (a < b)) if isinstance(values[0], Fraction) else exact.compare
    best = [cand[0]]
    for i in cand[1:]:
        c = cmp(values[i], values[best[0]])
        if c > 0:
            best = [i]
        elif c == 0:
            best.append(i)
    return best


def winner(sm: Softmax) -> int:
    """The position of the largest weight (the first of tied ones), decided
    exactly: floats cannot tell 1 from 1.00000000000000000001."""
    return top_positions(sm.scores)[0]


def lead(sm: Softmax) -> int | None:
    """The position of the one largest score; None when several tie for it."""
    tops = top_positions(sm.scores)
    return tops[0] if len(tops) == 1 else None


def nearest_state(c: Sequence[ExactReal], states) -> list[int]:
    """Positions of the states nearest to the context (squared distances in
    floats; exact only to decide a near-tie)."""
    cf = [float(x) for x in c]
    d = [sum((x - float(h[j])) ** 2 for j, x in enumerate(cf)) for h in states]
    m = min(d)
    near = [i for i, x in enumerate(d) if x <= m + 1e-9 * max(1.0, m)]
    if len(near) == 1:
        return near
    squared = [exact.total((ck - ExactReal.of(states[i][j])) * (ck - ExactReal.of(states[i][j])) for j, ck in enumerate(c))
             for i in near]
    return [near[i] for i in top_positions([-x for x in squared])]


def convex_hull(points: Sequence[Sequence[Fraction]]) -> list[tuple[Fraction, Fraction]]:
    """Exact convex hull (Andrew's monotone chain), counter-clockwise."""
    pts = sorted({(p[0], p[1]) for p in points})
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]

