"""Grading: the accepted answer forms, partial credit, hints and misconceptions
(generator.exam.marking), and the `grade` command that reports every response it
cannot grade (generator.exam.grader)."""

import csv
import io
from fractions import Fraction

import pytest

from generator import kinds
from generator.cli import main
from generator.exam.grader import _mark_row
from generator.exam.assembly import graded_answers
from generator.exam.answers import answer_from_row, answer_text, tolerance_text
from generator.exam.marking import mark
from generator.model import Answer, Option
from generator.pipeline import sample_problem, solve_problem

ENTROPY = Answer("entropy", "numeric", "H", 0.47218, "0.4722", "H", 5e-05, (
    Option("0.4722", True, None), Option("0.6812", False, "log_base_2"), Option("-0.4722", False, "dropped_minus_sign")))
TINY = Answer("weight", "numeric", "w", 2.0612e-9, "2.06 × 10⁻⁹", "w", 5e-12)
COUNT = Answer("count", "numeric", "n", 22082, "22082", "n", 0.0)
WEIGHTS = Answer("weights", "vector", "α", [0.108, 0.722, 0.0089, 0.1611], ["0.1080", "0.7220", "0.0089", "0.1611"],
                 [], [5e-05] * 4, (Option("(0.1080, 0.7220, 0.0089, 0.1611)", True, None),
                                   Option("(0.2500, 0.2500, 0.2500, 0.2500)", False, "uniform_weights")))
CONTEXT = Answer("context", "vector", "c", [1.8333, -0.5], ["1.8333", "-0.5000"], [], [5e-05] * 2)
TABLE = Answer("weights", "vector", "α", [[0.2, 0.8], [0.6, 0.4]], [["0.2000", "0.8000"], ["0.6000", "0.4000"]],
               [], [[5e-05, 5e-05], [5e-05, 5e-05]])
ONE = Answer("sums", "choice", "sums to one", [3], "D", [], None, (
    Option("the scores divided by their largest value", False, "forgot_to_exponentiate"),
    Option("the components of the context c_t", False, "context_sums_to_one"),  # as kind 1.3 writes them
    Option("the exponentials exp(e_ti)", False, "forgot_to_normalise"),
    Option("the weights α_ti", True, None)))
STATE = Answer("state", "choice", "state", [1], "B", [], None, (
    Option("the current decoder state s_t", False, "wrong_state_order"),  # as kind 3.2 writes them
    Option("the previous decoder state s_{t-1}", True, None)))
TWO = Answer("both", "choice", "both", [0, 2], "A, C", [], None, (
    Option("a", True, None), Option("b", False, "hard_argmax"), Option("c", True, None), Option("d", False, None)))
FALSE = Answer("claim", "truefalse", "claim", False, "false", False, None, (
    Option("true", False, "shift_changes_weights"), Option("false", True, None)))
_SYMBOLS = [["c_t", "(d) weighted summary fed to the decoder"], ["α_ti", "(b) normalised focus fraction"],
            ["y_t-1", "(c) previously emitted output word"]]
SYMBOLS = Answer("matching", "matching", "symbol → meaning", [r for _, r in _SYMBOLS],
                 [f"{l} → {r}" for l, r in _SYMBOLS], _SYMBOLS, None,
                 tuple(Option(f"{l} → {r}", True, None) for l, r in _SYMBOLS))
_WORDS = [["le", "the"], ["chat", "cat"], ["noir", "black"]]
WORDS = Answer("alignment", "matching", "output word → input word", [r for _, r in _WORDS],
               [f"{l} → {r}" for l, r in _WORDS], _WORDS, None)

RIGHT = [
    (ENTROPY, "0.4722"), (ENTROPY, ".4722"), (ENTROPY, "0,4722"), (ENTROPY, "4.722e-1"), (ENTROPY, "4.722E-1"),
    (ENTROPY, "4722 × 10⁻⁴"), (ENTROPY, "4722x10^-4"), (ENTROPY, "4722*10^-4"), (ENTROPY, "4722 · 10^(-4)"),
    (ENTROPY, "H = 0.4722"), (ENTROPY, " 0.47221 "),
    (TINY, "2.06 × 10⁻⁹"), (TINY, "2.06e-9"), (TINY, "2,06 × 10⁻⁹"), (TINY, "2.06x10^-9"),
    (TINY, "2.06 × 10−9"), (TINY, "2.06 x 10-9"),  # as copied from a PDF: the superscript lost
    (ENTROPY, "0.4722 nats"), (ENTROPY, "H = 0.4722 nats."), (ENTROPY, "0.4722;"),
    (COUNT, "22082"), (COUNT, "22,082"), (COUNT, "22 082"),
    (WEIGHTS, "0.1080; 0.7220; 0.0089; 0.1611"), (WEIGHTS, "0.1080, 0.7220, 0.0089, 0.1611"),
    (WEIGHTS, "0.1080 0.7220 0.0089 0.1611"), (WEIGHTS, "[0.1080, 0.7220, 0.0089, 0.1611]"),
    (WEIGHTS, "(0,1080; 0,7220; 0,0089; 0,1611)"), (WEIGHTS, "0,1080 0,7220 0,0089 0,1611"),
    (WEIGHTS, "0.1080\n0.7220\n0.0089\n0.1611"), (WEIGHTS, "1.080e-1; 7.22 × 10⁻¹; 8.9x10^-3; 0.1611"),
    (TABLE, "0.2; 0.8 | 0.6; 0.4"), (TABLE, "(0.2, 0.8) (0.6, 0.4)"), (TABLE, "0.2 0.8\n0.6 0.4"),
    (TABLE, "0.2; 0.8; 0.6; 0.4"),
    (CONTEXT, "1.8333;; -0.5000"), (CONTEXT, "1.8333; -0.5000;"),  # an empty slot beyond the key's shape: a typo
    (ONE, "D"), (ONE, "d"), (ONE, "(D)"), (ONE, "D)"), (ONE, "the weights αₜᵢ"), (ONE, "The weights α_ti"),
    (ONE, "(D) the weights αₜᵢ"), (ONE, "the weights alpha_ti"),
    (STATE, "the previous decoder state sₜ₋₁"), (STATE, "the previous decoder state s_{t-1}"),
    (STATE, "the previous decoder state s_t-1"), (STATE, "b"),
    (TWO, "A, C"), (TWO, "A C"), (TWO, "AC"), (TWO, "c; a"), (TWO, "a and c"),
    (FALSE, "false"), (FALSE, "False."), (FALSE, "F"), (FALSE, "f"), (FALSE, "no"), (FALSE, "N"),
    (SYMBOLS, "c_t → (d) weighted summary fed to the decoder; α_ti → (b) normalised focus fraction; "
              "y_t-1 → (c) previously emitted output word"),
    (SYMBOLS, "c_t -> d, α_ti -> b, y_t-1 -> c"), (SYMBOLS, "c_t → d\nalpha_ti → b\ny_{t-1} → c"),
    (SYMBOLS, "C_T->D; Α_TI->B; Y_T-1->C"), (SYMBOLS, "d; b; c"), (SYMBOLS, "d, b, c"),
    (SYMBOLS, "c_t → weighted summary fed to the decoder; α_ti → (b); y_t-1 → c"),
    (WORDS, "le->the, chat->cat, noir->black"), (WORDS, "Le -> The; CHAT -> cat\r\nnoir->black"),
    (WORDS, "le → the chat → cat noir → black"),
]


