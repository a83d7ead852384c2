"""Cell C — negative scores present (seeds/000, Example 3)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, require
from ..maths.attention import softmax, top_positions
from ..maths.exact import ExactReal
from ..mathlines import Add, Frac, Seq, SumOver, Sym, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, figure_number, position_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_range, verify_sum
from ._recipe.wording import pct, positions
from ._recipe.worked import decimal_places, scores_line, steps_softmax

ALLOWED = {"scores"}
say = Sayer("cell_c")


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
        return say.text("refused.no_negative")
    if not any(x > 0 for x in s):
        return say.text("refused.no_positive")
    if len(set(s)) == 1:
        return say.text("refused.all_equal")
    return None


def naive_failure(w: SolutionBuilder, scores: list[Fraction], t: str):
    """The naive weights e_i / Σe, the lines that compute them, how they fail
    (each quotient rounded to the printed places unless it is that short), and
    the figure's sentence on it, naming the positions it broke."""
    shown = lambda a: input_node(a) if decimal_places(a) <= w.digits else w.shown_answer(ExactReal.of(a))
    total = sum(scores)
    sum_line = eq(SumOver("j", Sym("e", f"{t}j")), Add(tuple(input_node(s) for s in scores)),
                  input_node(total))
    if total == 0:
        return None, (sum_line,), say("failure.zero_sum"), say.text("figure.did.zero_sum")
    naive = [s / total for s in scores]
    lines = (sum_line, Seq(tuple(
        eq(Sym("alpha", f"{t}{i + 1}"), Frac(input_node(s), input_node(total)), shown(a))
        for i, (s, a) in enumerate(zip(scores, naive)))))
    bad = [i for i, a in enumerate(naive) if a < 0 or a > 1]
    if bad:
        i = bad[0]
        flipped = say.text("failure.flipped") if total < 0 else ""
        if naive[i] < 0:
            after = say("failure.negative", n=i + 1, value=shown(naive[i]), flipped=flipped)
        else:
            after = say("failure.above_one", n=i + 1, value=shown(naive[i]), pct=pct(ExactReal.of(naive[i]), 0),
                        flipped=flipped)
        did = say.text("figure.did.impossible_many" if len(bad) > 1 else "figure.did.impossible_one",
                       where=positions(bad))
    else:  # every score ≤ 0, not all equal (typed): the most negative score gets the biggest share
        k = max(range(len(naive)), key=lambda i: naive[i])
        after = say("failure.upside_down", n=k + 1)
        did = say.text("figure.did.upside_down")
    return naive, lines, after, did


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    tops = top_positions(sm.scores)
    k = tops[0]
    ask = say("question.ask")  # the text answer's prompt
    question = [say("question.scores", scores=scores_line(scores, "t")), ask]
    total = sum(scores)
    sign = "negative_sum" if total < 0 else "zero_sum" if total == 0 else "positive_sum"
    forecast = say("forecast.both", uses=say(f"forecast.uses.{sign}", sum=eq(SumOver("j", Sym("e", "tj")),
                                                                              input_node(total))),
                   predict=say("forecast.predict.winner" if len(tops) == 1 else "forecast.predict.tie",
                               tops=positions(tops)))
    naive, lines, failure, naive_did = naive_failure(w, scores, "t")
    steps = [Step(say.text("steps.naive.title"), (say("steps.naive.body"),), lines, say("steps.naive.why"),
                  (failure,))]
    steps += steps_softmax(w, sm, "t", title_exp=say.text("steps.exp.title"), why_exp=say("steps.exp.why"),
                           why_div=say("steps.divide.why"))
    if naive is not None:
        w.vector("naive_weights", say.text("answers.naive_weights"), [ExactReal.of(a) for a in naive],
                 np.array([float(s) for s in scores]) / float(total))
    answer_softmax(w, sm)
    w.text("why_not_divide", say.text("answers.why_not_divide.label"), say.text("answers.why_not_divide.model"), ask)
    verify_range(w, sm.weights)
    verify_sum(w, sm.weights)
    w.check("winner", True, say("verify.winner", n=k + 1, pct=pct(sm.weights[k])) if len(tops) == 1 else
            say("verify.tie", tops=positions(tops), pct=pct(sm.weights[k])))
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, bars(w, sm, tops, naive_did))


def bars(w: SolutionBuilder, sm, tops: list[int], naive_did: str) -> tuple:
    """The weights as bars, each labelled with its score; the caption says
    that every bar stands above the axis, how the naive division failed, and
    who leads."""
    scores, k = sm.scores, tops[0]
    labels = [say.text("figure.label", position=position_labels(len(scores))[i], score=figure_number(s))
              for i, s in enumerate(scores)]
    neg = [i for i, s in enumerate(scores) if s < 0]
    axis = ("figure.axis.none_negative" if not neg else "figure.axis.one_negative" if len(neg) == 1
            else "figure.axis.negatives")
    weight = w.shown_answer(sm.weights[k]).text
    lead = (say.text("figure.lead.winner", n=k + 1, weight=weight) if len(tops) == 1 else
            say.text("figure.lead.tie", tops=positions(tops), weight=weight))
    caption = say("figure.caption", axis=say.text(axis, where=positions(neg) if neg else ""), did=naive_did,
                  lead=lead)
    return (bars_figure(w, sm.weights, labels, caption, winner=k if len(tops) == 1 else None),)


KIND = register(Kind(
    **about("C"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property, accepts=accepts,
    scenarios={"default": {}},
))
