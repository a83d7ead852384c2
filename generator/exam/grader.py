"""attndrills grade: each response of a responses CSV matched to its row of
answers.csv and marked (generator.exam.marking) — credit, and the misconception a
wrong answer matches.  Nothing is lost without a word: a response whose
student or question is unknown, a second response to the same question and a
student with no responses are each reported and counted.

The answers file holds each row's variant code; regenerating the variant gives
back its distractors, each named after a mistake from the catalogue."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from .. import kinds
from ..errors import UserError
from .assembly import POINTS_PLACES, graded_answers
from . import canvas_report, moodle_report
from .answers import answer_from_row, answer_text
from .ids import _close, _find, _find_student, _parts
from .marking import Mark, feedback, mark
from ..pipeline import sample_problem, solve_problem
from .tables import read_csv
from ..seeding import parse_variant
from ..spreadsheet import cell

ANSWER_COLUMNS = ["student", "variant", "question", "answer", "tolerance", "points"]
RESPONSE_COLUMNS = ["student", "question", "response"]
RESULT_COLUMNS = ["student", "question", "variant", "response", "correct", "awarded", "points",
                  "misconception", "feedback"]


@dataclass
class Result:
    row: dict[str, str]
    response: str
    mark: Mark
    points: Fraction
    given: bool = True  # False: no response row for this question

    @property
    def awarded(self) -> Fraction:
        return self.points * self.mark.credit


@dataclass
class Grading:
    """The marked rows of answers.csv (in its order), one report line per
    unknown id or duplicate response or student without responses, and their
    counts: `counts` counts responses (and students without responses),
    `ids` the distinct unknown students and (student, question) pairs."""
    results: list[Result]
    reports: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    graded: int = 0
    answered: int = 0  # students with at least one graded response
    moodle_grades: dict[str, tuple[str, str]] = field(default_factory=dict)  # the LMS's grade, out of what
    lms: str = "Moodle"  # whose grades moodle_grades holds (Moodle's Responses or Canvas's Student Analysis)

    @property
    def unmatched(self) -> int:
        """Responses that could not be graded (the exit code is 1 when any)."""
        return sum(self.counts.get(k, 0) for k in ("unknown student", "unknown question", "duplicate", "unfinished attempt"))

    def summary(self) -> str:
        students = len({r.row["student"].strip() for r in self.results})
        silent = self.counts.get("student without responses", 0)
        text = f"graded {_count(self.graded, 'response')} from {self.answered} of {_count(students, 'student')}"
        blank = sum(1 for r in self.results if r.given and not r.response.strip())
        absent = sum(1 for r in self.results if not r.given)
        if blank or absent:
            why = [f"{blank} blank"] * bool(blank) + [f"{absent} with no response"] * bool(absent)
            text += (f"; {blank + absent} of {_count(len(self.results), 'answer')} missing "
                     f"({', '.join(why)}), marked 0")
        skipped = []
        for k in ("unknown student", "unknown question"):
            rows, ids = self.counts.get(k, 0), self.ids.get(k, 0)
            if rows:
                skipped.append(_count(ids, k) + (f" ({_count(rows, 'response')})" if rows != ids else ""))
        for k in ("duplicate", "unfinished attempt"):
            if self.counts.get(k):
                skipped.append(_count(self.counts[k], k))
        if skipped:
            text += f"; not graded: {', '.join(skipped)}"
        if silent:
            text += f"; {_count(silent, 'student')} without responses"
        return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _lines(numbers: list[int]) -> str:
    """`line 6`, `lines 2, 5 and 7`, `lines 2, 5, 7 and 6 more`."""
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    if len(numbers) <= 4:
        return f"lines {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"
    return f"lines {', '.join(map(str, numbers[:3]))} and {len(numbers) - 3} more"


def _not_graded(numbers: list[int]) -> str:
    return "response not graded" if len(numbers) == 1 else f"{len(numbers)} responses not graded"


# Unknown ids are reported one line each, with a guess at the id meant; past
# this many (a responses file of another exam?) the rest are counted together,
# as a guess among thousands of students costs milliseconds an id.
MAX_REPORTED = 20


def grade(answers_path: Path, responses_path: Path) -> Grading:
    """Mark every row of answers.csv with its response (blank when none).
    Moodle's Responses report, or Canvas's Student Analysis, stands for the
    responses: its students' rows of answers.csv are their variants'
    (generator.exam.moodle_report, generator.exam.canvas_report)."""
    answers, questions, points = _read_answers(answers_path)
    moodle = None
    if moodle_report.is_report(responses_path) or canvas_report.is_student_analysis(responses_path):
        report = moodle_report if moodle_report.is_report(responses_path) else canvas_report
        moodle = report.convert(answers, responses_path, _digits(answers_path))
        answers, responses = moodle.answers, moodle.responses
        questions, points = _questions(answers, answers_path)
    else:
        responses = read_csv(responses_path, RESPONSE_COLUMNS, "responses")
    # First every response is placed, then the reports are written: a typo in
    # an id is best explained by the students left without responses.
    given, placed = _place(responses, questions)
    mentioned = {student for *_, student, _, _ in placed if student is not None}
    silent = [s for s in questions if s not in mentioned]
    grading = _report(placed, questions, silent, f"{responses_path}:")
    if moodle:
        grading.reports[:0] = moodle.reports
        for k, v in moodle.counts.items():
            grading.counts[k] = grading.counts.get(k, 0) + v
            grading.ids[k] = grading.ids.get(k, 0) + v
        grading.moodle_grades, grading.lms = moodle.moodle_grades, moodle.lms
    for s in silent:
        grading.counts["student without responses"] += 1
        total = sum(p for (_, row), p in zip(answers, points) if row["student"].strip() == s)
        grading.reports.append(f"student {s} has no responses — marked 0 of {fmt(total)}")
    grading.graded = len(given)
    grading.answered = len({student for student, _ in given})
    digits = _digits(answers_path)
    regenerated: dict[str, list] = {}
    for (n, row), pts in zip(answers, points):
        got = given.get((row["student"].strip(), row["question"].strip()))
        response = got[0] if got else ""
        # a variant is regenerated only for its distractors: a blank is "no answer" either way
        answer = _answer_for(row, digits, regenerated) if response.strip() else None
        m = mark(answer, response) if answer is not None else _mark_row(row, response)
        grading.results.append(Result(row, response, m, pts, got is not None))
    return grading


def _read_answers(path: Path) -> tuple[list[tuple[int, dict[str, str]]], dict[str, list[str]], list[Fraction]]:
    """answers.csv's rows, each student's questions, and each row's points;
    every row one of its student's questions, with a key that can be marked."""
    answers = read_csv(path, ANSWER_COLUMNS, "answers", unquote=True)
    if not answers:
        raise UserError(f"{path}: no rows under the header, so nothing to grade against; "
                        "give the answers.csv that attndrills exam wrote")
    questions, points = _questions(answers, path)
    _known_variants(answers, path)
    return answers, questions, points


