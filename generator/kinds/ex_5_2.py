"""Exercise 5.2 (L5) — two scores e1 and e1 + Δ: the limits Δ → +∞, 0, −∞
(in closed form, checked against sympy's `limit` in the tests), and the
weights at a drawn Δ (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, check_spread, number_text, parse_number, require
from ..maths import exact
from ..maths.attention import softmax
from ..maths.exact import ExactReal
from ..maths.rounding import format_fraction
from ..mathlines import Add, Call, Frac, Infinity, Lim, Num, Seq, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import weight_distractors
from ._recipe.figure_specs import sharpening_figure
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.wording import rounded_to, signed
from ._recipe.worked import differs_note

say = Sayer("ex_5_2")


def sample(rng: np.random.Generator, params: dict) -> dict:
    delta = "0"
    while Fraction(delta) == 0:
        delta = draw_decimal(rng, -5.0, 5.0, places=2)
    return {"scores": [draw_decimal(rng, -2.0, 2.0)], "delta": delta}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "delta"}, "5.2")
    scores = scores_input(require(inputs, "scores", "5.2"))[:1]
    delta = parse_number(require(inputs, "delta", "5.2"), "delta")
    check_spread([Fraction(0), delta], "delta")
    return {"scores": scores, "delta": number_text(delta)}


# (α1, α2) as Δ → +∞, 0, −∞ for the scores (e1, e1 + Δ): α2 = e^Δ / (1 + e^Δ)
# whatever e1 is, so 1, 1/2, 0 (the tests check these against sympy's `limit`).
LIMITS = {"plus": (Fraction(0), Fraction(1)), "zero": (Fraction(1, 2), Fraction(1, 2)),
          "minus": (Fraction(1), Fraction(0))}


D = Sym("Delta")


def limits_step() -> Step:
    """The three limits, the same in every variant."""
    return Step(say.text("steps.limits.title"), (), tuple(
        eq(Lim(D, to, Tup((Sym("alpha", "t1"), Sym("alpha", "t2")))),
           Tup((input_node(LIMITS[k][0]), input_node(LIMITS[k][1]))))
        for k, to in (("plus", Infinity()), ("zero", Num("0")), ("minus", Infinity(-1)))), say("steps.limits.why"))


def solve(problem: Problem, digits: int) -> Solution:
    e1 = rationals(problem.inputs["scores"])[0]
    delta = Fraction(problem.inputs["delta"])
    w = SolutionBuilder(digits)
    sm = softmax([e1, e1 + delta])
    # the sentence holds no-break spaces: "As Δ →" ended a printed line, "0?" began the next
    question = [say("question", e_t1=eq(Sym("e", "t1"), input_node(e1)),
                    e_t2=eq(Sym("e", "t2"), Add((input_node(e1), D))), Delta=D, alpha_t1=Sym("alpha", "t1"), alpha_t2=Sym("alpha", "t2"), at=eq(D, input_node(delta)))]
    forecast = say("forecast")
    closed = eq(Sym("alpha", "t2"), Frac(Sym("e", None, "\\Delta"), Add((Num("1"), Sym("e", None, "\\Delta")))))
    evaluated, quotients = evaluate_step(w, sm, delta)
    steps = (
        Step(say.text("steps.closed.title"), (say("steps.closed.body", e_t1_symbol=Sym("e", "t1")),),
             (closed, eq(Sym("alpha", "t1"), Frac(Num("1"), Add((Num("1"), Sym("e", None, "\\Delta")))))),
             say("steps.closed.why")),
        limits_step(),
        evaluated,
    )
    for k in ("plus", "zero", "minus"):
        limit = [ExactReal.of(v) for v in LIMITS[k]]
        w.vector(f"limit_{k}", say.text(f"answers.limit_{k}"), limit,
                 np.array([float(x) for x in limit]),
                 distractors=[([limit[1], limit[0]], "gap_limit_reversed")] if k != "zero" else
                 [([ExactReal.of(0), ExactReal.of(1)], "hard_argmax")])
    w.vector("weights", say.text("answers.weights", delta=number_text(delta)), list(sm.weights), sm.numeric,
             distractors=weight_distractors(sm), method=[quotients])
    w.text("why_scale", say.text("answers.why_scale"), say.text("why_dk"), ())  # not asked: an aside
    verify_sum(w, sm.weights)
    w.check("limits", all(sum(v) == 1 for v in LIMITS.values()), say("verify.limits"))
    figures = [sharpening_figure(
        w, [e1, e1 + delta], [delta], [sm], list(LIMITS["plus"]), list(LIMITS["minus"]), "Δ",
        say("figure.caption", delta=number_text(delta)), log=False)]
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


def evaluate_step(w: SolutionBuilder, sm, delta: Fraction) -> tuple[Step, list[Fraction]]:
    """The weights at Δ as a student works them from the formulas: e^Δ to the
    working places, then 1 + e^Δ (exact: no rounding of its own) and divide;
    with the quotients that working gives."""
    e_delta = w.shown_working(exact.exp(ExactReal.of(delta)))
    one_plus = Add((Num("1"), e_delta))
    den = value_of(e_delta) + 1
    quotients = [1 / den, value_of(e_delta) / den]
    worked = [w.shown_result(q, w.digits) for q in quotients]
    if e_delta.exp10 is None:  # 1 + e^Δ printed as itself
        printed = format_fraction(den, len(e_delta.mant.partition(".")[2]))
        at = [eq(Sym("alpha", "t1"), Frac(Num("1"), one_plus), Frac(Num("1"), printed), worked[0]),
              eq(Sym("alpha", "t2"), Frac(e_delta, printed), worked[1])]
    else:
        at = [eq(Sym("alpha", "t1"), Frac(Num("1"), one_plus), worked[0]),
              eq(Sym("alpha", "t2"), Frac(e_delta, one_plus), worked[1])]
    at.insert(0, eq(Call("exp", input_node(delta)), e_delta))
    note = differs_note(w, [(Sym("alpha", f"t{i + 1}"), m, w.shown_answer(a)) for i, (m, a) in enumerate(zip(worked, sm.weights))],
                          say.text("steps.evaluate.rounded", delta=number_text(delta), rounded=rounded_to([e_delta])))
    return Step(say.text("steps.evaluate.title", delta=signed(delta)), (), (
        Seq(tuple(at)), eq(Tup((Sym("alpha", "t1"), Sym("alpha", "t2"))), Tup(tuple(w.shown_answer(a) for a in sm.weights)))),
        say("steps.evaluate.why", why_dk=say.text("why_dk")), note), quotients


KIND = register(Kind(
    **about("5.2"),
    sample=sample, normalise=normalise, solve=solve,
    graded=("limit_plus", "limit_zero", "limit_minus", "weights"),  # every quantity the question asks, in its order
))
