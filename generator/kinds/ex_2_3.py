"""Exercise 2.3 (L2) — add a drawn constant to every score: do the weights change? (seeds/002)"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, number_text, parse_number, require
from ..maths.attention import lead, softmax
from ..maths.exact import ExactReal, agree
from ..mathlines import Call, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import weight_distractors
from ._recipe.figure_specs import bars_figure, shifted_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.wording import printed_apart
from ._recipe.worked import printed_weights, scores_line, shift_cancels, steps_softmax

say = Sayer("ex_2_3")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    c = "0"
    while Fraction(c) == 0:
        c = draw_decimal(rng, -9, 9, places=0 if rng.random() < 0.7 else 1)
    return {"scores": [draw_decimal(rng, -1.0, 3.0) for _ in range(tx)], "shift": c}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "shift"}, "2.3")
    return {"scores": scores_input(require(inputs, "scores", "2.3")),
            "shift": number_text(parse_number(require(inputs, "shift", "2.3"), "shift"))}


def solve(problem: Problem, digits: int) -> Solution:
    base = rationals(problem.inputs["scores"])
    c = Fraction(problem.inputs["shift"])
    shifted = [s + c for s in base]
    w = SolutionBuilder(digits)
    sm0, sm = softmax(base), softmax(shifted)
    question = [say("question", scores=scores_line(base, "t"), c=number_text(c),
                    shifted=scores_line(shifted, "t", prime=True))]
    forecast = say("forecast")
    check, apart = both_worked(w, sm0, sm)
    steps = (Step(say.text("steps.factor.title"), (say("steps.factor.body", k=Sym("k"), c=number_text(c)),),
                  (shift_cancels(),), say("steps.factor.why", exp_k=Call("exp", Sym("k")))), check)
    naive = sum(shifted)
    wrong = [([ExactReal.of(s / naive) for s in shifted], "shift_changes_weights")] if naive != 0 else []
    # either worked list is the worked method ("compute them" after the shift):
    # the window holds both, as the note's "Both are accepted" says
    w.vector("weights", say.text("answers.weights"), list(sm.weights), sm.numeric,
             distractors=wrong + [d for d in weight_distractors(sm) if d[1] != "divide_by_sum"],
             method=w.method["weights"] + w.method.get("shifted_weights", []))
    w.truefalse("weights_change", say.text("answers.weights_change"), False, "shift_changes_weights")
    same = all(agree(a, b) for a, b in zip(sm.weights, sm0.weights))
    w.check("shift invariance", same, say("verify.apart", apart=apart) if apart else say("verify.same"))
    verify_sum(w, sm.weights)
    figures = [bars_figure(w, sm.weights, shifted_labels(base, shifted), say("figure.bars", c=number_text(c)),
                           winner=lead(sm))]
    recall = ((say("recall.front"), say("recall.back", exp_k=Call("exp", Sym("k")))),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


def both_worked(w: SolutionBuilder, sm0, sm) -> tuple[Step, str]:
    """Both score lists worked (where the shifted one fits a calculator), so
    the agreement is seen, not asserted; and how far the two worked lists
    print apart ("" where they read alike)."""
    nums = Tup(tuple(w.shown_answer(a) for a in sm.weights))
    worked = steps_softmax(w, sm0, "t", z_answered=False)
    again: list = []
    apart = ""
    if sm.shift == 0:
        again = steps_softmax(w, sm, "t", name="shifted_weights", prime=True, z_answered=False)
        apart = printed_apart(printed_weights(w), printed_weights(w, "shifted_weights"))
    notes = tuple(a for st in (*worked, *again) for a in st.after)
    # the answer, exact: after the notes where a worked line printed another value
    same_line = eq(Sym("alpha", None, "'"), Sym("alpha"), nums)
    if apart:
        why = say(f"steps.check.why_apart.{'notes' if len(notes) > 1 else 'one_note'}", apart=apart)
    else:
        why = say("steps.check.why_same")
    return Step(say.text("steps.check.title"), (say("steps.check.body"),),
                tuple(m for st in (*worked, *again) for m in st.math) + (() if notes else (same_line,)),
                why, notes + ((say("steps.check.exact", same_line=same_line),) if notes else ())), apart


KIND = register(Kind(
    **about("2.3"),
    sample=sample, normalise=normalise, solve=solve,
))
