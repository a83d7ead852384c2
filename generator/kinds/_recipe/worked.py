"""Worked steps of the recipe: each builder returns the Step a student
follows from printed numbers, and keeps the values that working reaches in
`w.method` for the marking window."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Sequence

from ...maths import exact
from ...maths.attention import SHIFT_ABOVE, Softmax, context, entropy
from ...maths.exact import ExactReal
from ...maths.rounding import format_fraction, round_half_up
from ...mathlines import Add, Call, Chain, Frac, Mul, Neg, Node, Num, Paren, Seq, SumOver, Sym, Vec, eq
from ...model import Step
from ...exam.numbers import value_of
from ...text import Sayer
from .._base import SolutionBuilder, alpha, input_node
from .wording import rounded_to, rounding_cause


say = Sayer("shared")


def step_shift(w: SolutionBuilder, sm: Softmax) -> Step | None:
    if sm.shift == 0:
        return None
    m = input_node(sm.shift)
    lines = tuple(
        eq(Add((input_node(s), Neg(m))), input_node(s - sm.shift)) for s in sm.scores
    )
    return Step(say.text("steps.shift.title"), (say("steps.shift.body", m=m),), (Seq(lines),),
                say("steps.shift.why", above=SHIFT_ABOVE))


def worked_softmax(w: SolutionBuilder, sm: Softmax) -> tuple[list[Num], Num, list[Fraction]]:
    """The softmax as a student works it from printed numbers: exponentials
    rounded to the working places, their printed sum, and each printed
    exponential divided by the printed sum (exact quotients)."""
    exp_nums = [w.shown_working(e) for e in sm.exps]
    z = w.shown_working_result(sum(value_of(n) for n in exp_nums))
    return exp_nums, z, [value_of(n) / value_of(z) for n in exp_nums]


def differs_note(w: SolutionBuilder, pairs: Sequence[tuple[Node, Num, Num]], cause: str) -> tuple:
    """One sentence where the worked lines' results differ in the last place
    from the exact values correctly rounded (the answers); () where none do.
    `pairs` are (symbol, worked result, answer)."""
    off = [(s, m, k) for s, m, k in pairs if m.text != k.text]
    if not off:
        return ()
    worked = Seq(tuple(eq(s, m) for s, m, _ in off))
    keys = Seq(tuple(eq(s, k) for s, _, k in off))
    return (say("notes.differs.many" if len(off) > 1 else "notes.differs.one", worked=worked, cause=cause, keys=keys),)


def printed_weights(w: SolutionBuilder, name: str = "weights") -> list[Num]:
    """The weights as steps_softmax printed them under `name`."""
    return [w.shown_result(q, w.digits) for q in w.method[name][0]]


def steps_softmax(
    w: SolutionBuilder,
    sm: Softmax,
    t: str | None,
    *,
    why_exp: tuple | None = None,
    why_sum: tuple | None = None,
    why_div: tuple | None = None,
    title_exp: str | None = None,
    name: str = "weights",
    prime: bool = False,
    z_answered: bool = True,
) -> list[Step]:
    """exponentiate → denominator → divide (after a shift step when needed).
    The worked results are kept in `w.method` under `name` and `denominator`
    (with the same prefix) for the marking window.  `prime` names the weights
    α′ and the denominator Z′: a second score list worked beside a first.
    `z_answered`: Z is one of the answers (answer_softmax), so where the sum
    of the rounded exponentials rounds otherwise, a note says which is given.
    The reasons and the first title default to the shared steps.*.why and
    steps.exp.title."""
    sym = (lambda i: Sym("alpha", alpha(t, i).sub, "'")) if prime else (lambda i: alpha(t, i))
    Z = Sym("Z", None, "'") if prime else Sym("Z")
    steps = []
    shift = step_shift(w, sm)
    if shift:
        steps.append(shift)
    exp_nums, z, quotients = worked_softmax(w, sm)
    shifted = [s - sm.shift for s in sm.scores]
    steps.append(Step(
        title_exp if title_exp is not None else say.text("steps.exp.title"), (),
        (Seq(tuple(eq(Call("exp", input_node(s)), n) for s, n in zip(shifted, exp_nums))),),
        why_exp if why_exp is not None else say("steps.exp.why"),
    ))
    steps.append(Step(
        say.text("steps.sum.title"), (),
        (eq(Z, Add(tuple(exp_nums)), z) if len(exp_nums) > 1 else eq(Z, z),),
        why_sum if why_sum is not None else say("steps.sum.why"),
        # the sum of the rounded exponentials, where it rounds otherwise than Z
        # itself (8.1125 against 8.11257 → 8.1126), beside Z as the key gives it
        differs_note(w, [(Z, w.shown_result(value_of(z), w.digits), w.shown_answer(sm.Z))],
                     say.text("notes.cause.exps", exps=rounded_to(exp_nums))) if z_answered else (),
    ))
    worked = [w.shown_result(a, w.digits) for a in quotients]
    steps.append(Step(
        say.text("steps.div.title"), (),
        (Seq(tuple(
            eq(sym(i + 1), Frac(n, z), m) for i, (n, m) in enumerate(zip(exp_nums, worked))
        )),),
        why_div if why_div is not None else say("steps.div.why"),
        differs_note(w, [(sym(i + 1), m, w.shown_answer(a)) for i, (m, a) in enumerate(zip(worked, sm.weights))],
                     rounding_cause(exp_nums, z)),
    ))
    prefix = name[: -len("weights")]
    w.method[name] = [quotients]
    w.method[prefix + "denominator"] = [value_of(z)]
    return steps


def shift_cancels(*lhs: Node) -> Node:
    """The algebra of shift invariance: exp(e_i + k) / Σ_j exp(e_j + k)
    = exp(k) exp(e_i) / (exp(k) Σ_j exp(e_j)) = exp(e_i) / Σ_j exp(e_j);
    `lhs` (α′_i) is written before it."""
    def e(i: str) -> Sym:
        return Sym("e", i)

    return eq(*lhs,
              Frac(Call("exp", Add((e("i"), Sym("k")))), SumOver("j", Call("exp", Add((e("j"), Sym("k")))))),
              Frac(Mul((Call("exp", Sym("k")), Call("exp", e("i"))), "juxt"),
                   Mul((Call("exp", Sym("k")), SumOver("j", Call("exp", e("j")))), "juxt")),
              Frac(Call("exp", e("i")), SumOver("j", Call("exp", e("j")))))


def merged_step(title: str, steps: Sequence[Step], why: tuple) -> Step:
    """Several worked steps shown as one (their bodies, maths and notes in
    order) under one title and one reason."""
    return Step(title, tuple(b for s in steps for b in s.body), tuple(m for s in steps for m in s.math), why,
                tuple(a for s in steps for a in s.after))


def worked_term(w: SolutionBuilder, a: Num) -> tuple[Num, Num]:
    """(ln a, a · ln a) for the line a ln(a) = a · (ln a) = product: ln a to
    the working places, or to as many more (up to four) as it takes for the
    product of the printed numbers to round like a ln a itself, so that both
    equalities of the line hold as printed."""
    x = value_of(a)
    target = exact.shown_xlogx(x, w.places)
    for extra in range(5):
        ln = exact.shown_log(x, w.places + extra)
        prod = w.shown_result(x * value_of(ln))
        if prod == target:
            break
    return ln, prod


def step_entropy(w: SolutionBuilder, weights: Sequence[ExactReal], neg_log_weights: Sequence[ExactReal] | None,
                 t: str | None, why: tuple, name: str = "entropy") -> tuple[Step, ExactReal]:
    """H from the weights as the answers print them, term by term; the worked
    result (and the one a calculator gives from the same weights) is kept in
    `w.method[name]` for the marking window."""
    H = entropy(weights, neg_log_weights)
    keys = [w.shown_answer(a) for a in weights if a.rat != 0]
    lns, prods = zip(*(worked_term(w, k) for k in keys)) if keys else ((), ())
    definition = eq(Sym("H"), Neg(Paren(Add(tuple(Mul((k, Call("ln", k)), "juxt") for k in keys)))))
    terms = Seq(tuple(
        eq(Mul((k, Call("ln", k))), Mul((k, Paren(ln))), p) for k, ln, p in zip(keys, lns, prods)))
    total_m = -sum(value_of(p) for p in prods)
    h_m = w.shown_result(total_m)
    # one term (a one-hot weight): its negation is the result, said once
    total = eq(Sym("H"), *((Add(tuple(w.shown_result(-value_of(p)) for p in prods)),) if len(prods) > 1 else ()), h_m)
    body = ()
    if len(keys) < len(weights):
        body = (say("steps.entropy.zero_weights"),)
    after = _entropy_result(w, keys, [a for a in weights if a.rat != 0], total_m, H)
    # a calculator's result from the same weights (to float precision, far
    # finer than the window it widens)
    floats = [float(value_of(k)) for k in keys]
    calculator = -sum(x * math.log(x) for x in floats if x > 0)  # 0 · ln 0 = 0 (and below float range)
    w.method[name] = [total_m, Fraction(calculator)]
    if w.digits < w.places:
        w.slips.setdefault(name, []).append((_rounded_too_soon(w, keys), "rounded_working"))
    step = Step(say.text("steps.entropy.title"), body, (definition, terms, total), why, after)
    return step, H


def _entropy_result(w: SolutionBuilder, keys: Sequence[Num], weights: Sequence[ExactReal], total_m: Fraction,
                    H: ExactReal) -> tuple:
    """The sentence after the entropy's terms: H as the key gives it, and the
    worked result beside it where the two print apart (with the cause)."""
    key = w.shown_answer(H)
    worked = w.shown_result(total_m, w.digits)
    if worked.text == key.text:
        return (say("steps.entropy.result", h=eq(Sym("H"), key)),)
    exact_weights = all(ExactReal.of(value_of(k)).rat == a.rat for k, a in zip(keys, weights))
    approx, h = Chain(Sym("H"), (("≈", worked),)), eq(Sym("H"), key)
    if exact_weights:
        return (say("notes.entropy_differs.terms_rounded", approx=approx, places=w.places, h=h),)
    return (say("notes.entropy_differs.weights_rounded", approx=approx, digits=w.digits, h=h),)


def _rounded_too_soon(w: SolutionBuilder, keys: Sequence[Num]) -> ExactReal:
    """The entropy from terms rounded to the answer's places, as a student who
    does not keep the working's places gets: named where it falls outside the
    window."""
    unit = Fraction(1, 10 ** w.digits)
    return ExactReal.of(-sum(round_half_up(value_of(exact.shown_xlogx(value_of(k), w.digits + 3)) / unit) * unit
                      for k in keys))


def worked_products(w: SolutionBuilder, factors: Sequence[tuple[Fraction, Fraction]]) -> list[Num]:
    """Products of printed numbers, shown exactly where that takes at most two
    places more than the working places, else rounded to the working places."""
    products = [a * b for a, b in factors]
    places = max((decimal_places(p) for p in products), default=0)
    if places <= w.places + 2:
        return [format_fraction(p, max(places, 1)) for p in products]
    return [w.shown_result(p) for p in products]


def decimal_places(f: Fraction) -> int:
    """Decimal places of a rational with a terminating expansion (large if none)."""
    d, n = f.denominator, 0
    while d % 10 == 0:
        d //= 10
        n += 1
    while d % 2 == 0 or d % 5 == 0:
        d //= 2 if d % 2 == 0 else 5
        n += 1
        if n > 40:
            break
    return n if d == 1 else 99


def step_context(w: SolutionBuilder, weights: Sequence[ExactReal], states, t: str | None, why: tuple,
                 name: str = "context") -> tuple[Step, list[ExactReal]]:
    """c from the weights as the answers print them and the given states."""
    c = context(weights, states)
    keys = [w.shown_answer(a) for a in weights]
    vec = lambda h: Vec(tuple(input_node(v) for v in h))
    csym = Sym("c", t or "t")
    blend = eq(csym, Add(tuple(Mul((k, vec(h)), "juxt") for k, h in zip(keys, states))))
    coords, worked, method = [], [], []
    for j in range(len(states[0])):
        prods = worked_products(w, [(value_of(k), Fraction(h[j])) for k, h in zip(keys, states)])
        total_m = sum(value_of(p) for p in prods)
        m = w.shown_result(total_m, w.digits)
        worked.append(m)
        method.append((total_m, sum(value_of(k) * Fraction(h[j]) for k, h in zip(keys, states))))
        coords.append(eq(
            Sym("c", f"{t or 't'},{j + 1}"),
            Add(tuple(Mul((k, Paren(input_node(h[j]))), "juxt") for k, h in zip(keys, states))),
            Add(tuple(prods)),
            m,
        ))
    result = eq(csym, Vec(tuple(w.shown_answer(x) for x in c)))
    note = differs_note(w, [(Sym("c", f"{t or 't'},{j + 1}"), m, w.shown_answer(x)) for j, (m, x) in enumerate(zip(worked, c))],
                        say.text("notes.cause.weights", digits=w.digits))
    w.method[name] = [list(v) for v in zip(*method)]  # two whole vectors
    step = Step(say.text("steps.context.title"), (), (blend, *coords, result), why, note)
    return step, c


def scores_line(scores: Sequence[Fraction], t: str | None, prime: bool = False) -> Seq:
    """e_t1 = …, e_t2 = …; `prime` names them e′ (a second list of scores)."""
    sup = "'" if prime else None
    return Seq(tuple(eq(Sym("e", f"{t}{i + 1}" if t else str(i + 1), sup), input_node(s))
                     for i, s in enumerate(scores)))


def worked_weights(w: SolutionBuilder, sm: Softmax) -> list[Fraction]:
    """The weights a student gets by the worked method (printed exponentials
    over their printed sum), for rows the solution does not write out."""
    return worked_softmax(w, sm)[2]


def worked_weights_calculator(w: SolutionBuilder, sm: Softmax) -> list[Fraction]:
    """worked_weights with an exponential of a million or more kept to the
    working places, as a calculator shows it, where the page rounds it to
    three significant digits (4.85 × 10⁸): a student gets these where the
    page prints no exponentials (H).  At β = 20 on the scores 0.1, 1, −0.4
    the page's route gives 6.91 × 10⁻¹³ for the smallest weight, this one
    6.90 × 10⁻¹³.  (A float holds such an exponential to far finer than the
    window it widens.)"""
    def kept(e: ExactReal) -> Fraction:
        f = float(e)
        return Fraction(round(Decimal(repr(f)), w.places)) if abs(f) >= 1e6 else value_of(w.shown_working(e))

    values = [kept(e) for e in sm.exps]
    z = sum(values)
    return [v / z for v in values]


def states_line(states) -> Seq:
    return Seq(tuple(eq(Sym("h", str(i + 1)), Vec(tuple(input_node(v) for v in h)))
                     for i, h in enumerate(states)))

