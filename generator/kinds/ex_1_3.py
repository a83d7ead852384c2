"""Exercise 1.3 (L1) — which quantity sums to exactly 1? (seeds/002), with a
drawn example that shows the weights summing to 1 and the scores not."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, require
from ..maths.attention import softmax
from ..mathlines import Num, SumOver, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.options import key_line, option_lines
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, position_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.worked import scores_line

say = Sayer("ex_1_3")
# the wrong options, by the misconception each states (options.<name>.text in
# the text file, and .feedback: why it does not sum to 1, said of the options
# shown); a variant's inputs pick them by their index here
WRONG = ("scores_are_probabilities", "states_are_fractions", "forgot_to_normalise", "context_sums_to_one",
         "forgot_to_exponentiate")
SHOW = 3  # distractors shown


def sample(rng: np.random.Generator, params: dict) -> dict:
    while True:
        scores = [draw_decimal(rng, -1.0, 3.0) for _ in range(3)]
        if sum(rationals(scores)) != 1:
            break
    picks = sorted(int(i) for i in rng.choice(len(WRONG), size=SHOW, replace=False))
    return {"scores": scores, "distractors": picks, "shuffle": int(rng.integers(2**31))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "distractors", "shuffle"}, "1.3")
    picks = inputs.get("distractors", list(range(SHOW)))
    if not isinstance(picks, list) or not picks or any(
            not isinstance(i, int) or not 0 <= i < len(WRONG) for i in picks) or len(set(picks)) != len(picks):
        raise UserError(say.text("refused.distractors", last=len(WRONG) - 1))
    return {"scores": scores_input(require(inputs, "scores", "1.3")), "distractors": picks,
            "shuffle": int(inputs.get("shuffle", 0))}


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    scores = rationals(inp["scores"])
    w = SolutionBuilder(digits)
    shown = w.choice("sums_to_one", say.text("answers.sums_to_one"), [say.text("options.correct.text")],
                     [(say.text(f"options.{WRONG[i]}.text"), WRONG[i]) for i in inp["distractors"]], inp["shuffle"])
    question = [say("question", scores=scores_line(scores, "t")), *option_lines(shown)]
    forecast = say("forecast")
    sm = softmax(scores)
    nums = [w.shown_answer(a) for a in sm.weights]
    why_not = " ".join(say.text(f"options.{o.misconception}.feedback") for o in shown if not o.correct)
    steps = (Step(say.text("steps.name.title"), (key_line(shown),), (), say(
        "steps.name.why", sum_eq=eq(SumOver("i", Sym("alpha", "ti")), Num("1")), why_not=why_not)),
        Step(say.text("steps.numbers.title"), (say("steps.numbers.body", scores=scores_line(scores, "t"),
                                                   total=input_node(sum(scores))),),
             (eq(Sym("alpha"), Tup(tuple(nums))),), say("steps.numbers.why")))
    answer_softmax(w, sm)
    verify_sum(w, sm.weights)
    figures = [bars_figure(w, sm.weights, position_labels(len(scores)),
                           say("figure.bars", total=number_text(sum(scores))))]
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("1.3"),
    sample=sample, normalise=normalise, solve=solve, graded=("sums_to_one",),
))
