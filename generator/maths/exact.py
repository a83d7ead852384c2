"""The exact path.

An `ExactReal` is an exact real number held as a small expression tree over exact
rationals (exp, log, +, ×, ÷).  Rational arithmetic is folded exactly, so
equal scores give the weight 1/4 itself, not something close to it.  The
tree becomes a canonical sympy expression on demand (`ExactReal.sympy()`); display
strings come from rigorous interval evaluation (mpmath's interval
primitives): a value is rounded only when both ends of its enclosing
interval round to the same string, and the working precision rises until
they do.  Building sympy
objects eagerly costs milliseconds per problem; this keeps the exact answer
exact and the worked problem fast.
"""

from __future__ import annotations

import math

from fractions import Fraction
from typing import Iterable

from ._libmp import (fone as _ONE, from_rational as _from_rational, mpf_add as _mpf_add, mpf_log as _mpf_log,
                     mpi_add as _mpi_add, mpi_div as _mpi_div, mpi_exp as _mpi_exp, mpi_log as _mpi_log,
                     mpi_mul as _mpi_mul, round_ceiling as _CEILING, round_floor as _FLOOR,
                     round_nearest as _NEAREST, to_float as _to_float)

from ..errors import ProblemRejected
from .budget import sympy_budget
from ..mathlines import Num
from .rounding import format_fraction, format_ratio, rounding_key
from .ties import rational_value

_PRECISIONS = (96, 320, 1280)  # bits; each pass is tried only if the last was undecided


class ExactReal:
    """An exact real number: a rational leaf or an operation on ExactReal values."""

    __slots__ = ("op", "args", "rat", "_iv", "_sym", "_shown", "_float")

    def __init__(self, op: str, args: tuple = (), rat: Fraction | None = None):
        self.op = op
        self.args = args
        self.rat = rat
        self._iv: dict[int, object] = {}
        self._sym = None
        self._shown: dict[int, object] = {}  # digits → Num: a value is shown in many places
        self._float: float | None = None

    # -- construction -------------------------------------------------------
    @staticmethod
    def of(value: Fraction | int | str) -> "ExactReal":
        return ExactReal("rat", rat=value if type(value) is Fraction else Fraction(value))

    def __add__(self, other: "ExactReal | int") -> "ExactReal":
        other = _lift(other)
        if self.rat is not None and other.rat is not None:
            return ExactReal.of(self.rat + other.rat)
        if self.rat == 0:
            return other
        if other.rat == 0:
            return self
        return ExactReal("add", (self, other))

    __radd__ = __add__

    def __neg__(self) -> "ExactReal":
        if self.rat is not None:
            return ExactReal.of(-self.rat)
        return ExactReal("mul", (ExactReal.of(-1), self))

    def __sub__(self, other: "ExactReal | int") -> "ExactReal":
        return self + (-_lift(other))

    def __rsub__(self, other: "ExactReal | int") -> "ExactReal":
        return _lift(other) - self

    def __mul__(self, other: "ExactReal | int") -> "ExactReal":
        other = _lift(other)
        if self.rat is not None and other.rat is not None:
            return ExactReal.of(self.rat * other.rat)
        if self.rat == 1:
            return other
        if other.rat == 1:
            return self
        if self.rat == 0 or other.rat == 0:
            return ExactReal.of(0)
        return ExactReal("mul", (self, other))

    __rmul__ = __mul__

    def __truediv__(self, other: "ExactReal | int") -> "ExactReal":
        other = _lift(other)
        if other.rat == 0:
            raise ZeroDivisionError("exact division by zero")
        if self.rat is not None and other.rat is not None:
            return ExactReal.of(self.rat / other.rat)
        if other.rat == 1:
            return self
        return ExactReal("div", (self, other))

    def __rtruediv__(self, other: "ExactReal | int") -> "ExactReal":
        return _lift(other) / self

    # -- evaluation ---------------------------------------------------------
    def interval(self, prec: int) -> tuple:
        """Raw mpf ends (lower, upper) of an interval that certainly contains the exact value."""
        return _ev(self, prec)  # cached in self._iv, per precision

    def bounds(self, prec: int = _PRECISIONS[0]) -> tuple[Fraction, Fraction]:
        """Exact rational lower and upper bounds of the value."""
        if self.rat is not None:
            return self.rat, self.rat
        lo, hi = self.interval(prec)
        return _to_fraction(lo), _to_fraction(hi)

    def __float__(self) -> float:
        if self._float is None:
            self._float = self._to_float()
        return self._float

    def _to_float(self) -> float:
        if self.rat is not None:
            return float(self.rat)
        # like display, the float is decided once both ends of the interval agree
        for prec in _PRECISIONS:
            a, b = self.interval(prec)
            lo, hi = _raw_float(a), _raw_float(b)
            if lo == hi:
                return lo
        lo, hi = self.bounds(prec)
        return float((lo + hi) / 2)

    def sympy(self):
        """The canonical sympy expression of this value (built once)."""
        if self._sym is None:
            self._sym = _to_sympy(self)
        return self._sym

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"ExactReal({self.sympy()})"


