"""An independent line checker: reads every maths line of a solution from its
data (the nodes, numbers as printed) and recomputes each result from the
printed operands, as a student with a calculator would.

A relation `a = b` between two parts that hold no symbol is checked:
- b a printed number (or a tuple/vector of them): b is a(printed operands)
  rounded to b's printed places (half a unit in b's last place, ends
  included);
- a and b of the same shape (a sum of as many terms, a product of as many
  factors …): part by part, so `0.5 (2) + 0.5 (4) = 1 + 2` checks each term;
- otherwise: the two sides are equal.
`≈` and the order relations are not checked as equalities (a line that says
≈ makes no claim of equality); ≤ < ≥ > are checked as written.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from generator.mathlines import (Add, Args, Call, Chain, Frac, Infinity, Lim, Mul, Neg, Node, Num, Paren,
                                 Pow, Seq, SumOver, Sym, Text, Tup, Vec)
from generator.model import Solution

mpmath.mp.dps = 60


class NotNumeric(Exception):
    """The part holds a symbol: a student cannot redo it with a calculator."""


def value(node: Node):
    """The value of a part from its printed numbers (mpf, or a tuple for vectors)."""
    if isinstance(node, Num):
        v = mpmath.mpf(node.mant)
        return v * mpmath.mpf(10) ** node.exp10 if node.exp10 is not None else v
    if isinstance(node, Neg):
        return _neg(value(node.arg))
    if isinstance(node, Paren):
        return value(node.arg)
    if isinstance(node, Add):
        out = value(node.terms[0])
        for t in node.terms[1:]:
            out = _add(out, value(t))
        return out
    if isinstance(node, Mul):
        out = value(node.factors[0])
        for f in node.factors[1:]:
            out = _mul(out, value(f))
        return out
    if isinstance(node, Frac):
        return value(node.num) / value(node.den)
    if isinstance(node, Pow):
        return value(node.base) ** value(node.exp)
    if isinstance(node, Call) and node.fn in ("exp", "ln"):
        x = value(node.arg)
        return mpmath.exp(x) if node.fn == "exp" else mpmath.log(x)
    if isinstance(node, (Vec, Tup)):
        return tuple(value(i) for i in node.items)
    raise NotNumeric(type(node).__name__)


def _neg(x):
    return tuple(-v for v in x) if isinstance(x, tuple) else -x


def _add(a, b):
    if isinstance(a, tuple):
        return tuple(x + y for x, y in zip(a, b, strict=True))
    return a + b


def _mul(a, b):
    if isinstance(a, tuple):
        return tuple(x * b for x in a)
    if isinstance(b, tuple):
        return tuple(a * y for y in b)
    return a * b


def half_ulp(n: Num):
    places = len(n.mant.split(".")[1]) if "." in n.mant else 0
    exp10 = n.exp10 or 0
    return mpmath.mpf(10) ** (exp10 - places) / 2


def _printed(node: Node) -> Num | None:
    """The number itself where a part is one printed number ((−3.2545) too)."""
    while isinstance(node, Paren):
        node = node.arg
    if isinstance(node, Num):
        return node
    if isinstance(node, Neg) and isinstance(node.arg, Num):
        return node.arg
    return None


@dataclass
class Failure:
    line: Node
    left: Node
    right: Node
    why: str


def closes(a: Node, b: Node) -> str | None:
    """None when `a = b` holds as printed, else why not."""
    n = _printed(b)
    if n is not None:
        want = value(a)
        got = value(b)
        if isinstance(want, tuple):
            return "a number equals a vector"
        if abs(want - got) > half_ulp(n) * (1 + mpmath.mpf(10) ** -30):
            return f"{mpmath.nstr(want, 12)} does not round to {got}"
        return None
    if type(a) is type(b) and not isinstance(a, Num):
        kids_a, kids_b = _children(a), _children(b)
        if kids_a is not None and len(kids_a) == len(kids_b):
            whys = [None if x == y else closes(x, y) for x, y in zip(kids_a, kids_b)]
            if not any(whys):
                return None
            if not isinstance(a, Frac):  # -3/1.3 = -30/13: equal as fractions
                return next(w for w in whys if w)
    va, vb = value(a), value(b)
    if isinstance(va, tuple) or isinstance(vb, tuple):
        if not (isinstance(va, tuple) and isinstance(vb, tuple) and len(va) == len(vb)):
            return "vectors of different sizes"
        bad = [i for i, (x, y) in enumerate(zip(va, vb)) if abs(x - y) > mpmath.mpf(10) ** -40]
        return f"components {bad} differ" if bad else None
    if abs(va - vb) > mpmath.mpf(10) ** -40 * max(1, abs(va)):
        return f"{mpmath.nstr(va, 12)} ≠ {mpmath.nstr(vb, 12)}"
    return None


def _children(node: Node):
    if isinstance(node, Add):
        return node.terms
    if isinstance(node, Mul):
        return node.factors
    if isinstance(node, (Vec, Tup)):
        return node.items
    if isinstance(node, (Neg, Paren)):
        return (node.arg,)
    if isinstance(node, Frac):
        return (node.num, node.den)
    if isinstance(node, Call):
        return (node.arg,) if node.fn in ("exp", "ln") else None
    return None


_ORDER = {"≤": lambda a, b: a <= b, "<": lambda a, b: a < b, "≥": lambda a, b: a >= b, ">": lambda a, b: a > b}


def check_chain(c: Chain) -> list[str]:
    out = []
    parts = [c.first] + [n for _, n in c.rest]
    rels = [r for r, _ in c.rest]
    # a printed result must also be the rounding of every part before it in
    # an unbroken run of "=": a ln(a) = a (−0.1863) = −0.1546 claims both
    for j, b in enumerate(parts[1:], start=1):
        if _printed(b) is None:
            continue
        for i in range(j - 1, -1, -1):
            if rels[i] != "=":
                break
            if i == j - 1:
                continue  # the adjacent pair is checked below
            try:
                why = closes(parts[i], b)
            except NotNumeric:
                break
            if why:
                out.append(why)
    for a, rel, b in zip(parts, rels, parts[1:]):
        try:
            if rel == "=":
                why = closes(a, b)
            elif rel in _ORDER:
                va, vb = value(a), value(b)
                why = None if _ORDER[rel](va, vb) else f"{va} {rel} {vb} is false"
            else:
                continue
        except NotNumeric:
            continue
        if why:
            out.append(why)
    return out


def chains(node: Node):
    """Every Chain inside a node (lines, and the equalities of a Seq)."""
    if isinstance(node, Chain):
        yield node
        for _, n in node.rest:
            yield from chains(n)
        yield from chains(node.first)
    elif isinstance(node, (Seq, Args, Vec, Tup)):
        for i in node.items:
            yield from chains(i)


def paragraphs(solution: Solution):
    """Every paragraph of prose a student reads: question, Forecast, steps,
    Verify, recall cards."""
    yield from solution.question
    yield solution.forecast
    for s in solution.steps:
        yield from (*s.body, s.why, *s.after)
    for c in solution.checks:
        yield c.line
    for front, back in solution.recall:
        yield from (front, back)


def lines(solution: Solution):
    """Every maths node a student reads in the solution (prose and steps' display lines)."""
    for para in paragraphs(solution):
        yield from (p for p in para if isinstance(p, Node))
    for s in solution.steps:
        yield from s.math


def failures(solution: Solution) -> list[tuple[str, str]]:
    from generator.render.latex import latex

    out = []
    for node in lines(solution):
        for c in chains(node):
            for why in check_chain(c):
                out.append((latex(c), why))
    return out
