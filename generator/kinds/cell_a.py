"""Cell A — one sharp peak (seeds/000, Example 1: the “am ↔ suis” case)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_words, require
from ..maths import exact
from ..maths.attention import softmax
from ..mathlines import Call, NumText, Sym, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._bank import PAIRS
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, draw_decimal, input_node
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, position_labels, winner_caption
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_range, verify_sum
from ._recipe.wording import forecast_thresholds, pct, positions, where
from ._recipe.worked import printed_weights, scores_line, steps_softmax

ALLOWED = {"scores", "source", "target", "step"}
say = Sayer("cell_a")
MAX_RATIO_GAP = 700  # exp(gap) beyond this does not fit a float: shown, not reported as an answer


def sample(rng: np.random.Generator, params: dict) -> dict:
    pairs = [p for p in PAIRS if len(p["source"]) >= 3]
    pair = pairs[int(rng.integers(len(pairs)))]
    content = [j for j in range(len(pair["target"])) if j not in pair.get("function", ())]
    j = content[int(rng.integers(len(content)))]
    win = pair["align"][j]
    tx = len(pair["source"])
    others = [draw_decimal(rng, -0.5, 1.0) for _ in range(tx)]
    top = max(Fraction(o) for i, o in enumerate(others) if i != win)
    gap = Fraction(draw_decimal(rng, params["gap_min"], params["gap_max"]))
    others[win] = number_text(top + gap)
    return {"scores": others, "source": pair["source"], "target": pair["target"], "step": j + 1}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "A")
    out = {"scores": scores_input(require(inputs, "scores", "A"))}
    tx = len(out["scores"])
    if "source" in inputs:
        out["source"] = parse_words(inputs["source"], "source", max_len=12)
        if len(out["source"]) != tx:
            raise _mismatch("source", len(out["source"]), tx)
    if "target" in inputs:
        out["target"] = parse_words(inputs["target"], "target", max_len=12)
        step = inputs.get("step", 1)
        if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= len(out["target"]):
            raise UserError(say.text("refused.step_range", most=len(out["target"])))
        out["step"] = step
    return out


def _mismatch(what, got, tx):
    return UserError(say.text("refused.words_mismatch", what=what, got=got, tx=tx))


def missing_property(inputs: dict, threshold: float = 0.6) -> str | None:
    s = rationals(inputs["scores"])
    if len(s) < 2:
        return say.text("refused.one_score")
    top = sorted(s, reverse=True)
    if top[0] == top[1]:
        return say.text("refused.tied", tied=positions([i for i, x in enumerate(s) if x == top[0]]))
    w = softmax(s).numeric
    if w.max() < threshold:
        return say.text("refused.not_sharp", top=NumText(f"{w.max():.3f}"), threshold=NumText(str(threshold)))
    return None


def amplification(w: SolutionBuilder, sm, last: Step, words, k: int, second: int) -> Step:
    """The cell's point, after the last step: the winning weight is exp(gap)
    times the runner-up's (an answer where the ratio fits a float)."""
    gap = sm.scores[k] - sm.scores[second]
    ratio = exact.exp(exact.ExactReal.of(gap))
    if gap <= MAX_RATIO_GAP:
        w.numeric("amplification", say.text("answers.amplification"),
                  ratio, float(np.exp(float(sm.scores[k]) - float(sm.scores[second]))))
    # the ratio of the weights as step 3 printed them, where it reads otherwise
    shown = printed_weights(w)
    divided = w.shown_result(value_of(shown[k]) / value_of(shown[second])) if value_of(shown[second]) else None
    aside = (() if divided is None or divided.text == w.shown_answer(ratio).text else
             say("amplification.aside", divided=divided))
    note = say("amplification.small_gap" if gap <= 3 else "amplification.large_gap",
               gap=input_node(gap), top=where(words, k), second=where(words, second), ratio=w.shown_answer(ratio),
               exp_gap=eq(Call("exp", input_node(gap)), w.shown_answer(ratio)), aside=aside)
    return dataclasses.replace(last, after=last.after + (note,))


def bars(w: SolutionBuilder, sm, words, k: int, second: int):
    """The weights as bars, the winner's ratio to the runner-up marked where
    it is an answer."""
    labels = position_labels(len(sm.scores), words)
    amplified = len(sm.scores) > 1 and k != second and sm.scores[k] - sm.scores[second] <= MAX_RATIO_GAP
    return bars_figure(
        w, sm.weights, labels, winner_caption(w, sm, labels, k, second if amplified else None), winner=k,
        ratio=(second, exact.exp(exact.ExactReal.of(sm.scores[k] - sm.scores[second])), sm.scores[k] - sm.scores[second])
        if amplified else None)


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    scores = rationals(inp["scores"])
    words = inp.get("source")
    t = str(inp["step"]) if "target" in inp else "t"
    emitted = inp["target"][inp["step"] - 1] if "target" in inp else None
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    # ranked by the exact scores: floats of weights underflow to 0 together
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    k = order[0]
    second = order[1] if len(scores) > 1 else k
    lo, hi = forecast_thresholds(float(sm.numeric[k]))
    who = where(words, k)

    question = [(say("question.emit", word=emitted, t=t) if emitted else ()) + say(
        "question.scores_of_words" if words else "question.scores", scores=scores_line(scores, t),
        words=", ".join(say.text("quoted", word=x) for x in words or ()), alpha=Sym("alpha", f"{t}i"))]
    forecast = say("forecast", who=who, lo=lo, hi=hi)
    steps = steps_softmax(w, sm, t)
    answer_softmax(w, sm)
    if len(scores) > 1 and k != second:
        steps[-1] = amplification(w, sm, steps[-1], words, k, second)
    verify_sum(w, sm.weights)
    verify_range(w, sm.weights)
    w.check("one clear winner", True, say("verify.winner_word" if emitted and words else "verify.winner",
                                          who=who, pct=pct(sm.weights[k]), word=emitted or ""))
    recall = ((say("recall.front"), say("recall.back", exp_delta=Call("exp", Sym("Delta")))),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, (bars(w, sm, words, k, second),))


KIND = register(Kind(
    **about("A"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {"gap_min": 1.2, "gap_max": 3.0}},
    limits={"gap_min": (0.1, 10, False), "gap_max": (0.1, 10, False)},
))
