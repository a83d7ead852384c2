"""Moodle's quiz "Responses" report (mod/quiz/report/responses, downloaded as
CSV) read as the grader's input: each student's attempt answers one variant
of every exam question, drawn by Moodle from the question's category of a
`--variants` pool (or a roster's moodle.xml).

The report's columns (Moodle 4.5, its `quiz_responses_report::display`): the
user columns (`Last name`, `First name`, the identity fields such as `Email
address`), `Status`, `Started`, `Completed`, `Duration`, `Grade/<max>`, then
per quiz slot N `Question N` (ticked "Question text": the question's text as
Moodle summarises it), `Response N` (the response summary) and `Right answer
N`.  The report names no question: the variant a student drew is the one of
answers.csv whose question text matches `Question N` best (words and numbers
in order), so the "Question text" column is needed.

A response summary is what Moodle's question types write: a number, a
choice's text, `True`/`False`, `stem -> choice; …` for a matching question,
and for a cloze question `part 1: …; part 2: …`, one part per blank (a
vector's components, a matching's pairs, a menu), `-` for no response.  Each
is turned into the answer forms `grade` reads, one response per part label,
and the pool's rows of the variant become the student's rows of answers.csv:
so the marking, the named mistakes and the reports are a paper exam's."""

from __future__ import annotations

import csv
import difflib
import html
import io
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .. import kinds
from ..errors import UserError
from ..pipeline import sample_problem, solve_problem
from ..seeding import parse_variant
from .answers import answer_from_row

_RESPONSE = re.compile(r"response (\d+)")
_QUESTION = re.compile(r"question (\d+)")
_IDS = ("email address", "id number", "username")
_PART = re.compile(r"(?:^|;\s)part (\d+):\s?")
_LETTERED = re.compile(r"^\(([A-Z])\)\s")
# a variant is the question when this share of its text's words and numbers are in Moodle's summary
# of it, in order (html_to_text keeps them all: 1 for the right variant in the fixture's pool, where
# another variant of the question has 0.95 at most — a number or two differ)
_LEAST_LIKE = 0.99
_BLANK = re.compile(r"\{\d+:[A-Z_]+:(?:\\.|[^}])*\}")  # a cloze blank (Moodle's summary shows _____ or its menu)


