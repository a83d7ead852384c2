"""Exercise 3.1 (L3) — entropy of a uniform and of a spiked distribution over a drawn Tx (seeds/002)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, number_text, parse_scores, require
from ..maths import exact, numeric
from ..maths.attention import entropy
from ..maths.exact import ExactReal, agree
from ..mathlines import Call, Chain, Mul, Num, Paren, Sym, Tup, eq
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._base import Kind, SolutionBuilder, input_node
from ._recipe.figure_specs import entropy_figure
from ._recipe.parsing import rationals
from ._recipe.wording import positions
from ._recipe.worked import step_entropy

def sample(rng: np.random.Generator, params: dict) -> dict:
    """A spike of 0.80–0.97 on one of 4–8 positions; the rest split in hundredths,
    evenly (as in the seed) or unevenly."""
    tx = int(rng.integers(4, 9))
    spike = int(rng.integers(80, min(98, 101 - tx)))  # every other position keeps at least 0.01
    rest = 100 - spike
    if rest % (tx - 1) == 0 and rng.random() < 0.1:
        parts = [rest // (tx - 1)] * (tx - 1)
    else:
        cuts = sorted(rng.choice(np.arange(1, rest), size=tx - 2, replace=False)) if tx > 2 else []
        parts = [int(v) for v in np.diff([0, *cuts, rest])]
    weights = [Fraction(v, 100) for v in parts]
    weights.insert(int(rng.integers(tx)), Fraction(spike, 100))
    return {"weights": [number_text(a) for a in weights]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"weights"}, "3.1")
    weights = parse_scores(require(inputs, "weights", "3.1"), "weights")
    if sum(weights) != 1 or any(a < 0 for a in weights):
        raise UserError("weights: give non-negative numbers that sum to exactly 1")
    if len(weights) < 2:
        raise UserError("weights: at least two positions are needed to compare entropies")
    top = max(weights)
    if weights.count(top) > 1:  # uniform ones too: the page's spike is one box
        raise UserError(
            f"weights: {positions([i for i, a in enumerate(weights) if a == top])} share the largest weight, "
            "so there is no single spike to set against the uniform case; give one weight larger than "
            "the rest" + (" (cell B works through uniform weights)" if len(set(weights)) == 1 else ""))
    return {"weights": [number_text(a) for a in weights]}


ASK = prose("Interpret the two values.")  # the text answer's prompt


def solve(problem: Problem, digits: int) -> Solution:
    spike = rationals(problem.inputs["weights"])
    tx = len(spike)
    w = SolutionBuilder(digits)
    u = Fraction(1, tx)
    lnT = exact.log(ExactReal.of(tx))
    H_u = entropy([ExactReal.of(u)] * tx)
    weights = [ExactReal.of(a) for a in spike]
    question = [prose(f"An attention distribution over Tx = {tx} positions is perfectly uniform: ",
                      eq(Sym("alpha", "ti"), input_node(u)), " for all i. Compute the entropy ",
                      Sym("H"),
                      " (natural log). Then compute H for the spiked distribution ",
                      Tup(tuple(input_node(a) for a in spike)), "."), ASK]
    forecast = prose("Which distribution is more “focused”, and which entropy will be larger?")
    uniform = Step("entropy of the uniform distribution", (), (
        eq(Sym("H"), Mul((Num(f"-{tx}"), Paren(Mul((input_node(u), Call("ln", input_node(u))), "juxt"))), "times"),
           w.shown_answer(H_u)),
        eq(Call("ln", Num(str(tx))), w.shown_answer(lnT))), prose(
        "Every term is the same, so the sum is Tx times one term — and it equals ln Tx, the largest "
        f"entropy any distribution over {tx} options can have."))
    top = max(spike)  # what the spike holds, said as its size bears out
    held = ("almost everything" if top >= Fraction(9, 10) else "most of the focus" if top > Fraction(3, 5)
            else "the largest share")
    spiked, H = step_entropy(w, weights, None, "t", prose(
        f"Entropy measures how spread-out the focus is; the spike concentrates {held} on one box."))
    reading = (f"High entropy ({w.shown_answer(H_u).text}) = diffuse, “looking everywhere”; low entropy ({w.shown_answer(H).text}) = "
               "sharp, “focused on one word.” Both can be correct: summarisation wants diffuse attention, word "
               "alignment wants sharp attention.")
    interpret = Step("interpret", (prose(reading),), (), prose("Numbers only matter once they are read."))
    steps = (uniform, Step("entropy of the spiked distribution", spiked.body, spiked.math, spiked.why,
                           spiked.after), interpret)
    ln2 = exact.log(ExactReal.of(2))
    w.numeric("entropy_uniform", "entropy of the uniform distribution (nats)", H_u, float(np.log(tx)),
              distractors=[(H_u / ln2, "log_base_2"), (-H_u, "dropped_minus_sign")])
    w.numeric("entropy", "entropy of the spiked distribution (nats)", H, numeric.entropy([float(a) for a in spike]),
              distractors=[(H / ln2, "log_base_2"), (-H, "dropped_minus_sign"), (H_u, "entropy_reversed")])
    w.text("interpretation", "what the two entropies say", reading, ASK)
    w.check("uniform = ln Tx", agree(H_u, lnT), prose(
        "The uniform entropy equals ", eq(Call("ln", Num(str(tx))), w.shown_answer(lnT)), " ✓."))
    if w.shown_answer(H).text == w.shown_answer(H_u).text:  # "H = 1.0986 < 1.0986" would be false as printed
        raise UserError(f"weights: their entropy is within {w.digits} decimal places of the uniform one "
                        f"(both print as {w.shown_answer(H).text}), so the comparison cannot be shown; give a larger "
                        "spike, or more --digits")
    ok = exact.sign(H) >= 0 and exact.compare(H_u, H) > 0
    w.check("spike below uniform", ok, prose(
        Chain(Num("0"), (("≤", Sym("H")), ("=", w.shown_answer(H)), ("<", w.shown_answer(H_u)))), " ✓ — the spike has the lower entropy."))
    ratio = float(H) / float(H_u)  # "a small fraction" only where it is one
    figures = [entropy_figure(w, ["uniform", "spiked"], [H_u, H], tx, prose(
        f"the uniform bar reaches the dashed maximum ln {tx} exactly; the hatched spiked bar stops at "
        f"{w.shown_answer(H).text} nats, {ratio * 100:.0f}% of it" + (", a small fraction" if ratio < 1 / 3 else "") +
        ": focus means low entropy."), highlight=1)]
    recall = ((prose("Low versus high attention entropy?"),
               prose("Low = focused/sharp, high = diffuse/broad; the maximum ln Tx is the uniform "
                     "distribution (Exercise 3.1).")),)
    return Solution(problem, "Entropy: uniform versus spiked", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("3.1"),
    sample=sample, normalise=normalise, solve=solve,
    graded=("entropy_uniform", "entropy"),  # every quantity the question asks, in its order
))
