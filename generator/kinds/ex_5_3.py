"""Exercise 5.3 (L5) — equal scores, then one jumps: weights and entropy
before and after, and the drop (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, check_spread, number_text, parse_number, require
from ..maths import exact, numeric
from ..maths.attention import float_gaps, softmax
from ..maths.exact import ExactReal
from ..mathlines import Add, Call, Chain, Neg, Num, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import weight_distractors
from ._recipe.figure_specs import bars_figure, entropy_figure, position_labels
from ._recipe.verify import verify_sum
from ._recipe.wording import pct
from ._recipe.worked import step_entropy, steps_softmax

say = Sayer("ex_5_3")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 7))
    return {"tx": tx, "base": draw_decimal(rng, 0.0, 3.0), "jump": draw_decimal(rng, 1.0, 5.0),
            "position": int(rng.integers(1, tx + 1))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"tx", "base", "jump", "position"}, "5.3")
    tx = require(inputs, "tx", "5.3")
    if not isinstance(tx, int) or isinstance(tx, bool) or not 2 <= tx <= 12:
        raise UserError(say.text("refused.tx"))
    pos = inputs.get("position", tx)
    if not isinstance(pos, int) or isinstance(pos, bool) or not 1 <= pos <= tx:
        raise UserError(say.text("refused.position", tx=tx))
    base = parse_number(require(inputs, "base", "5.3"), "base")
    jump = parse_number(require(inputs, "jump", "5.3"), "jump")
    if jump <= 0:
        raise UserError(say.text("refused.jump"))
    check_spread([base, base + jump], "base + jump")
    return {"tx": tx, "base": number_text(base), "jump": number_text(jump), "position": pos}


def jumped_share(sm, k: int) -> tuple:
    """What the jumped score's weight is, in words: "most" only where it is a
    clear majority (50.3 % is "a little over half")."""
    a = sm.weights[k]
    if exact.compare(a, ExactReal.of(Fraction(3, 5))) > 0:
        return say("why_div.most", pct=pct(a))
    key = "over_half" if exact.compare(a, ExactReal.of(Fraction(1, 2))) > 0 else "largest"
    return say(f"why_div.{key}", pct=pct(a), others=len(sm.scores) - 1, rest=pct(1 - a))


def answer(w: SolutionBuilder, sm0, sm, H0, H, gaps: list[float]) -> None:
    """Weights and entropy before and after the jump, Z after it, and the drop."""
    tx = len(sm.scores)
    drop = H0 - H
    ln2 = exact.log(ExactReal.of(2))
    w.vector("weights_uniform", say.text("answers.weights_uniform"), list(sm0.weights), sm0.numeric)
    w.numeric("entropy_uniform", say.text("answers.entropy_uniform"), H0, float(np.log(tx)),
              distractors=[(H0 / ln2, "log_base_2")])
    w.numeric("denominator", say.text("answers.denominator_shifted", shift=number_text(sm.shift)) if sm.shift else
              say.text("answers.denominator"), sm.Z, float(np.exp([float(x - sm.shift) for x in sm.scores]).sum()))
    w.vector("weights", say.text("answers.weights"), list(sm.weights), sm.numeric, distractors=weight_distractors(sm))
    w.numeric("entropy", say.text("answers.entropy"), H, numeric.entropy_of_scores(gaps),
              distractors=[(H / ln2, "log_base_2"), (-H, "dropped_minus_sign"), (H0, "entropy_reversed")])
    # the drop as a student takes it: ln Tx as printed, minus H as printed or as worked
    h0, h = value_of(w.shown_answer(H0)), value_of(w.shown_answer(H))
    w.numeric("entropy_drop", say.text("answers.entropy_drop"), drop,
              float(np.log(tx)) - numeric.entropy_of_scores(gaps),
              method=[h0 - m for m in w.method.get("entropy", [])] + [h0 - h], cancelled=float(H0))


def check_dropped(w: SolutionBuilder, H0, H) -> None:
    """The entropy fell, by how much as printed and how far toward 0."""
    drop = H0 - H
    h0, h = value_of(w.shown_answer(H0)), value_of(w.shown_answer(H))
    fell = w.shown_result(h0 - h, w.digits)
    share = Fraction(float(drop) / float(H0))  # how far toward 0 (the Forecast's question), from the exact drop
    # "most" only of a clear majority: 54 % is about half
    how = ("most" if share > Fraction(3, 5) else "about_half" if share > Fraction(2, 5)
           else "a_little" if share < Fraction(1, 4) else "part")
    # the answer is the exact drop rounded, which can differ in the last place
    key = w.shown_answer(drop)
    aside = () if key.text == fell.text else say("verify.aside", answer=key)
    w.check("entropy dropped", exact.compare(H0, H) > 0, say(
        f"verify.dropped.{how}", chain=Chain(Sym("H"), (("=", w.shown_answer(H)), ("<", w.shown_answer(H0)))),
        fell=eq(Add((w.shown_answer(H0), Neg(w.shown_answer(H)))), fell), aside=aside,
        share=round(float(share) * 100)))


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    tx, k = inp["tx"], inp["position"] - 1
    base, jump = Fraction(inp["base"]), Fraction(inp["jump"])
    flat = [base] * tx
    spiked = list(flat)
    spiked[k] = base + jump
    w = SolutionBuilder(digits)
    sm0, sm = softmax(flat), softmax(spiked)
    H0 = exact.log(ExactReal.of(tx))
    question = [say("question", flat=Tup(tuple(input_node(s) for s in flat)), tx=tx,
                    spiked=Tup(tuple(input_node(s) for s in spiked)))]
    forecast = say("forecast")
    steps = [Step(say.text("steps.uniform.title"), (), (eq(Sym("alpha", "i"), w.shown_answer(sm0.weights[0])),
                                                         eq(Sym("H"), Call("ln", Num(str(tx))), w.shown_answer(H0))),
                  say("steps.uniform.why"))]
    steps += steps_softmax(w, sm, "t", why_div=jumped_share(sm, k))
    step, H = step_entropy(w, sm.weights, sm.neg_log_weights, "t", say("steps.entropy.why"))
    steps.append(step)
    if w.shown_answer(H0).text == w.shown_answer(H).text:  # "H = 1.3863 < 1.3863" would be false as printed
        raise UserError(say.text("refused.jump_too_small", jump=number_text(jump), drop=w.shown_answer(H0 - H).text,
                                  entropy=w.shown_answer(H).text, digits=digits))
    answer(w, sm0, sm, H0, H, float_gaps(spiked))
    verify_sum(w, sm.weights)
    check_dropped(w, H0, H)
    figures = [bars_figure(w, sm.weights, position_labels(tx), say(
        "figure.bars", position=k + 1, after=w.shown_answer(sm.weights[k]).text,
        before=w.shown_answer(sm0.weights[0]).text), winner=k),
        entropy_figure(w, [say.text("figure.before"), say.text("figure.after")], [H0, H], tx, say(
            "figure.entropy", tx=tx, entropy=w.shown_answer(H).text), highlight=1)]
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("5.3"),
    sample=sample, normalise=normalise, solve=solve,
    graded=("weights_uniform", "entropy_uniform", "weights", "entropy"),  # every quantity the question asks, in its order
))
