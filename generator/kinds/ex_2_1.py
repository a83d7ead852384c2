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
from ..model import Problem, Solution
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, position_labels, winner_caption
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.wording import pct, positions
from ._recipe.worked import scores_line, steps_softmax

say = Sayer("ex_2_1")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(params["tx_min"], params["tx_max"] + 1))
    return {"scores": [draw_decimal(rng, -1.0, 4.0) for _ in range(tx)], "step": int(rng.integers(1, 6))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "step"}, "2.1")
    step = inputs.get("step", 2)
    if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= 99:
        raise UserError(say.text("refused.step_range"))
    return {"scores": scores_input(require(inputs, "scores", "2.1")), "step": step}


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    t = str(problem.inputs["step"])
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    tops = top_positions(sm.scores)
    k = tops[0]
    question = [say("question", t=t, tx=len(scores), scores=scores_line(scores, t), alpha=Sym("alpha", f"{t}i"))]
    every = len(tops) == len(scores)  # all tied: the weights are uniform
    group = "one" if len(tops) == 1 else "every" if every else "tied"
    named = {"n": k + 1} if group == "one" else {"positions": positions(tops)} if group == "tied" else {}
    forecast = say(f"forecast.{group}", **named)
    steps = steps_softmax(w, sm, t)
    answer_softmax(w, sm)
    verify_sum(w, sm.weights)
    w.check("largest", True, say("verify.every", tx=len(scores)) if every else
            say(f"verify.{group}.{half(sm.weights[k] * len(tops))}", **named, pct=pct(sm.weights[k], 0)))
    labels = position_labels(len(scores))
    figures = [bars_figure(w, sm.weights, labels, winner_caption(w, sm, labels, k, None),
                              winner=k if len(tops) == 1 else None)]
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


def half(share: ExactReal) -> str:
    """The Forecast's answer, as the key of its sentence: more or less than
    half, decided exactly ("just" where the percentage printed beside it
    rounds to 50 %)."""
    side = exact.compare(share, ExactReal.of(Fraction(1, 2)))
    if side == 0:
        return "exactly_half"
    near = "just_" if pct(share, 0) == "50%" else ""
    return near + ("more" if side > 0 else "less")


KIND = register(Kind(
    **about("2.1"),
    sample=sample, normalise=normalise, solve=solve,
    scenarios={"default": {"tx_min": 3, "tx_max": 4}},
    limits={"tx_min": (2, 12, True), "tx_max": (2, 12, True)},
))
