"""Exercise 5.1 (L5) — the degenerate case Tx = 1 over several decoder steps (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_scores, require
from ..maths import exact
from ..maths.exact import ExactReal
from ..mathlines import Call, Frac, Mul, Num, Seq, Sym, Vec, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.parsing import rationals, states_input
from ._recipe.worked import states_line

say = Sayer("ex_5_1")


def sample(rng: np.random.Generator, params: dict) -> dict:
    ty = int(rng.integers(2, 5))
    dim = int(rng.integers(2, 4))
    return {"scores": [[draw_decimal(rng, -3.0, 5.0)] for _ in range(ty)],
            "states": [[str(int(v)) for v in rng.integers(-4, 6, size=dim)]]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "states"}, "5.1")
    rows = require(inputs, "scores", "5.1")
    if not isinstance(rows, list) or not rows or len(rows) > 8:
        raise UserError(say.text("refused.rows"))
    out = []
    for t, row in enumerate(rows, start=1):
        vals = parse_scores(row if isinstance(row, list) else [row], f"scores[{t}]")
        if len(vals) != 1:
            raise UserError(say.text("refused.one_score", t=t))
        out.append([number_text(vals[0])])
    return {"scores": out, "states": states_input(require(inputs, "states", "5.1"), 1)}


def solve(problem: Problem, digits: int) -> Solution:
    rows = [rationals(r)[0] for r in problem.inputs["scores"]]
    h = rationals(problem.inputs["states"][0])
    w = SolutionBuilder(digits)
    question = [say("question", state=states_line([h]), c_t=Sym("c", "t"),
                    scores=Seq(tuple(eq(Sym("e", f"{t}1"), input_node(e)) for t, e in enumerate(rows, 1))))]
    forecast = say("forecast")
    steps = (
        Step(say.text("steps.softmax.title"), (), tuple(
            eq(Sym("alpha", f"{t}1"), Frac(Call("exp", input_node(e)), Call("exp", input_node(e))), Num("1"))
            for t, e in enumerate(rows, 1)), say("steps.softmax.why")),
        Step(say.text("steps.context.title"), (),
             (eq(Sym("c", "t"), Mul((Sym("alpha", "t1"), Sym("h", "1")), "juxt"), Sym("h", "1"),
                 Vec(tuple(input_node(v) for v in h))),), say("steps.context.why")),
    )
    ones = [[ExactReal.of(1)] for _ in rows]
    sigmoid = [[exact.exp(ExactReal.of(e)) / (1 + exact.exp(ExactReal.of(e)))] for e in rows]
    w.vector("weights", say.text("answers.weights"), ones, np.ones((len(rows), 1)),
             distractors=[(sigmoid, "implicit_extra_score")])
    w.vector("context", say.text("answers.context"), [ExactReal.of(v) for v in h], np.array([float(v) for v in h]))
    c_is_h1 = eq(Sym("c", "t"), Sym("h", "1"))
    steps_said = ("verify.one_step", {}) if len(rows) == 1 else ("verify.two_steps", {}) if len(rows) == 2 else \
        ("verify.steps", {"n": len(rows)})
    w.check("alpha = 1", True, say(steps_said[0], **steps_said[1], c_is_h1=c_is_h1))
    recall = ((say("recall.front"), say("recall.back", c_is_h1=c_is_h1)),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("5.1"),
    sample=sample, normalise=normalise, solve=solve,
))
