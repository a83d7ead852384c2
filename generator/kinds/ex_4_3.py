"""Exercise 4.3 (L4) — why attention improves gradient flow, on a drawn
sentence length, output step and per-step attenuation (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_number, require
from ..maths.exact import ExactReal
from ..mathlines import Add, Mul, Num, Pow, SumOver, Sym, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, input_node

GAINS = ("0.5", "0.7", "0.8", "0.9")
say = Sayer("ex_4_3")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(10, 61))
    return {"tx": tx, "position": int(rng.integers(1, 6)), "step": int(rng.integers(5, 41)),
            "gain": GAINS[int(rng.integers(len(GAINS)))]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"tx", "position", "step", "gain"}, "4.3")
    out = {}
    for key, hi in (("tx", 1000), ("step", 1000)):
        v = require(inputs, key, "4.3")
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= hi:
            raise UserError(say.text("refused.whole_number", key=key, hi=hi))
        out[key] = v
    pos = require(inputs, "position", "4.3")
    if not isinstance(pos, int) or isinstance(pos, bool) or not 1 <= pos <= out["tx"]:
        raise UserError(say.text("refused.position", tx=out["tx"]))
    gain = parse_number(require(inputs, "gain", "4.3"), "gain")
    if not 0 < gain < 1:
        raise UserError(say.text("refused.gain"))
    return {**out, "position": pos, "gain": number_text(gain)}


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    tx, i, t = inp["tx"], inp["position"], inp["step"]
    g = Fraction(inp["gain"])
    w = SolutionBuilder(digits)
    chain = (tx - i) + t
    kept = ExactReal.of(g ** chain)
    ask = say("question.ask")  # the text answer's prompt
    question = [say("question.chain", tx=tx, t=t, i=i, gain=number_text(g)), ask]
    forecast = say("forecast")
    steps = (
        Step(say.text("steps.chain.title"), (),
             (eq(Sym("n"), Add((Num(str(tx - i)), Num(str(t)))), Num(str(chain))),), say("steps.chain.why")),
        Step(say.text("steps.survives.title"), (), (eq(Pow(input_node(g), Num(str(chain))), w.shown_answer(kept)),),
             say("steps.survives.why")),
        Step(say.text("steps.attention.title"), (say(
            "steps.attention.body",
            context=eq(Sym("c", "t"), SumOver("i", Mul((Sym("alpha", "ti"), Sym("h", "i")), "juxt")))),), (),
            say("steps.attention.why")),
    )
    w.numeric("chain_steps", say.text("answers.chain_steps"), ExactReal.of(chain),
              float(chain), whole=True)
    w.numeric("surviving_fraction", say.text("answers.surviving_fraction"), kept,
              float(g) ** chain)
    w.numeric("attention_hops", say.text("answers.attention_hops"), ExactReal.of(1), 1.0,
              whole=True, distractors=[(ExactReal.of(chain), "gradient_through_chain"), (ExactReal.of(0), "argmax_no_gradient")])
    w.text("argument", say.text("answers.argument"), say.text("model_answer"), ask)
    w.check("shortcut", chain > 1, say("verify.shortcut", chain=chain))
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("4.3"),
    sample=sample, normalise=normalise, solve=solve,
))
