"""Canvas's quiz "Student Analysis" report as grade's and analyse's input
(generator.exam.canvas_report): its columns as canvas-lms writes them, each
question column matched to its variant by the QTI package's question text,
each response split into the exam's parts.  The fixture is laid out from
Canvas's source (canvas_student_analysis/make_fixture.py says how); no
Canvas made it."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

from generator.cli import main
from generator.exam.canvas_report import is_student_analysis
from generator.exam.grader import grade
from generator.exam.moodle_report import is_report

HERE = Path(__file__).parent
REPORT = HERE / "canvas_student_analysis" / "student_analysis.csv"
POOL = HERE / "moodle_attempts" / "answers.csv"


def _table(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_the_report_is_known_by_its_columns():
    assert is_student_analysis(REPORT) and not is_report(REPORT)
    assert not is_student_analysis(HERE / "moodle_attempts" / "responses.csv")
    assert not is_student_analysis(POOL)


def test_every_response_is_matched_to_its_variant_and_graded():
    g = grade(POOL, REPORT)
    assert g.reports == [] and g.unmatched == 0
    head, *rows = _table(REPORT)
    students = [r[2] for r in rows]  # sis_id
    assert sorted({r.row["student"] for r in g.results}) == sorted(students)
    # each student's variants are the ones whose columns they answered, every part of each
    for r in rows:
        drawn = {head[i].partition(": ")[2] for i in range(7, len(head) - 3, 2) if r[i] or r[i + 1]}
        assert len(drawn) == 9
    assert len(g.results) == 6 * 19  # 19 parts a paper
    # Canvas's grade beside each student's, as for Moodle's report
    assert g.lms == "Canvas" and set(g.moodle_grades) == set(students)
    assert g.moodle_grades["c01"][1] == "33"


def test_canvas_and_grade_agree_where_canvas_gives_full_or_no_marks():
    """A question Canvas gives its full points, grade gives them too; a
    question Canvas gives nothing, grade gives nothing (a blank, a named
    mistake).  In between they may differ: Canvas shares a Fill In Multiple
    Blanks question's points by its blanks, answers.csv by its parts."""
    g = grade(POOL, REPORT)
    head, *rows = _table(REPORT)
    ours: dict[tuple[str, str], list[Fraction]] = {}
    for r in g.results:
        cell = ours.setdefault((r.row["student"], r.row["variant"]), [Fraction(0), Fraction(0)])
        cell[0] += r.awarded
        cell[1] += r.points
    checked = 0
    variants = {r.row["variant"] for r in g.results}
    for row in rows:
        for i in range(7, len(head) - 3, 2):
            if not (row[i] or row[i + 1]):
                continue
            code = next(c for c in variants if (row[2], c) in ours and _text_of(head[i], c))
            got, top = ours[(row[2], code)]
            canvas = Fraction(row[i + 1])
            if canvas >= Fraction(head[i + 1]) - Fraction(1, 10**9):
                assert got == top, (row[2], code)
                checked += 1
            elif canvas == 0:
                assert got == 0, (row[2], code)
                checked += 1
    assert checked >= 40


def _text_of(header: str, code: str) -> bool:
    from generator.exam.canvas_report import _qti_text
    from generator.pipeline import sample_problem, solve_problem
    from generator.seeding import parse_variant
    import re

    text = re.sub(r"<[^>]*>", "", _qti_text(solve_problem(sample_problem(*parse_variant(code))), 4))
    return header.partition(": ")[2] == text


def test_named_mistakes_and_empty_blanks_come_back():
    g = grade(POOL, REPORT)
    named = {r.mark.misconception for r in g.results if r.mark.misconception}
    assert {"divide_by_sum", "context_sums_to_one"} <= named
    notes = [r.mark.note for r in g.results]
    assert any(n.endswith("component 3 is empty") for n in notes)  # a blank left empty in Canvas
    assert "not a number" not in " ".join(notes)


def test_unknown_questions_and_second_attempts_are_reported(tmp_path: Path, capsys):
    head, *rows = _table(REPORT)
    head[7] = "4100: A question of another quiz entirely, with 12 numbers 3.5 and 7.25."
    rows.append(list(rows[0]))  # the same student again: an earlier attempt
    path = tmp_path / "student_analysis.csv"
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([head] + rows)
    path.write_text(buf.getvalue())
    out = tmp_path / "results.csv"
    assert main(["grade", str(POOL), str(path), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "its text matches no variant of answers.csv" in err
    assert "another attempt by c01" in err and "Canvas's latest, is graded" in err


def test_analyse_grades_the_report_with_answers(tmp_path: Path, capsys):
    """`analyse REPORT --answers answers.csv` is `grade` then `analyse`; without
    --answers it says what to give."""
    results = tmp_path / "results.csv"
    assert main(["grade", str(POOL), str(REPORT), "--out", str(results)]) == 0
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["analyse", str(results), "--out", str(one)]) == 0
    assert main(["analyse", str(REPORT), "--answers", str(POOL), "--out", str(two)]) == 0
    for name in ("items.csv", "kinds.csv", "misconceptions.csv", "misconceptions_by_question.csv", "worked.html"):
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    capsys.readouterr()
    assert main(["analyse", str(REPORT), "--out", str(tmp_path / "three")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--answers" in err and err.count("\n") == 1
    assert not (tmp_path / "three").exists()
