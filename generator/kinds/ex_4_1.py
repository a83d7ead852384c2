"""Exercise 4.1 (L4) — how many alignment scores for drawn Tx and Ty, and the
trade-off against the fixed-vector bottleneck (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..maths.exact import ExactReal
from ..mathlines import Mul, Num, Sym, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder

MAX_LEN = 10**4
ASK = prose("Then explain in one sentence why this is the cost the fixed-vector bottleneck was trading away.")
TRADE_OFF = ("Vanilla seq2seq computes essentially no alignment scores by forcing all information through "
             "one vector (cheap, lossy); attention pays O(Tx·Ty) score computations to avoid that loss — "
             "spending computation to buy back information.")


def sample(rng: np.random.Generator, params: dict) -> dict:
    while True:
        tx, ty = (int(v) for v in rng.integers(10, 401, size=2))
        if tx != ty:
            return {"tx": tx, "ty": ty}


def _length(inputs: dict, key: str) -> int:
    v = require(inputs, key, "4.1")
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_LEN:
        raise UserError(f"{key}: a whole number from 1 to {MAX_LEN}")
    return v


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"tx", "ty"}, "4.1")
    return {"tx": _length(inputs, "tx"), "ty": _length(inputs, "ty")}


def solve(problem: Problem, digits: int) -> Solution:
    tx, ty = problem.inputs["tx"], problem.inputs["ty"]
    w = SolutionBuilder(digits)
    count = tx * ty
    # the symbols given as nodes: the words around them are the same in every variant
    question = [prose("A decoder emits ", Sym("T", "y"), f" = {ty} words; the input has ", Sym("T", "x"),
                      f" = {tx} words. How many alignment scores ", Sym("e", "ti"),
                      " are computed over the whole translation?"), ASK]
    forecast = prose("Is the count closer to Tx + Ty or to Tx × Ty?")
    steps = (
        Step("count the pairs", (), (eq(Mul((Sym("T", "x"), Sym("T", "y")), "times"),
                                        Mul((Num(str(tx)), Num(str(ty))), "times"), Num(str(count))),), prose(
            "There is one score per (decoder step, encoder position) pair: every output word looks at "
            "every input word.")),
        Step("name the trade-off", (prose(TRADE_OFF),), (), prose(
            "This is the seed of the quadratic cost that self-attention later scales up.")),
    )
    w.numeric("count", "number of alignment scores", ExactReal.of(count), float(tx * ty), whole=True, distractors=[
        (ExactReal.of(tx + ty), "added_lengths"), (ExactReal.of(tx), "one_score_per_input"),
        (ExactReal.of(tx * tx), "squared_input"), (ExactReal.of(ty), "one_score_per_output")])
    w.text("trade_off", "why this is the bottleneck's trade-off", TRADE_OFF, ASK)
    w.check("count", count == tx * ty, prose(f"{ty} decoder steps × {tx} scores each = {count} ✓."))
    recall = ((prose("How many scores does attention compute for Tx inputs and Ty outputs?"),
               prose("Tx × Ty — one per (output, input) pair (Exercise 4.1).")),)
    return Solution(problem, "Counting alignment scores", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("4.1"),
    sample=sample, normalise=normalise, solve=solve,
))
