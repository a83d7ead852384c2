"""Every answer is computed twice; the two paths must agree or the problem
is rejected (DESIGN.md, "Numbers")."""

from __future__ import annotations

import math

from ..errors import ProblemRejected

ABS_TOL = 1e-12
REL_TOL = 1e-9
_TINY = 2.2250738585072014e-308  # below this a float has underflowed
_EPS = 2.220446049250313e-16  # a float64's relative spacing
_ULPS = 8  # rounding steps allowed a difference taken in floats


def cancellation_error(cancelled: float) -> float:
    """The rounding error a float difference of two numbers of size
    `cancelled` may carry (a few units of their last bit)."""
    return _ULPS * _EPS * cancelled


def agree(name: str, exact: float, numeric: float, *, cancelled: float = 0.0) -> bool:
    """Raise ProblemRejected unless the exact and numeric values agree.

    Absolute agreement is 1e-12 in units of max(1, |value|): exactly 1e-12
    for weights and entropies, and no stricter than float64 can be for a
    denominator of 10^4 (whose last bit is worth 2e-12).  Relative agreement
    is 1e-9 wherever neither value has underflowed.

    `cancelled` is the size of the terms the numeric path subtracted to get
    the value (an entropy drop ln Tx − H): its result then carries an error of
    a few units of their last bit, which no float can avoid.  Where that error
    is larger than the relative tolerance of a tiny value (and the two paths
    agree within it), the numeric path cannot decide the value's digits:
    False is returned (the check is skipped, and the page says so) instead
    of rejecting a problem the exact path solves.  True when they agree.
    """
    reach = cancellation_error(cancelled)
    if not math.isfinite(numeric):
        raise ProblemRejected(f"the numeric path overflowed for {name}")
    diff = abs(exact - numeric)
    if diff > max(ABS_TOL * max(1.0, abs(exact)), reach):
        raise ProblemRejected(
            f"exact and numeric values of {name} disagree ({exact!r} vs {numeric!r})"
        )
    if reach > REL_TOL * abs(exact):
        return False
    scale = max(abs(exact), abs(numeric))
    if scale >= _TINY and min(abs(exact), abs(numeric)) >= _TINY and diff > REL_TOL * scale:
        raise ProblemRejected(
            f"exact and numeric values of {name} disagree in relative terms "
            f"({exact!r} vs {numeric!r})"
        )
    return True