def test_accepted_forms_earn_full_marks_and_name_no_mistake():
    wrong = [(a.name, r, m) for a, r in RIGHT if not (m := mark(a, r)).correct or m.misconception or m.note]
    assert wrong == []


WRONG = [
    (ENTROPY, "−0.4722", 0, "dropped_minus_sign", ""),
    (ENTROPY, "0.6812", 0, "log_base_2", ""),
    (ENTROPY, "0.47", 0, None, "rounded to 2 places, the key has 4"),
    (ENTROPY, "0,472", 0, None, "rounded to 3 places, the key has 4"),
    (ENTROPY, "idk", 0, None, "“idk” counts as no answer"),
    (ENTROPY, "I don't know", 0, None, "“I don't know” counts as no answer"),
    (ENTROPY, "abc", 0, None, "not a number"),
    (ENTROPY, "", 0, None, "no answer"),
    (ENTROPY, "47.22", 0, None, "looks like a percentage: give the value itself, not per cent"),
    (ENTROPY, "0.9", 0, None, "not within 0.00005 of the key, and no known mistake gives it"),
    (TINY, "2.1e-9", 0, None, "rounded to 2 significant digits, the key has 3"),
    (TINY, "0.0000", 0, None,
     "too small for 4 decimal places: a number this small counts to 3 significant digits, as 1.23e-5"),
    (TINY, "0", 0, None, "too small for a whole number: a number this small counts to 3 significant digits, as 1.23e-5"),
    (TINY, "0.000000002", 0, None, "rounded to 1 significant digit, the key has 3"),
    (COUNT, "22,08", 0, None, "not the key's value, and no known mistake gives it"),
    (WEIGHTS, "0.1080; 0.7220; 0.0089; 0.9", Fraction(3, 4), None,
     "3 of 4 components right; these weights sum to 1.7389, not 1"),
    (WEIGHTS, "0.1080; 0.7220; 0.0089", 0, None, "3 components, expected 4"),
    (WEIGHTS, "0.25; 0.25; 0.25; 0.25", 0, "uniform_weights", ""),
    (WEIGHTS, "0.11; 0.72; 0.01; 0.16", 0, None, "rounded to 2 places, the key has 4"),
    (WEIGHTS, "0.1080; 0.7220; 0.01; 0.16", Fraction(1, 2), None,
     "2 of 4 components right; rounded to 2 places, the key has 4"),
    (WEIGHTS, "0.1080; 0.7220; ?; 0.1611", Fraction(3, 4), None,
     "3 of 4 components right; component 3 is not a number"),
    (WEIGHTS, "1; 2; 3; 4", 0, None, "these weights sum to 10, not 1"),
    # a component left empty is told as empty, not "not a number": between separators, at either
    # end, or "-" (Moodle's empty blank, as grade turns a cloze response into one)
    (WEIGHTS, "0.1080; ; 0.0089; 0.1611", Fraction(3, 4), None, "3 of 4 components right; component 2 is empty"),
    (WEIGHTS, "0.1080, 0.7220,, 0.1611", Fraction(3, 4), None, "3 of 4 components right; component 3 is empty"),
    (WEIGHTS, "; 0.7220; 0.0089; 0.1611", Fraction(3, 4), None, "3 of 4 components right; component 1 is empty"),
    (WEIGHTS, "0.1080; 0.7220; 0.0089;", Fraction(3, 4), None, "3 of 4 components right; component 4 is empty"),
    (WEIGHTS, "0.1080; -; -; 0.1611", Fraction(1, 2), None, "2 of 4 components right; components 2, 3 are empty"),
    (WEIGHTS, "abc; ; 0.0089; 0.1611", Fraction(1, 2), None,
     "2 of 4 components right; component 1 is not a number; component 2 is empty"),
    (TABLE, "0.2; 0.8 | ; 0.4", Fraction(3, 4), None, "3 of 4 components right; component 3 is empty"),
    (WEIGHTS, "-; -; -; -", 0, None, "no answer"),
    (WEIGHTS, "( ; )", 0, None, "no answer"),
    (CONTEXT, "1; 2", 0, None, "no component within the key's window, and no known mistake gives these"),
    (WEIGHTS, "idk", 0, None, "“idk” counts as no answer"),
    (TABLE, "0.2; 0.8 | 0.6", 0, None, "row 2: 1 component, expected 2"),
    (TABLE, "0.2; 0.8; 0.6", 0, None, "3 components, expected 4"),  # on one line: the count is wrong, not the rows
    (COUNT, "2.21e4", 0, None, "rounded to 3 significant digits, the key is a whole number of 5 digits"),
    (TABLE, "0.2; 0.8 | 0.6; 0.5", Fraction(3, 4), None, "3 of 4 components right; row 2: these weights sum to 1.1, not 1"),
    # every component's sign flipped, or some: as "the sign is wrong" of one number
    (TABLE, "-0.2; -0.8 | -0.6; -0.4", 0, None, "the sign is wrong in every component"),
    (TABLE, "-0.2; 0.8 | 0.6; -0.4", Fraction(1, 2), None, "2 of 4 components right; the sign is wrong in components 1, 4"),
    (WEIGHTS, "0.1080; -0.7220; 0.0089; 0.1611", Fraction(3, 4), None,
     "3 of 4 components right; the sign is wrong in component 2"),
    (ONE, "A", 0, "forgot_to_exponentiate", ""),
    (ONE, "the components of the context c_t", 0, "context_sums_to_one", ""),
    (STATE, "the current decoder state sₜ", 0, "wrong_state_order", ""),
    (ONE, "F", 0, None, "there is no option F (A–D)"),
    (ONE, "bad", 0, None, "not one of the options: answer with a letter (A–D) or an option's text"),
    (ONE, "idk", 0, None, "“idk” counts as no answer"),
    (TWO, "A", 0, None, "1 of the 2 right options chosen"),
    (TWO, "A, B, C", 0, "hard_argmax", ""),
    (FALSE, "T", 0, "shift_changes_weights", ""),
    (FALSE, "yes", 0, "shift_changes_weights", ""),
    (FALSE, "maybe", 0, None, "write true or false"),
    (SYMBOLS, "c_t -> d, α_ti -> c, y_t-1 -> b", Fraction(1, 3), None, "1 of 3 pairs right"),
    (SYMBOLS, "d; c; b", Fraction(1, 3), None, "1 of 3 pairs right"),
    (SYMBOLS, "nonsense", 0, None, "write the pairs as left → right, separated by ; or new lines"),
    (WORDS, "le -> the; chat -> black", Fraction(1, 3), None, "1 of 3 pairs right"),
]


