"""attndrills analyse: the item statistics against values computed by hand
on a small class written out here, against independent formulas (numpy) on a
larger one with partial credit, and the command's files and errors."""

from __future__ import annotations

import csv
import io
import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from generator.cli import main
from generator.exam.analysis import analyse, distribution, read_results

HEADER = "student,question,variant,response,correct,awarded,points,misconception,feedback\n"

# Five students, three one-point questions (kinds A, B and A again):
#        q1 q2 q3  total
#   s1    1  1  1   3
#   s2    1  1  0   2
#   s3    1  0  1   2
#   s4    0  1  0   1
#   s5    0  0  0   0
SMALL = {"s1": (1, 1, 1), "s2": (1, 1, 0), "s3": (1, 0, 1), "s4": (0, 1, 0), "s5": (0, 0, 0)}
CODES = ("A-0000000001", "B-0000000002", "A-0000000003")
NAMED = {("s4", 1): "divide_by_sum", ("s5", 1): "divide_by_sum", ("s5", 3): "log_base_2"}


def small_csv() -> str:
    lines = [HEADER]
    for s, marks in SMALL.items():
        for q, (m, code) in enumerate(zip(marks, CODES), start=1):
            lines.append(f"{s},{q},{code},x,{'yes' if m else 'no'},{m},1,{NAMED.get((s, q), '')},\n")
    return "".join(lines)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "results.csv"
    path.write_text(small_csv())
    return path


def test_small_class_by_hand(small: Path) -> None:
    a = analyse(read_results(small))
    q1, q2, q3 = a.items
    # facility: right answers over students
    assert (q1.facility, q2.facility, q3.facility) == pytest.approx((0.6, 0.6, 0.4))
    # q1: marks 1 1 1 0 0, rest 2 1 1 1 0: cov = 1.0/4, var = 1.2/4 and 2/4 → r = .25/√.15
    assert q1.discrimination == pytest.approx(100 * 0.25 / math.sqrt(0.3 * 0.5))
    assert f"{q1.discrimination:.2f}" == "64.55"
    # sorted and paired, the same deviations: the largest covariance → 100 %
    assert q1.efficiency == pytest.approx(100.0)
    # q2: marks 1 1 0 1 0, rest 2 1 2 0 0: deviations cancel, r = 0
    assert q2.discrimination == pytest.approx(0.0, abs=1e-12)
    # q3: marks 1 0 1 0 0, rest 2 2 1 1 0: cov .6/4, var 1.2/4 and 2.8/4; sorted: cov 1.6/4
    assert q3.discrimination == pytest.approx(100 * 0.15 / math.sqrt(0.3 * 0.7))
    assert f"{q3.discrimination:.2f}" == "32.73"
    assert q3.efficiency == pytest.approx(37.5)
    # KR-20: p q per item .24 each, population variance of totals 5.2/5
    assert a.alpha == pytest.approx(3 / 2 * (1 - 0.72 / 1.04))
    assert f"{100 * a.alpha:.2f}" == "46.15"
    # upper–lower 27 %: round(1.35) = 1 student each, s1 (3) and s5 (0)
    assert (q1.upper_lower, q2.upper_lower, q3.upper_lower) == (1.0, 1.0, 1.0)
    assert [q.flags for q in a.items] == [[], [], []]


def test_small_class_kinds_and_mistakes(small: Path) -> None:
    a = analyse(read_results(small))
    kind_a, kind_b = a.kinds
    assert (kind_a.label, kind_b.label) == ("A", "B")
    assert kind_a.facility == pytest.approx(5 / 10)  # q1 and q3 together: 5 of 10 points
    assert kind_a.points == 2
    # A's marks 2 1 2 0 0, rest (q2) 1 1 0 1 0
    assert kind_a.discrimination == pytest.approx(100 * np.corrcoef([2, 1, 2, 0, 0], [1, 1, 0, 1, 0])[0, 1])
    first, second = a.mistakes
    assert (first.name, first.responses, first.students, first.questions, first.kinds) == (
        "divide_by_sum", 2, 2, ["1"], ["A"])
    assert (second.name, second.responses, second.students) == ("log_base_2", 1, 1)
    assert a.responses == 15
    assert distribution(a.totals, a.maximum) == [1, 0, 0, 1, 0, 0, 2, 0, 0, 1]


def test_flags() -> None:
    # q1 everyone right (facility 1 > 0.95); q2 only the weakest right (negative); q3 nobody (0 < 0.2)
    rows = []
    # q4 follows the rest of the exam (no flag)
    for s, marks in {"a": (1, 0, 0, 1, 1), "b": (1, 0, 0, 1, 1), "c": (1, 0, 0, 0, 0), "d": (1, 1, 0, 0, 0)}.items():
        for q, m in enumerate(marks, start=1):
            rows.append((q, {"student": s, "question": str(q), "variant": "A-1", "awarded": Fraction(m),
                             "points": Fraction(1), "misconception": ""}))
    items = analyse(rows).items
    assert items[0].flags == ["facility above 0.95"] and items[0].discrimination is None
    assert items[1].flags == ["negative discrimination"]
    assert items[2].flags == ["facility below 0.2"]
    assert items[3].flags == []


