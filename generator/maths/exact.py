"""The exact path.

An `Ex` is an exact real number held as a small expression tree over exact
rationals (exp, log, +, ×, ÷).  Rational arithmetic is folded exactly, so
equal scores give the weight 1/4 itself, not something close to it.  The
tree becomes a canonical sympy expression on demand (`Ex.sympy()`); display
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

_PRECISIONS = (96, 320, 1280)  # bits; each pass is tried only if the last was undecided


class Ex:
    """An exact real number: a rational leaf or an operation on Ex values."""

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
    def of(value: Fraction | int | str) -> "Ex":
        return Ex("rat", rat=value if type(value) is Fraction else Fraction(value))

    def __add__(self, other: "Ex | int") -> "Ex":
        other = _lift(other)
        if self.rat is not None and other.rat is not None:
            return Ex.of(self.rat + other.rat)
        if self.rat == 0:
            return other
        if other.rat == 0:
            return self
        return Ex("add", (self, other))

    __radd__ = __add__

    def __neg__(self) -> "Ex":
        if self.rat is not None:
            return Ex.of(-self.rat)
        return Ex("mul", (Ex.of(-1), self))

    def __sub__(self, other: "Ex | int") -> "Ex":
        return self + (-_lift(other))

    def __rsub__(self, other: "Ex | int") -> "Ex":
        return _lift(other) - self

    def __mul__(self, other: "Ex | int") -> "Ex":
        other = _lift(other)
        if self.rat is not None and other.rat is not None:
            return Ex.of(self.rat * other.rat)
        if self.rat == 1:
            return other
        if other.rat == 1:
            return self
        if self.rat == 0 or other.rat == 0:
            return Ex.of(0)
        return Ex("mul", (self, other))

    __rmul__ = __mul__

    def __truediv__(self, other: "Ex | int") -> "Ex":
        other = _lift(other)
        if other.rat == 0:
            raise ZeroDivisionError("exact division by zero")
        if self.rat is not None and other.rat is not None:
            return Ex.of(self.rat / other.rat)
        if other.rat == 1:
            return self
        return Ex("div", (self, other))

    def __rtruediv__(self, other: "Ex | int") -> "Ex":
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
        return f"Ex({self.sympy()})"


def _sympy():
    import sympy

    return sympy


def _lift(x: "Ex | int | Fraction") -> Ex:
    return x if isinstance(x, Ex) else Ex.of(x)


def exp(x: Ex) -> Ex:
    if x.rat == 0:
        return Ex.of(1)
    return Ex("exp", (x,))


def log(x: Ex) -> Ex:
    if x.rat is not None and x.rat <= 0:
        raise ValueError("log of a non-positive number")
    if x.rat == 1:
        return Ex.of(0)
    return Ex("log", (x,))


def log1p(x: Ex) -> Ex:
    """ln(1 + x), kept accurate when x is tiny (ln Z when one score dominates)."""
    if x.rat == 0:
        return Ex.of(0)
    return Ex("log1p", (x,))


def total(xs: Iterable[Ex]) -> Ex:
    out = Ex.of(0)
    for x in xs:
        out = out + x
    return out


def _ev(x: Ex, prec: int) -> tuple:
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


def encloses(x: Ex, value: Fraction) -> bool:
    """x certainly equals `value` to 20 places: its enclosing interval holds
    the value and is narrower than 10^-20 (exact integer comparisons on the
    interval's ends)."""
    if x.rat is not None:
        return x.rat == value
    (ln, ld), (hn, hd) = (_ratio(e) for e in x.interval(_PRECISIONS[0]))
    p, q = value.numerator, value.denominator
    return ln * q <= p * ld and p * hd <= hn * q and (hn * ld - ln * hd) * _CLOSE < hd * ld


def agree(a: Ex, b: Ex) -> bool:
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


def _to_sympy(x: Ex):
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


# -- rounding ---------------------------------------------------------------

# Numbers of 10⁶ and more are shown in scientific notation as well
# (exp(20) = 485165195.4098 is more readable as 4.85 × 10⁸).


def round_half_up(f: Fraction) -> int:
    """Nearest integer, ties away from zero (as a calculator rounds)."""
    sign = -1 if f < 0 else 1
    a = abs(f)
    n = a.numerator * 2 + a.denominator
    return sign * (n // (2 * a.denominator))


def format_fraction(f: Fraction, digits: int) -> Num:
    """Correctly round an exact rational for display with `digits` places.

    Values below 10^-digits (and at or above 10^6) are shown in scientific
    notation with three significant digits.  (Integer arithmetic on numerator
    and denominator: this runs for every printed number.)
    """
    return _format_ratio(f.numerator, f.denominator, digits)


def _format_ratio(num: int, den: int, digits: int) -> Num:
    """format_fraction of num/den (den > 0; not necessarily in lowest terms)."""
    if num == 0:
        return Num("0." + "0" * digits if digits else "0")
    a = -num if num < 0 else num
    scale = 10**digits
    if a * scale < den or a >= 1_000_000 * den:
        k = _floor_log10(Fraction(a, den))
        m = round_half_up(Fraction(a, den) / Fraction(10) ** k * 100)  # three significant digits
        if m >= 1000:
            m //= 10
            k += 1
        sign = "-" if num < 0 else ""
        return Num(f"{sign}{m // 100}.{m % 100:02d}", k)
    q = (2 * a * scale + den) // (2 * den)  # nearest, ties away from zero
    sign = "-" if num < 0 else ""
    if digits == 0:
        return Num(f"{sign}{q}")
    whole, frac = divmod(q, scale)
    return Num(f"{sign}{whole}.{frac:0{digits}d}")


def _rounded(num: int, den: int, digits: int):
    """Equal for two ratios exactly when `_format_ratio` shows them alike
    (cheap where it matters: fixed-point numbers are compared as integers)."""
    a = -num if num < 0 else num
    scale = 10**digits
    if num == 0 or a * scale < den or a >= 1_000_000 * den:
        return _format_ratio(num, den, digits)
    return num < 0, (2 * a * scale + den) // (2 * den)


def _floor_log10(a: Fraction) -> int:
    # estimate from bit lengths (str() of a 10^4000-sized integer is refused), then correct
    k = int((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    while Fraction(10) ** k > a:
        k -= 1
    while Fraction(10) ** (k + 1) <= a:
        k += 1
    return k


def shown(x: Ex, digits: int) -> Num:
    """The correctly rounded display of an exact value (computed once per digits)."""
    got = x._shown.get(digits)
    if got is None:
        got = x._shown[digits] = _shown(x, digits)
    return got


def _shown(x: Ex, digits: int) -> Num:
    if x.rat is not None:
        return format_fraction(x.rat, digits)
    for prec in _PRECISIONS:
        a, b = x.interval(prec)
        lo, hi = _ratio(a), _ratio(b)
        if _rounded(*lo, digits) == _rounded(*hi, digits):
            return _format_ratio(*lo, digits)
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
    e = Ex.of(x)
    return _shown(e * log(e), digits)


def shown_log(x: Fraction, digits: int) -> Num:
    """ln x correctly rounded for display."""
    if x == 1:
        return format_fraction(Fraction(0), digits)
    return _shown(log(Ex.of(x)), digits)


def sign(x: Ex) -> int:
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


# -- exact ties without sympy -------------------------------------------------
#
# A value is written as a linear form: rational coefficients of canonical
# terms (exp, log and products of non-rational values, and quotients by a
# non-rational denominator), the empty key holding the rational part.  Terms
# over one denominator D whose numerators add up to t·D count as the
# rational t (the weights exp(s_i)/Z add to 1).  When every term cancels,
# the value is exactly that rational — how an exact tie (two equal weights,
# a sum of weights against 1) is decided without sympy.


def rational_value(x: Ex) -> Fraction | None:
    """x's exact value if collecting its terms leaves a rational, else None."""
    form = _collect(_linear(x))
    if all(c == 0 for k, c in form.items() if k != ()):
        return form.get((), Fraction(0))
    return None


def _canon(x: Ex) -> tuple:
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


def _linear(x: Ex) -> dict:
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


def compare(a: Ex, b: Ex) -> int:
    """sign(a - b), decided exactly."""
    return sign(a - b)
