"""Every answer is computed twice; the two paths must agree or the problem
is rejected (DESIGN.md, "Numbers")."""

from __future__ import annotations

import math

from ..errors import ProblemRejected

ABS_TOL = 1e-12
REL_TOL = 1e-9
_TINY = 2.2250738585072014e-308  # below this a float has underflowed


def agree(name: str, exact: float, numeric: float) -> None:
    """Raise ProblemRejected unless the exact and numeric values agree.

    Absolute agreement is 1e-12 in units of max(1, |value|): exactly 1e-12
    for weights and entropies, and no stricter than float64 can be for a
    denominator of 10^4 (whose last bit is worth 2e-12).  Relative agreement
    is 1e-9 wherever neither value has underflowed.
    """
    if not math.isfinite(numeric):
        raise ProblemRejected(f"the numeric path overflowed for {name}")
    diff = abs(exact - numeric)
    if diff > ABS_TOL * max(1.0, abs(exact)):
        raise ProblemRejected(
            f"exact and numeric values of {name} disagree ({exact!r} vs {numeric!r})"
        )
    scale = max(abs(exact), abs(numeric))
    if scale >= _TINY and min(abs(exact), abs(numeric)) >= _TINY and diff > REL_TOL * scale:
        raise ProblemRejected(
            f"exact and numeric values of {name} disagree in relative terms "
            f"({exact!r} vs {numeric!r})"
        )
