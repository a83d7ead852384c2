"""Cell F — two near-tied peaks: a soft blend with high entropy (seeds/000, Example 6)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, number_text, require
from ..maths import exact, numeric
from ..maths.attention import float_gaps, softmax
from ..maths.exact import ExactReal
from ..mathlines import Add, Call, Sym, eq
from ..model import Problem, Solution, Step, prose
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


_ANY = "; kind 2.1 works the softmax of any scores"


def missing_property(inputs: dict, share: float = 0.8, gap: float = 0.15) -> str | None:
    s = rationals(inputs["scores"])
    if len(s) < 3:
        return ("near-tied peaks need at least three scores, so that the two peaks stand out; kind 2.1 works the "
                "softmax of any scores" + (", and a single score is cell E" if len(s) == 1 else ""))
    w = np.sort(softmax(s).numeric)[::-1]
    if w[0] + w[1] < share:
        return f"the top two weights share only {w[0] + w[1]:.3f} of the mass (below {share}){_ANY}"
    if w[0] - w[1] > gap:
        return f"the top two weights differ by {w[0] - w[1]:.3f} (more than {gap}) — not a near tie{_ANY}"
    return None


def solve(problem: Problem, digits: int) -> Solution:
    scores = rationals(problem.inputs["scores"])
    tx = len(scores)
    w = SolutionBuilder(digits)
    sm = softmax(scores)
    order = [int(i) for i in np.argsort(-sm.numeric, kind="stable")]
    a, b = sorted(order[:2]) if tx > 1 else (0, 0)
    tied = tx > 1 and scores[a] == scores[b]
    question = [prose("At one decoder step the scores are ", scores_line(scores, "t"),
                      ". Compute the weights, the share of the two largest, and the attention entropy ",
                      Sym("H"), " in nats.")]
    forecast = prose(f"Will the focus split roughly 50/50 between positions {a + 1} and {b + 1}? "
                     "Will the entropy be higher or lower than for one sharp peak?")
    steps = steps_softmax(w, sm, "t", why_div=prose(
        f"Standard recipe; note how positions {a + 1} and {b + 1} share the mass."))
    share = sm.weights[a] + sm.weights[b] if tx > 1 else sm.weights[0]
    if tx > 1:
        pair = (w.shown_answer(sm.weights[a]), w.shown_answer(sm.weights[b]))
        # the difference of the two heights as printed, which a reader of the figure subtracts
        gap = w.shown_result(abs(value_of(pair[0]) - value_of(pair[1])), w.digits)
        w.method["top_two_share"] = [value_of(pair[0]) + value_of(pair[1])]
        both = Add((Sym("alpha", f"t{a + 1}"), Sym("alpha", f"t{b + 1}")))
        worked = w.shown_result(value_of(pair[0]) + value_of(pair[1]), w.digits)
        steps.append(Step("sanity-check the split", (), (eq(both, Add(pair), worked),), prose(
            f"{pct(share)} of the focus is shared between the two largest weights: when they are "
            "near-tied this is a “blend two sources” situation, not a single winner."),
            differs_note(w, [(both, worked, w.shown_answer(share))], f"the two weights were rounded to {w.digits} places")))
    step, H = step_entropy(w, sm.weights, sm.neg_log_weights, "t", prose(
        "Entropy measures how spread-out the focus is: bigger means more diffuse."))
    steps.append(step)
    answer_softmax(w, sm)
    if tx > 1:
        w.numeric("top_two_share", "share of the two largest weights", share, float(sm.numeric[a] + sm.numeric[b]))
    w.numeric("entropy", "attention entropy H (nats)", H, numeric.entropy_of_scores(float_gaps(scores)),
              distractors=[(H / exact.log(ExactReal.of(2)), "log_base_2"), (-H, "dropped_minus_sign")])
    verify_sum(w, sm.weights)
    lnT = verify_entropy(w, H, tx)
    w.numeric("max_entropy", "ln T_x, the largest possible entropy", lnT, float(np.log(tx)))
    labels = position_labels(tx)
    figures = (
        bars_figure(w, sm.weights, labels, prose(
            f"two bars, {labels[a]} and {labels[b]} ({w.shown_answer(sm.weights[a]).text} and {w.shown_answer(sm.weights[b]).text}), "
            f"together hold {pct(share)} of the focus; " +
            ("they stand exactly level — their scores tie" if tied else
             f"the hatched one is taller by only {gap.text}") +
            " — a soft blend of two sources, not a single winner."
            if tx > 1 else "a single bar of height 1."), winner=None if tied else order[0]),
        entropy_figure(w, ["this distribution"], [H], tx, prose(
            f"the entropy bar reaches {w.shown_answer(H).text} nats, {against_max(w, H, tx)} that uniform weights "
            "would reach: the focus is spread over more than one box."), highlight=None),
    )
    recall = ((prose("Two near-tied peaks: high or low entropy?"),
               prose("High — the focus is blended over two boxes, so H is far above a sharp peak’s "
                     "(though below the uniform maximum ", Call("ln", Sym("T", "x")), ") (Cell F).")),)
    # "far above a sharp peak's" is the seed's general claim, not about these numbers
    return Solution(problem, "Two near-tied peaks", tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, figures)


KIND = register(Kind(
    **about("F"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {"max_gap": 0.3}},
    limits={"max_gap": (0.2, 2, False)},  # the runner-up is drawn from 0.1 to max_gap below the peak
    graded=("weights", "top_two_share", "entropy"),  # every quantity the question asks, in its order
))
