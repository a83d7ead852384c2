"""Cell D — shift invariance: add k to every score (seeds/000, Example 4)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_number, require
from ..maths import exact
from ..maths.attention import lead, softmax
from ..maths.exact import agree
from ..mathlines import Add, Call, Frac, Seq, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax, weight_distractors
from ._recipe.figure_specs import bars_figure, shifted_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.wording import printed_apart, rounding_cause
from ._recipe.worked import (differs_note, merged_step, printed_weights, scores_line, shift_cancels,
                             steps_softmax, worked_softmax)

ALLOWED = {"scores", "shift"}
say = Sayer("cell_d")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    scores = [draw_decimal(rng, -2.0, 3.0) for _ in range(tx)]
    k = "0"
    while Fraction(k) == 0:
        k = draw_decimal(rng, -5.0, 5.0, places=0 if rng.random() < 0.6 else 1)
    return {"scores": scores, "shift": k}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "D")
    out = {"scores": scores_input(require(inputs, "scores", "D"))}
    out["shift"] = number_text(parse_number(require(inputs, "shift", "D"), "shift"))
    if max(abs(s + Fraction(out["shift"])) for s in rationals(out["scores"])) > 10**6:
        raise UserError(say.text("refused.too_large"))
    return out


def missing_property(inputs: dict) -> str | None:
    if Fraction(inputs["shift"]) == 0:
        return say.text("refused.no_shift")
    if len(set(inputs["scores"])) == 1:
        return say.text("refused.all_equal")
    return None


def factor_out() -> Step:
    """Step 1: exp(k) factored out of the shifted softmax cancels."""
    return Step(say.text("steps.factor_out.title"), (), (shift_cancels(Sym("alpha", "i", "'")),),
                say("steps.factor_out.why", exp_k=Call("exp", Sym("k"))))


def no_check() -> Step:
    """Where the shifted scores are too large to exponentiate: why they are not worked."""
    return Step(say.text("steps.no_check.title"), (say("steps.no_check.body", exp_e=Call("exp", Sym("e", None, "'"))),),
                (), say("steps.no_check.why"))


def solve(problem: Problem, digits: int) -> Solution:
    base = rationals(problem.inputs["scores"])
    k = Fraction(problem.inputs["shift"])
    shifted = [s + k for s in base]
    w = SolutionBuilder(digits)
    sm0 = softmax(base)
    sm = softmax(shifted)
    ask = say("question.ask")  # the text answer's prompt
    question = [say("question.scores", scores=scores_line(base, "t"), k_eq=eq(Sym("k"), input_node(k)),
                    shifted=scores_line(shifted, "t", prime=True)), ask]
    forecast = say("forecast")
    steps = [factor_out()]
    original, worked0, z0, q0 = original_step(w, sm0)
    ratio = sm.Z / sm0.Z if sm.shift == 0 and sm0.shift == 0 else None
    apart = ""  # how far the worked lists of the two score lists print apart
    if sm.shift == 0:
        # the shifted scores are the question's e′: their weights α′ and sum Z′
        num = steps_softmax(w, sm, "t", why_div=say("steps.shifted.divide_why"), prime=True)
        apart = printed_apart(worked0, printed_weights(w))
        original = compared(w, original, apart, sum(len(s.after) for s in num), ratio, k, z0)
        steps.append(merged_step(say.text("steps.shifted.title"), num, say("steps.shifted.why")))
    else:
        w.method["weights"] = [q0]
        steps.append(no_check())
    steps.append(original)
    answer_softmax(w, sm)
    w.text("comparison", say.text("answers.comparison.label"), say.text("answers.comparison.model"), ask)
    w.vector("weights_original", say.text("answers.weights_original"), list(sm0.weights), sm0.numeric, method=[q0],
             distractors=weight_distractors(sm0))
    if ratio is not None:
        w.numeric("cancelled_factor", say.text("answers.cancelled_factor"), ratio,
                  float(np.exp(float(k))))
    same = all(agree(a, b) for a, b in zip(sm.weights, sm0.weights))
    weights = Tup(tuple(w.shown_answer(a) for a in sm0.weights))
    w.check("shift invariance", same, say("verify.same_apart", apart=apart, weights=weights) if apart else
            say("verify.same", weights=weights))
    verify_sum(w, sm.weights)
    figures = (bars_figure(w, sm.weights, shifted_labels(base, shifted), say("figure.bars", k=number_text(k)),
                           winner=lead(sm)),)
    recall = ((say("recall.front"), say("recall.back", exp_k=Call("exp", Sym("k")))),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


def original_step(w: SolutionBuilder, sm0) -> tuple[Step, list, object, list]:
    """The original scores' softmax in one step, worked from printed numbers;
    with its worked weights, printed sum and exact quotients."""
    exps0, z0, q0 = worked_softmax(w, sm0)
    worked0 = [w.shown_result(q, w.digits) for q in q0]
    notes0 = differs_note(w, [(Sym("alpha", f"t{i + 1}"), m, w.shown_answer(a))
                              for i, (m, a) in enumerate(zip(worked0, sm0.weights))],
                          rounding_cause(exps0, z0))
    step = Step(say.text("steps.original.title"), (), (
        Seq(tuple(eq(Call("exp", input_node(s - sm0.shift)), e) for s, e in zip(sm0.scores, exps0))),
        eq(Sym("Z"), Add(tuple(exps0)), z0) if len(exps0) > 1 else eq(Sym("Z"), z0),
        Seq(tuple(eq(Sym("alpha", f"t{i + 1}"), Frac(e, z0), m) for i, (e, m) in enumerate(zip(exps0, worked0)))),
    ), say("steps.original.why"), notes0)
    return step, worked0, z0, q0


def compared(w: SolutionBuilder, original: Step, apart: str, notes: int, ratio, k: Fraction, z0) -> Step:
    """The original step set beside the worked shifted one: where the two
    printed lists differ, its reason says so; where no score was subtracted,
    a sentence shows the factor exp(k) that multiplied every exponential and
    the sum."""
    notes += len(original.after)
    if apart:  # as printed, the lists may differ where rounding moved a last place
        original = dataclasses.replace(original, why=say(
            "steps.original.why_apart_notes" if notes > 1 else "steps.original.why_apart_note", apart=apart))
    if ratio is None:
        return original
    z1 = w.method["denominator"][0]
    q = w.shown_result(z1 / value_of(z0))
    shown = exact.shown(ratio, w.places)  # at the quotient's places, so the two compare
    gap = printed_apart([q], [shown])
    aside = say("steps.original.factor_aside", gap=gap, exp=Call("exp", input_node(k))) if gap else ""
    return dataclasses.replace(original, after=original.after + (say(
        "steps.original.factor", exp_k=eq(Call("exp", input_node(k)), shown), aside=aside,
        ratio=eq(Frac(Sym("Z", None, "'"), Sym("Z")), Frac(w.shown_working_result(z1), z0), q)),))


KIND = register(Kind(
    **about("D"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
))