def test_wrong_answers_get_partial_credit_a_mistake_or_a_hint():
    got = [(a.name, r, m.credit, m.misconception, m.note, m.correct) for a, r, *_ in WRONG for m in [mark(a, r)]]
    assert got == [(a.name, r, credit, mis, note, False) for a, r, credit, mis, note in WRONG]


def _solved(seeds=(1, 2)):
    for k in kinds.all_kinds():
        for seed in seeds:
            yield k.id, seed, solve_problem(sample_problem(k.id, seed), 4)


def test_every_key_is_right_and_names_no_mistake_and_reads_back_from_answers_csv():
    """The key as answers.csv writes it earns full marks with no misconception,
    through the regenerated answer and through the row alone (the fallback)."""
    for kind, seed, sol in _solved():
        for a in graded_answers(sol):
            key = answer_text(a)
            row = {"answer": key, "tolerance": tolerance_text(a)}
            for m in (mark(a, key), _mark_row(row, key)):
                assert (m.credit, m.misconception, m.note) == (1, None, ""), (kind, seed, a.name, key)
            if a.type == "vector":
                # the tolerance column has the answer's layout: one value per component, rows by " | "
                assert [r.count(";") for r in row["tolerance"].split("|")] == [r.count(";") for r in key.split("|")]
                first = key.split(";")[0].split("|")[0].strip()
                changed = key.replace(first, "123", 1)
                assert mark(a, changed).credit == _mark_row(row, changed).credit < 1, (kind, a.name)


def test_the_fallback_marks_per_component_within_the_rows_tolerances():
    row = {"answer": "0.50; 0.25 | 1.00; 2.00", "tolerance": "0.01; 0.0001 | 0.5; 0.5"}
    assert _mark_row(row, "0.505; 0.2505 | 1.4; 2.4").credit == Fraction(3, 4)
    assert _mark_row(row, "0.505; 0.25005 | 1.4; 2.4").correct
    assert _mark_row({"answer": "0.50; 0.25", "tolerance": "0.01"}, "0.509; 0.259").correct  # one for all
    with pytest.raises(ValueError, match="does not match the layout"):
        answer_from_row("0.50; 0.25", "0.01; 0.01; 0.01")


# --- the grade command ---------------------------------------------------------------------------

VARIANTS = [("F", 7), ("1.2", 7), ("4.2", 7)]


def _answers_csv(path, students):
    """answers.csv as `exam` writes it, for three questions of real variants."""
    answers = {}
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["student", "variant", "question", "answer", "tolerance", "points"])
        for s in students:
            for q, (kind, seed) in enumerate(VARIANTS, start=1):
                sol = solve_problem(sample_problem(kind, seed), 4)
                parts = graded_answers(sol)
                for n, a in enumerate(parts):
                    label = str(q) if len(parts) == 1 else f"{q}{'abc'[n]}"
                    answers[s, label] = a
                    w.writerow([s, sol.problem.variant, label, answer_text(a), tolerance_text(a),
                                f"{6 / len(parts):g}"])
    return answers


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_grade_reports_every_response_it_cannot_grade(tmp_path, capsys):
    answers = _answers_csv(tmp_path / "answers.csv", ["alice", "bob", "carol"])
    weights = answer_text(answers["alice", "1a"])
    entropy = answer_text(answers["alice", "1b"])  # a single number (F's share of the two largest)
    rounded = f"{float(entropy):.2f}"
    pairs = answer_text(answers["bob", "3b"]).replace(" → ", " -> ").replace("; ", "\n")
    responses = _write(tmp_path / "responses.csv", (
        " Student , QUESTION ,Response,Comment\n"
        f"alice,1a,\"{weights}\",\n"
        f"alice,1b,{rounded},\n"
        f"ALICE,2a,T,typed in capitals\n"
        f"alice,1b,{entropy},second try\n"
        f"carl,1a,\"{weights}\",\n"
        f"bob,3b,\"{pairs}\",\n"
        "bob,9,0.5,\n"
        "bob,,0.5,\n"
        "\n"
        f"bob,1B,{entropy},\n"))
    results = tmp_path / "results.csv"
    code = main(["grade", str(tmp_path / "answers.csv"), str(responses), "--out", str(results)])
    out, err = capsys.readouterr()
    assert code == 1
    where = f"{responses}: line"
    assert err.splitlines() == [
        f"warning: {where} 5: a second response from alice to question 1b (the first, on line 3, is graded) "
        "— not graded",
        f"warning: {where} 6: unknown student “carl” (did you mean carol?) — response not graded",
        f"warning: {where} 12: student bob has no question “9” — response not graded",
        f"warning: {where} 13: no question id for student bob — response not graded",
        "warning: student carol has no responses — marked 0 of 18",
        "graded 5 responses from 2 of 3 students; 19 of 24 answers missing (19 with no response), marked 0; "
        "not graded: 1 unknown student, 2 unknown questions, 1 duplicate; 1 student without responses",
    ]
    rows = {(r["student"], r["question"]): r for r in csv.DictReader(open(results, encoding="utf-8"))}
    assert len(rows) == 3 * 8  # every row of answers.csv, graded or not
    assert rows["alice", "1a"]["correct"] == "yes" and rows["alice", "1a"]["awarded"] == "2"
    assert rows["alice", "1b"]["response"] == rounded and rows["alice", "1b"]["awarded"] == "0"
    assert rows["alice", "1b"]["feedback"] == "rounded to 2 places, the key has 4"
    assert rows["alice", "2a"]["awarded"] == "2"  # ALICE is alice
    assert rows["bob", "3b"]["correct"] == "yes" and rows["bob", "3b"]["misconception"] == ""
    assert rows["bob", "1b"]["awarded"] == "2"  # 1B is 1b
    assert rows["carol", "1a"]["feedback"] == "no answer"
    assert out.splitlines() == ["alice\t4 / 18", "bob\t5 / 18", "carol\t0 / 18"]


