"""Exercise 1.2 (L1) — true or false, from a bank of correct statements and
false statements contradicting them; each false one states a named misconception (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder

say = Sayer("ex_1_2")
# The bank, by the misconception each false statement states: a variant's
# inputs name statements by their index here, so the order is fixed.  The
# statements are options.<misconception>.true_text (correct) / .false_text
# (contradicting it) and .feedback (why) in the text file.
BANK = ("reversed_bottleneck", "scores_are_probabilities", "shift_changes_weights", "focus_from_nothing",
        "double_softmax", "wrong_state_order", "single_input_depends", "beta_limit_reversed",
        "context_outside_hull", "entropy_reversed", "divide_by_sum", "permutation_changes_context")
COUNT = 3


def sample(rng: np.random.Generator, params: dict) -> dict:
    picks = rng.choice(len(BANK), size=COUNT, replace=False)
    return {"statements": [[int(i), bool(rng.integers(2))] for i in picks]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"statements"}, "1.2")
    raw = require(inputs, "statements", "1.2")
    ok = isinstance(raw, list) and 1 <= len(raw) <= len(BANK) and all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], int) and not isinstance(p[0], bool)
        and 0 <= p[0] < len(BANK) and isinstance(p[1], bool) for p in raw)
    if not ok or len({p[0] for p in raw}) != len(raw):
        raise UserError(say.text("refused.statements", last=len(BANK) - 1))
    return {"statements": [[p[0], p[1]] for p in raw]}


def solve(problem: Problem, digits: int) -> Solution:
    items = problem.inputs["statements"]
    w = SolutionBuilder(digits)
    question = [say("question.intro")]
    question += [say("question.item", n=n, statement=statement(i, truth)) for n, (i, truth) in enumerate(items, 1)]
    forecast = say("forecast")
    lines = []
    for n, (i, truth) in enumerate(items, start=1):
        why = say.text(f"options.{BANK[i]}.feedback")
        lines.append(say("steps.judge.line_true", n=n, why=why) if truth else
                     say("steps.judge.line_false", n=n, true_text=statement(i, True), why=why))
        w.truefalse(f"statement_{n}", say.text("answers.statement", n=n), truth, BANK[i])
    why = say("steps.judge.why_all_true" if all(truth for _, truth in items) else "steps.judge.why")
    steps = (Step(say.text("steps.judge.title"), tuple(lines), (), why),)
    w.check("verdicts", True, say("verify.verdicts", verdicts=", ".join(
        say.text("verify.true" if t else "verify.false", n=n) for n, (_, t) in enumerate(items, 1))))
    # the card recalls a statement this variant drew, in its true form
    first = items[0][0]
    recall = ((say("recall.front", false_text=statement(first, False)),
               say("recall.back", true_text=statement(first, True),
                   why=say.text(f"options.{BANK[first]}.feedback"))),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


def statement(i: int, truth: bool) -> str:
    """Statement i of the bank, in its true or its false form."""
    return say.text(f"options.{BANK[i]}.{'true_text' if truth else 'false_text'}")


KIND = register(Kind(
    **about("1.2"),
    sample=sample, normalise=normalise, solve=solve,
))
