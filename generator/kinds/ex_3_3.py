"""Exercise 3.3 (L3) — permute two drawn states: the weights permute, the
context does not change (seeds/002), shown on numbers."""

from __future__ import annotations


import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..maths import numeric
from ..maths.attention import context, softmax
from ..maths.exact import agree
from ..mathlines import Sym, Tup, Vec, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import context_distractors, weight_distractors
from ._recipe.figure_specs import context_figure
from ._recipe.parsing import rationals, scores_input, states_input
from ._recipe.worked import scores_line, states_line, step_context, worked_weights

say = Sayer("ex_3_3")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    i, j = sorted(int(v) for v in rng.choice(tx, size=2, replace=False))
    while True:
        scores = [draw_decimal(rng, -1.0, 3.0) for _ in range(tx)]
        states = [[str(int(v)) for v in rng.integers(-3, 5, size=2)] for _ in range(tx)]
        if scores[i] != scores[j] and states[i] != states[j]:
            break
    return {"scores": scores, "states": states, "swap": [i + 1, j + 1]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"scores", "states", "swap"}, "3.3")
    scores = scores_input(require(inputs, "scores", "3.3"))
    states = states_input(require(inputs, "states", "3.3"), len(scores))
    if len(scores) < 2:
        raise UserError(say.text("refused.too_few"))
    swap = inputs.get("swap", [2, 3])
    if not (isinstance(swap, list) and len(swap) == 2 and all(isinstance(v, int) and 1 <= v <= len(scores)
                                                             for v in swap) and swap[0] != swap[1]):
        raise UserError(say.text("refused.swap", tx=len(scores)))
    return {"scores": scores, "states": states, "swap": sorted(swap)}


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    scores = rationals(inp["scores"])
    states = [rationals(h) for h in inp["states"]]
    i, j = (v - 1 for v in inp["swap"])
    perm = list(range(len(scores)))
    perm[i], perm[j] = j, i
    p_scores = [scores[k] for k in perm]
    p_states = [states[k] for k in perm]
    w = SolutionBuilder(digits)
    sm, psm = softmax(scores), softmax(p_scores)
    c, pc = context(sm.weights, states), context(psm.weights, p_states)
    stale = context(sm.weights, p_states)  # old weights on the swapped states
    question = [say("question", scores=scores_line(scores, "t"), states=states_line(states),
                    h_i=Sym("h", str(i + 1)), h_j=Sym("h", str(j + 1)))]
    forecast = say("forecast")
    vec = lambda xs: Vec(tuple(w.shown_answer(x) for x in xs))
    # the context before the swap is worked from the printed weights (with the
    # note where that rounds otherwise than the key); the swap permutes weights
    # and states alike, so the same products make the context after it: the
    # worked method step_context keeps under "context" is the answer's too
    before, _ = step_context(w, sm.weights, states, "t", ())
    steps = (
        Step(say.text("steps.before.title"), (),
             (eq(Sym("alpha"), Tup(tuple(w.shown_answer(a) for a in sm.weights))), *before.math),
             say("steps.before.why"), before.after),
        Step(say.text("steps.after.title"), (say("steps.after.body", e_i=Sym("e", f"t{i + 1}"),
                                                 e_j=Sym("e", f"t{j + 1}")),),
             (eq(Sym("alpha", None, "'"), Tup(tuple(w.shown_answer(a) for a in psm.weights))),
              eq(Sym("c", "t", "'"), vec(pc))), say("steps.after.why"), (say("steps.after.note"),)),
    )
    # besides the mistakes of the swap, the softmax slips every weighted blend names
    w.vector("weights", say.text("answers.weights"), list(sm.weights), sm.numeric, method=[worked_weights(w, sm)],
             distractors=weight_distractors(sm))
    w.vector("weights_permuted", say.text("answers.weights_permuted"), list(psm.weights), sm.numeric[perm],
             distractors=[(list(sm.weights), "weights_not_permuted"), *weight_distractors(psm)])
    w.vector("context", say.text("answers.context"), pc,
             numeric.context(psm.numeric, [[float(v) for v in h] for h in p_states]),
             distractors=[(stale, "permutation_changes_context"), *context_distractors(psm, p_states)])
    w.truefalse("context_changes", say.text("answers.context_changes"), False, "permutation_changes_context")
    same = all(agree(a, b) for a, b in zip(c, pc))
    w.check("context unchanged", same, say("verify.context"))
    moved = all(agree(psm.weights[k], sm.weights[perm[k]]) for k in range(len(perm)))
    w.check("weights permute", moved, say("verify.weights"))
    figures = [spec for spec in (context_figure(w, psm.weights, p_states, pc, say(
        "figure.context", c1=w.shown_answer(pc[0]).text, c2=w.shown_answer(pc[1]).text)),) if spec]
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("3.3"),
    sample=sample, normalise=normalise, solve=solve,
    graded=("weights", "weights_permuted", "context", "context_changes"),  # every quantity the question asks, in its order
))