def test_grade_exits_0_when_every_response_is_graded_and_keeps_partial_credit_exact(tmp_path, capsys):
    answers = _answers_csv(tmp_path / "answers.csv", ["alice", "bob"])
    weights = answer_text(answers["alice", "1a"]).split("; ")
    three_right = "; ".join(weights[:-1] + ["9"])
    matching = answer_text(answers["alice", "3b"]).split("; ")
    one_wrong = "; ".join(matching[:-1] + [matching[-1].split(" → ")[0] + " → nothing"])
    responses = _write(tmp_path / "r.csv", f"student,question,response\nalice,1a,{three_right}\n"
                                           f"alice,3b,{one_wrong}\n")
    assert main(["grade", str(tmp_path / "answers.csv"), str(responses), "--out", str(tmp_path / "o.csv")]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == ["warning: student bob has no responses — marked 0 of 18",
                                "graded 2 responses from 1 of 2 students; 14 of 16 answers missing (14 with no response), "
                                "marked 0; 1 student without responses"]
    rows = {(r["student"], r["question"]): r for r in csv.DictReader(open(tmp_path / "o.csv", encoding="utf-8"))}
    n, m = len(weights), len(matching)
    a1 = Fraction(2) * (n - 1) / n
    a3 = Fraction(3) * (m - 1) / m
    assert rows["alice", "1a"]["awarded"] == f"{float(a1):.4f}".rstrip("0").rstrip(".")
    assert rows["alice", "1a"]["feedback"].startswith(f"{n - 1} of {n} components right; these weights sum to ")
    assert rows["alice", "3b"]["awarded"] == f"{float(a3):.4f}".rstrip("0").rstrip(".")
    assert rows["alice", "3b"]["feedback"] == f"{m - 1} of {m} pairs right"
    assert rows["alice", "1a"]["correct"] == rows["alice", "3b"]["correct"] == "no"
    total = f"{float(a1 + a3):.4f}".rstrip("0").rstrip(".")
    assert out.splitlines() == [f"alice\t{total} / 18", "bob\t0 / 18"]


def test_grade_to_stdout_still_reports(tmp_path, capsys):
    _answers_csv(tmp_path / "answers.csv", ["alice"])
    responses = _write(tmp_path / "r.csv", "STUDENT,Question,RESPONSE\nbob,1a,0.5\n")
    assert main(["grade", str(tmp_path / "answers.csv"), str(responses)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("student,question,variant,response,correct,awarded,points,misconception,feedback\n")
    assert len(out.splitlines()) == 1 + 8
    assert err.splitlines()[0] == f"warning: {responses}: line 2: unknown student “bob” — response not graded"
    assert err.splitlines()[-1] == ("graded 0 responses from 0 of 1 student; 8 of 8 answers missing "
                                    "(8 with no response), marked 0; not graded: 1 unknown student; "
                                    "1 student without responses")


def test_grade_help_lists_the_accepted_forms(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["grade", "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for form in ("0,4722", "4.722e-1", "2.06 × 10⁻⁹", "2.06x10^-9", "0.1; 0.7; 0.2", "0.1, 0.7, 0.2",
                 "0.1 0.7 0.2", "(B)", "option's text", "true, false, T, F", "c_t → d", "->",
                 "per component", "per pair"):
        assert form in text, form


@pytest.mark.parametrize("answers, message", [
    ("student,variant,question,answer,tolerance,points\ns1,X-1,1,0.5,0.1; 0.2,1\n",
     "line 2: tolerance '0.1; 0.2': one number expected for the answer '0.5'"),
    ("student,variant,question,answer,tolerance,points\ns1,X-1,1,0.5; 0.2,0.1; 0.2; 0.3,1\n",
     "line 2: tolerance '0.1; 0.2; 0.3' does not match the layout of the answer '0.5; 0.2'"),
    ("student,variant,question,answer,tolerance,points\ns1,X-1,1,0.5,0.1,1\ns1,X-1,1,0.5,0.1,1\n",
     "line 3: a second row for student s1 question 1"),
])
def test_a_broken_answers_file_is_an_error(tmp_path, capsys, answers, message):
    key = _write(tmp_path / "answers.csv", answers)
    responses = _write(tmp_path / "r.csv", "student,question,response\ns1,1,0.5\n")
    assert main(["grade", str(key), str(responses), "--out", str(tmp_path / "o.csv")]) == 2
    assert capsys.readouterr().err.splitlines() == [f"error: {key}: {message}"]
    assert not (tmp_path / "o.csv").exists()


def test_a_student_whose_responses_are_all_unknown_questions_is_not_called_silent(tmp_path, capsys):
    _answers_csv(tmp_path / "answers.csv", ["alice"])
    responses = _write(tmp_path / "r.csv", "student,question,response\nalice,1d,0.5\n")
    assert main(["grade", str(tmp_path / "answers.csv"), str(responses), "--out", str(tmp_path / "o.csv")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"warning: {responses}: line 2: student alice has no question “1d” (question 1 has 1a, 1b, 1c) — response not graded",
        "graded 0 responses from 0 of 1 student; 8 of 8 answers missing (8 with no response), marked 0; "
        "not graded: 1 unknown question"]


@pytest.mark.parametrize("responses, says", [
    # an unquoted vector was graded as its first number, 0 points, with no word
    ("student,question,response\nalice,1a,0.1,0.2,0.7\n", 'line 2: 5 fields where the header has 3; a value holding commas'),
    ('student,question,response\nalice,1a,"0.1\nalice,1b,2\n', "a quoted field runs to the end of the file"),
    ("student,question,response\nalice,1a,0.\x001\n", "contains NUL bytes"),
])
def test_grade_refuses_a_malformed_response_row(tmp_path, capsys, responses, says):
    _answers_csv(tmp_path / "answers.csv", ["alice"])
    path = _write(tmp_path / "r.csv", responses)
    assert main(["grade", str(tmp_path / "answers.csv"), str(path), "--out", str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and says in err, err
    assert not (tmp_path / "out.csv").exists()


def test_grade_names_the_nearest_of_two_mistakes_whose_windows_hold_the_response():
    """2.3 names "took a hard argmax" (0) and "did not divide by their total"
    (0.0001) for one weight of tolerance 0.00011: a response of 0 was named
    as whichever came first."""
    a = Answer("w", "numeric", "a weight", 0.0189, "0.0189", "0.0189", 0.00011,
               options=(Option("0.0189", True, None), Option("0.0001", False, "forgot_to_normalise"),
                        Option("0.0000", False, "hard_argmax")))
    assert mark(a, "0").misconception == "hard_argmax"
    assert mark(a, "0.0001").misconception == "forgot_to_normalise"
    assert mark(a, "0.0189").credit == 1


def test_every_window_prints_in_a_few_digits():
    """answers.csv printed windows such as 0.00011947484736175284: the
    window is now rounded up to a hundredth of a unit of the key's last
    place, so it prints as 0.000129 and the like."""
    import re

    seen = 0
    for kind in kinds.all_kinds():
        for seed in range(6):
            for a in graded_answers(solve_problem(sample_problem(kind.id, seed), 4)):
                text = tolerance_text(a)
                for t in filter(None, re.split(r"; | \| ", text)):
                    digits = re.sub(r"e-?\d+$", "", t).replace("0.", "").lstrip("0").replace(".", "")
                    assert len(digits) <= 4, (kind.id, seed, a.name, t)
                    seen += 1
    assert seen > 500


def test_grade_out_at_a_folder_says_so_and_leaves_nothing_behind(tmp_path, capsys):
    """A failed write of the results removes its temporary file (it was left
    beside the folder, a hidden copy of every result)."""
    answers = _answers_csv(tmp_path / "answers.csv", ["alice"])
    responses = _write(tmp_path / "r.csv", "student,question,response\nalice,1a,0.5\n")
    (tmp_path / "d").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["grade", str(tmp_path / "answers.csv"), str(responses), "--out", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"error: cannot write {tmp_path / 'd'}: Is a directory"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before and not any((tmp_path / "d").iterdir())
    assert answers


# --- keys and responses as instructors meet them (issues 32 and 33) ------------------------------

def _grade(tmp_path, key, responses):
    return main(["grade", str(key), str(responses), "--out", str(tmp_path / "out.csv")])


def test_grade_refuses_an_answers_file_with_only_its_header(tmp_path, capsys):
    """It graded "0 responses from 0 of 0 students" and exited 1."""
    key = _write(tmp_path / "answers.csv", "student,variant,question,answer,tolerance,points\n")
    responses = _write(tmp_path / "r.csv", "student,question,response\ns1,1,0.5\n")
    assert _grade(tmp_path, key, responses) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {key}: no rows under the header"), err
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("code", ["Q.Q-10QD1BV9DA", "A-given", "", "F-7;"])
def test_grade_refuses_a_variant_code_of_no_kind(tmp_path, capsys, code):
    """A variant code of no kind was marked from its row alone, without a word."""
    _answers_csv(tmp_path / "a.csv", ["alice", "bob"])
    lines = (tmp_path / "a.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    cells = next(csv.reader([lines[5]]))
    cells[1] = code
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    key = _write(tmp_path / "answers.csv", "".join(lines[:5] + [buf.getvalue()] + lines[6:]))
    responses = _write(tmp_path / "r.csv", "student,question,response\nalice,1a,0.5\n")
    assert _grade(tmp_path, key, responses) == 2
    err = capsys.readouterr().err.splitlines()
    said = f"unknown variant code “{code}”" if code else "no variant code"
    assert len(err) == 1 and err[0].startswith(f"error: {key}: line 6: {said}; "), err
    assert not (tmp_path / "out.csv").exists()


def test_grade_reads_semicolon_separated_files(tmp_path, capsys):
    """Spreadsheets in decimal-comma locales save CSV with semicolons: it was
    "missing columns" with no word about the delimiter."""
    answers = _answers_csv(tmp_path / "a.csv", ["alice"])
    with open(tmp_path / "a.csv", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    buf = io.StringIO()
    csv.writer(buf, delimiter=";", lineterminator="\r\n").writerows(rows)
    key = _write(tmp_path / "answers.csv", buf.getvalue())
    weights = answer_text(answers["alice", "1a"]).replace(".", ",")
    entropy = answer_text(answers["alice", "1b"]).replace(".", ",")
    responses = _write(tmp_path / "r.csv", f"student;question;response\r\nalice;1a;\"{weights}\"\r\n"
                                           f"alice;1b;{entropy}\r\n")
    assert _grade(tmp_path, key, responses) == 0
    capsys.readouterr()
    got = {r["question"]: r for r in csv.DictReader(open(tmp_path / "out.csv", encoding="utf-8"))}
    assert got["1a"]["correct"] == got["1b"]["correct"] == "yes"
    # a list of numbers left unquoted says so in the file's own terms
    bad = _write(tmp_path / "bad.csv", f"student;question;response\nalice;1a;{weights}\n")
    assert _grade(tmp_path, key, bad) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a value holding semicolons goes in double quotes" in err, err
    # a header of neither commas nor semicolons is told to use commas
    other = _write(tmp_path / "other.csv", "student|question|response\nalice|1a|0.5\n")
    assert _grade(tmp_path, key, other) == 2
    assert "separate the fields with commas" in capsys.readouterr().err


def test_grade_reports_an_unknown_id_once_with_its_count(tmp_path, capsys):
    """A mistyped id gave one warning per row (9 identical lines)."""
    _answers_csv(tmp_path / "answers.csv", ["alice", "carol"])
    body = "".join(f"carl,{q},0.5\n" for q in ("1a", "1b", "1c", "2a", "2b", "2c", "3a", "3b", "3c"))
    responses = _write(tmp_path / "r.csv", "student,question,response\n" + body + "alice,7,1\nalice,7,2\n")
    assert _grade(tmp_path, tmp_path / "answers.csv", responses) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"warning: {responses}: lines 2, 3, 4 and 6 more: unknown student “carl” (did you mean carol?) — "
        "9 responses not graded",
        f"warning: {responses}: lines 11 and 12: student alice has no question “7” — 2 responses not graded",
        "warning: student carol has no responses — marked 0 of 18",
        "graded 0 responses from 0 of 2 students; 16 of 16 answers missing (16 with no response), marked 0; "
        "not graded: 1 unknown student (9 responses), 1 unknown question (2 responses); "
        "1 student without responses"]


def test_grade_counts_blank_and_absent_answers(tmp_path, capsys):
    """A missing answer was scored 0 with no count in the summary."""
    answers = _answers_csv(tmp_path / "answers.csv", ["alice"])
    responses = _write(tmp_path / "r.csv", "student,question,response\nalice,1a,\nalice,1b,  \n"
                                           f"alice,1c,{answer_text(answers['alice', '1c'])}\n")
    assert _grade(tmp_path, tmp_path / "answers.csv", responses) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        "graded 3 responses from 1 of 1 student; 7 of 8 answers missing (2 blank, 5 with no response), marked 0")


def test_grade_judges_100000_rows_of_unknown_ids_in_seconds(tmp_path, capsys):
    """Each unknown id cost about 3 ms (a guess at the id meant, for every
    row): 96,000 unknown rows took 8 minutes."""
    import time

    _answers_csv(tmp_path / "answers.csv", [f"s{i:04d}" for i in range(40)])
    body = "".join(f"x{i % 50000},1a,0.5\n" for i in range(100_000))
    responses = _write(tmp_path / "r.csv", "student,question,response\n" + body)
    start = time.perf_counter()
    assert _grade(tmp_path, tmp_path / "answers.csv", responses) == 1
    assert time.perf_counter() - start < 15
    err = capsys.readouterr().err.splitlines()
    assert err[20] == (f"warning: {responses}: 49980 more unknown students (99960 responses, the first on line 22)"
                       " — not graded; is this the responses file of this exam?")
    assert all(line.endswith("2 responses not graded") for line in err[:20])
    assert "not graded: 50000 unknown students (100000 responses)" in err[-1]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = r"-?\d+(\.\d+)?(e-?\d+| × 10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?"
NUMBERS = rf"{NUMBER}((; | \| ){NUMBER})*"  # a key's list of numbers runs no formula


def test_no_cell_the_exam_or_grade_writes_runs_as_a_spreadsheet_formula(tmp_path, capsys):
    """Roster ids `=1+1`, `+1`, `@A1` went unchanged into answers.csv and
    results.csv, and results.csv copied responses such as
    `=HYPERLINK("http://x","y")`: each now starts with a quote, which
    spreadsheets read as "text"; the key's own numbers (-0.4722) stay numbers.
    grade reads the quoted ids back as the roster's, so responses keyed by
    the roster's ids still match."""
    import re

    ids = ["=1+1", "+1", "@A1", "-5", "'=x", "s1"]
    roster = tmp_path / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["id", "name"]] + [[i, f"Student {n}"] for n, i in enumerate(ids)])
    spec = _write(tmp_path / "exam.yaml", "title: T\nitems:\n  - kind: \"2.2\"\n    points: 2\n"
                                          "  - kind: C\n    points: 2\n")
    out = tmp_path / "exam"
    assert main(["exam", str(spec), "--roster", str(roster), "--out", str(out), "--seed", "3"]) == 0
    capsys.readouterr()
    raw = list(csv.reader(open(out / "answers.csv", encoding="utf-8", newline="")))
    header = raw[0]
    for row in raw[1:]:
        for name, value in zip(header, row):
            assert not value.startswith(FORMULA_START) or (
                name in ("answer", "tolerance", "points") and re.fullmatch(NUMBERS, value)), (name, value)
    written = {row[0] for row in raw[1:]}
    assert written == {"'=1+1", "'+1", "'@A1", "'-5", "''=x", "s1"}
    assert any(row[3].startswith("-") for row in raw[1:]), "no negative key drawn: pick another seed"

    # responses keyed by the roster's own ids: every one is graded
    key = {(r["student"], r["question"]): r for r in
           ({**dict(zip(header, row)), "student": row[0]} for row in raw[1:])}
    hostile = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1)", "-1+2", "\t=1"]
    lines = []
    for n, sid in enumerate(ids):
        quoted = {"=1+1": "'=1+1", "+1": "'+1", "@A1": "'@A1", "-5": "'-5", "'=x": "''=x"}.get(sid, sid)
        questions = sorted(q for s, q in key if s == quoted)
        for i, q in enumerate(questions):
            answer = key[quoted, q]["answer"]
            lines.append([sid, q, hostile[(n + i) % len(hostile)] if i == 0 else answer])
    responses = tmp_path / "responses.csv"
    with open(responses, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["student", "question", "response"]] + lines)
    results = tmp_path / "results.csv"
    assert main(["grade", str(out / "answers.csv"), str(responses), "--out", str(results)]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err and f"from {len(ids)} of {len(ids)} students" in err, err
    got = list(csv.reader(open(results, encoding="utf-8", newline="")))
    for row in got[1:]:
        for name, value in zip(got[0], row):
            assert not value.startswith(FORMULA_START) or (
                name in ("awarded", "points") and re.fullmatch(NUMBER, value)), (name, value)
    shown = {row[3] for row in got[1:]}
    assert {"'" + h for h in hostile} <= shown
    # every answer but the first of each student is right
    correct = sum(row[4] == "yes" for row in got[1:])
    assert correct >= len(got) - 1 - 2 * len(ids)
    assert sum(1 for row in got[1:] if row[4] == "yes") == len(got) - 1 - sum(
        1 for row in got[1:] if row[3].startswith("'") and row[3][1:] in hostile)


def test_an_answers_csv_with_codes_of_before_still_names_mistakes(tmp_path, capsys):
    """Codes are now 10 characters (F-0000000007); an answers.csv written
    before, without the leading zeros (F-7), regenerates its variants alike."""
    answers = _answers_csv(tmp_path / "new.csv", ["alice"])
    text = (tmp_path / "new.csv").read_text(encoding="utf-8")
    assert ",F-0000000007," in text
    old = _write(tmp_path / "answers.csv", text.replace("-0000000007,", "-7,"))
    wrong = next(o for o in answers["alice", "1a"].options if not o.correct)
    responses = _write(tmp_path / "r.csv", "student,question,response\n"
                                           f"alice,1a,\"{wrong.text.strip('()').replace(', ', '; ')}\"\n")
    assert _grade(tmp_path, old, responses) == 0
    capsys.readouterr()
    row = next(csv.DictReader(open(tmp_path / "out.csv", encoding="utf-8")))
    assert row["variant"] == "F-7" and row["misconception"] == wrong.misconception


SMALL = Answer("weight", "numeric", "w", 2.65e-23, "2.65 × 10⁻²³", "w", 6e-26)


def test_a_tiny_key_is_judged_at_its_own_scale():
    """The window was |got − key| ≤ tol·(1+1e-9) + 1e-15: the absolute 1e-15
    let a key of 2.65 × 10⁻²³ (tolerance 6 × 10⁻²⁶) accept 5 × 10⁻²³, 10⁻¹⁶,
    0 and −2.65 × 10⁻²³, which Moodle's window refuses.  The one test of the
    window (marking.inside) now has no slack but a billionth of the tolerance."""
    for r in ("5e-23", "1e-16", "0", "-2.65e-23", "2.66e-23", "2.6e-23"):
        assert not mark(SMALL, r).correct, r
    for r in ("2.65e-23", "2.65 × 10⁻²³", "2.6505e-23", "2.6459e-23"):
        assert mark(SMALL, r).correct, r
    from generator.exam.window import inside

    assert not inside(1e-16, 2.65e-23, 6e-26) and not inside(0.0, 2.65e-23, 6e-26)
    assert inside(0.47226, 0.4722, 6e-05) and not inside(0.47227, 0.4722, 6e-05)
    # the fallback from a row of answers.csv judges alike
    row = answer_from_row("2.65e-23", "6e-26")
    assert [mark(row, r).correct for r in ("2.65e-23", "1e-16", "0")] == [True, False, False]


def test_the_kinds_read_the_printed_key_with_the_grader_s_parser():
    """kinds/_base.py read display strings with a parser of its own
    (value_of_text) and judged 'inside' by a test of its own (≤ tol); both
    are the marking window's now (exam.window), which the kinds import."""
    import generator.kinds._base as base
    from generator.exam import window

    assert not hasattr(base, "value_of_text") and base.inside_key is window.inside_key
    assert window.inside_key([2.65e-23], ["2.65 × 10⁻²³"], [6e-26])
    assert not window.inside_key([1e-16], ["2.65 × 10⁻²³"], [6e-26])


SLIPS = [
    # weights that do not sum to 1 are told so
    (Answer("weights", "vector", "α", [0.1543, 0.6914, 0.1543], ["0.1543", "0.6914", "0.1543"], [], [6e-05] * 3),
     "0.2; 0.9; 0.2", 0, "these weights sum to 1.3, not 1"),
    # the right values in another order are told so
    (Answer("weights", "vector", "α", [0.1543, 0.6914, 0.1543], ["0.1543", "0.6914", "0.1543"], [], [6e-05] * 3),
     "0.6914; 0.1543; 0.1543", Fraction(1, 3), "1 of 3 components right; the right values in another order"),
    (WEIGHTS, "0.7220; 0.1080; 0.0089; 0.1611", Fraction(1, 2), "2 of 4 components right; the right values in another order"),
    (TABLE, "0.2; 0.8 | 0.4; 0.6", Fraction(1, 2), "2 of 4 components right; row 2: the right values in another order"),
    # per cent is told to be written as a fraction of 1 (as 47.22 for 0.4722 is), not read
    (Answer("weights", "vector", "α", [0.1543, 0.6914, 0.1543], ["0.1543", "0.6914", "0.1543"], [], [6e-05] * 3),
     "15.43%; 69.14%; 15.43%", 0, "written in per cent: give each value as a fraction of 1 (50% is 0.5), not per cent"),
    (ENTROPY, "47.22 %", 0, "written in per cent: give each value as a fraction of 1 (50% is 0.5), not per cent"),
]


def test_common_slips_get_a_hint():
    """'0.2; 0.9; 0.2' got only "no component within the key's window", the
    right weights in another order "2 of 4 components right", and
    '15.43%; 69.14%; 15.43%' "not a list of numbers"."""
    got = [(r, m.credit, m.note) for a, r, *_ in SLIPS for m in [mark(a, r)]]
    assert got == [(r, credit, note) for _, r, credit, note in SLIPS]


def test_a_full_marks_paper_totals_the_paper_s_points_exactly(tmp_path, capsys):
    """answers.csv wrote a part's points to 6 significant digits (5 points
    over 3 parts: 1.66667), so a student with every answer right totalled
    33.00002 of the midterm's 33 (fmt shows 33.0001 on other papers).  Points
    are now exact, or to 12 places that grade reads back as the fraction."""
    from pathlib import Path

    from generator.exam.assembly import item_points
    from generator.exam.grader import grade, totals
    from generator.exam.spec import load_spec

    spec = Path(__file__).resolve().parent.parent / "examples" / "exam-midterm.yaml"
    out = tmp_path / "exam"
    assert main(["exam", str(spec), "--students", "1", "--out", str(out), "--seed", "5"]) == 0
    rows = list(csv.DictReader(open(out / "answers.csv", encoding="utf-8")))
    assert any(len(r["points"].partition(".")[2]) == 12 for r in rows)  # a share that is no decimal
    responses = _write(tmp_path / "r.csv", "student,question,response\n" + "".join(
        f'{r["student"]},{r["question"]},"{r["answer"]}"\n' for r in rows))
    [(student, got, total)] = totals(grade(out / "answers.csv", responses).results)
    assert got == total == sum(item_points(load_spec(spec))) == 33
    capsys.readouterr()


def test_no_feedback_states_the_answer():
    """5.2's and H's (and 1.2's) named mistake "swapped the limits: Δ → +∞
    puts all the weight on position 2, Δ → −∞ on position 1" told the student
    the key.  Over every kind, several seeds and two --digits, no sentence a
    wrong answer is told — grade's feedback, Moodle's answer feedback, the
    practice page's — holds the key as printed or the correct option, or says
    where a limit goes."""
    import re

    from generator.exam.marking import feedback
    from generator.render import moodle
    from generator.render.answer_fields import answer_field

    said_limit = re.compile(r"→[^,;.]*\b(?:gives|puts|is|goes)\b")
    checked = 0
    for digits in (4, 2):
        for k in kinds.all_kinds():
            for seed in (1, 2, 3):
                sol = solve_problem(sample_problem(k.id, seed), digits)
                for a in sol.answers:
                    wrong = [o for o in a.options if not o.correct]
                    if not wrong:
                        continue
                    keys = [o.text for o in a.options if o.correct]
                    if a.type in ("numeric", "vector"):
                        keys.append(answer_text(a))
                    texts = [moodle._feedback(o.misconception) for o in wrong]
                    if a.type in ("numeric", "vector"):
                        texts += [feedback(mark(a, o.text.replace("), (", " | ").strip("()"))) for o in wrong]
                        texts += [d["sentence"] for d in answer_field(a)["distractors"]]
                    elif a.type == "choice":
                        texts += [o["sentence"] for o in answer_field(a)["options"] if not o["correct"]]
                    elif a.type == "truefalse":
                        texts.append(answer_field(a)["sentence"])
                    for t in texts:
                        checked += 1
                        assert not said_limit.search(t), (k.id, seed, a.name, t)
                        for key in keys:
                            assert key.casefold() not in t.casefold(), (k.id, seed, digits, a.name, key, t)
    assert checked > 1000


# where a mistake gives the key itself or is not defined, it cannot be named: equal scores (B: divided by
# their sum they are uniform, and no score is the top), one input (E, 5.1: every weight is 1), given
# weights (I: the answer copies them; divided by their sum they are themselves), 2.3 (the division by the
# sum of the shifted scores is named shift_changes_weights), 5.3's uniform row
_CANNOT = {("B", "weights"): {"divide_by_sum", "hard_argmax"}, ("B", "context"): {"divide_by_sum", "hard_argmax"},
           ("E", "weights"): {"divide_by_sum", "hard_argmax"}, ("E", "context"): {"divide_by_sum", "hard_argmax"},
           ("5.1", "weights"): {"divide_by_sum", "forgot_to_normalise", "hard_argmax"},
           ("5.1", "context"): {"divide_by_sum", "forgot_to_normalise", "hard_argmax"},
           ("I", "weights"): {"divide_by_sum", "forgot_to_normalise", "hard_argmax"},
           ("I", "context"): {"divide_by_sum"}, ("2.3", "weights"): {"divide_by_sum"},
           ("5.3", "weights_uniform"): {"divide_by_sum", "forgot_to_normalise", "hard_argmax"}}


def test_every_weighted_blend_names_the_softmax_slips():
    """3.3's weights before and after the swap and its context, I's context,
    G's and H's tables and D's unshifted weights named no mistake for
    forgot-to-normalise, divide-by-sum or hard argmax: a response that made
    one got "no known mistake".  Every weights or context answer of every
    kind now names all three (over seeds 1–6), but where one gives the key
    itself or is not defined."""
    need = {"divide_by_sum", "forgot_to_normalise", "hard_argmax"}
    named: dict[tuple[str, str], set] = {}
    for k in kinds.all_kinds():
        for seed in range(1, 7):
            for a in solve_problem(sample_problem(k.id, seed), 4).answers:
                if a.type == "vector" and a.name.startswith(("weights", "context")):
                    seen = named.setdefault((k.id, a.name), set())
                    for o in a.options:
                        if o.misconception in need:
                            seen.add(o.misconception)
                            assert mark(a, o.text.replace("), (", " | ").strip("()")).misconception == o.misconception
    missing = {key: need - seen - _CANNOT.get(key, set()) for key, seen in named.items()}
    assert {key: m for key, m in missing.items() if m} == {}
    assert ("3.3", "context") in named and ("I", "context") in named


def _entropy_from_terms(weights: list[str], places: int) -> Fraction:
    """H worked from the printed weights, each term a·ln a rounded to `places` places."""
    from generator.exam.numbers import exact_number
    from generator.maths.exact import shown_xlogx
    from generator.maths.rounding import round_half_up

    unit = Fraction(1, 10 ** places)
    return -sum(round_half_up(exact_number(shown_xlogx(x, places + 3).text) / unit) * unit
                for x in (exact_number(w) for w in weights) if x != 0)


def test_at_digits_2_the_page_s_method_earns_full_marks_and_rounding_too_soon_is_named():
    """With --digits 2 the pages work to 3 places (exponentials, entropy
    terms) without saying a student should, and an entropy worked from
    2-place terms, or a weight below 0.01 typed as 0.01, got "no known
    mistake".  Now the first step that prints finer numbers says so once
    (never at --digits 4, where the working keeps the answers' places); the
    entropy from the page's 3-place terms is accepted; from 2-place terms it
    is accepted or named rounded_working; 0.01 for 6.20 × 10⁻³ is told how a
    number that small is written."""
    from decimal import Decimal

    from generator.exam.marking import feedback
    from generator.render.markdown import render_problem as render_markdown

    note = "The working from here keeps 3 decimal places"
    named = 0
    for k in kinds.all_kinds():
        for seed in (1, 2, 3):
            sol = solve_problem(sample_problem(k.id, seed), 2)
            md = render_markdown(sol)
            assert md.count(note) <= 1, (k.id, seed)
            if k.id in ("A", "C", "F", "2.1", "2.2"):  # softmax worked from 3-place exponentials
                assert note in md, (k.id, seed)
            assert note not in render_markdown(solve_problem(sample_problem(k.id, seed), 4))
            for a in sol.answers:
                if a.name != "entropy" or "weights" not in {b.name for b in sol.answers}:
                    continue
                w = sol.answer("weights").display
                if isinstance(w[0], list):
                    continue
                page = _entropy_from_terms(w, 3)
                assert mark(a, format(Decimal(page.numerator) / Decimal(page.denominator), "f")).correct, (k.id, seed)
                soon = _entropy_from_terms(w, 2)
                m = mark(a, format(Decimal(soon.numerator) / Decimal(soon.denominator), ".2f"))
                assert m.correct or m.misconception == "rounded_working", (k.id, seed, feedback(m))
                named += m.misconception == "rounded_working"
    assert named >= 2
    small = Answer("weights", "vector", "α", [0.0062, 0.9938], ["6.20 × 10⁻³", "0.99"], [], [6e-07, 0.006])
    assert mark(small, "0.01; 0.99").note == ("1 of 2 components right; too small for 2 decimal places: "
                                              "a number this small counts to 3 significant digits, as 1.23e-5")
