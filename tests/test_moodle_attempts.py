"""Moodle back into the grader, and figures out to Moodle.

`grade` reads Moodle's quiz Responses report: the fixtures in
tests/moodle_attempts/ come from a real Moodle 4.5.6 (how: its README), and
the grader's totals must equal the grades Moodle gave the same attempts.
moodle.xml embeds every figure of a worked solution as Moodle stores files."""

import base64
import csv
import json
import re
import shutil
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from generator.cli import main
from generator.exam.grader import grade, totals

HERE = Path(__file__).resolve().parent / "moodle_attempts"
ANSWERS = HERE / "answers.csv"
REPORT = HERE / "responses.csv"
MOODLE = json.loads((HERE / "moodle-attempts.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graded():
    return grade(ANSWERS, REPORT)


def test_totals_equal_moodles_grades(graded):
    """Every student's total is Moodle's sumgrades for the attempt (Moodle keeps 5 places)."""
    ours = {s: got for s, got, _ in totals(graded.results)}
    assert len(ours) == len(MOODLE["attempts"]) == 12
    for a in MOODLE["attempts"]:
        assert abs(float(ours[a["email"]]) - a["sumgrades"]) < 1e-5, a["email"]
    assert {s: total for s, _, total in totals(graded.results)} == dict.fromkeys(ours, Fraction(33))
    assert graded.unmatched == 0 and not graded.reports


def test_each_response_is_matched_to_the_variant_the_student_drew(graded):
    """The question text picks the variant: Moodle's own record (idnumber = variant code) agrees for
    every slot, and each slot's marks are Moodle's mark for it (to the 4 places results.csv writes a part)."""
    for a in MOODLE["attempts"]:
        for s in a["slots"]:
            rows = [r for r in graded.results if r.row["student"] == a["email"]
                    and re.fullmatch(rf"{s['slot']}[a-j]?", r.row["question"])]
            assert rows and {r.row["variant"] for r in rows} == {s["variant"]}, (a["email"], s["slot"])
            assert abs(float(sum(r.awarded for r in rows)) - (s["mark"] or 0)) < 1e-4 * len(rows)


def test_named_mistakes_blanks_and_partial_credit_as_for_a_paper(graded):
    named = [r for r in graded.results if r.mark.misconception]
    assert len({r.mark.misconception for r in named}) >= 5
    assert any(0 < r.mark.credit < 1 for r in graded.results)  # a cloze vector partly right
    blank = [r for r in graded.results if not r.response]
    assert len(blank) == 28 and all(r.mark.credit == 0 for r in blank)
    # student 2 submitted every question blank: every row, none dropped
    assert sum(r.row["student"] == "m36-resp-s02@example.com" for r in graded.results) == 19


def test_grade_command_prints_moodles_grade_beside_each_total(tmp_path):
    out = tmp_path / "results.csv"
    assert main(["grade", str(ANSWERS), str(REPORT), "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 228 and rows[0]["student"] == "m36-resp-s01@example.com"


def test_grade_command_stdout(cli):
    r = cli("grade", str(ANSWERS), str(REPORT), "--out", "/dev/null")
    assert r.returncode == 0, r.stderr
    assert "m36-resp-s03@example.com\t20.6389 / 33\tMoodle: 20.64 / 33.00" in r.stdout


def test_second_and_unfinished_attempts_are_reported_not_dropped(cli):
    r = cli("grade", str(ANSWERS), str(HERE / "responses-all-attempts.csv"), "--out", "/dev/null")
    assert r.returncode == 1
    assert "line 14: a second attempt by m36-resp-s03@example.com (the first, on line 4, is graded)" in r.stderr
    assert "line 15: the attempt of m36-resp-s99@example.com is “In progress”, not finished" in r.stderr
    assert "not graded: 9 duplicates, 1 unfinished attempt" in r.stderr


def test_a_report_without_question_text_is_an_error(cli, tmp_path):
    out = tmp_path / "results.csv"
    r = cli("grade", str(ANSWERS), str(HERE / "responses-no-question-text.csv"), "--out", str(out))
    assert r.returncode == 2 and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    assert "“Question text” ticked" in r.stderr and not out.exists()


def test_a_question_of_another_exam_is_reported(tmp_path):
    """A question whose text matches no variant (its numbers changed) is reported and counted, and the
    student's other questions are still graded."""
    text = REPORT.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(text.splitlines()))
    col = rows[0].index("Question 6")
    rows[3][col] = re.sub(r"= (\d+) words", lambda m: f"= {int(m[1]) + 7} words", rows[3][col])
    changed = tmp_path / "responses.csv"
    with changed.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    shutil.copy(HERE / "manifest.json", tmp_path / "manifest.json")
    g = grade(ANSWERS, changed)
    assert g.counts["unknown question"] == 1 and g.unmatched == 1
    assert any("line 4: question 6 of m36-resp-s03@example.com: its text matches no variant" in x for x in g.reports)
    assert sum(r.row["student"] == "m36-resp-s03@example.com" for r in g.results) == 18


# -- figures in moodle.xml -----------------------------------------------------

@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    out = tmp_path_factory.mktemp("figs") / "pool"
    spec = out.parent / "spec.yaml"
    spec.write_text('title: "Figures"\nseed: 3\nitems:\n  - kind: "4.2"\n    points: 2\n'
                    '  - kind: G\n    points: 4\n  - kind: "2.1"\n    points: 2\n', encoding="utf-8")
    assert main(["exam", str(spec), "--variants", "2", "--out", str(out), "--workers", "1"]) == 0
    return ET.parse(out / "moodle.xml").getroot()


def test_every_figure_of_a_worked_solution_is_embedded_in_its_feedback(pool):
    """Each worked solution's figure: an <img> of @@PLUGINFILE@@/name with its alt text in the general
    feedback, and a <file name="name" path="/" encoding="base64"> beside that text holding the SVG."""
    from generator import kinds  # noqa: F401
    from generator.figures import draw_figures
    from generator.pipeline import sample_problem, solve_problem
    from generator.seeding import parse_variant

    seen = 0
    for q in pool:
        if q.get("type") == "category":
            continue
        kind, seed = parse_variant(q.find("idnumber").text)
        figures = draw_figures(solve_problem(sample_problem(kind, seed), 4))
        fb = q.find("generalfeedback")
        text = fb.find("text").text
        files = {f.get("name"): f for f in fb.findall("file")}
        assert len(files) == len({f.filename for f in figures})
        for f in figures:
            assert f'<img src="@@PLUGINFILE@@/{f.filename}" alt="' in text
            from html import escape
            assert f'alt="{escape(f.alt)}"' in text
            assert files[f.filename].get("path") == "/" and files[f.filename].get("encoding") == "base64"
            assert base64.b64decode(files[f.filename].text) == f.data and b"<svg" in f.data[:100]
            seen += 1
        assert not q.find("questiontext").findall("file")  # the paper's question shows none
    assert seen >= 6  # 4.2 and G draw heatmaps, 2.1 bars
