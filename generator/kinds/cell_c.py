"""Cell C — negative scores present (seeds/000, Example 3)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, require
from ..maths.attention import softmax, top_positions
from ..maths.exact import ExactReal
from ..mathlines import Add, Frac, Seq, SumOver, Sym, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, figure_number, position_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_range, verify_sum
from ._recipe.wording import pct, positions
from ._recipe.worked import decimal_places, scores_line, steps_softmax

ALLOWED = {"scores"}


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    scores = [draw_decimal(rng, -3.0, 3.0) for _ in range(tx)]
    # at least one negative and one positive score, so the naive division breaks
    scores[int(rng.integers(tx))] = draw_decimal(rng, -3.0, -0.5)
    return {"scores": scores}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "C")
    return {"scores": scores_input(require(inputs, "scores", "C"))}


def accepts(inputs: dict) -> str | None:
    """Typed scores need a negative one; all negative is fine (the page tells
    how the naive division turns the ranking upside down), though draws keep
    to the textbook case of both signs."""
    s = rationals(inputs["scores"])
    if any(x > 0 for x in s) or len(set(s)) == 1:
        return missing_property(inputs)
    return None


def missing_property(inputs: dict) -> str | None:
    s = rationals(inputs["scores"])
    if not any(x < 0 for x in s):
        return "no score is negative, and negative scores are what cell C is about; kind 2.1 works the softmax of any scores"
    if not any(x > 0 for x in s):
        return "no score is positive, so the naive division does not visibly break"
    if len(set(s)) == 1:
        return "all scores are equal, so every weight is 1/T_x (cell B)"
    return None


ASK = prose("Say why you cannot simply divide each score by their sum.")  # the text answer's prompt
WHY_NOT_DIVIDE = ("Divided by their sum, raw scores need not give weights: a negative score gets a negative "
                  "“weight”, a negative sum flips every sign, a zero sum divides by zero, and even fractions "
                  "in [0, 1] can rank the positions differently from their scores. Exponentiating first makes "
                  "every score positive, so the normalised fractions are weights that add to 1.")


def naive_failure(w: SolutionBuilder, scores: list[Fraction], t: str):
    """The naive weights e_i / Σe, the lines that compute them, how they fail
    (each quotient rounded to the printed places unless it is that short), and
    the figure's sentence on it, naming the positions it broke."""
    shown = lambda a: input_node(a) if decimal_places(a) <= w.digits else w.shown_answer(ExactReal.of(a))
    total = sum(scores)
    sum_line = eq(SumOver("j", Sym("e", f"{t}j")), Add(tuple(input_node(s) for s in scores)),
                  input_node(total))
    if total == 0:
        return None, (sum_line,), prose(
            "The scores sum to zero, so every naive “weight” is a division by zero."), \
            "The naive division divided by zero."
    naive = [s / total for s in scores]
    lines = (sum_line, Seq(tuple(
        eq(Sym("alpha", f"{t}{i + 1}"), Frac(input_node(s), input_node(total)), shown(a))
        for i, (s, a) in enumerate(zip(scores, naive)))))
    bad = [i for i, a in enumerate(naive) if a < 0 or a > 1]
    if bad:
        i = bad[0]
        what = ("a negative “weight” — negative focus is meaningless" if naive[i] < 0
                else f"a “weight” of {pct(ExactReal.of(naive[i]), 0)} focus — impossible")
        after = prose(f"Position {i + 1} gets ", shown(naive[i]), f": {what}." +
                      (" The denominator is negative, so every sign flips." if total < 0 else ""))
        did = (f"The naive division gave {positions(bad)} "
               f"{'impossible “weights”' if len(bad) > 1 else 'an impossible “weight”'} (below 0 or above 1).")
    else:  # every score ≤ 0, not all equal (typed): the most negative score gets the biggest share
        k = max(range(len(naive)), key=lambda i: naive[i])
        after = prose(f"These happen to lie in [0, 1], but the biggest share goes to position {k + 1}, "
                      "whose score is not the largest — the ranking is upside down.")
        did = "The naive division ranked the positions upside down."
    return naive, lines, after, did


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    tops = top_positions(sm.scores)
    k = tops[0]
    question = [prose("The alignment scores at one decoder step are ", scores_line(scores, "t"),
                      ". Some are negative. Compute the attention weights."), ASK]
    total = sum(scores)
    forecast = prose("The naive division uses ", eq(SumOver("j", Sym("e", "tj")), input_node(total)),
                     " — a negative denominator" if total < 0 else " — zero" if total == 0 else "",
                     ". Predict what goes wrong, then predict " +
                     (f"the real winner ({positions(tops)})." if len(tops) == 1 else
                      f"how the focus splits between {positions(tops)}, whose scores tie for the largest."))
    naive, lines, failure, naive_did = naive_failure(w, scores, "t")
    steps = [Step("show why naive division fails",
                  (prose("The naive recipe divides each score by their sum:"),), lines, prose(
        "This is exactly the failure softmax was built to avoid; seeing it on real numbers "
        "cements why we exponentiate."), (failure,))]
    steps += steps_softmax(
        w, sm, "t", title_exp="exponentiate (kills the sign problem)",
        why_exp=prose("exp maps every real number, negative included, to a positive one — the whole point."),
        why_div=prose("Dividing each exponentiated score by their total is the softmax normalisation: the "
                      "positive numbers become fractions of focus that add to 1. The machinery survives "
                      "negative inputs untouched."))
    if naive is not None:
        w.vector("naive_weights", "the broken naive “weights” e_i / Σe", [ExactReal.of(a) for a in naive],
                 np.array([float(s) for s in scores]) / float(total))
    answer_softmax(w, sm)
    w.text("why_not_divide", "why dividing by the sum fails", WHY_NOT_DIVIDE, ASK)
    verify_range(w, sm.weights)
    verify_sum(w, sm.weights)
    w.check("winner", True, prose(
        (f"Position {k + 1} wins with ≈ {pct(sm.weights[k])}" if len(tops) == 1 else
         f"{positions(tops).capitalize()} tie for the lead with ≈ {pct(sm.weights[k])} each") +
        " — softmax handled the negative scores gracefully."))
    labels = [f"{position_labels(len(scores))[i]} (e = {figure_number(s)})" for i, s in enumerate(scores)]
    neg = [i for i, s in enumerate(scores) if s < 0]
    figures = (bars_figure(w, sm.weights, labels, prose(
        ("every bar stands above the axis — even for the negative score" + ("s" if len(neg) > 1 else "") +
         f" ({positions(neg)}). " if neg else "every bar stands above the axis. ") + f"{naive_did} " +
        (f"The hatched bar, position {k + 1} at {w.shown_answer(sm.weights[k]).text}, belongs to the largest score."
         if len(tops) == 1 else
         f"The tallest bars, {positions(tops)} at {w.shown_answer(sm.weights[k]).text} each, belong to the tied largest "
         "scores.")), winner=k if len(tops) == 1 else None),)
    recall = ((prose("Why exponentiate before normalising?"),
               prose("exp makes every score positive, so negative scores cannot break the fractions (Cell C).")),)
    return Solution(problem, "Negative scores present", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


KIND = register(Kind(
    **about("C"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property, accepts=accepts,
    scenarios={"default": {}},
))
