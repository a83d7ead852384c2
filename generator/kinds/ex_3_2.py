"""Exercise 3.2 (L3) — why Bahdanau scores with s_{t-1} and Luong with s_t:
the ordering argument, as a multiple-choice question and a model answer (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys
from ..mathlines import Args, Call, Mul, Sym, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.options import key_line, option_lines
from ._base import Kind, SolutionBuilder

say = Sayer("ex_3_2")
# the question's phrasings (question.<name> in the text file), picked by index
PHRASINGS = ("which_state", "decoder_side", "compares")
WHO = ("bahdanau", "luong")  # who.<name>: the attention asked about


def sample(rng: np.random.Generator, params: dict) -> dict:
    return {"ask": "bahdanau" if rng.integers(2) else "luong", "phrasing": int(rng.integers(len(PHRASINGS))),
            "shuffle": int(rng.integers(2**31))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"ask", "phrasing", "shuffle"}, "3.2")
    ask = inputs.get("ask", "bahdanau")
    phrasing = inputs.get("phrasing", 0)
    if ask not in WHO:
        raise UserError(say.text("refused.ask"))
    if phrasing not in range(len(PHRASINGS)):
        raise UserError(say.text("refused.phrasing", last=len(PHRASINGS) - 1))
    return {"ask": ask, "phrasing": phrasing, "shuffle": int(inputs.get("shuffle", 0))}


def solve(problem: Problem, digits: int) -> Solution:
    ask = problem.inputs["ask"]
    w = SolutionBuilder(digits)
    right, wrong_state = ("s_prev", "s_now") if ask == "bahdanau" else ("s_now", "s_prev")
    shown = w.choice("state", say.text("answers.state"), [option(right)],
                     [(option(wrong_state), "wrong_state_order"), (option("h_i"), "encoder_state_in_query"),
                      (option("c_t"), "circular_context")], problem.inputs["shuffle"])
    ask_why = say("question.ask")  # the text answer's prompt
    question = [say(f"question.{PHRASINGS[problem.inputs['phrasing']]}", who=say.text(f"who.{ask}")),
                *option_lines(shown), ask_why]
    forecast = say("forecast")
    steps = (
        Step(say.text("steps.bahdanau.title"), (), (eq(Sym("s", "t"), Call("f", Args((
            Sym("s", "t-1"), Sym("y", "t-1"), Sym("c", "t"))))),), say("steps.bahdanau.why"),
             (say("steps.bahdanau.note", f=Sym("f"), y_prev=Sym("y", "t-1")),)),
        Step(say.text("steps.luong.title"), (), (eq(Sym("e", "ti"), Mul((Sym("s", "t", "T"), Sym("W", "a"),
                                                                          Sym("h", "i")), "juxt")),),
             say("steps.luong.why"), (say("steps.luong.note", W_a=Sym("W", "a"), h_i=Sym("h", "i")),)),
        Step(say.text("steps.answer.title"), (key_line(shown),), (), say("steps.answer.why")),
    )
    w.text("explanation", say.text("answers.explanation.label"), say.text("answers.explanation.model"), ask_why)
    w.check("ordering", True, say(f"verify.{ask}", state=option(right)))
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


def option(name: str) -> str:
    """An option's text: "s_prev", "s_now", "h_i" or "c_t"."""
    return say.text(f"options.{name}.text")


KIND = register(Kind(
    **about("3.2"),
    sample=sample, normalise=normalise, solve=solve, variety=2 * len(PHRASINGS) * 24,
))
