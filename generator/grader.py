"""attndrills grade: marks per student and question, within tolerance, and for
each wrong numeric or multiple-choice answer the misconception it matches.

The answers file holds each row's variant code; regenerating the variant gives
back its distractors, each named after a mistake from the catalogue."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from . import kinds
from .errors import UserError
from .marking import Mark, answer_text, feedback, graded_answers, mark, parse_vector
from .pipeline import sample_problem, solve_problem
from .seeding import parse_variant

ANSWER_COLUMNS = ["student", "variant", "question", "answer", "tolerance", "points"]
RESPONSE_COLUMNS = ["student", "question", "response"]
RESULT_COLUMNS = ["student", "question", "variant", "response", "correct", "awarded", "points",
                  "misconception", "feedback"]


def read_csv(path: Path, columns: list[str], what: str) -> list[dict[str, str]]:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise UserError(f"{path}: cannot read the {what} ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise UserError(f"{path}: line 1: the header needs the columns {', '.join(columns)} "
                        f"(missing: {', '.join(missing)})")
    try:
        return [row for row in reader]
    except csv.Error as exc:
        raise UserError(f"{path}: line {reader.line_num}: {exc}") from None


@dataclass
class Result:
    row: dict[str, str]
    response: str
    mark: Mark
    awarded: float


def grade(answers_path: Path, responses_path: Path) -> list[Result]:
    answers = read_csv(answers_path, ANSWER_COLUMNS, "answers")
    responses = read_csv(responses_path, RESPONSE_COLUMNS, "responses")
    given = {}
    for n, r in enumerate(responses, start=2):
        key = (r["student"].strip(), r["question"].strip())
        if key in given:
            raise UserError(f"{responses_path}: line {n}: a second response for student {key[0]} "
                            f"question {key[1]}")
        given[key] = r["response"] or ""
    digits = _digits(answers_path)
    regenerated: dict[str, list] = {}
    results = []
    for n, row in enumerate(answers, start=2):
        try:
            points = float(row["points"])
        except ValueError:
            raise UserError(f"{answers_path}: line {n}: points {row['points']!r} is not a number") from None
        response = given.get((row["student"], row["question"]), "")
        answer = _answer_for(row, digits, regenerated)
        m = mark(answer, response) if answer is not None else _mark_row(row, response)
        results.append(Result(row, response, m, points if m.correct else 0.0))
    return results


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
    idx = "abcdefghij".index(q[-1]) if q and q[-1].isalpha() else 0
    if idx >= len(parts) or answer_text(parts[idx]) != row["answer"]:
        return None  # not the same key (edited file, other version): mark from the row alone
    return parts[idx]


def _mark_row(row: dict[str, str], response: str) -> Mark:
    """Marking without the regenerated answer: numbers within the row's tolerance, or exact text."""
    key, r = row["answer"].strip(), response.strip()
    if not r:
        return Mark(False, None, "no answer")
    if row["tolerance"].strip():
        tol = float(row["tolerance"])
        k, g = parse_vector(key), parse_vector(r)
        ok = len(k) == len(g) and all(
            len(a) == len(b) and all(x is not None and y is not None and abs(x - y) <= tol * (1 + 1e-9) + 1e-15
                                     for x, y in zip(a, b)) for a, b in zip(k, g))
        return Mark(ok, None)
    return Mark(r.lower().replace(" ", "") == key.lower().replace(" ", ""), None)


def results_csv(results: list[Result]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, RESULT_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in results:
        w.writerow({"student": r.row["student"], "question": r.row["question"], "variant": r.row["variant"],
                    "response": r.response, "correct": "yes" if r.mark.correct else "no",
                    "awarded": f"{r.awarded:g}", "points": r.row["points"],
                    "misconception": r.mark.misconception or "", "feedback": feedback(r.mark)})
    return buf.getvalue()


def totals(results: list[Result]) -> list[tuple[str, float, float]]:
    out: dict[str, list[float]] = {}
    for r in results:
        t = out.setdefault(r.row["student"], [0.0, 0.0])
        t[0] += r.awarded
        t[1] += float(r.row["points"])
    return [(s, a, p) for s, (a, p) in out.items()]
