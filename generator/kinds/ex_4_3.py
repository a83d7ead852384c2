"""Exercise 4.3 (L4) — why attention improves gradient flow, on a drawn
sentence length, output step and per-step attenuation (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_number, require
from ..maths.exact import ExactReal
from ..mathlines import Add, Mul, Num, Pow, SumOver, Sym, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder, input_node

GAINS = ("0.5", "0.7", "0.8", "0.9")
ASK = prose("Argue why attention improves gradient flow.")  # the text answer's prompt
MODEL = ("In a plain RNN the gradient from output t to an early input must pass through every intermediate "
         "state — a long chain of multiplications that shrinks (vanishing gradient). Attention creates a "
         "direct, weighted shortcut: cₜ connects straight to each hᵢ through one weight αₜᵢ, so during "
         "backprop the gradient reaches hᵢ in one hop and early words stay learnable.")


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
            raise UserError(f"{key}: a whole number from 1 to {hi}")
        out[key] = v
    pos = require(inputs, "position", "4.3")
    if not isinstance(pos, int) or isinstance(pos, bool) or not 1 <= pos <= out["tx"]:
        raise UserError(f"position: a whole number from 1 to tx = {out['tx']}")
    gain = parse_number(require(inputs, "gain", "4.3"), "gain")
    if not 0 < gain < 1:
        raise UserError("gain: a number between 0 and 1 (the factor one recurrent step keeps)")
    return {**out, "position": pos, "gain": number_text(gain)}


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    tx, i, t = inp["tx"], inp["position"], inp["step"]
    g = Fraction(inp["gain"])
    w = SolutionBuilder(digits)
    chain = (tx - i) + t
    kept = ExactReal.of(g ** chain)
    question = [prose(f"An RNN encoder reads Tx = {tx} words; the decoder is at output step t = {t}. In a plain "
                      f"encoder–decoder, the gradient from that output to input word i = {i} crosses "
                      f"{tx} − {i} encoder steps and then {t} decoder steps, and each step keeps a factor "
                      f"{number_text(g)} of it. How many steps, what fraction survives — and how many hops "
                      "does the path through attention take?"), ASK]
    forecast = prose("Guess: does a factor below 1, multiplied dozens of times, leave much of the gradient?")
    steps = (
        Step("count the recurrent steps", (), (eq(Sym("n"), Add((Num(str(tx - i)), Num(str(t)))), Num(str(chain))),),
             prose("Every intermediate state is one more multiplication on the way back.")),
        Step("see how much survives", (), (eq(Pow(input_node(g), Num(str(chain))), w.shown_answer(kept)),), prose(
            "A long chain of factors below 1 shrinks the gradient geometrically: the vanishing gradient.")),
        Step("follow the attention path", (prose(
            "With attention, ", eq(Sym("c", "t"), SumOver("i", Mul((Sym("alpha", "ti"), Sym("h", "i")), "juxt"))),
            " connects the output straight to every h_i through a single weight α_ti: one hop, whatever i and t "
            "are."),), (), prose(
            "Fewer multiplicative steps → less vanishing → early words stay learnable even at late output steps.")),
    )
    w.numeric("chain_steps", "recurrent steps between the output and the input word", ExactReal.of(chain),
              float(chain), whole=True)
    w.numeric("surviving_fraction", "fraction of the gradient kept along the chain", kept,
              float(g) ** chain)
    w.numeric("attention_hops", "hops from the output to the input word through attention", ExactReal.of(1), 1.0,
              whole=True, distractors=[(ExactReal.of(chain), "gradient_through_chain"), (ExactReal.of(0), "argmax_no_gradient")])
    w.text("argument", "why attention improves gradient flow", MODEL, ASK)
    w.check("shortcut", chain > 1, prose(f"1 hop through attention versus {chain} recurrent steps ✓."))
    recall = ((prose("Why does attention help gradients reach early words?"),
               prose("It adds a one-hop weighted shortcut from each output to every input state, instead of "
                     "a long multiplicative chain (Exercise 4.3).")),)
    return Solution(problem, "Gradient flow", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("4.3"),
    sample=sample, normalise=normalise, solve=solve,
))
