"""Exercise 3.2 (L3) — why Bahdanau scores with s_{t-1} and Luong with s_t:
the ordering argument, as a multiple-choice question and a model answer (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys
from ..mathlines import Args, Call, Mul, Sym, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ..exam.options import key_line, option_lines
from ._base import Kind, SolutionBuilder

S_PREV, S_NOW, H_I, C_T = "the previous decoder state s_{t-1}", "the current decoder state s_t", \
    "the encoder state h_i itself", "the context vector c_t"
PHRASINGS = (
    "Which decoder-side state does {who} attention use to score the encoder states at step t?",
    "When {who} attention computes the scores e_ti, which state sits on the decoder side?",
    "In {who} attention, the score e_ti compares h_i with which state?",
)
WHO = {"bahdanau": "Bahdanau (additive)", "luong": "Luong (multiplicative)"}

ASK = prose("Then explain the ordering, not just the names.")  # the text answer's prompt
MODEL = (
    "It comes down to when the context vector is needed. In Bahdanau attention the context cₜ is an "
    "input to the RNN update sₜ = f(sₜ₋₁, yₜ₋₁, cₜ); building cₜ needs the scores, but sₜ does not exist "
    "yet — it is what is about to be computed — so the scores must use the already-available sₜ₋₁. "
    "In Luong attention the RNN update runs first and produces sₜ without the context; attention is "
    "applied afterwards to refine the output, so the score eₜᵢ = sₜᵀ Wₐ hᵢ can use sₜ. Attention "
    "feeds the RNN in Bahdanau and follows it in Luong."
)


def sample(rng: np.random.Generator, params: dict) -> dict:
    return {"ask": "bahdanau" if rng.integers(2) else "luong", "phrasing": int(rng.integers(len(PHRASINGS))),
            "shuffle": int(rng.integers(2**31))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"ask", "phrasing", "shuffle"}, "3.2")
    ask = inputs.get("ask", "bahdanau")
    phrasing = inputs.get("phrasing", 0)
    if ask not in WHO:
        raise UserError("ask: 'bahdanau' or 'luong'")
    if phrasing not in range(len(PHRASINGS)):
        raise UserError(f"phrasing: 0…{len(PHRASINGS) - 1}")
    return {"ask": ask, "phrasing": phrasing, "shuffle": int(inputs.get("shuffle", 0))}


def solve(problem: Problem, digits: int) -> Solution:
    ask = problem.inputs["ask"]
    w = SolutionBuilder(digits)
    right, wrong_state = (S_PREV, S_NOW) if ask == "bahdanau" else (S_NOW, S_PREV)
    shown = w.choice("state", "the decoder-side state in the score", [right],
                     [(wrong_state, "wrong_state_order"), (H_I, "encoder_state_in_query"),
                      (C_T, "circular_context")], problem.inputs["shuffle"])
    question = [prose(PHRASINGS[problem.inputs["phrasing"]].format(who=WHO[ask])), *option_lines(shown), ASK]
    forecast = prose("Ask yourself: at the moment the scores are needed, which decoder states already exist?")
    steps = (
        Step("write Bahdanau's update", (), (eq(Sym("s", "t"), Call("f", Args((Sym("s", "t-1"), Sym("y", "t-1"),
                                                                               Sym("c", "t"))))),), prose(
            "The context c_t is an input to the update that produces s_t. To build c_t we need the scores, "
            "and s_t does not exist yet — so Bahdanau must align from s_{t-1}."), (prose(
            "Here ", Sym("f"), " is the decoder's recurrent update (its RNN cell) and ", Sym("y", "t-1"),
            " the previously emitted output token: the word the decoder produced at the last step."),)),
        Step("write Luong's score", (), (eq(Sym("e", "ti"), Mul((Sym("s", "t", "T"), Sym("W", "a"), Sym("h", "i")),
                                                                "juxt")),), prose(
            "The RNN runs first and produces s_t without any context; attention then refines the output, "
            "so the score can legally use s_t."), (prose(
            "Here ", Sym("W", "a"), " is a learned weight matrix and the superscript T the transpose: the "
            "score multiplies the decoder state, through ", Sym("W", "a"), ", with the encoder state ",
            Sym("h", "i"), "."),)),
        Step("answer", (key_line(shown),), (), prose(
            "The available state depends on whether attention feeds the RNN (Bahdanau) or follows it (Luong).")),
    )
    w.text("explanation", "why the states differ", MODEL, ASK)
    w.check("ordering", True, prose(f"{WHO[ask].split()[0]} uses {right} ✓ — the state that exists when "
                                    "the scores are computed."))
    recall = ((prose("Bahdanau (s_{t-1}) versus Luong (s_t)?"),
               prose("Context feeds the RNN in Bahdanau (the state is not yet built); context follows the RNN "
                     "in Luong (the state is already built) (Exercise 3.2).")),)
    return Solution(problem, "Bahdanau versus Luong", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("3.2"),
    sample=sample, normalise=normalise, solve=solve, variety=2 * len(PHRASINGS) * 24,
))