def _sympy():
    import sympy

    return sympy


def _lift(x: "ExactReal | int | Fraction") -> ExactReal:
    return x if isinstance(x, ExactReal) else ExactReal.of(x)


def exp(x: ExactReal) -> ExactReal:
    if x.rat == 0:
        return ExactReal.of(1)
    return ExactReal("exp", (x,))


def log(x: ExactReal) -> ExactReal:
    if x.rat is not None and x.rat <= 0:
        raise ValueError("log of a non-positive number")
    if x.rat == 1:
        return ExactReal.of(0)
    return ExactReal("log", (x,))


def log1p(x: ExactReal) -> ExactReal:
    """ln(1 + x), kept accurate when x is tiny (ln Z when one score dominates)."""
    if x.rat == 0:
        return ExactReal.of(0)
    return ExactReal("log1p", (x,))


def total(xs: Iterable[ExactReal]) -> ExactReal:
    out = ExactReal.of(0)
    for x in xs:
        out = out + x
    return out


def _ev(x: ExactReal, prec: int) -> tuple:
    """The enclosing interval of x as a pair of raw mpf tuples, from mpmath's
    interval primitives (libmpi: each end rounded outwards) — what mpmath.iv
    computes, without its number objects (they cost more than the arithmetic)."""
    cached = x._iv.get(prec)
    if cached is not None:
        return cached
    op = x.op
    if op == "rat" or (op in ("exp", "log") and x.args[0].rat is not None):
        # a rational, or exp or ln of one: the same few recur in every problem
        key = (op, x.rat if op == "rat" else x.args[0].rat, prec)
        val = _LEAVES.get(key)
        if val is None:
            if len(_LEAVES) >= 16384:
                _LEAVES.clear()
            val = _LEAVES[key] = _leaf(op, key[1], prec)
    elif op == "exp":
        val = _mpi_exp(_ev(x.args[0], prec), prec)
    elif op == "log":
        val = _mpi_log(_ev(x.args[0], prec), prec)
    elif op == "log1p":  # log is increasing: 1 + each end exactly, then its log rounded outwards
        a, b = _ev(x.args[0], prec)
        val = (_mpf_log(_mpf_add(_ONE, a, 0), prec, _FLOOR), _mpf_log(_mpf_add(_ONE, b, 0), prec, _CEILING))
    elif op == "add":
        val = _mpi_add(_ev(x.args[0], prec), _ev(x.args[1], prec), prec)
    elif op == "mul":
        val = _mpi_mul(_ev(x.args[0], prec), _ev(x.args[1], prec), prec)
    elif op == "div":
        val = _mpi_div(_ev(x.args[0], prec), _ev(x.args[1], prec), prec)
    else:  # pragma: no cover - construction only makes the ops above
        raise AssertionError(op)
    x._iv[prec] = val
    return val


# -- checks -------------------------------------------------------------------

_CLOSE = 10**20  # a check's interval is narrower than 1/_CLOSE


def encloses(x: ExactReal, value: Fraction) -> bool:
    """x certainly equals `value` to 20 places: its enclosing interval holds
    the value and is narrower than 10^-20 (exact integer comparisons on the
    interval's ends)."""
    if x.rat is not None:
        return x.rat == value
    (ln, ld), (hn, hd) = (_ratio(e) for e in x.interval(_PRECISIONS[0]))
    p, q = value.numerator, value.denominator
    return ln * q <= p * ld and p * hd <= hn * q and (hn * ld - ln * hd) * _CLOSE < hd * ld


def agree(a: ExactReal, b: ExactReal) -> bool:
    """a and b certainly agree to 20 places: the interval of a − b (from the
    two enclosing intervals) holds 0 and is narrower than 10^-20."""
    if a.rat is not None and b.rat is not None:
        return a.rat == b.rat
    (aln, ald), (ahn, ahd) = (_ratio(e) for e in _ev(a, _PRECISIONS[0]))
    (bln, bld), (bhn, bhd) = (_ratio(e) for e in _ev(b, _PRECISIONS[0]))
    overlap = aln * bhd <= bhn * ald and bln * ahd <= ahn * bld  # a_lo ≤ b_hi and b_lo ≤ a_hi
    # (a_hi − a_lo) + (b_hi − b_lo) < 10^-20
    wa_n, wa_d = ahn * ald - aln * ahd, ahd * ald
    wb_n, wb_d = bhn * bld - bln * bhd, bhd * bld
    return overlap and (wa_n * wb_d + wb_n * wa_d) * _CLOSE < wa_d * wb_d


