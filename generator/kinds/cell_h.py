"""Cell H — scores scaled by a sharpness dial β; the limits β → ∞ (hard
argmax) and β → 0 (uniform), in closed form, checked against sympy's `limit`
in the tests (seeds/000, Example 8)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, check_spread, number_text, parse_number, require
from ..maths import exact, numeric
from ..maths.attention import float_gaps, softmax
from ..maths.exact import ExactReal
from ..mathlines import NumText, Infinity, Lim, Mul, Num, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import NOW, Sayer, number
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import table_distractors
from ._recipe.figure_specs import sharpening_figure
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_sum
from ._recipe.wording import positions
from ._recipe.worked import scores_line, worked_weights, worked_weights_calculator

ALLOWED = {"scores", "betas"}
BETA_CHOICES = ("0.5", "1", "2", "3", "5", "10", "20")
MAX_BETAS = 6
say = Sayer("cell_h")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(2, 4))
    scores = [draw_decimal(rng, -1.0, 2.0) for _ in range(tx)]
    n = int(rng.integers(3, 5))
    betas = sorted(rng.choice(len(BETA_CHOICES), size=n, replace=False))
    return {"scores": scores, "betas": [BETA_CHOICES[i] for i in betas]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "H")
    out = {"scores": scores_input(require(inputs, "scores", "H"))}
    raw = require(inputs, "betas", "H")
    if not isinstance(raw, list) or not raw:
        raise UserError(say.text("refused.betas_list"))
    if len(raw) > MAX_BETAS:
        raise UserError(say.text("refused.betas_too_many", most=MAX_BETAS))
    betas = [parse_number(b, f"betas[{i + 1}]") for i, b in enumerate(raw)]
    if any(b <= 0 for b in betas):
        raise UserError(say.text("refused.betas_positive"))
    if any(abs(b * s) > 10**6 for b in betas for s in rationals(out["scores"])):
        raise UserError(say.text("refused.betas_too_large"))
    for b in betas:
        check_spread([b * s for s in rationals(out["scores"])], "betas × scores")
    # the dial is turned up step by step: each β once, in increasing order,
    # as typed (sorting them silently would answer another question)
    twice = sorted({b for b in betas if betas.count(b) > 1})
    if twice:
        raise UserError(say.text("refused.betas_twice", beta=number_text(twice[0])))
    if betas != sorted(betas):
        raise UserError(say.text("refused.betas_unordered", given=_listed(betas), ordered=_listed(sorted(betas))))
    out["betas"] = [number_text(b) for b in betas]
    return out


def _listed(betas: list[Fraction]) -> str:
    """β values as typed, in the run's way of writing a list of numbers."""
    return (NOW.sep + " ").join(number(number_text(b)) for b in betas)


def missing_property(inputs: dict) -> str | None:
    s = rationals(inputs["scores"])
    if len(set(s)) < 2:
        return say.text("refused.all_equal")
    if len(inputs["betas"]) < 2:
        return say.text("refused.one_beta")
    return None


