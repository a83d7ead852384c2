"""Scores and states as the kinds read them: typed or drawn inputs into
canonical strings (what a problem keeps), and back to exact rationals."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...inputs import number_text, parse_scores, parse_states


def states_input(raw, n: int):
    return [[number_text(v) for v in h] for h in parse_states(raw, n)]


def scores_input(raw):
    return [number_text(v) for v in parse_scores(raw)]


def rationals(values) -> list[Fraction]:
    """Canonical input strings back to exact rationals."""
    return [_fraction(v) for v in values]


@lru_cache(maxsize=8192)
def _fraction(text: str) -> Fraction:
    return Fraction(text)

