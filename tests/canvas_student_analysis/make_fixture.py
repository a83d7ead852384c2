"""Writes student_analysis.csv: a Canvas "Student Analysis" report, laid out
column for column as canvas-lms's Quizzes::QuizStatistics::StudentAnalysis
#to_csv writes it (app/models/quizzes/quiz_statistics/student_analysis.rb),
for a quiz imported from the `--qti` package of the pool in
../moodle_attempts/answers.csv (examples/exam-midterm.yaml, --variants 4).
Not downloaded from a Canvas: no Canvas was reachable here (see
guide/item-analysis.md).  What the file stands for:

- header: name, id, sis_id, section, section_id, section_sis_id, submitted
  (a course with SIS ids, no root_account: a single-account Canvas), then per
  question every student drew `<question id>: <question text, tags stripped>`
  and its points possible (Ruby's Float: `4.0`), then n correct, n incorrect,
  score; ids are made up (Canvas's question ids are its own);
- each row: a student's response to the questions of their variants, both
  cells empty for the others; the responses typed as the type asks (the
  blanks of a Fill In Multiple Blanks question joined by `,`, a `,` inside
  one written `\\,`; a choice's text; True/False), and the points as Canvas's
  own rules give them (a blank's text among its accepted texts, a range
  holding the number, the points shared by the blanks).

Run from the checkout: python tests/canvas_student_analysis/make_fixture.py"""

from __future__ import annotations

import csv
import io
import re
import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1]))

from generator.exam.grader import _points  # noqa: E402
from generator.exam.moodle_report import one_question  # noqa: E402
from generator.exam.tables import read_csv  # noqa: E402
from generator.pipeline import sample_problem, solve_problem  # noqa: E402
from generator.render import plain  # noqa: E402
from generator.render.qti import _accepted, canvas_type, item_view  # noqa: E402
from generator.seeding import parse_variant  # noqa: E402

POOL = HERE.parent / "moodle_attempts" / "answers.csv"
DIGITS = 4
STUDENTS = [("Ada Lovelace", "c01"), ("Alan Turing", "c02"), ("Grace Hopper", "c03"), ("Émilie du Châtelet", "c04"),
            ("Srinivasa Ramanujan", "c05"), ("Kurt Gödel", "c06")]
# what each student types, question by question: the key, a named mistake, blanks, a wrong value
HABITS = ["key", "mistake", "key", "blank-one", "empty", "mistake"]


def strip_tags(text: str) -> str:
    return re.sub(r"<[^>]*>", "", text)


def escape(text: str) -> str:
    return text.replace(",", "\\,")


def response(sol, habit: str) -> tuple[list[str], list[bool]]:
    """The blanks (or one response) a student types and whether each is right for Canvas."""
    q = one_question(sol)
    kind = canvas_type(q.parts)
    if kind == "fill_in_multiple_blanks_question":
        values, right = [], []
        for p in q.parts:
            accepted = _accepted(p.answer, DIGITS)
            wrong = [o for o in p.answer.options if not o.correct and o.misconception]
            if habit == "mistake" and wrong and p.answer.type == "vector":
                typed = [x.strip() for x in wrong[0].text.strip("()").replace("), (", ", ").split(",")]
            elif habit == "mistake" and wrong and p.answer.type in ("choice", "truefalse"):
                typed = [wrong[0].text[0] if p.answer.type == "truefalse" else
                         "ABCDEFGHIJ"[list(p.answer.options).index(wrong[0])]]
            else:
                typed = [a[0] for a in accepted]
            if habit == "blank-one":
                typed[len(typed) // 2] = ""
            values += typed
            right += [t.casefold() in {x.casefold() for x in a} for t, a in zip(typed, accepted)]
        return values, right
    a = q.parts[0].answer
    if habit in ("empty", "blank-one"):
        return [""], [False]
    wrong = [o for o in a.options if not o.correct and o.misconception]
    pick = wrong[0] if habit == "mistake" and wrong else next(o for o in a.options if o.correct)
    if kind == "numerical_question":
        text = pick.text if not pick.correct else str(a.display)
        lo, hi = item_view(q, DIGITS, "")["range"]
        return [text], [float(lo) <= float(text) <= float(hi)]
    if kind == "true_false_question":
        return [pick.text.capitalize()], [pick.correct]
    return [plain.label(pick.text)], [pick.correct]


def main() -> None:
    pool = read_csv(POOL, ["student", "variant", "question", "answer", "tolerance", "points"], "answers")
    items: dict[int, list[str]] = {}
    points: dict[str, Fraction] = {}
    for _, row in pool:
        item = int(re.match(r"\d+", row["question"])[0])
        if row["variant"] not in items.setdefault(item, []):
            items[item].append(row["variant"])
        points[row["variant"]] = points.get(row["variant"], Fraction(0)) + _points(row["points"], POOL, 0)
    codes = [c for item in sorted(items) for c in items[item]]
    solved = {c: solve_problem(sample_problem(*parse_variant(c)), DIGITS) for c in codes}
    head = ["name", "id", "sis_id", "section", "section_id", "section_sis_id", "submitted"]
    drawn = {s: {item: items[item][(k + item) % len(items[item])] for item in items} for k, (_, s) in enumerate(STUDENTS)}
    shown = [c for c in codes if any(c in d.values() for d in drawn.values())]
    for n, c in enumerate(shown):
        head += [f"{4100 + n}: {strip_tags(item_view(one_question(solved[c]), DIGITS, '')['text'])}",
                 f"{float(points[c])!r}"]
    head += ["n correct", "n incorrect", "score"]
    rows = []
    for k, (name, sid) in enumerate(STUDENTS):
        row = [name, str(700 + k), sid, "Section 1", "31", "S1", f"2026-12-0{k + 1} 10:{k}5:00 UTC"]
        score, correct = Fraction(0), 0
        for c in shown:
            if c not in drawn[sid].values():
                row += ["", ""]
                continue
            habit = HABITS[(k + codes.index(c)) % len(HABITS)]
            values, right = response(solved[c], habit)
            got = points[c] * Fraction(sum(right), len(right))
            score += got
            correct += got == points[c]
            row += [",".join(escape(v) for v in values), f"{float(got)!r}"]
        row += [str(correct), str(len(drawn[sid]) - correct), f"{float(score)!r}"]
        rows.append(row)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([head] + rows)
    (HERE / "student_analysis.csv").write_text(buf.getvalue(), encoding="utf-8")


if __name__ == "__main__":
    main()
