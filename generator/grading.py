"""Which answers of a problem are graded, how they are written in answers.csv
and keys, how a response is read, and how it is marked — with the
misconception a wrong response matches."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .misconceptions import describe
from .model import Answer, Solution

STANDARD = ("weights", "context", "entropy", "count")
CHOICE_LIKE = ("choice", "truefalse", "matching")
_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹−", "-0123456789-")


def graded_answers(solution: Solution) -> list[Answer]:
    """The answers an exam grades: the exam's assembly decides (generator.exam)."""
    from .exam import graded_answers as chosen

    return chosen(solution)


def answer_text(a: Answer) -> str:
    if a.type == "vector":
        if a.display and isinstance(a.display[0], list):
            return " | ".join("; ".join(row) for row in a.display)
        return "; ".join(a.display)
    if a.type == "matching":
        return "; ".join(a.display)
    return str(a.display)


def tolerance_text(a: Answer) -> str:
    if a.type == "numeric":
        return repr(float(a.tolerance))
    if a.type == "vector":
        flat = _flatten(a.tolerance)
        return repr(max(flat)) if flat else "0.0"
    return ""


def _flatten(x) -> list:
    if isinstance(x, list):
        return [v for item in x for v in _flatten(item)]
    return [x]


def parse_number(text: str) -> float | None:
    t = text.strip().translate(_SUPERSCRIPT).replace(" ", "")
    t = re.sub(r"[×x\*]10\^?\(?(-?\d+)\)?$", r"e\1", t)
    try:
        return float(t)
    except ValueError:
        return None


def parse_vector(text: str) -> list[list[float | None]]:
    rows = [r for r in text.split("|")]
    out = []
    for r in rows:
        parts = [p for p in re.split(r"[;,\s]+", r.strip().strip("()[]")) if p]
        out.append([parse_number(p) for p in parts])
    return out


def centre(a: Answer):
    """The centre of the marking window: the key as printed (a float, or a
    list of rows of floats for a vector).  One rule everywhere an answer is
    judged: the key ± `a.tolerance`, a window that holds the exact value and
    the result of the worked method (see the README, "Marking")."""
    if a.type == "numeric":
        return parse_number(str(a.display))
    rows = a.display if a.display and isinstance(a.display[0], list) else [a.display]
    return [[parse_number(x) for x in row] for row in rows]


@dataclass(frozen=True)
class Mark:
    correct: bool
    misconception: str | None  # catalogue name
    note: str = ""


def mark(a: Answer, response: str) -> Mark:
    """Mark one response against an answer (with its options, for misconceptions)."""
    r = response.strip()
    if not r:
        return Mark(False, None, "no answer")
    if a.type == "numeric":
        v = parse_number(r)
        if v is None:
            return Mark(False, None, "not a number")
        if abs(v - centre(a)) <= a.tolerance * (1 + 1e-9) + 1e-15:
            return Mark(True, None)
        for o in a.options:
            if not o.correct:
                ov = parse_number(o.text)
                if ov is not None and abs(v - ov) <= a.tolerance * (1 + 1e-9) + 1e-15:
                    return Mark(False, o.misconception)
        return Mark(False, None)
    if a.type == "vector":
        got = parse_vector(r)
        key = centre(a)
        tol = a.tolerance if a.value and isinstance(a.value[0], list) else [a.tolerance]
        if _close(got, key, tol):
            return Mark(True, None)
        for o in a.options:
            if not o.correct:
                wrong = parse_vector(o.text.replace("), (", " | ").strip("()"))
                if _close(got, wrong, tol):
                    return Mark(False, o.misconception)
        return Mark(False, None)
    if a.type == "choice":
        letters = sorted(set(re.findall(r"[A-J]", r.upper())))
        keys = sorted(a.display.replace(" ", "").split(","))
        if letters == keys:
            return Mark(True, None)
        for letter in letters:
            i = "ABCDEFGHIJ".index(letter)
            if i < len(a.options) and not a.options[i].correct:
                return Mark(False, a.options[i].misconception)
        return Mark(False, None)
    if a.type == "truefalse":
        v = {"true": True, "t": True, "yes": True, "false": False, "f": False, "no": False}.get(r.lower())
        if v is None:
            return Mark(False, None, "write true or false")
        if v == a.value:
            return Mark(True, None)
        return Mark(False, next(o.misconception for o in a.options if not o.correct))
    if a.type == "matching":
        got = [p.strip() for p in re.split(r"[;\n]+", r) if p.strip()]
        return Mark(got == [d.strip() for d in a.display], "symbol_confusion" if got else None)
    return Mark(False, None, "marked by hand")


def _close(got, key, tol) -> bool:
    if len(got) != len(key):
        return False
    for grow, krow, trow in zip(got, key, tol):
        if len(grow) != len(krow):
            return False
        trow = trow if isinstance(trow, list) else [trow] * len(krow)
        for g, k, t in zip(grow, krow, trow):
            if g is None or abs(g - k) > t * (1 + 1e-9) + 1e-15:
                return False
    return True


def feedback(m: Mark) -> str:
    if m.correct:
        return ""
    if m.misconception:
        return describe(m.misconception)
    return m.note