def _questions(answers, path: Path) -> tuple[dict[str, list[str]], list[Fraction]]:
    """Each student's questions and each row's points, every key markable."""
    questions: dict[str, list[str]] = {}
    points = []
    for n, row in answers:
        student, question = row["student"].strip(), row["question"].strip()
        if question in questions.setdefault(student, []):
            raise UserError(f"{path}: line {n}: a second row for student {student} question {question}")
        questions[student].append(question)
        points.append(_points(row["points"], path, n))
        try:
            answer_from_row(row["answer"], row["tolerance"])
        except ValueError as exc:
            raise UserError(f"{path}: line {n}: {exc}") from None
    return questions, points


def _place(responses: list[tuple[int, dict[str, str]]], questions: dict[str, list[str]]):
    """Each response's (line, student id, question id, student, question,
    line of the first response to that question) — student and question as
    answers.csv names them, None when unknown — and the graded responses,
    (student, question) → (response, line)."""
    by_case: dict[str, list[str]] = {}
    for s in questions:
        by_case.setdefault(s.casefold(), []).append(s)
    given: dict[tuple[str, str], tuple[str, int]] = {}
    placed = []
    for n, r in responses:
        sid, qid = r["student"].strip(), r["question"].strip()
        student = _find_student(sid, questions, by_case)
        question = _find(qid, questions[student]) if student is not None else None
        key = (student, question)
        if question is not None and key not in given:
            given[key] = (r["response"], n)
        placed.append((n, sid, qid, student, question, given.get(key, (None, None))[1]))
    return given, placed


