"""Cell I — the exam twist: weights that already sum to 1 are not softmaxed
again; context of 2-D states and entropy (seeds/000, Example 9)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..inputs import check_keys, number_text, parse_scores, require
from ..maths import exact, numeric
from ..maths.attention import context, entropy, softmax
from ..maths.exact import ExactReal
from ..mathlines import Add, Call, Num, Seq, Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.numbers import value_of
from ._base import Kind, SolutionBuilder, input_node
from ._recipe.answers import context_distractors, weight_distractors
from ._recipe.figure_specs import context_caption, context_figure, entropy_figure
from ._recipe.parsing import rationals, states_input
from ._recipe.verify import verify_entropy, verify_hull, verify_sum
from ._recipe.wording import against_max, pct, rounded_to
from ._recipe.worked import states_line, step_context, step_entropy, steps_softmax, worked_softmax

ALLOWED = {"weights", "states"}
say = Sayer("cell_i")


def sample(rng: np.random.Generator, params: dict) -> dict:
    tx = int(rng.integers(3, 5))
    # a composition of 10 into tx positive parts, one of them dominant
    while True:
        cuts = sorted(rng.choice(np.arange(1, 10), size=tx - 1, replace=False))
        parts = np.diff([0, *cuts, 10])
        if parts.max() >= 5 and (parts == parts.max()).sum() == 1:
            break
    weights = [number_text(Fraction(int(p), 10)) for p in parts]
    states = [[str(int(v)) for v in rng.integers(0, 4, size=2)] for _ in range(tx)]
    return {"weights": weights, "states": states}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "I")
    weights = parse_scores(require(inputs, "weights", "I"), "weights")
    out = {"weights": [number_text(v) for v in weights]}
    out["states"] = states_input(require(inputs, "states", "I"), len(weights))
    return out


def normalised(weights: list[Fraction]) -> bool:
    return sum(weights) == 1 and all(0 <= a <= 1 for a in weights)


def missing_property(inputs: dict) -> str | None:
    if not normalised(rationals(inputs["weights"])):
        return say.text("refused.not_weights")
    return None


def off_exactly(w: SolutionBuilder, printed, sm, exp_nums) -> tuple:
    """Where a second softmax worked from the rounded exponentials prints a
    weight otherwise than exactly, one sentence that says so; () elsewhere."""
    off = [(Sym("alpha", f"{i + 1}", "'"), w.shown_answer(a)) for i, (m, a) in enumerate(zip(printed, sm.weights))
           if m.text != w.shown_answer(a).text]
    if not off:
        return ()
    return (say("steps.check.exactly", values=Seq(tuple(eq(s, n) for s, n in off)), rounded=rounded_to(exp_nums)),)


def solve(problem: Problem, digits: int) -> Solution:
    given = rationals(problem.inputs["weights"])
    states = [rationals(h) for h in problem.inputs["states"]]
    tx = len(given)
    w = SolutionBuilder(digits)
    ok = normalised(given)
    question = [say("question", numbers=Tup(tuple(input_node(a) for a in given)), states=states_line(states))]
    forecast = say("forecast", tx=tx)
    total = Add(tuple(input_node(a) for a in given))
    sm = softmax(given)  # the damage a (second) softmax would do
    if ok:
        weights, floats = [ExactReal.of(a) for a in given], np.array([float(a) for a in given])
        steps = [normalised_step(w, given, sm, total)]
        why_c = say("steps.context_why.weights")
    else:
        weights, floats = list(sm.weights), sm.numeric
        steps = [Step(say.text("steps.check.title"), (), (eq(total, input_node(sum(given))),),
                      say("steps.check.why_scores"))]
        steps += steps_softmax(w, sm, "t", z_answered=False)
        why_c = say("steps.context_why.scores")
    step, c = step_context(w, weights, states, "t", why_c)
    steps.append(step)
    step, H = step_entropy(w, weights, None if ok else sm.neg_log_weights, "t", say(
        "steps.entropy_why", ln_eq=eq(Call("ln", Num(str(tx))), w.shown_answer(exact.log(ExactReal.of(tx))))))
    steps.append(step)
    H2 = entropy(sm.weights, sm.neg_log_weights) if ok else None  # after a second softmax
    answer(w, ok, given, sm, weights, floats, states, c, H, H2)
    if ok:
        w.check("already normalised", True, say("verify.normalised", sum_eq=eq(total, Num("1"))))
    else:
        verify_sum(w, weights)
    verify_hull(w, c, states)
    lnT = verify_entropy(w, H, tx)
    w.numeric("max_entropy", say.text("cells.answers.max_entropy"), lnT, float(np.log(tx)))
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall,
                    figures(w, ok, len(set(given)) == 1, weights, states, c, H, H2))


def normalised_step(w: SolutionBuilder, given: list[Fraction], sm, total: Add) -> Step:
    """The first step where the numbers are weights already: they sum to 1,
    and what a second softmax, worked from the printed numbers as a student
    redoes it, would do to them (the printed exponentials, their printed
    sum, each divided by it)."""
    k = int(np.argmax([float(a) for a in given]))
    uniform = len(set(given)) == 1  # a second softmax gives them back unchanged
    exp_nums, z, quotients = worked_softmax(w, sm)
    exps = Seq(tuple(eq(Call("exp", input_node(a)), n) for a, n in zip(given, exp_nums)))
    printed = [w.shown_result(q, w.digits) for q in quotients]
    double = Tup(tuple(printed))
    lost = (ExactReal.of(given[k]) - ExactReal.of(value_of(printed[k]))) / ExactReal.of(given[k])
    return Step(say.text("steps.check.title"), (), (eq(total, input_node(sum(given))),),
                say("steps.check.why_weights"), (
        # one paragraph, as the seed has it: the sentence that opens it cannot end a page alone
        say("steps.check.damage_uniform" if uniform else "steps.check.damage", exps=exps, z=z, double=double,
            largest=number_text(given[k]), n=k + 1, pct=pct(lost, 0)),
        *off_exactly(w, printed, sm, exp_nums),
    ))


def answer(w: SolutionBuilder, ok: bool, given, sm, weights, floats, states, c, H, H2) -> None:
    """The weights, context and entropy; the mistakes named where a response
    matches them: the second softmax (the trap of this cell), or for scores
    the usual softmax slips; log base 2."""
    w.vector("weights", say.text("answers.weights"), weights, floats,
             distractors=[(list(sm.weights), "double_softmax")] if ok else weight_distractors(sm))
    if ok:
        w.vector("double_softmax", say.text("answers.double_softmax"), list(sm.weights), sm.numeric)
    ln2 = exact.log(ExactReal.of(2))
    w.vector("context", say.text("cells.answers.context"), c, numeric.context(floats, [[float(v) for v in h] for h in states]),
             # given weights blended as if they were scores: softmaxed again, exponentiated only, or one-hot
             # (divided by their sum they are themselves)
             distractors=[*([(context(sm.weights, states), "double_softmax")] if ok else []),
                          *context_distractors(sm, states)])
    w.numeric("entropy", say.text("cells.answers.entropy"), H,
              numeric.entropy(floats) if ok else numeric.entropy_of_scores([float(a) for a in given]),
              distractors=[*([(H2, "double_softmax")] if ok else []), (H / ln2, "log_base_2"),
                           (-H, "dropped_minus_sign")])


def figures(w: SolutionBuilder, ok: bool, uniform: bool, weights, states, c, H, H2) -> tuple:
    """The states and their context (in two dimensions), and the entropy of the
    given weights beside that of a second softmax."""
    tx = len(weights)
    labels = ([say.text("figure.labels.given"), say.text("figure.labels.double")] if ok
              else [say.text("figure.labels.scores")])
    caption = say("figure.entropy.scores" if not ok else "figure.entropy.uniform" if uniform
                  else "figure.entropy.flattened", entropy=w.shown_answer(H).text, against=against_max(w, H, tx),
                  entropy2=w.shown_answer(H2).text if ok else "", against2=against_max(w, H2, tx) if ok else "")
    specs = [entropy_figure(w, labels, [H, H2] if ok else [H], tx, caption, highlight=1 if ok else None)]
    spec = context_figure(w, weights, states, c, context_caption(w, weights, c, states))
    if spec:
        specs.insert(0, spec)
    return tuple(specs)


KIND = register(Kind(
    **about("I"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
))