def test_partial_credit_against_numpy(tmp_path: Path) -> None:
    """Parts 2a, 2b make one question (one Moodle slot); marks with partial
    credit; every index against numpy's own formulas."""
    rng = random.Random(7)
    students = [f"st{i:02d}" for i in range(23)]
    parts = {"1": [("1", 2)], "2": [("2a", 1), ("2b", 2)], "3": [("3", 3)], "4": [("4a", 1), ("4b", 1)]}
    lines = [HEADER]
    marks = {}
    for s in students:
        ability = rng.random()
        for q, labels in parts.items():
            for label, pts in labels:
                got = Fraction(rng.choice(range(0, 4 * pts + 1)), 4) if rng.random() < ability + 0.2 else Fraction(0)
                marks[s, q] = marks.get((s, q), 0) + got
                lines.append(f"{s},{label},C-0000000009,x,no,{float(got)},{pts},,\n")
    path = tmp_path / "results.csv"
    path.write_text("".join(lines))
    a = analyse(read_results(path))
    m = np.array([[float(marks[s, q]) for q in parts] for s in students])
    total = m.sum(axis=1)
    top = np.array([sum(p for _, p in labels) for labels in parts.values()])
    for j, it in enumerate(a.items):
        rest = total - m[:, j]
        assert it.label == list(parts)[j]
        assert it.facility == pytest.approx(m[:, j].mean() / top[j])
        assert it.discrimination == pytest.approx(100 * np.corrcoef(m[:, j], rest)[0, 1])
        cov = np.cov(m[:, j], rest)[0, 1]
        assert it.efficiency == pytest.approx(100 * cov / np.cov(np.sort(m[:, j]), np.sort(rest))[0, 1])
        order = sorted(range(len(students)), key=lambda i: (-total[i], students[i]))
        g = round(0.27 * len(students))
        share = m[:, j] / top[j]
        assert it.upper_lower == pytest.approx(share[order[:g]].mean() - share[order[-g:]].mean())
    k = len(parts)
    assert a.alpha == pytest.approx(k / (k - 1) * (1 - m.var(axis=0, ddof=1).sum() / total.var(ddof=1)))


def test_command_writes_the_report(small: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "report"
    assert main(["analyse", str(small), "--out", str(out), "--site", "https://example.org/course"]) == 0
    items = list(csv.DictReader(io.StringIO((out / "items.csv").read_text())))
    assert [(r["question"], r["facility"], r["discrimination_index"]) for r in items] == [
        ("1", "0.6000", "64.55"), ("2", "0.6000", "0.00"), ("3", "0.4000", "32.73")]
    mistakes = list(csv.DictReader(io.StringIO((out / "misconceptions.csv").read_text())))
    assert mistakes[0]["misconception"] == "divide_by_sum"
    assert (mistakes[0]["response_share"], mistakes[0]["student_share"]) == ("0.1333", "0.4000")
    page = (out / "report.html").read_text()
    assert "https://example.org/course/generated/practice/" in page
    assert page.count("<img src=\"data:image/svg+xml;base64,") == 3
    assert 'alt="Bar chart of each question&#x27;s facility — question 1: 0.60' in page
    assert "0.4615" in page and "No question is flagged" in page
    # run again: the folder it wrote is replaced
    assert main(["analyse", str(small), "--out", str(out)]) == 0


@pytest.mark.parametrize("row, message", [
    ("s1,1,A-1,x,yes,2,1,,", "awarded 2 is more than the points, 1"),
    ("s1,1,A-1,x,yes,one,1,,", "awarded 'one' is not a number"),
    ("s1,1,A-1,x,yes,1,-1,,", "points '-1' is negative"),
])
def test_bad_results_write_nothing(tmp_path: Path, capsys, row: str, message: str) -> None:
    path = tmp_path / "results.csv"
    path.write_text(HEADER + row + "\n")
    out = tmp_path / "report"
    assert main(["analyse", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not out.exists()


def test_duplicate_and_empty(tmp_path: Path, capsys) -> None:
    path = tmp_path / "results.csv"
    path.write_text(HEADER + "s1,1,A-1,x,yes,1,1,,\ns1,1,A-1,x,yes,1,1,,\n")
    assert main(["analyse", str(path), "--out", str(tmp_path / "r")]) == 2
    assert "a second row for student s1 question 1" in capsys.readouterr().err
    path.write_text(HEADER)
    assert main(["analyse", str(path), "--out", str(tmp_path / "r")]) == 2
    assert "nothing to analyse" in capsys.readouterr().err


MOODLE = Path(__file__).parent / "fixtures" / "moodle_statistics"


def test_equals_moodle_statistics_report(tmp_path: Path) -> None:
    """The attempts of a real Moodle 4.5.6 quiz (fixtures/moodle_statistics,
    README there): facility, discrimination index, discriminative efficiency
    and the coefficient of internal consistency as the report prints them."""
    import json

    attempts = json.loads((MOODLE / "attempts.json").read_text())["attempts"]
    printed = json.loads((MOODLE / "statistics.json").read_text())
    lines = [HEADER]
    for at in attempts:  # a slot left blank has no mark in Moodle (null): 0 in its sums, as in grade's
        for s in at["slots"]:
            lines.append(f"{at['username']},{s['slot']},{s['variant']},x,no,{s['mark'] or 0!r},{s['maxmark']!r},,\n")
    path = tmp_path / "results.csv"
    path.write_text("".join(lines))
    a = analyse(read_results(path))
    assert len(a.students) == int(printed["attempts"]) == 14
    assert [it.label for it in a.items] == [str(s["slot"]) for s in printed["slots"]]
    for it, slot in zip(a.items, printed["slots"]):
        assert f"{100 * it.facility:.2f}%" == slot["facility"], it.label
        assert f"{it.discrimination:.2f}%" == slot["discrimination_index"], it.label
        assert f"{it.efficiency:.2f}%" == slot["discriminative_efficiency"], it.label
    cic = next(v for k, v in printed["quiz_info"].items() if k.startswith("Coefficient of internal consistency"))
    assert f"{100 * a.alpha:.2f}%" == cic