def _report(placed: list[tuple], questions: dict[str, list[str]], silent: list[str], where: str) -> Grading:
    """A grading with no results yet: one report per unknown student, unknown
    question and duplicate response, in the responses' order, and their counts."""
    counts = dict.fromkeys(("unknown student", "unknown question", "duplicate", "student without responses"), 0)
    strangers: dict[str, list[int]] = {}  # unknown student id → its lines
    unasked: dict[tuple[str, str], list[int]] = {}  # (student, unknown question) → its lines
    for n, sid, qid, student, question, first in placed:
        if student is None:
            counts["unknown student"] += 1
            strangers.setdefault(sid, []).append(n)
        elif question is None:
            counts["unknown question"] += 1
            unasked.setdefault((student, qid), []).append(n)
        elif first != n:
            counts["duplicate"] += 1
    reports = _strangers(strangers, questions, silent, where) + _unasked(unasked, questions, where)
    for n, sid, qid, student, question, first in placed:
        if student is not None and question is not None and first != n:
            reports.append((n, f"{where} line {n}: a second response from {student} to question {question} "
                               f"(the first, on line {first}, is graded) — not graded"))
    return Grading([], [text for _, text in sorted(reports, key=lambda r: r[0])], counts,
                   {"unknown student": len(strangers), "unknown question": len(unasked)})


def _strangers(strangers: dict[str, list[int]], questions: dict[str, list[str]], silent: list[str],
               where: str) -> list[tuple[int, str]]:
    """(first line, report) of each unknown student id, with a guess at the id meant."""
    reports = []
    for i, (sid, ns) in enumerate(strangers.items()):
        if i == MAX_REPORTED:
            rest = list(strangers.values())[MAX_REPORTED:]
            reports.append((ns[0], f"{where} {_count(len(rest), 'more unknown student')} "
                                   f"({_count(sum(map(len, rest)), 'response')}, the first on line {ns[0]}) — "
                                   "not graded; is this the responses file of this exam?"))
            break
        hint = _close(sid, silent) or _close(sid, list(questions))
        reports.append((ns[0], f"{where} {_lines(ns)}: unknown student “{sid}”{hint} — {_not_graded(ns)}"
                               if sid else f"{where} {_lines(ns)}: no student id — {_not_graded(ns)}"))
    return reports


def _unasked(unasked: dict[tuple[str, str], list[int]], questions: dict[str, list[str]],
             where: str) -> list[tuple[int, str]]:
    """(first line, report) of each question a known student was not asked."""
    reports = []
    for (student, qid), ns in unasked.items():
        hint = _parts(qid, questions[student]) or _close(qid, questions[student])
        reports.append((ns[0], f"{where} {_lines(ns)}: student {student} has no question “{qid}”{hint} — "
                               f"{_not_graded(ns)}" if qid else
                               f"{where} {_lines(ns)}: no question id for student {student} — {_not_graded(ns)}"))
    return reports


def _known_variants(answers: list[tuple[int, dict[str, str]]], path: Path) -> None:
    """Every row's variant code names a kind and a seed (as `exam` writes
    them): a code of no kind was marked from the row alone, without a word."""
    unknown: dict[str, int] = {}
    known: set[str] = set()
    for n, row in answers:
        code = row["variant"].strip()
        if code in known or code in unknown:
            continue
        try:
            decoded = parse_variant(code)
            if decoded is None:
                raise UserError(code)
            kinds.get(decoded[0])
            known.add(code)
        except UserError:
            unknown[code] = n
    if unknown:
        (code, n), more = next(iter(unknown.items())), len(unknown) - 1
        also = f" (and {_count(more, 'other unknown code')})" if more else ""
        what = f"unknown variant code “{code}”" if code else "no variant code"
        raise UserError(f"{path}: line {n}: {what}{also}; each row's variant is a kind and a seed, "
                        "such as A-7KQ2M9XD4R, as attndrills exam writes it in answers.csv")


