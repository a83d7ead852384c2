"""Canvas's quiz "Student Analysis" report (Classic Quizzes → Quiz Statistics
→ Student Analysis, a CSV) read as the grader's input, for a quiz imported
from the exam's `--qti` package (render.qti).

Its columns, as canvas-lms writes them (app/models/quizzes/quiz_statistics/
student_analysis.rb, `to_csv`): `name`, `id` (Canvas's user id), `sis_id`
and `root_account` where the course has them, `section`, `section_id`,
`section_sis_id` (with SIS ids), `submitted`, `attempt` (when every attempt
is exported), then for every question any student drew a pair of columns —
`<question id>: <question text, tags stripped>` holding the response and a
column headed by the question's points possible holding the points Canvas
gave — and last `n correct`, `n incorrect`, `score`.  A student who did not
draw a question (another variant of its group) has both cells empty.

The response cell depends on the question's type: a numerical answer's
text; a multiple-choice or true/false answer's text (multiple answers: the
chosen texts joined by `,`); fill in multiple blanks: each blank's text
joined by `,`; matching: `left=>right` pairs joined by `,` — a `,` inside a
text written `\\,` and a `=>` written `\\=>`.  The column names no variant:
as for Moodle's report, the variant is the one of answers.csv whose question
text, as the QTI package writes it, is in the header's text (words and
numbers in order), and its type is the one render.qti gave it."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path

from .moodle_report import Converted, _blanks, _part_response, _text, _Variants, one_question

_QUESTION = re.compile(r"^(\d+):\s?(.*)$", re.S)
_TAIL = ("n correct", "n incorrect", "score")
_IDS = ("sis_id", "id", "name")  # the student: the first of these that is not empty
_SPLIT = re.compile(r"(?<!\\),")


def is_student_analysis(path: Path) -> bool:
    """Whether a responses file is Canvas's Student Analysis report: a
    `<id>: <text>` column and `n correct`, `n incorrect`, `score` at the end."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            head = next(csv.reader(f), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        return False
    names = [h.strip().casefold() for h in head]
    return tuple(names[-3:]) == _TAIL and any(_QUESTION.match(h.strip()) for h in head)


def _qti_text(sol, digits: int) -> str:
    """A variant's question text in the QTI package (render.qti.item_view)."""
    from ..render.qti import item_view

    q = one_question(sol)
    return item_view(q, digits, "")["text"] if q.parts else ""


def _unescape(text: str) -> str:
    return text.replace("\\,", ",").replace("\\=>", "=>")


def convert(pool: list[tuple[int, dict[str, str]]], path: Path, digits: int) -> Converted:
    """The report's students as rows of answers.csv (their variants' rows)
    and their responses, as moodle_report.convert gives Moodle's."""
    reader = csv.reader(io.StringIO(_text(path), newline=""))
    head = next(reader, [])
    rows = [(reader.line_num, r) for r in reader if any(c.strip() for c in r)]
    names = [h.strip().casefold() for h in head]
    questions = [(i, _QUESTION.match(h.strip())[2]) for i, h in enumerate(head[:-3])
                 if _QUESTION.match(h.strip()) and i + 1 < len(head) - 3]
    variants = _Variants(pool, digits, _qti_text)
    out = Converted(lms="Canvas")
    seen: dict[str, int] = {}
    for n, cells in rows:
        get = lambda i: cells[i].strip() if i < len(cells) else ""  # noqa: E731
        sid = next((get(names.index(c)) for c in _IDS if c in names and get(names.index(c))), "")
        given = sum(bool(get(i)) for i, _ in questions)
        if not sid:
            out.skip("unknown student", f"{path}: line {n}: no student id (no sis_id, id or name) — "
                                        f"{given} responses not graded", given)
            continue
        if sid in seen:
            out.skip("duplicate", f"{path}: line {n}: another attempt by {sid} (the one on line {seen[sid]}, "
                                  "Canvas's latest, is graded) — not graded", given)
            continue
        seen[sid] = n
        out.moodle_grades[sid] = (get(len(head) - 1), _possible(head, questions, cells))
        for i, text in questions:
            if get(i) or get(i + 1):  # the student drew this question
                _student_question(out, variants, f"{path}: line {n}", sid, html.unescape(text), get(i))
    return out


def _possible(head: list[str], questions: list[tuple[int, str]], cells: list[str]) -> str:
    """The points possible of the questions a student drew (their columns' headers)."""
    total = 0.0
    for i, _ in questions:
        if any(c.strip() for c in cells[i:i + 2]):
            try:
                total += float(head[i + 1])
            except ValueError:
                return ""
    return f"{total:g}"


def _student_question(out: Converted, variants: _Variants, where: str, sid: str, text: str, cell: str) -> None:
    rows = variants.match(0, text)
    if rows is None:
        out.skip("unknown question", f"{where}: a question of {sid}: its text matches no variant of answers.csv "
                                     "(another exam's quiz?) — response not graded")
        return
    parts = _parts(variants, rows, cell)
    if parts is None:
        out.skip("unknown question", f"{where}: a question of {sid}: the response has another number of blanks "
                                     f"than variant {rows[0][1]['variant']} — not graded")
        return
    for (line, row), response in zip(rows, parts):
        out.answers.append((line, {**row, "student": sid}))
        out.responses.append((line, {"student": sid, "question": row["question"], "response": response}))


def _parts(variants: _Variants, rows, cell: str) -> list[str] | None:
    """The response to each part from the cell, by the Canvas type render.qti
    gave the variant; None when a blank's count is not the variant's."""
    from ..render.qti import canvas_type
    from .answers import answer_from_row

    sol = variants.solution(rows[0][1]["variant"])
    q = one_question(sol)
    kind = canvas_type(q.parts)
    if kind == "fill_in_multiple_blanks_question":
        values = [_unescape(v).strip() for v in _SPLIT.split(cell)] if cell.strip() else []
        sizes = [_blanks(r) for _, r in rows]
        if values and len(values) != sum(sizes):
            return None
        values = values or [""] * sum(sizes)
        out, at = [], 0
        for (_, row), k in zip(rows, sizes):
            out.append(_part_response(answer_from_row(row["answer"], row["tolerance"]), values[at:at + k]))
            at += k
        return out
    a = q.parts[0].answer
    if kind in ("multiple_choice_question", "multiple_answers_question", "true_false_question"):
        return [_choice(a, cell)]
    if kind == "matching_question":
        pairs = [_unescape(p).partition("=>") for p in _SPLIT.split(cell)] if cell.strip() else []
        return ["; ".join(f"{left} → {right.strip()}" for (left, _), (_, _, right) in zip(a.exact, pairs))
                if any(p[2].strip() for p in pairs) else ""]
    return [_unescape(cell)]


def _choice(a, cell: str) -> str:
    """Canvas's chosen text(s) as the option letters (true/false as a word)."""
    from ..render import plain
    from .options import LETTERS

    if not cell.strip():
        return ""
    if a.type == "truefalse":
        return cell.strip().casefold()
    squash = lambda t: re.sub(r"\s+", " ", html.unescape(t)).strip().casefold()  # noqa: E731
    letters = {squash(plain.label(o.text)): LETTERS[n] for n, o in enumerate(a.options)}
    picked = [letters.get(squash(_unescape(t))) for t in _SPLIT.split(cell)]
    return ", ".join(picked) if all(picked) else _unescape(cell).strip()
