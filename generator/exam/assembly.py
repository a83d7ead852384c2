"""The exam's assembly: which variant each student gets, the order of the
questions on the paper, the points, the part labels (`2a`, `2b`, …) and which
answers are graded.  A pure function of (spec, student, master seed): no disk,
no rendering.  The writers (`writers/exams.py`) turn what it returns into
papers, the key, answers.csv, the manifest and moodle.xml, so every output
reads the same labels and points.

Two numberings meet here.  An exam question's *item* number is its place in
the spec (counting each `count` instance): Moodle files every student's
variant of item k under one category, so a quiz slot per item hands each
student one variant.  Its *number* is its place on one student's paper, where
the order is shuffled per student; answers.csv, the papers and the key label
parts by that number (`2a` is part a of the paper's question 2)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from ..text import Sayer
from ..mathlines import NumText
from ..model import Answer, Solution
from ..pipeline import build_items
from ..seeding import derived_seed, encode

if TYPE_CHECKING:  # names only: rendering one problem needs neither a roster nor YAML
    from .roster import Student
    from .spec import Spec

PART_LETTERS = "abcdefghijklmnopqrstuvwxyz"
STANDARD = ("weights", "context", "entropy", "count")
CHOICE_LIKE = ("choice", "truefalse", "matching")

def graded_answers(solution: Solution) -> list[Answer]:
    """The answers an exam grades, in the order the question asks for them:
    the kind's own `graded` names (every quantity its question asks); else the choice-like answers and the standard quantities
    (never an input handed to the student); failing those, every numeric one.
    Text answers are model answers, marked by hand, never graded here."""
    from .. import kinds

    chosen = kinds.get(solution.problem.kind).graded
    if chosen is not None:
        return [solution.answer(name) for name in chosen]
    given = set(solution.problem.inputs)
    parts = [a for a in solution.answers if a.type in CHOICE_LIKE
             or (a.name in STANDARD and a.name not in given)]
    if not parts:
        parts = [a for a in solution.answers if a.type in ("numeric", "vector")]
    return parts


def unmarked_prompts(solution: Solution) -> frozenset[int]:
    """The question's paragraphs that ask for an explanation ("Interpret the
    two values."), by index: the prompts of its text answers.  An exam leaves
    them out, on the paper and in Moodle, as its marks go to the graded parts
    alone; its worked solutions still argue them, and a problem sheet asks them."""
    prompts = {a.prompt for a in solution.answers if a.type == "text" and a.prompt}
    return frozenset(n for n, p in enumerate(solution.question) if p in prompts)


@dataclass(frozen=True)
class Part:
    """One graded answer of a question, as answers.csv lists it."""

    label: str          # "2" or "2a": the question column of answers.csv
    answer: Answer
    points: Fraction    # the question's points shared equally by its parts
    quantity: str       # what is asked, in words (the key's middle column)


@dataclass(frozen=True)
class Question:
    number: int         # place on this student's paper, 1-based
    item: int           # place in the spec, 1-based: the Moodle category
    solution: Solution
    points: Fraction
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Paper:
    student: Student
    seed: int
    code: str           # the paper's variant code (its seed, encoded)
    questions: tuple[Question, ...]  # in paper order


def student_seed(master: int, student: Student) -> int:
    """From the master seed and the student's id: the roster's order does not matter."""
    return derived_seed(master, f"student:{student.id}")


def item_points(spec: Spec) -> list[Fraction]:
    """Points of every exam question in spec order (an item counts `count` times)."""
    return [Fraction(str(item.points)) for item in spec.items for _ in range(item.count)]


def quantity(a: Answer, kind: str = "") -> str:
    """The answer's name in words, as the paper and the key print it.  A
    true/false answer is named by its statement, never by its truth."""
    if a.type == "truefalse":
        say = Sayer("ui").text
        if a.name.startswith("statement_") and a.name[10:].isdigit():
            return say("papers.statement_true_or_false", n=a.name[10:])
        return say("papers.true_or_false", label=a.label)
    return a.label


def assemble_paper(spec: Spec, student: Student, master: int, shuffle: bool = True) -> Paper:
    """One student's paper: their variant of every item (each drawn from its
    own child seed), the shuffled order, points and part labels.  Without
    `shuffle` (a --variants pool, which has no paper) the questions keep the
    spec's order, so its labels are those of Moodle's categories."""
    seed = student_seed(master, student)
    solutions = build_items(spec.items, seed, spec.digits)
    points = item_points(spec)
    order = ([int(i) for i in np.random.default_rng([seed, 1]).permutation(len(solutions))] if shuffle
             else list(range(len(solutions))))
    questions = []
    for number, i in enumerate(order, start=1):
        graded = graded_answers(solutions[i])
        share = points[i] / len(graded) if graded else Fraction(0)
        kind = solutions[i].problem.kind
        parts = tuple(Part(str(number) if len(graded) == 1 else f"{number}{PART_LETTERS[n]}", a, share,
                           quantity(a, kind))
                      for n, a in enumerate(graded))
        questions.append(Question(number, i + 1, solutions[i], points[i], parts))
    return Paper(student, seed, encode(seed), tuple(questions))


def assemble(spec: Spec, students: list[Student], master: int, shuffle: bool = True) -> list[Paper]:
    """Every student's paper, in roster order (the writers spread this over
    processes by calling `assemble_paper` per student)."""
    return [assemble_paper(spec, s, master, shuffle) for s in students]


def points_text(x: Fraction) -> NumText:
    """Points as the papers print them: `2`, `2.5`, `1.66667` (a number's
    text: said in a sentence, it takes the language's decimal mark)."""
    return NumText(f"{float(x):g}")


POINTS_PLACES = 12  # answers.csv's points: exact, or to 12 places, which `grade` reads back exactly


def points_csv(x: Fraction) -> str:
    """A part's points as answers.csv writes them: the exact decimal when
    there is one (`2`, `0.8333…` is not: 5 points over 6 parts), else to
    POINTS_PLACES places (`1.666666666667`), which `grade` reads as the
    fraction it stands for (grader._points) — so a full-marks student totals
    the paper's points exactly (1.66667 × 3 made 5.00001), and a spreadsheet
    summing the column is off by less than 10⁻⁹."""
    den = x.denominator
    for p in (2, 5):
        while den % p == 0:
            den //= p
    if den == 1:
        text = format(Decimal(x.numerator) / Decimal(x.denominator), "f")
    else:
        text = format(round(Decimal(x.numerator) / Decimal(x.denominator), POINTS_PLACES), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
