"""attndrills analyse: each named mistake on each question part links to the
worked step and the recall card that address it (generator.exam.remedies,
render.worked) — the step found from the answer's key in the steps' numbers,
never from their words, and every link's anchor on the page it names."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator import kinds
from generator.cli import main
from generator.exam.assembly import PART_LETTERS, graded_answers
from generator.exam.marking import mark
from generator.exam.remedies import worked_step
from generator.pipeline import sample_problem, solve_problem
from generator.render.markdown import inline as md_inline

HEADER = "student,question,variant,response,correct,awarded,points,misconception,feedback\n"


class _Page(HTMLParser):
    """The ids and the links of a page."""

    def __init__(self, text: str):
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])


def test_every_named_mistake_of_every_kind_has_a_step_that_shows_its_quantity():
    """For every kind, seed and mistake an answer names, the step found shows
    that answer's key (or a sibling's with the same mistake, or is the only
    step); only 4.3's hop count, said in words, has none."""
    none = set()
    for kind in kinds.all_kinds():
        for seed in range(3):
            sol = solve_problem(sample_problem(kind.id, seed))
            for a in graded_answers(sol):
                for name in {o.misconception for o in a.options if o.misconception}:
                    step = worked_step(sol, a, name)
                    if step is None:
                        none.add((kind.id, a.name))
                    else:
                        assert 0 <= step < len(sol.steps)
    assert none == {("4.3", "attention_hops")}


@pytest.mark.parametrize("kind, answer, mistake, title", [
    ("2.1", "weights", "divide_by_sum", "divide"),  # the step that divides out the weights
    ("F", "entropy", "log_base_2", "compute the entropy"),
    ("3.3", "weights_permuted", "weights_not_permuted", "after the swap"),  # the same numbers in the permuted order
    ("2.3", "weights_change", "shift_changes_weights", "check on the numbers"),  # a claim: its quantity's step
    ("3.2", "state", "wrong_state_order", "answer"),  # a choice: the step with the key's line
    ("4.1", "count", "added_lengths", "count the pairs"),
])
def test_the_step_is_where_the_quantity_is_worked_out(kind, answer, mistake, title):
    sol = solve_problem(sample_problem(kind, 1))
    a = sol.answer(answer)
    assert sol.steps[worked_step(sol, a, mistake)].title == title


def _results(tmp_path: Path) -> tuple[Path, list[tuple]]:
    """Three students' results as grade writes them: on each graded part of
    a few kinds' variants, a named mistake's value (from the options), a
    right answer or a blank, every mistake named as grade names it."""
    lines, made = [HEADER], []
    for q, kind in enumerate(("2.1", "F", "1.2", "4.2", "3.3"), start=1):
        for s in range(3):
            sol = solve_problem(sample_problem(kind, 10 * q + s))
            parts = graded_answers(sol)
            for n, a in enumerate(parts):
                label = f"{q}{PART_LETTERS[n]}" if len(parts) > 1 else str(q)
                wrong = [o for o in a.options if not o.correct and o.misconception]
                response = (wrong[s % len(wrong)].text if wrong and s < 2 else str(a.display))
                if a.type == "vector":
                    response = response.strip("()").replace("), (", " | ")
                m = mark(a, response)
                if m.misconception:
                    made.append((label, kind, m.misconception, sol))
                lines.append(f"s{s},{label},{sol.problem.variant},\"{response}\",{'yes' if m.correct else 'no'},"
                             f"{int(m.correct)},1,{m.misconception or ''},\n")
    path = tmp_path / "results.csv"
    path.write_text("".join(lines))
    return path, made


def test_each_mistake_links_its_worked_step_and_recall_card(tmp_path: Path):
    path, made = _results(tmp_path)
    assert len(made) > 10
    out = tmp_path / "report"
    assert main(["analyse", str(path), "--out", str(out)]) == 0
    worked = _Page((out / "worked.html").read_text())
    report = _Page((out / "report.html").read_text())
    rows = list(csv.DictReader(io.StringIO((out / "misconceptions_by_question.csv").read_text())))
    assert {(r["question"], r["misconception"]) for r in rows} == {(q, m) for q, _, m, _ in made}
    for r in rows:
        # every mistake here was made on a variant regenerated from its code: a step, a card
        assert r["step"] and r["worked_step"].startswith("worked.html#"), r
        page, anchor = r["worked_step"].split("#")
        assert anchor in worked.ids and anchor.endswith(f"-step-{r['step']}")
        assert r["recall_card_link"].split("#")[1] in worked.ids
        sol = next(s for q, _, m, s in made if (q, m) == (r["question"], r["misconception"])
                   and s.problem.variant == r["variant"])
        assert r["step_title"] == f"Step {r['step']} — {sol.steps[int(r['step']) - 1].title}"
        # the card quoted as the Obsidian deck writes it (maths as $ $)
        assert sol.recall and r["recall_card"] == " · ".join(f"{md_inline(q)} ::: {md_inline(a)}" for q, a in sol.recall)
    # the report's links all resolve: to worked.html's ids, or the practice pages
    inner = [link for link in report.links if link.startswith("worked.html")]
    assert len(inner) > len(rows)
    for link in inner:
        assert "#" not in link or link.split("#")[1] in worked.ids, link
    assert len(set(worked.ids)) == len(worked.ids)  # each id once
    # the same results give the same bytes
    again = tmp_path / "again"
    assert main(["analyse", str(path), "--out", str(again)]) == 0
    for name in ("report.html", "worked.html", "misconceptions_by_question.csv"):
        assert (out / name).read_bytes() == (again / name).read_bytes()


def test_a_variant_that_does_not_name_the_mistake_again_gets_no_step(tmp_path: Path):
    """A row whose variant, regenerated, does not name its mistake for its
    response (edited by hand, another version): said so, and no link."""
    path = tmp_path / "results.csv"
    path.write_text(HEADER + "s1,1,2.1-0000000001,0.5; 0.5; 0,no,0,1,log_base_2,\n"
                             "s2,1,2.1-0000000001,0.0749; 0.2488; 0.6763,yes,1,1,,\n")
    out = tmp_path / "report"
    assert main(["analyse", str(path), "--out", str(out)]) == 0
    (row,) = csv.DictReader(io.StringIO((out / "misconceptions_by_question.csv").read_text()))
    assert (row["step"], row["worked_step"], row["recall_card"]) == ("", "", "")
    assert "does not name this mistake" in row["note"]
