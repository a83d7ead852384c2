"""attndrills analyse: item analysis of graded results (the results.csv that
`attndrills grade` writes) — per exam question and per kind of problem:
facility, discrimination, the reliability of the whole exam, the score
distribution and the named mistakes.  Pure computation; renderers format,
writers write.

The indices are Moodle's quiz statistics report's (Moodle 4.5,
question/classes/statistics/questions/calculator.php and
mod/quiz/report/statistics/classes/calculator.php), so the figures compare:

- facility: the mean mark on the item over its maximum;
- discrimination index: 100 × the correlation of the item's mark with the
  rest of the exam (the total minus the item), sample (co)variances;
- discriminative efficiency: 100 × that covariance over the largest
  covariance the same marks could reach (both lists sorted and paired);
- coefficient of internal consistency: Cronbach's α (KR-20 for right/wrong
  items), 100 p/(p − 1) (1 − Σ item variances / variance of the totals).

Moodle has no upper–lower index; here it is the classic one: the mean
fraction of the item earned by the top 27 % of students by total minus that
of the bottom 27 % (round(0.27 n) students each, at least one; ties in the
total ordered by student id)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from .. import kinds
from ..errors import UserError
from ..seeding import parse_variant
from .misconceptions import CATALOGUE
from .remedies import Remedy, remedies
from .grader import _repeating, fmt
from .tables import read_csv

COLUMNS = ["student", "question", "variant", "awarded", "points", "misconception"]
LOW, HIGH = 0.2, 0.95  # facility flags
GROUP = 0.27  # the upper and lower groups' share of the class
HALF_UNIT = Fraction(1, 20000)  # of the fourth place, where results.csv rounds the points awarded


@dataclass
class ItemStats:
    """One item (an exam question, or every question of one kind) over the
    students who had it."""
    label: str
    kinds: list[str]
    points: Fraction  # the item's maximum (per student)
    students: int
    facility: float | None
    sd: float | None  # of the item's mark, as a fraction of its maximum
    discrimination: float | None  # Moodle's discrimination index (a per cent)
    efficiency: float | None  # Moodle's discriminative efficiency (a per cent)
    upper_lower: float | None  # D, from −1 to 1

    @property
    def flags(self) -> list[str]:
        out = []
        if self.discrimination is not None and self.discrimination < 0:
            out.append("negative discrimination")
        if self.facility is not None and self.facility < LOW:
            out.append(f"facility below {LOW}")
        if self.facility is not None and self.facility > HIGH:
            out.append(f"facility above {HIGH}")
        return out


@dataclass
class Mistake:
    name: str
    description: str
    responses: int
    students: int
    questions: list[str]
    kinds: list[str]


@dataclass
class Analysis:
    students: list[str]
    totals: list[Fraction]  # each student's total, in students' order
    maximum: Fraction  # the exam's total points (the largest of the students' maxima)
    responses: int  # rows of the results
    items: list[ItemStats]
    kinds: list[ItemStats]
    alpha: float | None  # Moodle's coefficient of internal consistency, as a fraction
    mistakes: list[Mistake] = field(default_factory=list)
    remedies: list[Remedy] = field(default_factory=list)  # per question part and mistake: its worked step


def read_results(path: Path) -> list[tuple[int, dict[str, str]]]:
    rows = read_csv(path, COLUMNS, "results", unquote=True, optional=("response",))
    if not rows:
        raise UserError(f"{path}: no rows under the header, so nothing to analyse; "
                        "give the results.csv that attndrills grade wrote")
    seen: set[tuple[str, str]] = set()
    for n, row in rows:
        key = (row["student"].strip(), row["question"].strip())
        if key in seen:
            raise UserError(f"{path}: line {n}: a second row for student {key[0]} question {key[1]}")
        seen.add(key)
        points = row["points"]
        for column in ("awarded", "points"):
            row[column] = _number(row[column], column, path, n)
        row["points"] = _repeating(row["points"], points)  # 5/3 written as 1.666666666667
        if row["points"] < row["awarded"] <= row["points"] + HALF_UNIT:  # awarded is written to four places
            row["awarded"] = row["points"]
        if row["awarded"] > row["points"]:
            raise UserError(f"{path}: line {n}: awarded {fmt(row['awarded'])} is more than the points, "
                            f"{fmt(row['points'])}")
    return rows


def _number(text: str, column: str, path: Path, line: int) -> Fraction:
    try:
        value = Fraction(Decimal(text.strip()))
    except (ValueError, ArithmeticError):
        raise UserError(f"{path}: line {line}: {column} {text!r} is not a number") from None
    if value < 0:
        raise UserError(f"{path}: line {line}: {column} {text!r} is negative")
    return value


def question_of(label: str) -> str:
    """The exam question a row belongs to: `2` of `2a`, `2b` (a Moodle slot)."""
    m = re.match(r"\d+", label.strip())
    return m[0] if m else label.strip()


def kind_of(variant: str) -> str:
    decoded = parse_variant(variant.strip())
    if decoded is None:
        return "?"
    try:
        return kinds.get(decoded[0]).id
    except UserError:
        return "?"


def analyse(rows: list[tuple[int, dict]]) -> Analysis:
    students = list(dict.fromkeys(r["student"].strip() for _, r in rows))
    # student → item → [mark, maximum], for questions and kinds
    by_question: dict[str, dict[str, list[Fraction]]] = {}
    by_kind: dict[str, dict[str, list[Fraction]]] = {}
    question_kinds: dict[str, dict[str, None]] = {}
    for _, r in rows:
        s, q, k = r["student"].strip(), question_of(r["question"]), kind_of(r["variant"])
        question_kinds.setdefault(q, {})[k] = None
        for table, key in ((by_question, q), (by_kind, k)):
            cell = table.setdefault(key, {}).setdefault(s, [Fraction(0), Fraction(0)])
            cell[0] += r["awarded"]
            cell[1] += r["points"]
    total = {s: Fraction(0) for s in students}
    most = {s: Fraction(0) for s in students}
    for marks in by_question.values():
        for s, (got, top) in marks.items():
            total[s] += got
            most[s] += top
    order = sorted(by_question, key=_natural)
    items = [_item(q, list(question_kinds[q]), by_question[q], total) for q in order]
    kind_items = [_item(k, [k], by_kind[k], total) for k in sorted(by_kind, key=_natural)]
    alpha = _alpha([by_question[q] for q in order], students, total)
    return Analysis(students, [total[s] for s in students], max(most.values()), len(rows),
                    items, kind_items, alpha, _mistakes(rows, len(students)), remedies(rows, kind_of, _natural))


def _natural(label: str) -> tuple:
    return tuple((0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.findall(r"\d+|\D+", label))


def _item(label: str, item_kinds: list[str], marks: dict[str, list[Fraction]], total: dict[str, Fraction]) -> ItemStats:
    who = [s for s in total if s in marks]
    mark = [float(marks[s][0]) for s in who]
    rest = [float(total[s] - marks[s][0]) for s in who]
    top = max(marks[s][1] for s in who)
    n = len(who)
    most = sum(marks[s][1] for s in who)
    facility = float(sum(marks[s][0] for s in who) / most) if most else None  # Moodle's mean mark / maxmark
    sd = None
    disc = eff = None
    if n > 1:
        var_m, var_r, cov = _var(mark), _var(rest), _cov(mark, rest)
        sd = math.sqrt(var_m) / float(top) if top else None
        if var_m * var_r:
            disc = 100 * cov / math.sqrt(var_m * var_r)
        cov_max = _cov(sorted(mark), sorted(rest))
        if cov_max:
            eff = 100 * cov / cov_max
    return ItemStats(label, item_kinds, top, n, facility, sd, disc, eff,
                     _upper_lower(who, marks, total))


def _var(x: list[float]) -> float:
    return _cov(x, x)


def _cov(x: list[float], y: list[float]) -> float:
    """Sample covariance (n − 1), as Moodle computes it."""
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / (n - 1)


def _upper_lower(who: list[str], marks: dict[str, list[Fraction]], total: dict[str, Fraction]) -> float | None:
    n = len(who)
    g = max(1, round(GROUP * n))
    if 2 * g > n:
        return None
    ranked = sorted(who, key=lambda s: (-total[s], s))
    share = [marks[s][0] / marks[s][1] if marks[s][1] else Fraction(0) for s in ranked]
    return float(sum(share[:g]) / g - sum(share[-g:]) / g)


def _alpha(items: list[dict[str, list[Fraction]]], students: list[str], total: dict[str, Fraction]) -> float | None:
    """Moodle's coefficient of internal consistency (as a fraction): over the
    students who had every item; none with fewer than two items or students,
    or totals that do not vary."""
    who = [s for s in students if all(s in m for m in items)]
    p = len(items)
    if p < 2 or len(who) < 3:
        return None
    var_total = _var([float(total[s]) for s in who])
    if not var_total:
        return None
    item_var = sum(_var([float(m[s][0]) for s in who]) for m in items)
    return p / (p - 1) * (1 - item_var / var_total)


def _mistakes(rows: list[tuple[int, dict]], n_students: int) -> list[Mistake]:
    named: dict[str, dict] = {}
    for _, r in rows:
        name = r["misconception"].strip()
        if not name:
            continue
        m = named.setdefault(name, {"responses": 0, "students": {}, "questions": {}, "kinds": {}})
        m["responses"] += 1
        m["students"][r["student"].strip()] = None
        m["questions"][r["question"].strip()] = None
        m["kinds"][kind_of(r["variant"])] = None
    out = [Mistake(name, CATALOGUE.get(name, ""), m["responses"], len(m["students"]),
                   sorted(m["questions"], key=_natural), sorted(m["kinds"], key=_natural))
           for name, m in named.items()]
    return sorted(out, key=lambda m: (-m.students, -m.responses, m.name))


def distribution(totals: list[Fraction], maximum: Fraction, bins: int = 10) -> list[int]:
    """How many totals fall in each tenth of the maximum (the last bin
    includes the maximum itself)."""
    counts = [0] * bins
    for t in totals:
        k = min(math.floor(t / maximum * bins), bins - 1) if maximum else 0
        counts[k] += 1
    return counts
