"""Exercise 2.1 (L2) — the attention weights from drawn scores (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..maths import exact
from ..maths.attention import softmax, top_positions
from ..maths.exact import ExactReal
from ..mathlines import Sym
from ..model import Problem, Solution, prose
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, position_labels, winner_caption
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.wording import pct, positions
from ._recipe.worked import scores_line, steps_softmax


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(params["tx_min"], params["tx_max"] + 1))
    return {"scores": [draw_decimal(rng, -1.0, 4.0) for _ in range(tx)], "step": int(rng.integers(1, 6))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "step"}, "2.1")
    step = inputs.get("step", 2)
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= 99:
        raise UserError("step: a whole number from 1 to 99")
    return {"scores": scores_input(require(inputs, "scores", "2.1")), "step": step}


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    t = str(problem.inputs["step"])
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    tops = top_positions(sm.scores)
    k = tops[0]
    question = [prose(f"Decoder step t = {t}, input length Tx = {len(scores)}. The raw scores are ",
                      scores_line(scores, t), ". Compute every attention weight ", Sym("alpha", f"{t}i"), ".")]
    every = len(tops) == len(scores)  # all tied: the weights are uniform
    forecast = prose(f"Position {k + 1} has the largest score. Will it take more or less than half of the focus?"
                     if len(tops) == 1 else "Every score is the same. What will each weight be?" if every else
                     f"{positions(tops).capitalize()} tie for the largest score. "
                     "Will they together take more or less than half of the focus?")
    steps = steps_softmax(w, sm, t)
    answer_softmax(w, sm)
    verify_sum(w, sm.weights)
    w.check("largest", True, prose(
        f"Position {k + 1} grabs ≈ {pct(sm.weights[k], 0)} of the focus — {half(sm.weights[k])}."
        if len(tops) == 1 else
        f"Every position gets exactly 1/{len(scores)} of the focus: equal scores, uniform weights." if every else
        f"{positions(tops).capitalize()} each grab ≈ {pct(sm.weights[k], 0)} of the focus — together "
        f"{half(sm.weights[k] * len(tops))}."))
    labels = position_labels(len(scores))
    figures = [bars_figure(w, sm.weights, labels, winner_caption(w, sm, labels, k, None),
                              winner=k if len(tops) == 1 else None)]
    recall = ((prose("The three moves of softmax?"),
               prose("Exponentiate every score, add them up, divide each by the total (Exercise 2.1).")),)
    return Solution(problem, "Weights from scores", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


def half(share: ExactReal) -> str:
    """The Forecast's answer: more or less than half, decided exactly ("just"
    where the percentage printed beside it rounds to 50 %)."""
    side = exact.compare(share, ExactReal.of(Fraction(1, 2)))
    if side == 0:
        return "exactly half"
    near = "just " if pct(share, 0) == "50%" else ""
    return f"{near}{'more' if side > 0 else 'less'} than half"


KIND = register(Kind(
    **about("2.1"),
    sample=sample, normalise=normalise, solve=solve,
    scenarios={"default": {"tx_min": 3, "tx_max": 4}},
    limits={"tx_min": (2, 12, True), "tx_max": (2, 12, True)},
))
