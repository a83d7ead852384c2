"""Exercise 4.1 (L4) — how many alignment scores for drawn Tx and Ty, and the
trade-off against the fixed-vector bottleneck (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..maths.exact import ExactReal
from ..mathlines import Mul, Num, Sym, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder

MAX_LEN = 10**4
say = Sayer("ex_4_1")


def sample(rng: np.random.Generator, params: dict) -> dict:
    while True:
        tx, ty = (int(v) for v in rng.integers(10, 401, size=2))
        if tx != ty:
            return {"tx": tx, "ty": ty}


def _length(inputs: dict, key: str) -> int:
    v = require(inputs, key, "4.1")
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_LEN:
        raise UserError(say.text("refused.whole_number", key=key, hi=MAX_LEN))
    return v


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"tx", "ty"}, "4.1")
    return {"tx": _length(inputs, "tx"), "ty": _length(inputs, "ty")}


def solve(problem: Problem, digits: int) -> Solution:
    tx, ty = problem.inputs["tx"], problem.inputs["ty"]
    w = SolutionBuilder(digits)
    count = tx * ty
    # the symbols given as nodes: the words around them are the same in every variant
    ask = say("question.ask")
    question = [say("question.count", Ty=Sym("T", "y"), ty=ty, Tx=Sym("T", "x"), tx=tx, e_ti=Sym("e", "ti")), ask]
    forecast = say("forecast")
    trade_off = say.text("trade_off")
    steps = (
        Step(say.text("steps.count.title"), (), (eq(Mul((Sym("T", "x"), Sym("T", "y")), "times"),
                                                    Mul((Num(str(tx)), Num(str(ty))), "times"), Num(str(count))),),
             say("steps.count.why")),
        Step(say.text("steps.trade_off.title"), (say("trade_off"),), (), say("steps.trade_off.why")),
    )
    w.numeric("count", say.text("answers.count"), ExactReal.of(count), float(tx * ty), whole=True, distractors=[
        (ExactReal.of(tx + ty), "added_lengths"), (ExactReal.of(tx), "one_score_per_input"),
        (ExactReal.of(tx * tx), "squared_input"), (ExactReal.of(ty), "one_score_per_output")])
    w.text("trade_off", say.text("answers.trade_off"), trade_off, ask)
    w.check("count", count == tx * ty, say("verify.count", ty=ty, tx=tx, count=count))
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("4.1"),
    sample=sample, normalise=normalise, solve=solve,
))
