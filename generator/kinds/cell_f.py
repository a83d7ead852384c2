"""Cell F — two near-tied peaks: a soft blend with high entropy (seeds/000, Example 6)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, number_text, require
from ..maths import exact, numeric
from ..maths.attention import float_gaps, softmax
from ..maths.exact import ExactReal
from ..mathlines import Add, Call, NumText, Sym, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import answer_softmax
from ._recipe.figure_specs import bars_figure, entropy_figure, position_labels
from ._recipe.parsing import rationals, scores_input
from ._recipe.verify import verify_entropy, verify_sum
from ._recipe.wording import against_max, pct
from ._recipe.worked import differs_note, scores_line, step_entropy, steps_softmax

ALLOWED = {"scores"}
say = Sayer("cell_f")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 6))
    peak = float(draw_decimal(rng, 1.5, 3.0))
    scores = [draw_decimal(rng, peak - 4.0, peak - 2.2) for _ in range(tx)]
    a, b = (int(i) for i in rng.choice(tx, size=2, replace=False))
    scores[a] = number_text(Fraction(str(peak)))
    scores[b] = draw_decimal(rng, peak - params["max_gap"], peak - 0.1)
    return {"scores": scores}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "F")
    return {"scores": scores_input(require(inputs, "scores", "F"))}


def missing_property(inputs: dict, share: float = 0.8, gap: float = 0.15) -> str | None:
    s = rationals(inputs["scores"])
    if len(s) < 3:
        return say.text("refused.few_single" if len(s) == 1 else "refused.few")
    w = np.sort(softmax(s).numeric)[::-1]
    if w[0] + w[1] < share:
        return say.text("refused.low_share", share=NumText(f"{w[0] + w[1]:.3f}"), least=NumText(str(share)))
    if w[0] - w[1] > gap:
        return say.text("refused.not_near", gap=NumText(f"{w[0] - w[1]:.3f}"), most=NumText(str(gap)))
    return None


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    tx = len(scores)
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    order = [int(i) for i in np.argsort(-sm.numeric, kind="stable")]
    a, b = sorted(order[:2]) if tx > 1 else (0, 0)
    tied = tx > 1 and scores[a] == scores[b]
    question = [say("question", scores=scores_line(scores, "t"), H=Sym("H"))]
    forecast = say("forecast", a=a + 1, b=b + 1)
    steps = steps_softmax(w, sm, "t", why_div=say("steps.divide_why", a=a + 1, b=b + 1))
    share = sm.weights[a] + sm.weights[b] if tx > 1 else sm.weights[0]
    if tx > 1:
        pair = (w.shown_answer(sm.weights[a]), w.shown_answer(sm.weights[b]))
        # the difference of the two heights as printed, which a reader of the figure subtracts
        gap = w.shown_result(abs(value_of(pair[0]) - value_of(pair[1])), w.digits)
        w.method["top_two_share"] = [value_of(pair[0]) + value_of(pair[1])]
        both = Add((Sym("alpha", f"t{a + 1}"), Sym("alpha", f"t{b + 1}")))
        worked = w.shown_result(value_of(pair[0]) + value_of(pair[1]), w.digits)
        steps.append(Step(say.text("steps.split.title"), (), (eq(both, Add(pair), worked),),
                          say("steps.split.why", pct=pct(share)),
                          differs_note(w, [(both, worked, w.shown_answer(share))],
                                       say.text("steps.split.rounded", digits=w.digits))))
    step, H = step_entropy(w, sm.weights, sm.neg_log_weights, "t", say("steps.entropy_why"))
    steps.append(step)
    answer_softmax(w, sm)
    if tx > 1:
        w.numeric("top_two_share", say.text("answers.top_two_share"), share, float(sm.numeric[a] + sm.numeric[b]))
    w.numeric("entropy", say.text("cells.answers.entropy"), H, numeric.entropy_of_scores(float_gaps(scores)),
              distractors=[(H / exact.log(ExactReal.of(2)), "log_base_2"), (-H, "dropped_minus_sign")])
    verify_sum(w, sm.weights)
    lnT = verify_entropy(w, H, tx)
    w.numeric("max_entropy", say.text("cells.answers.max_entropy"), lnT, float(np.log(tx)))
    labels = position_labels(tx)
    bars = "figure.bars.single" if tx == 1 else "figure.bars.tied" if tied else "figure.bars.apart"
    figures = (
        bars_figure(w, sm.weights, labels, say(
            bars, a=labels[a], b=labels[b], wa=w.shown_answer(sm.weights[a]).text,
            wb=w.shown_answer(sm.weights[b]).text, pct=pct(share), gap=gap.text if tx > 1 else ""),
            winner=None if tied else order[0]),
        entropy_figure(w, [say.text("figure.entropy.label")], [H], tx, say(
            "figure.entropy.caption", entropy=w.shown_answer(H).text, against=against_max(w, H, tx)), highlight=None),
    )
    recall = ((say("recall.front"), say("recall.back", ln_tx=Call("ln", Sym("T", "x")))),)
    # "far above a sharp peak's" is the seed's general claim, not about these numbers
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


KIND = register(Kind(
    **about("F"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {"max_gap": 0.3}},
    limits={"max_gap": (0.2, 2, False)},  # the runner-up is drawn from 0.1 to max_gap below the peak
    graded=("weights", "top_two_share", "entropy"),  # every quantity the question asks, in its order
))
