"""Cell D — shift invariance: add k to every score (seeds/000, Example 4)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, parse_number, require
from ..maths import exact as X
from ..mathlines import Add, Call, Frac, Mul, Sym, SumOver, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, Work, draw_decimal
from . import _recipe as R

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
    out = {"scores": R.scores_input(require(inputs, "scores", "D"))}
    out["shift"] = R.number_text(parse_number(require(inputs, "shift", "D"), "shift"))
    if max(abs(s + Fraction(out["shift"])) for s in R.fr(out["scores"])) > 10**6:
        raise UserError("shift: the shifted scores exceed 10^6 in size")
    return out


def prop(inputs: dict) -> str | None:
    if Fraction(inputs["shift"]) == 0:
        return "the shift k is 0, so nothing is shifted; give a non-zero shift"
    if len(set(inputs["scores"])) == 1:
        return "all scores are equal, so every weight is 1/T_x before and after any shift (cell B)"
    return None


def solve(problem: Problem, digits: int) -> Solution:
    base = R.fr(problem.inputs["scores"])
    k = Fraction(problem.inputs["shift"])
    shifted = [s + k for s in base]
    w = Work(digits)
    sm0 = R.softmax(base)
    sm = R.softmax(shifted)
    question = [prose("The scores ", R.scores_line(base, "t"), " are all shifted by ",
                      eq(Sym("k"), R.input_node(k)), ", giving ", R.scores_line(shifted, "t", prime=True),
                      ". Compute the weights of the shifted scores."), ASK]
    forecast = prose("Will the weights change, shrink, or stay exactly the same? Commit to an answer.")
    ei = lambda i: Sym("e", i)
    algebra = eq(
        Sym("alpha", "i", "'"),
        Frac(Call("exp", Add((ei("i"), Sym("k")))), SumOver("j", Call("exp", Add((ei("j"), Sym("k")))))),
        Frac(Mul((Call("exp", Sym("k")), Call("exp", ei("i"))), "juxt"),
             Mul((Call("exp", Sym("k")), SumOver("j", Call("exp", ei("j")))), "juxt")),
        Frac(Call("exp", ei("i")), SumOver("j", Call("exp", ei("j")))),
    )
    steps = [Step("write the shifted softmax and factor out the constant", (), (algebra,), prose(
        "The factor ", Call("exp", Sym("k")), " cancels top and bottom — algebraic proof that only "
        "score differences matter."))]
    exps0, z0, q0 = R.worked_softmax(w, sm0)
    worked0 = [w.q(q, w.digits) for q in q0]
    w0 = [w.n(a) for a in sm0.weights]
    apart = ""  # how far the worked lists of the two score lists print apart
    notes0 = R.differs_note(w, [(Sym("alpha", f"t{i + 1}"), m, k) for i, (m, k) in enumerate(zip(worked0, w0))],
                            R.rounding_cause(exps0, z0))
    original = Step("solve the original scores for comparison", (), (
        R.Seq(tuple(eq(Call("exp", R.input_node(s - sm0.shift)), e) for s, e in zip(sm0.scores, exps0))),
        eq(Sym("Z"), Add(tuple(exps0)), z0) if len(exps0) > 1 else eq(Sym("Z"), z0),
        R.Seq(tuple(eq(Sym("alpha", f"t{i + 1}"), Frac(e, z0), m) for i, (e, m) in enumerate(zip(exps0, worked0)))),
    ), prose("The two sets of weights must agree to every digit if shift invariance holds."), notes0)
    if sm.shift == 0:
        # the shifted scores are the question's e′: their weights α′ and sum Z′
        num = R.steps_softmax(w, sm, "t", why_div=prose("Confirms the algebra numerically."), prime=True)
        apart = R.printed_apart(worked0, R.printed_weights(w))
        if apart:  # as printed, the lists may differ where rounding moved a last place
            notes = len(notes0) + sum(len(s.after) for s in num)
            where = "the notes say where" if notes > 1 else "the note says where"
            original = Step(original.title, original.body, original.math, prose(
                "If shift invariance holds, the two sets of weights are exactly equal. Worked from rounded "
                f"numbers they differ {apart} here — {where}; the exact weights agree to every digit."),
                original.after)
        steps.append(Step("check numerically on the shifted scores",
                          tuple(b for s in num for b in s.body),
                          tuple(m for s in num for m in s.math), prose(
                              "Confirms the algebra on real numbers: these are the weights of the shifted scores."),
                          tuple(a for s in num for a in s.after)))
        z1 = w.method["denominator"][0]
        ratio = sm.Z / sm0.Z if sm0.shift == 0 else None
        after = ()
        if ratio is not None:
            q = w.q(z1 / value_of(z0))
            shown = X.shown(ratio, w.places)  # at the quotient's places, so the two compare
            gap = R.printed_apart([q], [shown])
            tail = () if not gap else (
                f" (it differs {gap} from ", Call("exp", R.input_node(k)), " only because both sums were rounded)")
            after = (prose("Every exponential was multiplied by ", eq(Call("exp", R.input_node(k)), shown),
                           ", and so was the denominator: ",
                           eq(Frac(Sym("Z", None, "'"), Sym("Z")), Frac(w.qs(z1), z0), q),
                           *tail, " — the factor cancels in every fraction."),)
        original = Step(original.title, original.body, original.math, original.why, original.after + after)
    else:
        ratio = None
        w.method["weights"] = [q0]
        steps.append(Step("why not check on the shifted scores directly", (prose(
            "The shifted scores are so large (or so negative) that ", Call("exp", Sym("e", None, "'")),
            " overflows a calculator, so a numerical check on them is out of reach; the algebra of step 1 "
            "is the proof, and the original scores give the weights."),), (), prose(
            "This is exactly why libraries subtract the largest score first: the weights do not change, "
            "and exp stays in range.")))
    steps.append(original)
    R.answer_softmax(w, sm)
    w.text("comparison", "the shifted weights against the original ones", SAME, ASK)
    w.vector("weights_original", "weights of the unshifted scores", list(sm0.weights), sm0.numeric, method=[q0],
             distractors=R.weight_distractors(sm0))
    if ratio is not None:
        w.numeric("cancelled_factor", "exp(k), the factor that cancels", ratio,
                  float(np.exp(float(k))))
    same = all(R.agree(a, b) for a, b in zip(sm.weights, sm0.weights))
    w.check("shift invariance", same, prose(
        "The shifted weights are identical to the unshifted ones, computed exactly: ", R.Tup(tuple(w0)), " ✓. ",
        f"The worked lines differ {apart} only because they were worked from rounded numbers. " if apart else "",
        "This is why libraries subtract the largest score before exponentiating — exp cannot "
        "overflow, and the answer does not change."))
    R.verify_sum(w, sm.weights)
    labels = [f"{l}: {R.figure_number(a)}\u2009→\u2009{R.figure_number(b)}"
              for l, a, b in zip(R.position_labels(len(base)), base, shifted)]
    figures = (R.bars_figure(w, sm.weights, labels, prose(
        "these bars are the weights of the shifted scores — and, to every digit, of the original ones: "
        f"adding {R.number_text(k)} moved every score (see the labels) but not a single bar."), winner=R.lead(sm)),)
    recall = ((prose("Adding the same constant to every score does what to the weights?"),
               prose("Nothing — softmax is shift-invariant; ", Call("exp", Sym("k")),
                     " cancels (Cell D).")),)
    return Solution(problem, "Shifted scores", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


KIND = register(Kind(
    **about("D"),
    sample=sample, normalise=normalise, solve=solve, property=prop,
    scenarios={"default": {}},
))