def limits(scores: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """lim β→∞ and lim β→0 of every weight α_i(β) = 1 / Σ_j exp(β (e_j − e_i)).
    As β → ∞ a term with e_j > e_i grows without bound and one with e_j < e_i
    vanishes, so a top score keeps 1 / (number of top scores) and every other
    weight goes to 0; as β → 0 every term goes to 1, so each weight to 1/n.
    (The tests check these against sympy's `limit`.)"""
    top = max(scores)
    ties = scores.count(top)
    return ([Fraction(1, ties) if x == top else Fraction(0) for x in scores],
            [Fraction(1, len(scores))] * len(scores))


def dial_step(w: SolutionBuilder, n: int, betas: list[Fraction], sms: list, tied: list[int]) -> Step:
    """The weights at the n-th β, and what turning the dial to it did to the
    largest score's weight (at the last β, how near the limit it is)."""
    b, sm = betas[n], sms[n]
    lines = (eq(Mul((Sym("beta"), Sym("e")), "juxt"), Tup(tuple(input_node(x) for x in sm.scores))),
             eq(Sym("alpha"), Tup(tuple(w.shown_answer(a) for a in sm.weights))))
    title = say.text("steps.dial.title", value=number_text(b))
    if n == 0:
        return Step(title, (), lines, say("steps.dial.baseline"))
    k, prev = tied[0], betas[n - 1]
    topw = w.shown_answer(sm.weights[k]).text
    before = w.shown_answer(sms[n - 1].weights[k]).text
    turn = {"prev": number_text(prev), "b": number_text(b), "factor": number_text(b / prev),
            "who": positions(tied, each=True), "after": topw}
    if before != topw or len(tied) == len(sm.scores):
        why = say("steps.dial.moves", **turn, before=before)
    else:  # the same to the printed places: the sharpening shows in the largest of the others
        j = max((i for i in range(len(sm.scores)) if i not in tied), key=lambda i: float(sm.weights[i]))
        why = say("steps.dial.moves_other", **turn, n=j + 1, other_before=w.shown_answer(sms[n - 1].weights[j]).text,
                  other_after=w.shown_answer(sm.weights[j]).text)
    if n == len(betas) - 1:
        near = how_near(b, sm.weights[k] * len(tied), tied)
        why = why + (say("steps.dial.limit", near=near) if len(tied) == 1 else
                     say("steps.dial.limit_tied", tied=positions(tied), near=near))
    return Step(title, (), lines, why)


def how_near(b: Fraction, held: ExactReal, tied: list[int]) -> str:
    """How near the largest score(s), holding `held` at the last β, are to
    their limit: a pick, or for tied largest scores an even split."""
    if exact.compare(held, ExactReal.of(Fraction(99, 100))) >= 0:
        key = "reached"
    elif exact.compare(held, ExactReal.of(Fraction(9, 10))) >= 0:
        key = "close"
    else:
        return say.text("steps.dial.near.soft", b=number_text(b))
    if len(tied) == 1:
        return say.text(f"steps.dial.near.{key}", b=number_text(b))
    return say.text(f"steps.dial.near.{key}_tied", b=number_text(b), tied=positions(tied))


def answer(w: SolutionBuilder, scores: list[Fraction], sms: list, tied: list[int], hi: list, lo: list) -> None:
    """The table of weights (one row per β) and both limits."""
    w.vector("weights", say.text("answers.weights"), [list(sm.weights) for sm in sms],
             np.array([sm.numeric for sm in sms]),
             method=[[worked_weights(w, sm) for sm in sms], [worked_weights_calculator(w, sm) for sm in sms]],
             distractors=table_distractors(sms))
    w.vector("limit_infinity", say.text("answers.limit_infinity_tied" if len(tied) > 1 else "answers.limit_infinity"),
             [ExactReal.of(v) for v in hi], _numeric_limit(scores))
    w.vector("limit_zero", say.text("answers.limit_zero"), [ExactReal.of(v) for v in lo],
             np.full(len(scores), 1.0 / len(scores)))


def check_sharpening(w: SolutionBuilder, sms: list, tied: list[int], hi: list) -> None:
    """The largest score's weight rises with β (exactly), toward its limit."""
    k = tied[0]
    tops = [sm.weights[k] for sm in sms]
    rising = all(exact.compare(y, x) >= 0 for x, y in zip(tops, tops[1:]))
    printed = [w.shown_answer(t).text for t in tops]
    beyond = len(set(printed)) != len(printed)  # equal as printed: it rises beyond the printed places
    said = {"who": positions(tied, each=True), "printed": NumText(" → ".join(printed)),
            "limit": w.shown_answer(ExactReal.of(hi[k])).text}
    w.check("sharpens monotonically", rising, say("verify.sharpens_beyond", **said, digits=w.digits) if beyond else
            say("verify.sharpens", **said))


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    betas = rationals(problem.inputs["betas"])
    w = SolutionBuilder(digits)
    sms = [softmax(scores, b) for b in betas]
    question = [say("question", scores=scores_line(scores, "t"), beta=Sym("beta"), values=_values(betas))]
    forecast = say("forecast")
    top = max(scores)
    tied = [i for i, x in enumerate(scores) if x == top]
    k = tied[0]
    steps = [dial_step(w, n, betas, sms, tied) for n in range(len(betas))]
    hi, lo = limits(scores)
    steps.append(Step(say.text("steps.limits.title"), (), (
        eq(Lim(Sym("beta"), Infinity(), Sym("alpha")), Tup(tuple(input_node(v) for v in hi))),
        eq(Lim(Sym("beta"), Num("0"), Sym("alpha")), Tup(tuple(input_node(v) for v in lo))),
    ), say("steps.limits.why") if len(tied) == 1 else say("steps.limits.why_tied", tied=positions(tied))))
    answer(w, scores, sms, tied, hi, lo)
    for b, sm in zip(betas, sms):
        verify_sum(w, sm.weights, f"β = {number_text(b)}: weights sum to one")
    check_sharpening(w, sms, tied, hi)
    figures = (sharpening_figure(w, scores, betas, sms, hi, lo, "β", say(
        "figure", who=positions(tied, each=True), before=w.shown_answer(sms[0].weights[k]).text,
        after=w.shown_answer(sms[-1].weights[k]).text, tx=len(scores)), log=True),)
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast,
                    tuple(steps), tuple(w.answers), tuple(w.checks), recall, figures)


def _numeric_limit(scores: list[Fraction]) -> np.ndarray:
    """The numeric path's β → ∞ limit: softmax at a β that puts the smallest
    non-zero gap to the top score 60 nats apart (e^-60 ≈ 10^-26, far below the
    cross-check's 10^-12), so near-tied scores (1 and 1.00001) are told apart
    as the exact limit tells them; a fixed β = 10^6 left 4.5 × 10^-5 there."""
    gaps = np.array(float_gaps(scores))
    apart = np.abs(gaps[gaps != 0])
    return numeric.softmax(gaps * (60 / apart.min() if apart.size else 1.0))


def _values(betas: list[Fraction]) -> tuple:
    """β = 1, 5 and 10 (the dial's settings, not a vector)."""
    nodes = [input_node(b) for b in betas]
    out: list = [nodes[0]]
    for n, node in enumerate(nodes[1:], start=2):
        out += [say.text("values.last_separator" if n == len(nodes) else "values.separator"), node]
    return say("values.list", beta=Sym("beta"), values=tuple(out))


KIND = register(Kind(
    **about("H"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
    graded=("weights", "limit_infinity", "limit_zero"),  # every quantity the question asks, in its order
))
