"""Exercise 2.2 (L2) — the context vector from drawn scores and states, with
the argument for a weighted sum rather than a max (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..inputs import check_keys, require
from ..maths import numeric
from ..maths.attention import softmax, top_positions
from ..mathlines import Sym
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import context_distractors, weight_distractors
from ._recipe.figure_specs import bars_figure, context_caption, context_figure, position_labels
from ._recipe.parsing import rationals, scores_input, states_input
from ._recipe.verify import verify_hull, verify_sum
from ._recipe.wording import pct, positions
from ._recipe.worked import scores_line, states_line, step_context, steps_softmax

say = Sayer("ex_2_2")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    dim = int(rng.choice([2, 2, 3]))
    return {"scores": [draw_decimal(rng, -1.0, 4.0) for _ in range(tx)],
            "states": [[str(int(v)) for v in rng.integers(-3, 5, size=dim)] for _ in range(tx)]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "states"}, "2.2")
    scores = scores_input(require(inputs, "scores", "2.2"))
    return {"scores": scores, "states": states_input(require(inputs, "states", "2.2"), len(scores))}


def leaning(sm):
    """How much the largest weight (or the tied largest) holds, in words:
    close to a pick, more or less than half of the mass, or a tie."""
    heavy = top_positions(sm.scores)
    k = heavy[0]
    share = float(sm.weights[k]) * len(heavy)
    key = ("tied" if len(heavy) > 1 else "pick" if share >= 0.8 else "more_than_half" if share > 0.5 else
           "less_than_half")
    if key == "tied":
        return say("steps.context.lean.tied", positions=positions(heavy), together=pct(sm.weights[k] * len(heavy)))
    return say(f"steps.context.lean.{key}", n=k + 1, pct=pct(sm.weights[k]))


def figures(w: SolutionBuilder, sm, states, c) -> tuple:
    """The context among the states where they are two-dimensional, else the weights as bars."""
    tops = top_positions(sm.scores)
    k = tops[0]
    three = len(states[0]) == 3  # drawn states have three components; typed ones any number
    specs = [spec for spec in (context_figure(w, sm.weights, states, c, context_caption(w, sm.weights, c, states)),)
               if spec] or [bars_figure(w, sm.weights, position_labels(len(sm.scores)), say(
                   "figure.bars_one" if three else "figure.bars_one_any") if len(tops) == 1 else
                   say("figure.bars_tied" if three else "figure.bars_tied_any", positions=positions(tops)),
                   winner=k if len(tops) == 1 else None)]
    return tuple(specs)


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    states = [rationals(h) for h in problem.inputs["states"]]
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    tops = top_positions(sm.scores)
    k = tops[0]
    question = [say("question", scores=scores_line(scores, "t"), states=states_line(states), c=Sym("c", "t"))]
    forecast = say("forecast.one", n=k + 1) if len(tops) == 1 else say("forecast.tied", positions=positions(tops))
    soft = steps_softmax(w, sm, "t", z_answered=False)
    steps = [Step(say.text("steps.weights.title"), (), tuple(m for s in soft for m in s.math),
                  say("steps.weights.why"),
                  tuple(a for s in soft for a in s.after))]
    step, c = step_context(w, sm.weights, states, "t", say("steps.context.why") + leaning(sm))
    steps.append(step)
    w.vector("weights", say.text("answers.weights"), list(sm.weights), sm.numeric, distractors=weight_distractors(sm))
    w.vector("context", say.text("answers.context"), c,
             numeric.context(sm.numeric, [[float(v) for v in h] for h in states]),
             distractors=context_distractors(sm, states))
    verify_sum(w, sm.weights)
    verify_hull(w, c, states)
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures(w, sm, states, c))


KIND = register(Kind(
    **about("2.2"),
    sample=sample, normalise=normalise, solve=solve,
))