def _points(text: str, path: Path, line: int) -> Fraction:
    try:
        value = Fraction(Decimal(text.strip()))
    except (ValueError, ArithmeticError):
        raise UserError(f"{path}: line {line}: points {text!r} is not a number") from None
    if value < 0:
        raise UserError(f"{path}: line {line}: points {text!r} is negative")
    return _repeating(value, text)


def _repeating(value: Fraction, text: str) -> Fraction:
    """Points written to POINTS_PLACES places or more (answers.csv writes
    5/3 as 1.666666666667) read as the fraction they round from: the one of
    denominator at most a million within half a unit of the last place (no
    other lies that close), so three such parts total 5, not 5.000000000001."""
    places = len(text.strip().partition(".")[2])
    if places < POINTS_PLACES:
        return value
    simple = value.limit_denominator(10**6)
    return simple if abs(simple - value) <= Fraction(1, 2 * 10**places) else value


def fmt(x: Fraction) -> str:
    """Points as a short decimal: exact when it fits in four places, else rounded to four."""
    r = round(x, 4)
    text = format(Decimal(r.numerator) / Decimal(r.denominator), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _digits(answers_path: Path) -> int:
    manifest = answers_path.with_name("manifest.json")
    try:
        return int(json.loads(manifest.read_text())["spec"]["digits"])
    except (OSError, ValueError, KeyError, TypeError):
        return 4


def _answer_for(row: dict[str, str], digits: int, cache: dict):
    """The answer (with its distractors) behind a row, by regenerating the variant."""
    code = row["variant"].strip()
    if code not in cache:
        cache[code] = None
        decoded = parse_variant(code)
        if decoded:
            try:
                kinds.get(decoded[0])
                cache[code] = graded_answers(solve_problem(sample_problem(decoded[0], decoded[1]), digits))
            except UserError:
                cache[code] = None
    parts = cache[code]
    if not parts:
        return None
    q = row["question"].strip()
    idx = "abcdefghij".index(q[-1]) if q and q[-1] in "abcdefghij" else 0
    if idx >= len(parts) or answer_text(parts[idx]) != row["answer"]:
        return None  # not the same key (edited file, other version): mark from the row alone
    return parts[idx]


def _mark_row(row: dict[str, str], response: str) -> Mark:
    """Marking without the regenerated answer: the same rule (key ± the row's
    tolerance, per component), without distractors; other text exactly."""
    answer = answer_from_row(row["answer"], row["tolerance"])
    if answer.type != "text":
        return mark(answer, response)
    r = response.strip()
    if not r:
        return Mark(Fraction(0), None, "no answer")
    same = r.casefold().replace(" ", "") == answer.display.casefold().replace(" ", "")
    return Mark(Fraction(int(same)))


def results_csv(results: list[Result]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, RESULT_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in results:
        row = {"student": r.row["student"], "question": r.row["question"], "variant": r.row["variant"],
               "response": r.response, "correct": "yes" if r.mark.correct else "no",
               "awarded": fmt(r.awarded), "points": r.row["points"],
               "misconception": r.mark.misconception or "", "feedback": feedback(r.mark)}
        # what students and rosters typed goes in as text, never as a spreadsheet formula
        w.writerow({k: cell(v, number=k in ("awarded", "points")) for k, v in row.items()})
    return buf.getvalue()


def totals(results: list[Result]) -> list[tuple[str, Fraction, Fraction]]:
    out: dict[str, list[Fraction]] = {}
    for r in results:
        t = out.setdefault(r.row["student"], [Fraction(0), Fraction(0)])
        t[0] += r.awarded
        t[1] += r.points
    return [(s, a, p) for s, (a, p) in out.items()]
