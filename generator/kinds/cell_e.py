"""Cell E — a single input word, Tx = 1 (seeds/000, Example 5)."""

from __future__ import annotations

import numpy as np

from ..inputs import check_keys, require
from ..maths import numeric
from ..maths.attention import context, softmax, winner
from ..mathlines import Call, Frac, Mul, Num, Sym, Vec, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax, context_distractors
from ._recipe.figure_specs import bars_figure, position_labels
from ._recipe.parsing import rationals, scores_input, states_input
from ._recipe.verify import verify_hull, verify_sum
from ._recipe.worked import scores_line, states_line, step_context, steps_softmax

ALLOWED = {"scores", "states"}


def sample(rng: np.random.Generator, params: dict) -> dict:
    dim = int(rng.integers(2, 4))
    return {"scores": [draw_decimal(rng, -3.0, 5.0)],
            "states": [[str(int(v)) for v in rng.integers(-4, 6, size=dim)]]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "E")
    out = {"scores": scores_input(require(inputs, "scores", "E"))}
    out["states"] = states_input(require(inputs, "states", "E"), len(out["scores"]))
    return out


def missing_property(inputs: dict) -> str | None:
    if len(inputs["scores"]) != 1:
        return (f"T_x = {len(inputs['scores'])}, not 1, and cell E is about a single input; kind 2.2 blends "
                "several states")
    return None


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    states = [rationals(h) for h in problem.inputs["states"]]
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    one = len(scores) == 1
    question = [prose("The input has ", eq(Sym("T", "x"), Num(str(len(scores)))), " position" +
                      ("" if one else "s") + " with score ", scores_line(scores, "t"),
                      " and encoder state ", states_line(states),
                      ". Compute the attention weight and the context vector.")]
    forecast = prose("With only one box, how much focus can it possibly get? Answer before computing."
                     if one else "Which position will dominate the context?")
    if one:
        e = Call("exp", input_node(scores[0]))
        steps = [Step("apply softmax over a one-element list", (),
                      (eq(Sym("alpha", "t1"), Frac(e, e), Num("1")),), prose(
                          "The denominator is the sum over the only term, so it equals the numerator — "
                          "the score value cancels entirely."))]
        h = Vec(tuple(input_node(v) for v in states[0]))
        steps.append(Step("build the context", (), (
            eq(Sym("c", "t"), Mul((Sym("alpha", "t1"), Sym("h", "1")), "juxt"),
               Mul((Num("1"), Sym("h", "1")), "cdot"), Sym("h", "1"), h),), prose(
            "With no choice to make, attention degenerates to “just use the one state you have” — "
            "it can never do worse than vanilla seq2seq here.")))
        c = context(sm.weights, states)
    else:
        steps = steps_softmax(w, sm, "t")
        step, c = step_context(w, sm.weights, states, "t", prose(
            "The context is the weighted average of the states."))
        steps.append(step)
    answer_softmax(w, sm)
    w.vector("context", "context vector c_t", c, numeric.context(sm.numeric, [[float(v) for v in h] for h in states]),
             distractors=context_distractors(sm, states))
    if one:
        w.check("alpha = 1", sm.weights[0].rat == 1, prose(
            eq(Sym("alpha", "t1"), w.shown_answer(sm.weights[0])), " regardless of the score ✓."))
        w.check("context = h1", all(x.rat == v for x, v in zip(c, states[0])), prose(
            eq(Sym("c", "t"), Sym("h", "1")), " ✓ — attention on a length-1 input is a no-op."))
    else:
        verify_sum(w, sm.weights)
        verify_hull(w, c, states)
    figures = (bars_figure(w, sm.weights, position_labels(len(scores)), prose(
        "a single bar of height 1: with one box there is nothing to choose between, whatever its score."
        if one else "the bars follow the scores; with one position there would be a single bar of height 1."),
        winner=winner(sm) if not one else None),)
    recall = ((prose("With one input word, what is ", Sym("alpha", "t1"), "?"),
               prose("Always 1, and ", eq(Sym("c", "t"), Sym("h", "1")), " (Cell E).")),)
    return Solution(problem, "A single input word", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


KIND = register(Kind(
    **about("E"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
))
