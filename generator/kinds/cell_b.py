"""Cell B — all scores equal → uniform attention (seeds/000, Example 2)."""

from __future__ import annotations

import dataclasses

import numpy as np

from ..inputs import check_keys, require
from ..maths import numeric
from ..maths.attention import softmax
from ..mathlines import Add, Call, Frac, Mul, Num, Paren, Sym, eq
from ..model import Problem, Solution, Step, prose
from ..text import Sayer
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax, context_distractors
from ._recipe.figure_specs import bars_figure, context_caption, context_figure, position_labels
from ._recipe.parsing import rationals, scores_input, states_input
from ._recipe.verify import verify_hull, verify_sum
from ._recipe.wording import hull_words, rounded_to
from ._recipe.worked import differs_note, scores_line, states_line, step_context, steps_softmax

ALLOWED = {"scores", "states"}
say = Sayer("cell_b")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(params["tx_min"], params["tx_max"] + 1))
    value = draw_decimal(rng, -2.0, 3.0)
    states = [[str(int(v)) for v in rng.integers(-3, 5, size=2)] for _ in range(tx)]
    return {"scores": [value] * tx, "states": states}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "B")
    out = {"scores": scores_input(require(inputs, "scores", "B"))}
    if "states" in inputs:
        out["states"] = states_input(inputs["states"], len(out["scores"]))
    return out


def missing_property(inputs: dict) -> str | None:
    s = rationals(inputs["scores"])
    if len(set(s)) != 1:
        return say.text("refused.not_equal")
    if len(s) < 2:
        return say.text("refused.single")
    return None


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    scores = rationals(inp["scores"])
    states = [rationals(h) for h in inp["states"]] if "states" in inp else None
    tx = len(scores)
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    equal = len(set(scores)) == 1
    question = [say("question.scores_states" if states else "question.scores", tx=eq(Sym("T", "x"), Num(str(tx))),
                    scores=scores_line(scores, "t"), states=states_line(states) if states else "")]
    forecast = say("forecast")
    if equal:
        steps = [symmetry_step(w, sm)]
    else:
        # symmetry only forces equal weights when the scores are equal: the full recipe
        steps = steps_softmax(w, sm, "t")
        steps[0] = dataclasses.replace(steps[0], body=(say("steps.full_recipe"), *steps[0].body))
    answer_softmax(w, sm)
    c = None
    if states:
        step, c = blend(w, sm, states, equal)
        steps.append(step)
    verify_sum(w, sm.weights)
    if equal:
        w.check("uniform", True, say(
            "verify.uniform", uniform_eq=eq(Frac(Num("1"), Num(str(tx))), w.shown_answer(sm.weights[0]))))
    if states:
        verify_hull(w, c, states)
    recall = ((say("recall.front"), say("recall.back", alpha_eq=eq(Sym("alpha", "i"), Frac(Num("1"), Sym("T", "x"))))),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures(w, sm, states, c, equal))


def symmetry_step(w: SolutionBuilder, sm) -> Step:
    """Equal scores: symmetry gives the weights, one exponential confirms them."""
    tx = len(sm.scores)
    e = w.shown_working(sm.exps[0])
    z = w.shown_result(tx * value_of(e))
    a = w.shown_result(value_of(e) / value_of(z), w.digits)  # = 1/Tx exactly
    w.method["denominator"] = [value_of(z)]
    return Step(say.text("steps.symmetry.title"), (
        say("steps.symmetry.body", exp=Call("exp", input_node(sm.scores[0])), tx=tx),),
        (eq(Call("exp", input_node(sm.scores[0] - sm.shift)), e),
         eq(Sym("Z"), Mul((Num(str(tx)), e), "times"), z),
         eq(Sym("alpha", "ti"), Frac(e, z), a)),
        say("steps.symmetry.why", uniform_eq=eq(Frac(Num("1"), Sym("T", "x")), Frac(Num("1"), Num(str(tx))))),
        # Tx times the rounded exponential, where it rounds otherwise than Z itself (the key)
        differs_note(w, [(Sym("Z"), w.shown_result(value_of(z), w.digits), w.shown_answer(sm.Z))],
                     say.text("steps.symmetry.rounded", rounded=rounded_to([e]))))


def blend(w: SolutionBuilder, sm, states, equal: bool):
    """The context step (with equal weights, a plain average) and its answer."""
    tx = len(sm.scores)
    step, c = step_context(w, sm.weights, states, "t",
                           say("steps.blend.why_equal" if equal else "cells.context_why"))
    if equal:
        avg = eq(Sym("c", "t"), Mul((Frac(Num("1"), Num(str(tx))),
                                     Paren(Add(tuple(Sym("h", str(i + 1)) for i in range(tx))))), "juxt"))
        step = dataclasses.replace(step, body=(say("steps.blend.body_equal", avg=avg),))
    w.vector("context", say.text("cells.answers.context"), c,
             numeric.context(sm.numeric, [[float(v) for v in h] for h in states]),
             distractors=context_distractors(sm, states))
    return step, c


def figures(w: SolutionBuilder, sm, states, c, equal: bool) -> tuple:
    """The weights as bars, and where there are states the context among them."""
    tx = len(sm.scores)
    bars = "figure.bars.unequal" if not equal else "figure.bars.equal_two" if tx == 2 else "figure.bars.equal_many"
    specs = [bars_figure(w, sm.weights, position_labels(tx),
                         say(bars, tx=tx, height=w.shown_answer(sm.weights[0]).text))]
    if states:
        spec = context_figure(w, sm.weights, states, c, say("figure.context_equal", hull=hull_words(states)[2])
                              if equal else prose(context_caption(w, sm.weights, c, states)[0]))
        if spec:
            specs.append(spec)
    return tuple(specs)


KIND = register(Kind(
    **about("B"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {"tx_min": 2, "tx_max": 6}},
    limits={"tx_min": (2, 12, True), "tx_max": (2, 12, True)},
))