_LEAVES: dict[tuple, tuple] = {}


def _leaf(op: str, r: Fraction, prec: int) -> tuple:
    iv = (_from_rational(r.numerator, r.denominator, prec, _FLOOR),
          _from_rational(r.numerator, r.denominator, prec, _CEILING))
    if op == "exp":
        return _mpi_exp(iv, prec)
    if op == "log":
        return _mpi_log(iv, prec)
    return iv


def _to_sympy(x: ExactReal):
    import sympy as sp  # only for the JSON output's exact form and a tie at a rounding boundary

    op = x.op
    if op == "rat":
        return sp.Rational(x.rat.numerator, x.rat.denominator)
    args = [a.sympy() for a in x.args]
    if op == "exp":
        return sp.exp(args[0])
    if op == "log":
        return sp.log(args[0])
    if op == "log1p":
        return sp.log(1 + args[0])
    if op == "add":
        return args[0] + args[1]
    if op == "mul":
        return args[0] * args[1]
    return args[0] / args[1]


def _to_fraction(raw: tuple) -> Fraction:
    """The exact value of a raw mpf tuple (sign, mantissa, exponent, bits)."""
    return Fraction(*_ratio(raw))


def _ratio(raw: tuple) -> tuple[int, int]:
    """A raw mpf tuple as (numerator, denominator), not necessarily in lowest terms."""
    sign, man, e, _ = raw
    if sign:
        man = -man
    if e >= 0:
        return man << e, 1
    return man, 1 << -e


def _raw_float(raw: tuple) -> float:
    """The float nearest a raw mpf (ties to even), as float(Fraction) gives it;
    far from the subnormal range it is the mantissa rounded to 53 bits.  Past
    the largest float (exp(9999)) it is ±inf, as IEEE rounding gives it."""
    sign, man, e, bc = raw
    if not man or e + bc < -1000 or e + bc > 1000:
        try:
            return float(_to_fraction(raw))
        except OverflowError:
            return -math.inf if sign else math.inf
    return _to_float(raw, rnd=_NEAREST)


# -- display: an irrational value correctly rounded (rationals: rounding.py) --


def shown(x: ExactReal, digits: int) -> Num:
    """The correctly rounded display of an exact value (computed once per digits)."""
    got = x._shown.get(digits)
    if got is None:
        got = x._shown[digits] = _shown(x, digits)
    return got


def _shown(x: ExactReal, digits: int) -> Num:
    if x.rat is not None:
        return format_fraction(x.rat, digits)
    for prec in _PRECISIONS:
        a, b = x.interval(prec)
        lo, hi = _ratio(a), _ratio(b)
        if rounding_key(*lo, digits) == rounding_key(*hi, digits):
            return format_ratio(*lo, digits)
    # An irrational value this close to a rounding boundary does not occur
    # for these expressions; a rational one hidden in the tree (weights that
    # add to 1) is found by collecting terms, else decided by sympy itself.
    r = rational_value(x)
    if r is not None:
        return format_fraction(r, digits)
    with sympy_budget("deciding a rounding tie exactly"):
        s = _sympy().nsimplify(x.sympy())
    if s.is_Rational:
        return format_fraction(Fraction(int(s.p), int(s.q)), digits)
    raise ProblemRejected("a value lies too close to a rounding boundary to print it")


def shown_xlogx(x: Fraction, digits: int) -> Num:
    """x ln x correctly rounded for display."""
    if x == 1:
        return format_fraction(Fraction(0), digits)
    e = ExactReal.of(x)
    return _shown(e * log(e), digits)


def shown_log(x: Fraction, digits: int) -> Num:
    """ln x correctly rounded for display."""
    if x == 1:
        return format_fraction(Fraction(0), digits)
    return _shown(log(ExactReal.of(x)), digits)


def sign(x: ExactReal) -> int:
    """-1, 0 or 1, decided exactly."""
    if x.rat is not None:
        return (x.rat > 0) - (x.rat < 0)
    for prec in _PRECISIONS:
        a, b = x.interval(prec)
        if not a[0] and a[1]:  # the lower end is positive
            return 1
        if b[0] and b[1]:  # the upper end is negative
            return -1
    r = rational_value(x)  # an exact tie: the same terms on both sides
    if r is not None:
        return (r > 0) - (r < 0)
    with sympy_budget("deciding a sign exactly"):
        s = _sympy().nsimplify(x.sympy())
    return int(_sympy().sign(s))


def compare(a: ExactReal, b: ExactReal) -> int:
    """sign(a - b), decided exactly."""
    return sign(a - b)
