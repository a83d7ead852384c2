"""Exercise 1.3 (L1) — which quantity sums to exactly 1? (seeds/002), with a
drawn example that shows the weights summing to 1 and the scores not."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, require
from ..maths.attention import softmax
from ..mathlines import Num, SumOver, Sym, Tup, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ..exam.options import key_line, option_lines
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, position_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.worked import scores_line

CORRECT = "the weights α_ti"
WRONG = (
    ("the scores e_ti", "scores_are_probabilities"),
    ("the states h_i", "states_are_fractions"),
    ("the exponentials exp(e_ti)", "forgot_to_normalise"),
    ("the components of the context c_t", "context_sums_to_one"),
    ("the scores divided by their largest value", "forgot_to_exponentiate"),
)
SHOW = 3  # distractors shown
# why each wrong option does not sum to 1: the step says it of the options shown
WHY_NOT = {
    "the scores e_ti": "The scores are unbounded and in general do not sum to 1.",
    "the states h_i": "The states are vectors, not fractions.",
    "the exponentials exp(e_ti)": ("The exponentials are positive but not yet divided by their total, "
                                   "which is what makes them sum to 1."),
    "the components of the context c_t": "The context is a blend of vectors; its components need not sum to anything.",
    "the scores divided by their largest value": ("Dividing by the largest score makes that score 1, not the sum "
                                                  "of the results."),
}


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
        raise UserError(f"distractors: distinct indices 0…{len(WRONG) - 1}")
    return {"scores": scores_input(require(inputs, "scores", "1.3")), "distractors": picks,
            "shuffle": int(inputs.get("shuffle", 0))}


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    scores = rationals(inp["scores"])
    w = SolutionBuilder(digits)
    shown = w.choice("sums_to_one", "the quantity that sums to 1 over i", [CORRECT],
                     [WRONG[i] for i in inp["distractors"]], inp["shuffle"])
    question = [prose("At one decoder step t the scores are ", scores_line(scores, "t"),
                      ". Which quantity must sum to exactly 1 across all input positions i, for a fixed "
                      "decoder step t?"), *option_lines(shown)]
    forecast = prose("Which of these is a probability distribution by construction?")
    sm = softmax(scores)
    nums = [w.shown_answer(a) for a in sm.weights]
    steps = (Step("name the quantity", (key_line(shown),), (), prose(
        "That is precisely what the softmax guarantees: ", eq(SumOver("i", Sym("alpha", "ti")), Num("1")),
        ". " + " ".join(WHY_NOT[o.text] for o in shown if not o.correct))),
        Step("see it on numbers", (prose("Take the scores ", scores_line(scores, "t"), ", which sum to ",
                                         input_node(sum(scores)), "."),),
             (eq(Sym("alpha"), Tup(tuple(nums))),),
             prose("Softmax turns the same scores into weights, and only the weights sum to 1.")))
    answer_softmax(w, sm)
    verify_sum(w, sm.weights)
    figures = [bars_figure(w, sm.weights, position_labels(len(scores)), prose(
        f"the bar heights are the weights; stacked end to end they fill exactly 1, although the scores "
        f"they come from sum to {number_text(sum(scores))}."))]
    recall = ((prose("What does softmax guarantee about the weights of one decoder step?"),
               prose("They are in [0, 1] and sum to exactly 1 (Exercise 1.3).")),)
    return Solution(problem, "What sums to one?", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("1.3"),
    sample=sample, normalise=normalise, solve=solve, graded=("sums_to_one",),
))
