"""The marking window, the one rule wherever an answer is judged
(guide/numbers-and-marking.md): centred on the key as printed (`centre`), never on the exact
value, with a half-width (`window`) that holds every value a student who
follows the worked method may write; `inside` is its one test."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Sequence

from .numbers import Written, exact_number, read_number, units_of

if TYPE_CHECKING:  # names only: the kinds import this module
    from ..mathlines import Num
    from ..model import Answer


def window(key: Num, method: Sequence[Fraction]) -> float:
    """Half-width of the marking window centred on the printed key: half a unit
    of its last place, widened to hold every value a student who follows the
    worked method may write (its result in full, and rounded like the key),
    rounded up to a hundredth of a unit, plus a tenth of a unit so that no
    accepted value sits on the edge of a floating-point comparison
    (guide/numbers-and-marking.md).  Counted in units of the key's last place."""
    k, power = units_of(key.mant, key.exp10)
    reach = 0.5
    up, down = (10**-power, 1) if power <= 0 else (1, 10**power)  # the scale 10^-power as up/down
    for m in method:
        # distance in units (float: far finer than a unit); m·scale as one
        # correctly rounded integer division
        x = (m.numerator * up) / (m.denominator * down) - k
        # rounded like the key (half away from zero); both neighbours at a near-tie
        r = [math.floor(abs(x) + 0.5)] if abs(abs(x) % 1 - 0.5) > 1e-6 else [math.floor(abs(x)), math.ceil(abs(x))]
        reach = max(reach, abs(x), *r)
    # rounded up to a hundredth of a unit, so answers.csv prints the window in
    # a few digits (0.00013, not 0.00011947484736175284); then (reach + 1/10)
    # · down/up correctly rounded, as one integer division
    hundredths = math.ceil(reach * 100 - 1e-6)
    return (hundredths + 10) * down / (100 * up)


def key_numbers(a: Answer) -> list[list[Written]]:
    if a.type == "numeric":
        return [[read_number(str(a.display))]]
    rows = a.display if a.display and isinstance(a.display[0], list) else [a.display]
    return [[read_number(x) for x in row] for row in rows]


def centre(a: Answer):
    """The centre of the marking window: the key as printed (a float, or a
    list of rows of floats for a vector).  One rule everywhere an answer is
    judged: the key ± `a.tolerance`, a window that holds the exact value and
    the result of the worked method (guide/numbers-and-marking.md)."""
    rows = [[n.value for n in row] for row in key_numbers(a)]
    return rows[0][0] if a.type == "numeric" else rows


def tolerance_rows(a: Answer, key: list[list[float]]) -> list[list[float]]:
    t = a.tolerance
    if isinstance(t, list) and t and isinstance(t[0], list):
        return t
    if isinstance(t, list):
        return [t]
    return [[t] * len(row) for row in key]


def inside(got: float, key: float, tol: float) -> bool:
    """The one test of the marking window, wherever an answer is judged (the
    practice script's `within` is this line): |got − key| ≤ tol, with a slack
    of a billionth of the tolerance itself for the rounding of the floats, and
    none besides — so a key of 2.65 × 10⁻²³ (tolerance 6 × 10⁻²⁶) is judged at
    its own scale and refuses 5 × 10⁻²³, 10⁻¹⁶, 0 and −2.65 × 10⁻²³, and a
    count (tolerance 0) only itself."""
    return abs(got - key) <= tol * (1 + 1e-9)


def inside_key(got, key, tol) -> bool:
    """Whether a (nested) vector of floats lies inside the window around the
    printed key (display strings, nested alike) in every component."""
    if isinstance(key, list):
        return len(got) == len(key) and all(inside_key(g, k, t) for g, k, t in zip(got, key, tol))
    return inside(got, float(exact_number(key)), tol)
