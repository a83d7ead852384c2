"""Exact ties without sympy.

A value is written as a linear form: rational coefficients of canonical
terms (exp, log and products of non-rational values, and quotients by a
non-rational denominator), the empty key holding the rational part.  Terms
over one denominator D whose numerators add up to t·D count as the
rational t (the weights exp(s_i)/Z add to 1).  When every term cancels,
the value is exactly that rational — how an exact tie (two equal weights,
a sum of weights against 1) is decided without sympy."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .exact import ExactReal


def rational_value(x: ExactReal) -> Fraction | None:
    """x's exact value if collecting its terms leaves a rational, else None."""
    form = _collect(_linear(x))
    if all(c == 0 for k, c in form.items() if k != ()):
        return form.get((), Fraction(0))
    return None


def _canon(x: ExactReal) -> tuple:
    form = _collect(_linear(x))
    return tuple(sorted(((k, c) for k, c in form.items() if c != 0), key=repr))


def _collect(form: dict) -> dict:
    """Terms over one denominator whose numerators make t times it become t."""
    groups: dict = {}
    for k, c in form.items():
        if k and k[0] == "div":
            groups.setdefault(k[2], {})[k[1]] = c
    out = dict(form)
    for den, num in groups.items():
        t = _ratio_of(num, dict(den))
        if t is not None:
            for k in num:
                del out[("div", k, den)]
            out[()] = out.get((), Fraction(0)) + t
    return out


def _linear(x: ExactReal) -> dict:
    op = x.op
    if op == "rat":
        return {(): x.rat}
    if op in ("exp", "log", "log1p"):
        return {(op, _canon(x.args[0])): Fraction(1)}
    a, b = x.args
    if op == "add":
        out = dict(_linear(a))
        for k, c in _linear(b).items():
            out[k] = out.get(k, 0) + c
        return out
    if op == "mul":
        if a.rat is not None or b.rat is not None:
            r, y = (a.rat, b) if a.rat is not None else (b.rat, a)
            return {k: r * c for k, c in _linear(y).items()}
        return {("mul",) + tuple(sorted((_canon(a), _canon(b)), key=repr)): Fraction(1)}
    # div
    if b.rat is not None:
        return {k: c / b.rat for k, c in _linear(a).items()}
    den = _linear(b)
    num = _linear(a)
    key = _canon(b)
    ratio = _ratio_of(num, den)
    if ratio is not None:
        return {(): ratio}
    return {("div", k, key): c for k, c in num.items()}


def _ratio_of(num: dict, den: dict) -> Fraction | None:
    """t if the form num is t times the form den, else None."""
    num = {k: c for k, c in num.items() if c != 0}
    den = {k: c for k, c in den.items() if c != 0}
    if not den or num.keys() != den.keys():
        return None if num or not den else Fraction(0)
    k0 = next(iter(den))
    t = num[k0] / den[k0]
    return t if all(num[k] == t * c for k, c in den.items()) else None
