"""Cell E — a single input word, Tx = 1 (seeds/000, Example 5)."""

from __future__ import annotations

import numpy as np

from ..inputs import check_keys, require
from ..maths import numeric
from ..maths.attention import context, softmax, winner
from ..mathlines import Call, Frac, Mul, Num, Sym, Vec, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax, context_distractors
from ._recipe.figure_specs import bars_figure, position_labels
from ._recipe.parsing import rationals, scores_input, states_input
from ._recipe.verify import verify_hull, verify_sum
from ._recipe.worked import scores_line, states_line, step_context, steps_softmax

ALLOWED = {"scores", "states"}
say = Sayer("cell_e")


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
        return say.text("refused.not_one", tx=len(inputs["scores"]))
    return None


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    states = [rationals(h) for h in problem.inputs["states"]]
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    one = len(scores) == 1
    how_many = "one" if one else "several"
    question = [say(f"question.{how_many}", tx=eq(Sym("T", "x"), Num(str(len(scores)))),
                    scores=scores_line(scores, "t"), states=states_line(states))]
    forecast = say(f"forecast.{how_many}")
    if one:
        e = Call("exp", input_node(scores[0]))
        steps = [Step(say.text("steps.softmax_one.title"), (),
                      (eq(Sym("alpha", "t1"), Frac(e, e), Num("1")),), say("steps.softmax_one.why"))]
        h = Vec(tuple(input_node(v) for v in states[0]))
        steps.append(Step(say.text("steps.context_one.title"), (), (
            eq(Sym("c", "t"), Mul((Sym("alpha", "t1"), Sym("h", "1")), "juxt"),
               Mul((Num("1"), Sym("h", "1")), "cdot"), Sym("h", "1"), h),), say("steps.context_one.why")))
        c = context(sm.weights, states)
    else:
        steps = steps_softmax(w, sm, "t")
        step, c = step_context(w, sm.weights, states, "t", say("cells.context_why"))
        steps.append(step)
    answer_softmax(w, sm)
    w.vector("context", say.text("cells.answers.context"), c,
             numeric.context(sm.numeric, [[float(v) for v in h] for h in states]),
             distractors=context_distractors(sm, states))
    if one:
        w.check("alpha = 1", sm.weights[0].rat == 1, say(
            "verify.alpha_one", alpha_eq=eq(Sym("alpha", "t1"), w.shown_answer(sm.weights[0]))))
        w.check("context = h1", all(x.rat == v for x, v in zip(c, states[0])), say(
            "verify.context_one", c_eq=eq(Sym("c", "t"), Sym("h", "1"))))
    else:
        verify_sum(w, sm.weights)
        verify_hull(w, c, states)
    figures = (bars_figure(w, sm.weights, position_labels(len(scores)), say(f"figure.bars.{how_many}"),
        winner=winner(sm) if not one else None),)
    recall = ((say("recall.front", alpha=Sym("alpha", "t1")),
               say("recall.back", c_eq=eq(Sym("c", "t"), Sym("h", "1")))),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


KIND = register(Kind(
    **about("E"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
))
