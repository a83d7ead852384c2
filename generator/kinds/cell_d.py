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
from ..model import Problem, Solution, Step, prose
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


ASK = prose("Compare them with the weights of the original scores.")  # the text answer's prompt
SAME = ("They are the same: adding k to every score multiplies every exponential, and so their sum, by exp(k), "
        "which cancels in every fraction — only the differences between scores matter.")


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
        raise UserError("shift: the shifted scores exceed 10^6 in size")
    return out


def missing_property(inputs: dict) -> str | None:
    if Fraction(inputs["shift"]) == 0:
        return "the shift k is 0, so nothing is shifted; give a non-zero shift"
    if len(set(inputs["scores"])) == 1:
        return "all scores are equal, so every weight is 1/T_x before and after any shift (cell B)"
    return None


FACTOR_OUT = Step("write the shifted softmax and factor out the constant", (),
                  (shift_cancels(Sym("alpha", "i", "'")),),
                  prose("The factor ", Call("exp", Sym("k")), " cancels top and bottom — algebraic proof that only "
                        "score differences matter."))
NO_CHECK = Step("why not check on the shifted scores directly", (prose(
    "The shifted scores are so large (or so negative) that ", Call("exp", Sym("e", None, "'")),
    " overflows a calculator, so a numerical check on them is out of reach; the algebra of step 1 "
    "is the proof, and the original scores give the weights."),), (), prose(
    "This is exactly why libraries subtract the largest score first: the weights do not change, "
    "and exp stays in range."))


def solve(problem: Problem, digits: int) -> Solution:
    base = rationals(problem.inputs["scores"])
    k = Fraction(problem.inputs["shift"])
    shifted = [s + k for s in base]
    w = SolutionBuilder(digits)
    sm0 = softmax(base)
    sm = softmax(shifted)
    question = [prose("The scores ", scores_line(base, "t"), " are all shifted by ",
                      eq(Sym("k"), input_node(k)), ", giving ", scores_line(shifted, "t", prime=True),
                      ". Compute the weights of the shifted scores."), ASK]
    forecast = prose("Will the weights change, shrink, or stay exactly the same? Commit to an answer.")
    steps = [FACTOR_OUT]
    original, worked0, z0, q0 = original_step(w, sm0)
    ratio = sm.Z / sm0.Z if sm.shift == 0 and sm0.shift == 0 else None
    apart = ""  # how far the worked lists of the two score lists print apart
    if sm.shift == 0:
        # the shifted scores are the question's e′: their weights α′ and sum Z′
        num = steps_softmax(w, sm, "t", why_div=prose("Confirms the algebra numerically."), prime=True)
        apart = printed_apart(worked0, printed_weights(w))
        original = compared(w, original, apart, sum(len(s.after) for s in num), ratio, k, z0)
        steps.append(merged_step("check numerically on the shifted scores", num, prose(
            "Confirms the algebra on real numbers: these are the weights of the shifted scores.")))
    else:
        w.method["weights"] = [q0]
        steps.append(NO_CHECK)
    steps.append(original)
    answer_softmax(w, sm)
    w.text("comparison", "the shifted weights against the original ones", SAME, ASK)
    w.vector("weights_original", "weights of the unshifted scores", list(sm0.weights), sm0.numeric, method=[q0],
             distractors=weight_distractors(sm0))
    if ratio is not None:
        w.numeric("cancelled_factor", "exp(k), the factor that cancels", ratio,
                  float(np.exp(float(k))))
    same = all(agree(a, b) for a, b in zip(sm.weights, sm0.weights))
    w.check("shift invariance", same, prose(
        "The shifted weights are identical to the unshifted ones, computed exactly: ",
        Tup(tuple(w.shown_answer(a) for a in sm0.weights)), " ✓. ",
        f"The worked lines differ {apart} only because they were worked from rounded numbers. " if apart else "",
        "This is why libraries subtract the largest score before exponentiating — exp cannot "
        "overflow, and the answer does not change."))
    verify_sum(w, sm.weights)
    figures = (bars_figure(w, sm.weights, shifted_labels(base, shifted), prose(
        "these bars are the weights of the shifted scores — and, to every digit, of the original ones: "
        f"adding {number_text(k)} moved every score (see the labels) but not a single bar."), winner=lead(sm)),)
    recall = ((prose("Adding the same constant to every score does what to the weights?"),
               prose("Nothing — softmax is shift-invariant; ", Call("exp", Sym("k")),
                     " cancels (Cell D).")),)
    return Solution(problem, "Shifted scores", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


def original_step(w: SolutionBuilder, sm0) -> tuple[Step, list, object, list]:
    """The original scores' softmax in one step, worked from printed numbers;
    with its worked weights, printed sum and exact quotients."""
    exps0, z0, q0 = worked_softmax(w, sm0)
    worked0 = [w.shown_result(q, w.digits) for q in q0]
    notes0 = differs_note(w, [(Sym("alpha", f"t{i + 1}"), m, w.shown_answer(a))
                              for i, (m, a) in enumerate(zip(worked0, sm0.weights))],
                          rounding_cause(exps0, z0))
    step = Step("solve the original scores for comparison", (), (
        Seq(tuple(eq(Call("exp", input_node(s - sm0.shift)), e) for s, e in zip(sm0.scores, exps0))),
        eq(Sym("Z"), Add(tuple(exps0)), z0) if len(exps0) > 1 else eq(Sym("Z"), z0),
        Seq(tuple(eq(Sym("alpha", f"t{i + 1}"), Frac(e, z0), m) for i, (e, m) in enumerate(zip(exps0, worked0)))),
    ), prose("The two sets of weights must agree to every digit if shift invariance holds."), notes0)
    return step, worked0, z0, q0


def compared(w: SolutionBuilder, original: Step, apart: str, notes: int, ratio, k: Fraction, z0) -> Step:
    """The original step set beside the worked shifted one: where the two
    printed lists differ, its reason says so; where no score was subtracted,
    a sentence shows the factor exp(k) that multiplied every exponential and
    the sum."""
    notes += len(original.after)
    if apart:  # as printed, the lists may differ where rounding moved a last place
        where = "the notes say where" if notes > 1 else "the note says where"
        original = dataclasses.replace(original, why=prose(
            "If shift invariance holds, the two sets of weights are exactly equal. Worked from rounded "
            f"numbers they differ {apart} here — {where}; the exact weights agree to every digit."))
    if ratio is None:
        return original
    z1 = w.method["denominator"][0]
    q = w.shown_result(z1 / value_of(z0))
    shown = exact.shown(ratio, w.places)  # at the quotient's places, so the two compare
    gap = printed_apart([q], [shown])
    tail = () if not gap else (
        f" (it differs {gap} from ", Call("exp", input_node(k)), " only because both sums were rounded)")
    return dataclasses.replace(original, after=original.after + (prose(
        "Every exponential was multiplied by ", eq(Call("exp", input_node(k)), shown),
        ", and so was the denominator: ",
        eq(Frac(Sym("Z", None, "'"), Sym("Z")), Frac(w.shown_working_result(z1), z0), q),
        *tail, " — the factor cancels in every fraction."),))


KIND = register(Kind(
    **about("D"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
))