@dataclass
class Converted:
    """answers.csv rows and responses for the students of a Moodle report,
    and what could not be graded: report lines and their counts."""
    answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    responses: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    reports: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    moodle_grades: dict[str, tuple[float, float]] = field(default_factory=dict)  # student → (grade, out of)
    lms: str = "Moodle"  # whose grades those are

    def skip(self, kind: str, text: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n
        self.reports.append(text)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def is_report(path: Path) -> bool:
    """Whether a responses file is Moodle's Responses report (a `Response N` column)."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            head = next(csv.reader(io.StringIO(f.readline())), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        return False
    return any(_RESPONSE.fullmatch(h.strip().casefold()) for h in head)


def _rows(path: Path) -> tuple[list[str], list[tuple[int, list[str]]]]:
    reader = csv.reader(io.StringIO(_text(path), newline=""), strict=True)
    try:
        head = [h.strip().casefold() for h in next(reader, [])]
        rows = [(reader.line_num, r) for r in reader if any(c.strip() for c in r)]
    except csv.Error as exc:
        raise UserError(f"{path}: line {reader.line_num}: {exc}") from None
    return head, rows


def convert(pool: list[tuple[int, dict[str, str]]], path: Path, digits: int) -> Converted:
    """The report's students as rows of answers.csv (their variants' rows,
    relabelled with the quiz's question numbers) and their responses."""
    head, rows = _rows(path)
    slots = sorted(int(m[1]) for h in head if (m := _RESPONSE.fullmatch(h)))
    asked = {int(m[1]) for h in head if (m := _QUESTION.fullmatch(h))}
    if set(slots) - asked:
        raise UserError(f"{path}: Moodle's Responses report without its “Question N” columns: the report names "
                        "no question, so each response is matched to its variant by the question's text; "
                        "download it again with “Question text” ticked under the report's display options")
    col = {h: i for i, h in reversed(list(enumerate(head)))}
    grade_col = next((h for h in head if h.startswith("grade/")), None)
    variants = _Variants(pool, digits)
    out = Converted()
    seen: dict[str, int] = {}
    where = f"{path}:"
    for n, cells in rows:
        get = lambda name: cells[col[name]].strip() if name in col and col[name] < len(cells) else ""  # noqa: E731
        sid = next((get(c) for c in _IDS if get(c)), "") or " ".join(filter(None, (get("first name"), get("last name"))))
        given = sum(get(f"response {s}") not in ("", "-") for s in slots)
        if _not_graded(out, seen, f"{where} line {n}", sid, get("state") or get("status"), given):
            continue
        seen[sid] = n
        if grade_col:
            out.moodle_grades[sid] = (get(grade_col), grade_col.partition("/")[2])
        for s in slots:
            _student_question(out, variants, where, n, sid, s, get(f"question {s}"), get(f"response {s}"))
    return out


def _not_graded(out: Converted, seen: dict[str, int], where: str, sid: str, status: str, given: int) -> bool:
    """Whether an attempt is left ungraded (reported): no student id, a
    student's second attempt, an attempt not finished."""
    if not sid:
        out.skip("unknown student", f"{where}: no student id (no name, email or id number) — "
                                    f"{given} responses not graded", given)
    elif sid in seen:
        out.skip("duplicate", f"{where}: a second attempt by {sid} (the first, on line {seen[sid]}, is graded) "
                              "— not graded; download one attempt a student (the quiz's grading method) to grade "
                              "another", given)
    elif status and status.casefold() not in ("finished", "finished late"):
        out.skip("unfinished attempt", f"{where}: the attempt of {sid} is “{status}”, not finished — "
                                       f"{given} responses not graded")
    else:
        return False
    return True


def _student_question(out: Converted, variants: "_Variants", where: str, n: int, sid: str, slot: int,
                      text: str, summary: str) -> None:
    """One quiz question of one student: its variant's rows and the responses to its parts."""
    rows = variants.match(slot, text)
    if rows is None:
        out.skip("unknown question", f"{where} line {n}: question {slot} of {sid}: its text matches no variant "
                                     "of answers.csv (another exam's quiz?) — response not graded")
        return
    parts = _parts(rows, summary)
    if parts is None:
        out.skip("unknown question", f"{where} line {n}: question {slot} of {sid}: the response has another "
                                     f"number of blanks than variant {rows[0][1]['variant']} — not graded")
        return
    for (line, row), response in zip(rows, parts):
        label = f"{slot}{re.sub(r'^[0-9]+', '', row['question'].strip())}"
        out.answers.append((line, {**row, "student": sid, "question": label}))
        out.responses.append((n, {"student": sid, "question": label, "response": response}))


class _Variants:
    """The pool's variants, their rows of answers.csv and question texts."""

    def __init__(self, pool: list[tuple[int, dict[str, str]]], digits: int, text_of=None):
        self.rows: dict[str, list[tuple[int, dict[str, str]]]] = {}
        for n, row in pool:
            rows = self.rows.setdefault(row["variant"].strip(), [])
            if all(r["question"] != row["question"] for _, r in rows):  # the pool's first copy of a variant
                rows.append((n, row))
        self.digits = digits
        self.text_of = text_of or _moodle_text  # a variant's question text as the LMS was given it
        self.words: dict[str, list[str]] = {}
        self.solved: dict[str, object] = {}
        self.cache: dict[tuple[int, str], str | None] = {}

    def solution(self, code: str):
        """The variant regenerated from its code (None for a code of no kind)."""
        if code not in self.solved:
            decoded = parse_variant(code)
            try:
                kinds.get(decoded[0]) if decoded else None
                self.solved[code] = solve_problem(sample_problem(*decoded), self.digits) if decoded else None
            except UserError:
                self.solved[code] = None
        return self.solved[code]

    def _words(self, code: str) -> list[str]:
        """The words and numbers of the variant's question text as moodle.xml writes it."""
        if code not in self.words:
            sol = self.solution(code)
            text = self.text_of(sol, self.digits) if sol is not None else ""
            self.words[code] = _tokens(html.unescape(re.sub(r"<[^>]+>", " ", _BLANK.sub(" ", text))))
        return self.words[code]

    def match(self, slot: int, text: str) -> list[tuple[int, dict[str, str]]] | None:
        """The rows of the variant whose question text is most like `text`
        (first among those numbered `slot` in answers.csv, then all)."""
        key = (slot, text)
        if key not in self.cache:
            same = [c for c, rows in self.rows.items() if _number(rows[0][1]["question"]) == slot]
            self.cache[key] = self._best(same, text) or self._best(list(self.rows), text)
        code = self.cache[key]
        return self.rows[code] if code else None

    def _best(self, codes: list[str], text: str) -> str | None:
        words = _tokens(text)
        scored = sorted(((_like(self._words(c), words), c) for c in codes), key=lambda x: x[0], reverse=True)
        if not scored or scored[0][0][0] < _LEAST_LIKE:
            return None
        best = scored[0]
        tied = [c for r, c in scored[1:] if r == best[0]]
        keys = lambda c: [(r["answer"], r["tolerance"], r["points"]) for _, r in self.rows[c]]  # noqa: E731
        return None if any(keys(c) != keys(best[1]) for c in tied) else best[1]


def one_question(sol):
    """A variant as the exam question it is (numbered 1, a point a part), as the LMS exports view it."""
    from .assembly import PART_LETTERS, Part, Question, graded_answers, quantity

    graded = graded_answers(sol)
    parts = tuple(Part("1" if len(graded) == 1 else f"1{PART_LETTERS[n]}", a, Fraction(1), quantity(a, sol.problem.kind))
                  for n, a in enumerate(graded))
    return Question(1, 1, sol, Fraction(len(parts)), parts)


def _moodle_text(sol, digits: int) -> str:
    """A variant's question text in moodle.xml (render.moodle.question_view)."""
    from ..render.moodle import question_view

    q = one_question(sol)
    return question_view(q, digits)["text"] if q.parts else ""


def _like(ours: list[str], theirs: list[str]) -> tuple[float, float]:
    """How much of a variant's question text is in Moodle's summary of it
    (which adds a multiple-choice question's choices), in order; then how
    alike the two are."""
    if not ours:
        return 0.0, 0.0
    m = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    return sum(x.size for x in m.get_matching_blocks()) / len(ours), m.ratio()


def _number(label: str) -> int | None:
    m = re.match(r"\d+", label.strip())
    return int(m[0]) if m else None


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+(?:\.\d+)?", text.casefold())


def _blanks(row: dict[str, str]) -> int:
    a = answer_from_row(row["answer"], row["tolerance"])
    if a.type == "vector":
        return len(_flat(a.display))
    return len(a.exact) if a.type == "matching" else 1


def _flat(x) -> list:
    return [v for item in x for v in _flat(item)] if isinstance(x, list) else [x]


def _parts(rows: list[tuple[int, dict[str, str]]], summary: str) -> list[str] | None:
    """The response to each part, in answers.csv's forms; None when the
    summary's blanks are not the variant's."""
    summary = "" if summary.strip() == "-" else summary
    answers = [answer_from_row(r["answer"], r["tolerance"]) for _, r in rows]
    cloze = len(rows) > 1 or answers[0].type == "vector" or (answers[0].type == "matching" and len(answers[0].exact) < 3)
    if not cloze:
        a = answers[0]
        if a.type == "matching":
            return [_matching_pairs(a, summary)]
        return [_choice(summary) if a.type == "choice" else summary.strip()]
    pieces = _PART.split(summary) if summary.strip() else []
    blanks = [v.strip() for v in pieces[2::2]]
    if summary.strip() and (pieces[0].strip() or len(blanks) != sum(_blanks(r) for _, r in rows)):
        return None
    out, at = [], 0
    for (_, row), a in zip(rows, answers):
        k = _blanks(row)
        values, at = blanks[at:at + k], at + k
        out.append(_part_response(a, values))
    return out


def _part_response(a, values: list[str]) -> str:
    """One cloze part's blanks as one response: "" when every blank is empty."""
    if not any(v not in ("", "-") for v in values):
        return ""
    if a.type == "vector":  # an empty component is one component wrong, as Moodle marks it
        return "; ".join(v if v not in ("", "-") else "-" for v in values)
    if a.type == "matching":
        return "; ".join(f"{left} → {v if v != '-' else ''}" for (left, _), v in zip(a.exact, values))
    return _choice(values[0]) if a.type == "choice" else values[0]


def _choice(text: str) -> str:
    """A cloze menu's choice `(B) text` is the letter B; several `(A) …; (C) …` are `A, C`."""
    picked = [m[1] for piece in text.split("; ") if (m := _LETTERED.match(piece.strip()))]
    return ", ".join(picked) if picked else text.strip()


def _matching_pairs(a, summary: str) -> str:
    """Moodle's `stem -> choice; …` (stems in its shuffled order, as it
    shows them: maths as TeX) as answers.csv's `left → right` in the
    left items' order, a stem found by its letters and digits."""
    said = {}
    for piece in summary.split("; "):
        stem, arrow, choice = piece.partition(" -> ")
        if arrow:
            said[_squash(stem)] = choice.strip()
    pairs = []
    for left, _ in a.exact:
        got = next((v for k, v in said.items() if k == _squash(left) or k.endswith(_squash(left))), "")
        pairs.append(f"{left} → {got}")
    return "; ".join(pairs) if said else ""


def _squash(text: str) -> str:
    return re.sub(r"[\W_]", "", text.casefold().replace("\\alpha", "α"))
