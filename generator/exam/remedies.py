"""What addresses a named mistake (attndrills analyse): for each exam question
part and mistake, the worked solution of a variant in which it was made, the
step of that solution which works out the quantity the mistake is about, and
the solution's recall card.  Found from data, never from the words:

- the variant is regenerated from its code (as `grade` regenerated it to name
  the mistake) and kept only if marking the same response against it names
  the same mistake again;
- the part is its answer (`2b` is the question's second graded answer);
- the step is the first that shows the answer's key — every component of one
  of its rows as a printed number inside the marking window (a choice: the
  key's line, exam.options.key_line); failing that, the step of another
  answer of the solution that names the same mistake among its options (a
  true/false claim's mistake is worked where its quantity is); failing that,
  a solution's only step."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from .. import kinds
from ..errors import UserError
from ..mathlines import Neg, Node, Num
from ..model import Answer, Solution
from ..pipeline import MAX_DIGITS, MIN_DIGITS, sample_problem, solve_problem
from ..seeding import parse_variant
from .assembly import PART_LETTERS, graded_answers
from .marking import mark
from .numbers import value_of
from .options import key_line
from .window import inside, key_numbers, tolerance_rows

DIGITS_FIRST = 4  # the places a spec gives by default; the others a spec may give are tried after it


@dataclass
class Remedy:
    """One named mistake on one part of an exam question (of one kind)."""
    question: str  # the part, as results.csv labels it (2b)
    kind: str
    misconception: str
    responses: int
    students: int
    variant: str = ""  # whose worked solution is shown (the one with the most such answers, first seen)
    solution: Solution | None = None
    step: int | None = None  # 1-based
    why: str = ""  # why there is no worked step


def remedies(rows: list[tuple[int, dict]], kind_of, natural) -> list[Remedy]:
    """Every (part, kind, mistake) of the results with its worked step; by
    question, then by the students who made it (most first)."""
    groups: dict[tuple[str, str, str], Remedy] = {}
    students: dict[tuple[str, str, str], set[str]] = {}
    seen: dict[tuple[str, str, str], dict[str, list]] = {}  # variant → [answers, the first response]
    for _, r in rows:
        name = r["misconception"].strip()
        if not name:
            continue
        key = (r["question"].strip(), kind_of(r["variant"]), name)
        g = groups.setdefault(key, Remedy(*key, 0, 0))
        g.responses += 1
        students.setdefault(key, set()).add(r["student"].strip())
        seen.setdefault(key, {}).setdefault(r["variant"].strip(), [0, r.get("response") or ""])[0] += 1
    cache: dict[tuple[str, int], Solution | None] = {}
    for key, g in groups.items():
        g.students = len(students[key])
        by = seen[key]
        g.variant = max(by, key=lambda v: by[v][0])  # the first of the most frequent
        _locate(g, by[g.variant][1], cache)
    return sorted(groups.values(), key=lambda g: (natural(g.question), -g.students, -g.responses, g.misconception))


def _locate(g: Remedy, response: str, cache: dict) -> None:
    """The variant's worked solution and the step addressing the mistake."""
    decoded = parse_variant(g.variant)
    if decoded is None:
        g.why = f"“{g.variant}” is not a variant code"
        return
    index = _part_index(g.question)
    for digits in (DIGITS_FIRST, *(d for d in range(MIN_DIGITS, MAX_DIGITS + 1) if d != DIGITS_FIRST)):
        sol = _solved(decoded, digits, cache)
        parts = graded_answers(sol) if sol is not None else []
        if index < len(parts) and mark(parts[index], response).misconception == g.misconception:
            g.solution = sol
            step = worked_step(sol, parts[index], g.misconception)
            g.step = None if step is None else step + 1
            g.why = "" if step is not None else "no step of its worked solution shows this part's key"
            return
    g.why = "its variant, regenerated from the code, does not name this mistake for the same answer"


def _solved(decoded: tuple[str, int], digits: int, cache: dict) -> Solution | None:
    if (decoded, digits) not in cache:
        try:
            kinds.get(decoded[0])
            cache[decoded, digits] = solve_problem(sample_problem(*decoded), digits)
        except UserError:
            cache[decoded, digits] = None
    return cache[decoded, digits]


def _part_index(label: str) -> int:
    m = re.fullmatch(r"\d*([a-z]?)", label.strip())
    return PART_LETTERS.index(m[1]) if m and m[1] else 0


def worked_step(sol: Solution, a: Answer, misconception: str | None = None) -> int | None:
    """The index of the step that works out the answer (see the module's
    docstring), or None."""
    found = _shows(sol, a)
    if found is None and misconception:
        for other in sol.answers:
            if other is not a and any(o.misconception == misconception for o in other.options):
                found = _shows(sol, other)
                if found is not None:
                    break
    if found is None and len(sol.steps) == 1:
        found = 0
    return found


def _shows(sol: Solution, a: Answer) -> int | None:
    if a.type == "choice" and a.options:
        line = key_line(a.options)
        return next((i for i, s in enumerate(sol.steps) if line in s.body or line in s.after), None)
    if a.type not in ("numeric", "vector"):
        return None
    try:
        key = key_numbers(a)
    except (TypeError, ValueError):
        return None
    if any(k is None for row in key for k in row):
        return None
    tol = tolerance_rows(a, key)
    for i, step in enumerate(sol.steps):
        for line in (*step.body, *step.math, *step.after):  # a paragraph or a display line
            shown = [float(v) for v in _numbers(line)]
            if any(_in_order(shown, row, trow) for row, trow in zip(key, tol)):
                return i
    return None


def _in_order(shown: list[float], row, tol) -> bool:
    """Whether the line shows every component of the row, in the row's order
    (other numbers between them): permuted weights are not the weights."""
    at = 0
    for k, t in zip(row, tol):
        at = next((j + 1 for j in range(at, len(shown)) if inside(shown[j], k.value, t)), -1)
        if at < 0:
            return False
    return True


def _numbers(node, sign: int = 1) -> Iterator[Fraction]:
    """Every printed number of a step's paragraphs and maths, with its sign."""
    if isinstance(node, Num):
        yield sign * value_of(node)
    elif isinstance(node, Neg):
        yield from _numbers(node.arg, -sign)
    elif isinstance(node, (tuple, list)):
        for x in node:
            yield from _numbers(x, sign)
    elif isinstance(node, Node) and dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from _numbers(getattr(node, f.name), sign)
