"""Finding the student and question a response names (attndrills grade):
as written, else the one id that differs only in letter case, with a guess
at the id meant when none is found."""

from __future__ import annotations

import difflib
import re

from ..spreadsheet import read_cell


def _find_student(wanted: str, known: dict, by_case: dict[str, list[str]]) -> str | None:
    """A student id as written, else the one id that differs from it only in
    case; an id copied from answers.csv with its spreadsheet quote (`'=1+1`) is
    the id without it."""
    for w in dict.fromkeys((wanted, read_cell(wanted))):
        if w in known:
            return w
        same = by_case.get(w.casefold(), [])
        if len(same) == 1:
            return same[0]
    return None


def _find(wanted: str, known) -> str | None:
    """An id as written, else the one id that differs from it only in case."""
    if wanted in known:
        return wanted
    same = [k for k in known if k.casefold() == wanted.casefold()]
    return same[0] if len(same) == 1 else None


def _parts(wanted: str, labels: list[str]) -> str:
    """The labels a question number has ("2c" → "question 2 has 2a, 2b")."""
    number = re.match(r"\d+", wanted)
    same = [q for q in labels if number and re.match(r"\d+", q) and re.match(r"\d+", q)[0] == number[0]]
    return f" (question {number[0]} has {', '.join(same)})" if same else ""


def _close(wanted: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(wanted, candidates, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
