"""Every answer is computed twice; the two paths must agree or the problem
is rejected (DESIGN.md, "Numbers")."""

from __future__ import annotations

import math

from ..errors import ProblemRejected

ABS_TOL = 1e-12
REL_TOL = 1e-9
_TINY = 2.2250738585072014e-308  # below this a float has underflowed


def agree(name: str, exact: float, numeric: float) -> None:
    """Raise ProblemRejected unless the exact and numeric values agree."""
    if not math.isfinite(numeric):
        raise ProblemRejected(f"the numeric path overflowed for {name}")
    diff = abs(exact - numeric)
    if diff > ABS_TOL:
        raise ProblemRejected(
            f"exact and numeric values of {name} disagree ({exact!r} vs {numeric!r})"
        )
    scale = max(abs(exact), abs(numeric))
    if scale >= _TINY and min(abs(exact), abs(numeric)) >= _TINY and diff > REL_TOL * scale:
        raise ProblemRejected(
            f"exact and numeric values of {name} disagree in relative terms "
            f"({exact!r} vs {numeric!r})"
        )
