"""Exercise 2.2 (L2) — the context vector from drawn scores and states, with
the argument for a weighted sum rather than a max (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..inputs import check_keys, require
from ..maths import numeric
from ..maths.attention import softmax, top_positions
from ..mathlines import Sym
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import context_distractors, weight_distractors
from ._recipe.figure_specs import bars_figure, context_caption, context_figure, position_labels
from ._recipe.parsing import rationals, scores_input, states_input
from ._recipe.verify import verify_hull, verify_sum
from ._recipe.wording import pct, positions
from ._recipe.worked import scores_line, states_line, step_context, steps_softmax


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    dim = int(rng.choice([2, 2, 3]))
    return {"scores": [draw_decimal(rng, -1.0, 4.0) for _ in range(tx)],
            "states": [[str(int(v)) for v in rng.integers(-3, 5, size=dim)] for _ in range(tx)]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "states"}, "2.2")
    scores = scores_input(require(inputs, "scores", "2.2"))
    return {"scores": scores, "states": states_input(require(inputs, "states", "2.2"), len(scores))}


WHY_BLEND = prose(
    "Why a weighted sum and not a max? (1) Differentiability: a hard argmax has zero gradient almost "
    "everywhere, so it could not be trained by backprop; the weighted sum is smooth, so gradients flow "
    "into every state and the alignment can be learned. (2) Blending helps: an output word may need "
    "information from two input words, and a hard pick throws one away. The sum is a soft, trainable "
    "lookup.")


def leaning(sm) -> str:
    """How much the largest weight (or the tied largest) holds, in words."""
    heavy = top_positions(sm.scores)
    k = heavy[0]
    share = float(sm.weights[k]) * len(heavy)
    if len(heavy) == 1:
        lean = (f"; the largest weight, on position {k + 1}, holds " + (
            f"{pct(sm.weights[k])} of the mass — close to a pick, yet still a blend." if share >= 0.8 else
            f"{pct(sm.weights[k])}, more than half of the mass, while the other states still pull the blend."
            if share > 0.5 else
            f"{pct(sm.weights[k])}, less than half of the mass, so the blend draws on several states."))
    else:
        lean = (f"; {positions(heavy)} tie for the largest weight and together hold "
                f"{pct(sm.weights[k] * len(heavy))} of the mass — a blend of them, not a pick.")
    return lean


def figures(w: SolutionBuilder, sm, states, c) -> tuple:
    """The context among the states where they are two-dimensional, else the weights as bars."""
    tops = top_positions(sm.scores)
    k = tops[0]
    specs = [spec for spec in (context_figure(w, sm.weights, states, c, context_caption(w, sm.weights, c, states)),)
               if spec] or [bars_figure(w, sm.weights, position_labels(len(sm.scores)), prose(
                   "the weights that blend the three-component states; the hatched bar is the largest weight in the "
                   "blend." if len(tops) == 1 else "the weights that blend the three-component states; the tallest "
                   f"bars, {positions(tops)}, tie."),
                   winner=k if len(tops) == 1 else None)]
    return tuple(specs)


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    states = [rationals(h) for h in problem.inputs["states"]]
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    tops = top_positions(sm.scores)
    k = tops[0]
    question = [prose("The scores are ", scores_line(scores, "t"), " and the encoder states are ",
                      states_line(states), ". Compute the context vector ", Sym("c", "t"), ".")]
    forecast = prose("Which state will the context lean toward? " +
                     (f"(Position {k + 1} has the largest score.)" if len(tops) == 1 else
                      f"({positions(tops).capitalize()} tie for the largest score.)"))
    soft = steps_softmax(w, sm, "t", z_answered=False)
    steps = [Step("compute the weights", (), tuple(m for s in soft for m in s.math),
                  prose("The context needs the weights first: softmax of the scores."),
                  tuple(a for s in soft for a in s.after))]
    step, c = step_context(w, sm.weights, states, "t", WHY_BLEND + prose(
        " The context is the weighted average of the states" + leaning(sm)))
    steps.append(step)
    w.vector("weights", "attention weights", list(sm.weights), sm.numeric, distractors=weight_distractors(sm))
    w.vector("context", "context vector c_t", c, numeric.context(sm.numeric, [[float(v) for v in h] for h in states]),
             distractors=context_distractors(sm, states))
    verify_sum(w, sm.weights)
    verify_hull(w, c, states)
    recall = ((prose("Why does attention blend the states instead of taking the best one?"),
               prose("The blend is differentiable and keeps information from several words; a hard "
                     "pick has no gradient and throws information away (Exercise 2.2).")),)
    return Solution(problem, "The context vector", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures(w, sm, states, c))


KIND = register(Kind(
    **about("2.2"),
    sample=sample, normalise=normalise, solve=solve,
))
