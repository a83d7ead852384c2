"""Exercise 1.2 (L1) — true or false, from a bank of correct statements and
false statements contradicting them; each false one states a named misconception (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder

# (true statement, a false one contradicting it, the misconception the false one states, why)
BANK = (
    ("Vanilla seq2seq squeezes the whole input into its last encoder state; attention uses all encoder states.",
     "Vanilla seq2seq uses all encoder states to build its context, while attention uses only the last one.",
     "reversed_bottleneck", "the last state is the bottleneck attention removes; attention weights every h_i."),
    ("For a fixed decoder step, the attention weights sum to 1 over the input positions.",
     "For a fixed decoder step, the raw alignment scores sum to 1 over the input positions.",
     "scores_are_probabilities", "scores are unbounded; softmax is what makes the weights sum to 1."),
    ("Adding the same constant to every score leaves the attention weights unchanged.",
     "Adding the same constant to every score makes the largest attention weight bigger.",
     "shift_changes_weights", "adding a constant k multiplies every exponential, and so their sum, by exp(k), "
     "which cancels between numerator and denominator; only differences matter."),
    ("When all scores are equal, softmax gives each of the Tx input positions the weight 1/Tx.",
     "When all scores are equal, softmax still puts most of the weight on the first input position.",
     "focus_from_nothing", "symmetry forces equal outputs; softmax cannot invent focus."),
    ("Running softmax on weights that already sum to 1 flattens them toward uniform.",
     "Running softmax on weights that already sum to 1 leaves them unchanged.",
     "double_softmax", "softmax of (0.1, 0.7, 0.2) is (0.2546, 0.4640, 0.2814): the focus is flattened."),
    ("Bahdanau attention scores with s_{t−1} because s_t is not computed yet when the context is needed.",
     "Bahdanau attention scores with s_t because the decoder state is updated before the context is built.",
     "wrong_state_order", "in Bahdanau the context is an input to the update that produces s_t."),
    ("With a single input position, its attention weight is 1 whatever its score.",
     "With a single input position, its attention weight grows with the size of its score.",
     "single_input_depends", "the denominator is the numerator itself: exp(e)/exp(e) = 1."),
    ("Scaling every score by β → ∞ turns softmax into a hard argmax.",
     "Scaling every score by β → ∞ turns softmax into the uniform distribution.",
     "beta_limit_reversed", "larger β stretches the gaps; β → 0, not ∞, gives uniform weights."),
    ("The context vector lies within the range of the encoder states, coordinate by coordinate.",
     "The context vector can lie outside the range of the encoder states when one weight is large.",
     "context_outside_hull", "a convex combination never leaves the convex hull of what it averages."),
    ("Attention entropy is largest when the weights are uniform.",
     "Attention entropy is largest when one weight is close to 1.",
     "entropy_reversed", "a spike is focused (low entropy); uniform weights over Tx input positions reach the "
     "maximum ln Tx."),
    ("Softmax exponentiates before normalising, so negative scores still give positive weights.",
     "Dividing each score by the sum of the scores gives valid weights even when some scores are negative.",
     "divide_by_sum", "exp makes every term positive: for scores (−2, 1, 0) softmax gives (0.0351, 0.7054, "
     "0.2595), while dividing by the sum (−1) gives (2, −1, 0)."),
    ("Swapping two content-only encoder states swaps their weights and leaves the context unchanged.",
     "Swapping two content-only encoder states changes the context vector.",
     "permutation_changes_context", "the context is a sum, and addition does not care about order."),
)
COUNT = 3


def sample(rng: np.random.Generator, params: dict) -> dict:
    picks = rng.choice(len(BANK), size=COUNT, replace=False)
    return {"statements": [[int(i), bool(rng.integers(2))] for i in picks]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"statements"}, "1.2")
    raw = require(inputs, "statements", "1.2")
    ok = isinstance(raw, list) and 1 <= len(raw) <= len(BANK) and all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], int) and not isinstance(p[0], bool)
        and 0 <= p[0] < len(BANK) and isinstance(p[1], bool) for p in raw)
    if not ok or len({p[0] for p in raw}) != len(raw):
        raise UserError(f"statements: a list of [bank index 0…{len(BANK) - 1}, true/false] pairs, "
                        "each index once")
    return {"statements": [[p[0], p[1]] for p in raw]}


def solve(problem: Problem, digits: int) -> Solution:
    items = problem.inputs["statements"]
    w = SolutionBuilder(digits)
    question = [prose("True or false?")]
    question += [prose(f"({n}) " + (BANK[i][0] if truth else BANK[i][1]))
                 for n, (i, truth) in enumerate(items, start=1)]
    forecast = prose("Decide each one before reading the solutions — and for each false one, say what "
                     "the true statement is.")
    lines = []
    for n, (i, truth) in enumerate(items, start=1):
        true_text, _, mis, why = BANK[i]
        verdict = "True" if truth else "False"
        lines.append(prose(f"({n}) {verdict}: " + (why if truth else
                                                    f"the correct statement is: {true_text} Why: {why}")))
        w.truefalse(f"statement_{n}", f"statement {n} is true", truth, mis)
    why = ("Each false statement contradicts a true one: it states a specific mistake the worked examples "
           "warn about." if not all(truth for _, truth in items) else
           "Every statement here is true as written: each is a fact the worked examples rely on, and a "
           "statement contradicting it would be a specific mistake they warn about.")
    steps = (Step("judge each statement", tuple(lines), (), prose(why)),)
    w.check("verdicts", True, prose(
        "Verdicts: " + ", ".join(f"({n}) {'true' if t else 'false'}" for n, (_, t) in enumerate(items, 1)) + "."))
    # the card recalls a statement this variant drew, in its true form
    first = BANK[items[0][0]]
    recall = ((prose(f"True or false: {first[1]}"),
               prose(f"False — {first[0]} Why: {first[3]} (Exercise 1.2).")),)
    return Solution(problem, "True or false", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


KIND = register(Kind(
    **about("1.2"),
    sample=sample, normalise=normalise, solve=solve,
))
