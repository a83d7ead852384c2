"""Exercise 3.1 (L3) — entropy of a uniform and of a spiked distribution over a drawn Tx (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_scores, require
from ..maths import exact, numeric
from ..maths.attention import entropy
from ..maths.exact import ExactReal, agree
from ..mathlines import Call, Chain, Mul, Num, Paren, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, input_node
from ._recipe.figure_specs import entropy_figure
from ._recipe.parsing import rationals
from ._recipe.wording import positions
from ._recipe.worked import step_entropy

say = Sayer("ex_3_1")


def sample(rng: np.random.Generator, params: dict) -> dict:
    """A spike of 0.80–0.97 on one of 4–8 positions; the rest split in hundredths,
    evenly (as in the seed) or unevenly."""
    tx = int(rng.integers(4, 9))
    spike = int(rng.integers(80, min(98, 101 - tx)))  # every other position keeps at least 0.01
    rest = 100 - spike
    if rest % (tx - 1) == 0 and rng.random() < 0.1:
        parts = [rest // (tx - 1)] * (tx - 1)
    else:
        cuts = sorted(rng.choice(np.arange(1, rest), size=tx - 2, replace=False)) if tx > 2 else []
        parts = [int(v) for v in np.diff([0, *cuts, rest])]
    weights = [Fraction(v, 100) for v in parts]
    weights.insert(int(rng.integers(tx)), Fraction(spike, 100))
    return {"weights": [number_text(a) for a in weights]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"weights"}, "3.1")
    weights = parse_scores(require(inputs, "weights", "3.1"), "weights")
    if sum(weights) != 1 or any(a < 0 for a in weights):
        raise UserError(say.text("refused.not_distribution"))
    if len(weights) < 2:
        raise UserError(say.text("refused.too_few"))
    top = max(weights)
    if weights.count(top) > 1:  # uniform ones too: the page's spike is one box
        raise UserError(say.text("refused.no_spike_uniform" if len(set(weights)) == 1 else "refused.no_spike",
                                  positions=positions([i for i, a in enumerate(weights) if a == top])))
    return {"weights": [number_text(a) for a in weights]}


def solve(problem: Problem, digits: int) -> Solution:
    spike = rationals(problem.inputs["weights"])
    tx = len(spike)
    w = SolutionBuilder(digits)
    u = Fraction(1, tx)
    lnT = exact.log(ExactReal.of(tx))
    H_u = entropy([ExactReal.of(u)] * tx)
    weights = [ExactReal.of(a) for a in spike]
    ask = say("question.ask")  # the text answer's prompt
    question = [say("question.compute", tx=tx, alpha_eq=eq(Sym("alpha", "ti"), input_node(u)), H=Sym("H"),
                    spike=Tup(tuple(input_node(a) for a in spike))), ask]
    forecast = say("forecast")
    uniform = Step(say.text("steps.uniform.title"), (), (
        eq(Sym("H"), Mul((Num(f"-{tx}"), Paren(Mul((input_node(u), Call("ln", input_node(u))), "juxt"))), "times"),
           w.shown_answer(H_u)),
        eq(Call("ln", Num(str(tx))), w.shown_answer(lnT))), say("steps.uniform.why", tx=tx))
    top = max(spike)  # what the spike holds, said as its size bears out
    held = "almost_all" if top >= Fraction(9, 10) else "most" if top > Fraction(3, 5) else "largest_share"
    spiked, H = step_entropy(w, weights, None, "t", say(f"steps.spiked.why.{held}"))
    printed = {"high": w.shown_answer(H_u).text, "low": w.shown_answer(H).text}
    reading = say.text("steps.interpret.reading", **printed)  # the text answer's model answer too
    interpret = Step(say.text("steps.interpret.title"), (say("steps.interpret.reading", **printed),), (),
                     say("steps.interpret.why"))
    steps = (uniform, Step(say.text("steps.spiked.title"), spiked.body, spiked.math, spiked.why,
                           spiked.after), interpret)
    ln2 = exact.log(ExactReal.of(2))
    w.numeric("entropy_uniform", say.text("answers.entropy_uniform"), H_u, float(np.log(tx)),
              distractors=[(H_u / ln2, "log_base_2"), (-H_u, "dropped_minus_sign")])
    w.numeric("entropy", say.text("answers.entropy"), H, numeric.entropy([float(a) for a in spike]),
              distractors=[(H / ln2, "log_base_2"), (-H, "dropped_minus_sign"), (H_u, "entropy_reversed")])
    w.text("interpretation", say.text("answers.interpretation"), reading, ask)
    w.check("uniform = ln Tx", agree(H_u, lnT), say("verify.uniform", ln_eq=eq(Call("ln", Num(str(tx))),
                                                                                 w.shown_answer(lnT))))
    if w.shown_answer(H).text == w.shown_answer(H_u).text:  # "H = 1.0986 < 1.0986" would be false as printed
        raise UserError(say.text("refused.too_close", digits=w.digits, shown=w.shown_answer(H).text))
    ok = exact.sign(H) >= 0 and exact.compare(H_u, H) > 0
    w.check("spike below uniform", ok, say("verify.spike_lower", chain=Chain(Num("0"), (
        ("≤", Sym("H")), ("=", w.shown_answer(H)), ("<", w.shown_answer(H_u))))))
    ratio = float(H) / float(H_u)  # "a small fraction" only where it is one
    figures = [entropy_figure(w, [say.text("figure.uniform"), say.text("figure.spiked")], [H_u, H], tx, say(
        "figure.caption_small" if ratio < 1 / 3 else "figure.caption", tx=tx, H=w.shown_answer(H).text,
        pct=f"{ratio * 100:.0f}"), highlight=1)]
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("3.1"),
    sample=sample, normalise=normalise, solve=solve,
    graded=("entropy_uniform", "entropy"),  # every quantity the question asks, in its order
))
