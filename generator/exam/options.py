"""The option letters of a choice question, (A) to (J), and the lines that
print its options and its key: one alphabet for the papers, the pages, Moodle
and the marking of a letter."""

from __future__ import annotations

from typing import Sequence

from ..model import Option, Prose, prose
from ..text import Sayer

LETTERS = "ABCDEFGHIJ"


def option_lines(options: Sequence[Option]) -> list[Prose]:
    """The options of a choice question as paragraphs “(A) …”; a symbol
    written in an option (s_{t-1}, α_ti) is typeset as the question's are."""
    return [prose(f"({LETTERS[i]}) {o.text}") for i, o in enumerate(options)]


def key_line(options: Sequence[Option]) -> Prose:
    keys = [f"({LETTERS[i]}) {o.text}" for i, o in enumerate(options) if o.correct]
    return Sayer("ui")("problem.key_line", keys="; ".join(keys))
