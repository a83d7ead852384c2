"""The exact path.

An `Ex` is an exact real number held as a small expression tree over exact
rationals (exp, log, +, ×, ÷).  Rational arithmetic is folded exactly, so
equal scores give the weight 1/4 itself, not something close to it.  The
tree becomes a canonical sympy expression on demand (`Ex.sympy()`); display
strings come from rigorous interval evaluation (mpmath.iv): a value is
rounded only when both ends of its enclosing interval round to the same
string, and the working precision rises until they do.  Building sympy
objects eagerly costs milliseconds per problem; this keeps the exact answer
exact and the worked problem fast.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

import mpmath

from ..errors import ProblemRejected
from .budget import sympy_budget
from ..mathlines import Num

_PRECISIONS = (96, 320, 1280)  # bits; each pass is tried only if the last was undecided


class Ex:
    """An exact real number: a rational leaf or an operation on Ex values."""

    __slots__ = ("op", "args", "rat", "_iv", "_sym", "_shown")

    def __init__(self, op: str, args: tuple = (), rat: Fraction | None = None):
        self.op = op
        self.args = args
        self.rat = rat
        self._iv: dict[int, object] = {}
        self._sym = None
        self._shown: dict[int, object] = {}  # digits → Num: a value is shown in many places

    # -- construction -------------------------------------------------------
    @staticmethod
    def of(value: Fraction | int | str) -> "Ex":
        return Ex("rat", rat=Fraction(value))

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
    def interval(self, prec: int):
        """An mpmath interval that certainly contains the exact value."""
        got = self._iv.get(prec)
        if got is None:
            got = _evaluate(self, prec)
            self._iv[prec] = got
        return got

    def bounds(self, prec: int = _PRECISIONS[0]) -> tuple[Fraction, Fraction]:
        """Exact rational lower and upper bounds of the value."""
        if self.rat is not None:
            return self.rat, self.rat
        lo, hi = self.interval(prec)._mpi_
        return _to_fraction(lo), _to_fraction(hi)

    def __float__(self) -> float:
        if self.rat is not None:
            return float(self.rat)
        # like display, the float is decided once both ends of the interval agree
        for prec in _PRECISIONS:
            lo, hi = self.bounds(prec)
            if float(lo) == float(hi):
                return float(lo)
        return float((lo + hi) / 2)

    def sympy(self) -> sp.Expr:
        """The canonical sympy expression of this value (built once)."""
        if self._sym is None:
            self._sym = _to_sympy(self)
        return self._sym

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Ex({self.sympy()})"


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


def _evaluate(x: Ex, prec: int):
    iv = mpmath.iv
    old = iv.prec
    iv.prec = prec
    try:
        return _ev(x, prec, iv)
    finally:
        iv.prec = old


def _ev(x: Ex, prec: int, iv):
    cached = x._iv.get(prec)
    if cached is not None:
        return cached
    op = x.op
    if op == "rat":
        r = x.rat
        val = iv.mpf(r.numerator) / r.denominator
    elif op == "exp":
        val = iv.exp(_ev(x.args[0], prec, iv))
    elif op == "log":
        val = iv.log(_ev(x.args[0], prec, iv))
    elif op == "log1p":
        val = iv.log1p(_ev(x.args[0], prec, iv))
    elif op == "add":
        val = _ev(x.args[0], prec, iv) + _ev(x.args[1], prec, iv)
    elif op == "mul":
        val = _ev(x.args[0], prec, iv) * _ev(x.args[1], prec, iv)
    elif op == "div":
        val = _ev(x.args[0], prec, iv) / _ev(x.args[1], prec, iv)
    else:  # pragma: no cover - construction only makes the ops above
        raise AssertionError(op)
    x._iv[prec] = val
    return val


def _to_sympy(x: Ex) -> sp.Expr:
    import sympy as sp  # here, not at the top: most solutions never need a sympy object

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
    sign, man, e, _ = raw
    if sign:
        man = -man
    if e >= 0:
        return Fraction(man * (1 << e))
    return Fraction(man, 1 << -e)


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
    num, den = f.numerator, f.denominator
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
        a, b = x.bounds(prec)
        lo = format_fraction(a, digits)
        hi = format_fraction(b, digits)
        if lo == hi:
            return lo
    # An irrational value this close to a rounding boundary does not occur
    # for these expressions; a rational one hidden in the tree is decided by
    # sympy itself.
    import sympy as sp

    with sympy_budget("deciding a rounding tie exactly"):
        s = sp.nsimplify(x.sympy())
    if s.is_Rational:
        return format_fraction(Fraction(int(s.p), int(s.q)), digits)
    raise ProblemRejected("a value lies too close to a rounding boundary to print it")


def shown_xlogx(x: Fraction, digits: int) -> Num:
    """x ln x correctly rounded for display (see `_shown_fast`)."""
    if x == 1:
        return format_fraction(Fraction(0), digits)
    e = Ex.of(x)
    return _shown_fast(lambda m: m * mpmath.log(m), x, lambda: e * log(e), digits)


def shown_log(x: Fraction, digits: int) -> Num:
    """ln x correctly rounded for display (see `_shown_fast`)."""
    if x == 1:
        return format_fraction(Fraction(0), digits)
    return _shown_fast(mpmath.log, x, lambda: log(Ex.of(x)), digits)


def _shown_fast(f, x: Fraction, exact, digits: int) -> Num:
    """f(x) at 40 digits, rounded for display when it is not within 10^-30
    (relative) of a rounding boundary — a transcendental value of a rational
    never lies on one — else through the rigorous interval path of `exact()`."""
    with mpmath.workdps(40):
        v = f(mpmath.mpf(x.numerator) / x.denominator)
        near = Fraction(mpmath.nstr(v, 38, min_fixed=-mpmath.inf, max_fixed=mpmath.inf, strip_zeros=False))
    slack = Fraction(1, 10**30) * max(1, abs(near))
    lo, hi = format_fraction(near - slack, digits), format_fraction(near + slack, digits)
    return lo if lo == hi else shown(exact(), digits)


def sign(x: Ex) -> int:
    """-1, 0 or 1, decided exactly."""
    if x.rat is not None:
        return (x.rat > 0) - (x.rat < 0)
    for prec in _PRECISIONS:
        a, b = x.bounds(prec)
        if a > 0:
            return 1
        if b < 0:
            return -1
    import sympy as sp

    with sympy_budget("deciding a sign exactly"):
        s = sp.nsimplify(x.sympy())
    return int(sp.sign(s))


def compare(a: Ex, b: Ex) -> int:
    """sign(a - b), decided exactly."""
    return sign(a - b)
