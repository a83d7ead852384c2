"""Exact rationals correctly rounded for display: a printed number is the
value rounded half away from zero (as a calculator rounds) to the given
places, or to three significant digits in scientific notation where fixed
places would show nothing or too much.

Numbers of 10⁶ and more are shown in scientific notation as well
(exp(20) = 485165195.4098 is more readable as 4.85 × 10⁸)."""

from __future__ import annotations

from fractions import Fraction

from ..mathlines import Num


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
    return format_ratio(f.numerator, f.denominator, digits)


def format_ratio(num: int, den: int, digits: int) -> Num:
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


def rounding_key(num: int, den: int, digits: int):
    """Equal for two ratios exactly when `format_ratio` shows them alike
    (cheap where it matters: fixed-point numbers are compared as integers)."""
    a = -num if num < 0 else num
    scale = 10**digits
    if num == 0 or a * scale < den or a >= 1_000_000 * den:
        return format_ratio(num, den, digits)
    return num < 0, (2 * a * scale + den) // (2 * den)


def _floor_log10(a: Fraction) -> int:
    # estimate from bit lengths (str() of a 10^4000-sized integer is refused), then correct
    k = int((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    while Fraction(10) ** k > a:
        k -= 1
    while Fraction(10) ** (k + 1) <= a:
        k += 1
    return k

