"""The three-line recipe (score → softmax → blend) as reusable exact
computations, worked steps and Verify checks.  Kinds compose these and add
the prose that makes their cell's point."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np

from ..maths import exact as X
from ..maths import numeric as NP
from ..maths.exact import Ex
from ..mathlines import Add, Call, Chain, Frac, Mul, Neg, Node, Num, Paren, Seq, Sym, Tup, Vec, eq  # noqa: F401  (Seq, Tup used by kinds as R.Seq, R.Tup)
from ..model import FigureSpec, Step, prose
from ..inputs import number_text, parse_scores, parse_states
from ..exam.numbers import value_of
from ._base import Work, alpha, input_node, shown_sum

# Above this size exp() would overflow a float and swamp the page with
# digits, so the worked solution subtracts the largest score first.
SHIFT_ABOVE = 20


@dataclass(frozen=True)
class Softmax:
    scores: tuple[Fraction, ...]
    shift: Fraction  # subtracted from every score before exponentiating
    exps: tuple[Ex, ...]
    Z: Ex
    weights: tuple[Ex, ...]
    neg_log_weights: tuple[Ex, ...]  # −ln α_i, built from non-negative parts
    numeric: np.ndarray


def softmax(scores: Sequence[Fraction], scale: Fraction = Fraction(1)) -> Softmax:
    """Exact and numeric softmax of scale × scores."""
    s = [x if type(x) is Fraction else Fraction(x) for x in scores] if scale == 1 else [scale * x for x in scores]
    m, least = max(s), min(s)
    shift = m if max(m, -least) > SHIFT_ABOVE else Fraction(0)
    exps = tuple(X.exp(Ex.of(x - shift if shift else x)) for x in s)
    Z = X.total(exps)
    if m == least:
        # equal scores: every weight is exactly 1/Tx (symmetry), kept rational
        weights = tuple(Ex.of(Fraction(1, len(s))) for _ in s)
    else:
        weights = tuple(e / Z for e in exps)
    # −ln α_i = (m − s_i) + ln(1 + Σ_{j≠top} e^{s_j − m}): both parts are ≥ 0,
    # so nothing cancels even when one weight is within e^-2000 of 1.
    top = s.index(m)
    L = X.log1p(X.total(X.exp(Ex.of(x - m)) for j, x in enumerate(s) if j != top))
    neg_logs = tuple(Ex.of(m - x) + L for x in s)
    return Softmax(tuple(s), shift, exps, Z, weights, neg_logs, NP.softmax(float_gaps(s)))


def float_gaps(scores: Sequence[Fraction]) -> list[float]:
    """The numeric path's input: each score minus the largest, subtracted
    exactly and then made a float.  Floats of the scores themselves lose
    their gaps (−999999.99999 and −1000000 are 10⁻⁵ apart, but their floats
    carry errors of 10⁻¹⁰), which a max-subtracted softmax cannot restore."""
    m = max(scores)
    return [float(x - m) for x in scores]


def entropy(weights: Sequence[Ex], neg_log_weights: Sequence[Ex] | None = None) -> Ex:
    """H = Σ α (−ln α), a sum of non-negative terms (0 · ln 0 = 0)."""
    terms = []
    for i, a in enumerate(weights):
        if a.rat == 0:
            continue
        nl = neg_log_weights[i] if neg_log_weights is not None else -X.log(a)
        terms.append(a * nl)
    return X.total(terms)


def context(weights: Sequence[Ex], states: Sequence[Sequence[Fraction]]) -> list[Ex]:
    dim = len(states[0])
    return [X.total(a * Ex.of(h[k]) for a, h in zip(weights, states)) for k in range(dim)]


def where(labels: Sequence[str] | None, i: int) -> str:
    """How prose names input position i (0-based)."""
    if labels:
        return f"“{labels[i]}” (position {i + 1})"
    return f"position {i + 1}"


def and_list(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def positions(idx: Sequence[int], each: str = "", labels: Sequence[str] | None = None) -> str:
    """Names every position of a (tied) group: "position 2", "positions 1 and 3";
    `each` goes before a group of several ("each of positions 1 and 3")."""
    if labels:
        return ("" if len(idx) == 1 else each) + and_list([f"“{labels[i]}”" for i in idx])
    if len(idx) == 1:
        return f"position {idx[0] + 1}"
    return f"{each}positions " + and_list([str(i + 1) for i in idx])


def top_positions(values: Sequence[Ex | Fraction]) -> list[int]:
    """Every position that holds the largest value, ties decided exactly (floats
    pick the candidates; exact comparison only among near-equal ones).  For
    softmax weights pass the scores: the order is the same, and exact."""
    f = [float(v) for v in values]
    m = max(f)
    cand = [i for i, x in enumerate(f) if x >= m - 1e-9 * max(1.0, abs(m))]
    if len(cand) == 1:
        return cand
    cmp = (lambda a, b: (a > b) - (a < b)) if isinstance(values[0], Fraction) else X.compare
    best = [cand[0]]
    for i in cand[1:]:
        c = cmp(values[i], values[best[0]])
        if c > 0:
            best = [i]
        elif c == 0:
            best.append(i)
    return best


def pct(x: Ex, places: int = 1) -> str:
    return X.shown(x * 100, places).text + "%"


# -- steps ------------------------------------------------------------------

WHY_EXP = prose(
    "Softmax needs positive quantities before it can form fractions; exp delivers "
    "that, and it blows up the gaps: a larger score gets a disproportionately larger share."
)
WHY_SUM = prose(
    "Dividing by this total is exactly what forces the weights to sum to 1 — it is "
    "the “share of the whole” step."
)
WHY_DIV = prose("These are the fractions of focus: each box’s share of the total.")


def step_shift(w: Work, sm: Softmax) -> Step | None:
    if sm.shift == 0:
        return None
    m = input_node(sm.shift)
    lines = tuple(
        eq(Add((input_node(s), Neg(m))), input_node(s - sm.shift)) for s in sm.scores
    )
    return Step(
        "subtract the largest score",
        (prose("The largest score is ", m, "; subtract it from every score."),),
        (Seq(lines),),
        prose(
            f"exp of a score beyond ±{SHIFT_ABOVE} is larger than 10⁸ or smaller than 10⁻⁸: digits that "
            "bury the weights (and past ±709 more than a computer's floats hold). Adding "
            "the same constant to every score does not change the weights (shift "
            "invariance), so we work with the shifted scores, whose largest is 0."
        ),
    )


def worked_softmax(w: Work, sm: Softmax) -> tuple[list[Num], Num, list[Fraction]]:
    """The softmax as a student works it from printed numbers: exponentials
    rounded to the working places, their printed sum, and each printed
    exponential divided by the printed sum (exact quotients)."""
    exp_nums = [w.i(e) for e in sm.exps]
    z = w.qs(sum(value_of(n) for n in exp_nums))
    return exp_nums, z, [value_of(n) / value_of(z) for n in exp_nums]


def differs_note(w: Work, pairs: Sequence[tuple[Node, Num, Num]], cause: str) -> tuple:
    """One sentence where the worked lines' results differ in the last place
    from the exact values correctly rounded (the answers); () where none do.
    `pairs` are (symbol, worked result, answer)."""
    off = [(s, m, k) for s, m, k in pairs if m.text != k.text]
    if not off:
        return ()
    worked = Seq(tuple(eq(s, m) for s, m, _ in off))
    exact = Seq(tuple(eq(s, k) for s, _, k in off))
    return (prose("Worked from the rounded numbers above this gives ", worked, f", since {cause}; computed exactly, ",
                  exact, f", the answer{'s' if len(off) > 1 else ''} in the key. Both are accepted."),)


def rounded_to(nums: Sequence[Num]) -> str:
    """How printed numbers were rounded, read off the numbers themselves:
    "4 places", "4–6 places" (small exponentials keep four significant
    digits), "4 places, the smallest to 4 significant digits"."""
    places = sorted({len(n.mant.partition(".")[2]) for n in nums if n.exp10 is None})
    sig = sorted({len(n.mant.lstrip("-").replace(".", "")) for n in nums if n.exp10 is not None})
    span = lambda v: str(v[0]) if len(v) == 1 else f"{v[0]}–{v[-1]}"
    parts = [f"{span(places)} places"] if places else []
    if sig:
        parts.append(f"{'the smallest to ' if places else ''}{span(sig)} significant digits")
    return ", ".join(parts)


def rounding_cause(exp_nums: Sequence[Num], z: Num) -> str:
    """Why a quotient of printed numbers strays from the exact weight: the
    exponentials' rounding, and the sum's where it was rounded too."""
    cause = f"the exponentials were rounded to {rounded_to(exp_nums)}"
    if value_of(z) != sum(value_of(n) for n in exp_nums):
        cause += f" and their sum to {rounded_to([z])}"
    return cause


def printed_weights(w: Work, name: str = "weights") -> list[Num]:
    """The weights as steps_softmax printed them under `name`."""
    return [w.q(q, w.digits) for q in w.method[name][0]]


def printed_apart(first: Sequence[Num], second: Sequence[Num]) -> str:
    """How far apart two printed lists of the same weights read: "" where
    alike, "in the last place" (one unit at most) or "slightly"."""
    if [a.text for a in first] == [b.text for b in second]:
        return ""
    unit = max((Fraction(1, 10 ** len(n.mant.partition(".")[2])) for n in (*first, *second) if n.exp10 is None),
               default=Fraction(0))
    close = all(abs(value_of(a) - value_of(b)) <= unit for a, b in zip(first, second))
    return "in the last place" if close else "slightly"


def steps_softmax(
    w: Work,
    sm: Softmax,
    t: str | None,
    *,
    why_exp: tuple = WHY_EXP,
    why_sum: tuple = WHY_SUM,
    why_div: tuple = WHY_DIV,
    title_exp: str = "exponentiate every score",
    name: str = "weights",
    prime: bool = False,
    z_answered: bool = True,
) -> list[Step]:
    """exponentiate → denominator → divide (after a shift step when needed).
    The worked results are kept in `w.method` under `name` and `denominator`
    (with the same prefix) for the marking window.  `prime` names the weights
    α′ and the denominator Z′: a second score list worked beside a first.
    `z_answered`: Z is one of the answers (answer_softmax), so where the sum
    of the rounded exponentials rounds otherwise, a note says which is given."""
    sym = (lambda i: Sym("alpha", alpha(t, i).sub, "'")) if prime else (lambda i: alpha(t, i))
    Z = Sym("Z", None, "'") if prime else Sym("Z")
    steps = []
    shift = step_shift(w, sm)
    if shift:
        steps.append(shift)
    exp_nums, z, quotients = worked_softmax(w, sm)
    shifted = [s - sm.shift for s in sm.scores]
    steps.append(Step(
        title_exp, (),
        (Seq(tuple(eq(Call("exp", input_node(s)), n) for s, n in zip(shifted, exp_nums))),),
        why_exp,
    ))
    steps.append(Step(
        "add them for the denominator", (),
        (eq(Z, Add(tuple(exp_nums)), z) if len(exp_nums) > 1 else eq(Z, z),),
        why_sum,
        # the sum of the rounded exponentials, where it rounds otherwise than Z
        # itself (8.1125 against 8.11257 → 8.1126), beside Z as the key gives it
        differs_note(w, [(Z, w.q(value_of(z), w.digits), w.n(sm.Z))],
                     f"the exponentials were rounded to {rounded_to(exp_nums)}") if z_answered else (),
    ))
    worked = [w.q(a, w.digits) for a in quotients]
    steps.append(Step(
        "divide", (),
        (Seq(tuple(
            eq(sym(i + 1), Frac(n, z), m) for i, (n, m) in enumerate(zip(exp_nums, worked))
        )),),
        why_div,
        differs_note(w, [(sym(i + 1), m, w.n(a)) for i, (m, a) in enumerate(zip(worked, sm.weights))],
                     rounding_cause(exp_nums, z)),
    ))
    prefix = name[: -len("weights")]
    w.method[name] = [quotients]
    w.method[prefix + "denominator"] = [value_of(z)]
    return steps


def worked_term(w: Work, a: Num) -> tuple[Num, Num]:
    """(ln a, a · ln a) for the line a ln(a) = a · (ln a) = product: ln a to
    the working places, or to as many more (up to four) as it takes for the
    product of the printed numbers to round like a ln a itself, so that both
    equalities of the line hold as printed."""
    x = value_of(a)
    target = X.shown_xlogx(x, w.places)
    for extra in range(5):
        ln = X.shown_log(x, w.places + extra)
        prod = w.q(x * value_of(ln))
        if prod == target:
            break
    return ln, prod


def step_entropy(w: Work, weights: Sequence[Ex], neg_log_weights: Sequence[Ex] | None,
                 t: str | None, why: tuple, name: str = "entropy") -> tuple[Step, Ex]:
    """H from the weights as the answers print them, term by term; the worked
    result (and the one a calculator gives from the same weights) is kept in
    `w.method[name]` for the marking window."""
    H = entropy(weights, neg_log_weights)
    keys = [w.n(a) for a in weights if a.rat != 0]
    lns, prods = zip(*(worked_term(w, k) for k in keys)) if keys else ((), ())
    definition = eq(Sym("H"), Neg(Paren(Add(tuple(Mul((k, Call("ln", k)), "juxt") for k in keys)))))
    terms = Seq(tuple(
        eq(Mul((k, Call("ln", k))), Mul((k, Paren(ln))), p) for k, ln, p in zip(keys, lns, prods)))
    total_m = -sum(value_of(p) for p in prods)
    h_m = w.q(total_m)
    # one term (a one-hot weight): its negation is the result, said once
    total = eq(Sym("H"), *((Add(tuple(w.q(-value_of(p)) for p in prods)),) if len(prods) > 1 else ()), h_m)
    body = ()
    if len(keys) < len(weights):
        body = (prose("Positions with weight 0 contribute nothing (0 · ln 0 is taken as 0)."),)
    key = w.n(H)
    worked = w.q(total_m, w.digits)
    if worked.text == key.text:
        after = (prose("so ", eq(Sym("H"), key), " nats."),)
    else:
        exact_weights = all(Ex.of(value_of(k)).rat == a.rat for k, a in zip(keys, (a for a in weights if a.rat != 0)))
        cause = (f"each term was rounded to {w.places} places" if exact_weights else
                 f"the weights were rounded to {w.digits} places")
        after = (prose("so ", Chain(Sym("H"), (("≈", worked),)), f" nats from the numbers as printed, since {cause}; "
                       "computed exactly, ", eq(Sym("H"), key), " nats, the answer in the key. Both are accepted."),)
    # a calculator's result from the same weights (to float precision, far
    # finer than the window it widens)
    floats = [float(value_of(k)) for k in keys]
    calculator = -sum(x * math.log(x) for x in floats if x > 0)  # 0 · ln 0 = 0 (and below float range)
    w.method[name] = [total_m, Fraction(calculator)]
    if w.digits < w.places:
        # the terms rounded to the answer's places, as a student who does not keep
        # the working's places gets: named where it falls outside the window
        unit = Fraction(1, 10 ** w.digits)
        rounded = -sum(X.round_half_up(value_of(X.shown_xlogx(value_of(k), w.digits + 3)) / unit) * unit
                       for k in keys)
        w.slips.setdefault(name, []).append((Ex.of(rounded), "rounded_working"))
    step = Step("compute the entropy", body, (definition, terms, total), why, after)
    return step, H


def worked_products(w: Work, factors: Sequence[tuple[Fraction, Fraction]]) -> list[Num]:
    """Products of printed numbers, shown exactly where that takes at most two
    places more than the working places, else rounded to the working places."""
    exact = [a * b for a, b in factors]
    places = max((decimal_places(p) for p in exact), default=0)
    if places <= w.places + 2:
        return [X.format_fraction(p, max(places, 1)) for p in exact]
    return [w.q(p) for p in exact]


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


def step_context(w: Work, weights: Sequence[Ex], states, t: str | None, why: tuple,
                 name: str = "context") -> tuple[Step, list[Ex]]:
    """c from the weights as the answers print them and the given states."""
    c = context(weights, states)
    keys = [w.n(a) for a in weights]
    vec = lambda h: Vec(tuple(input_node(v) for v in h))
    csym = Sym("c", t or "t")
    blend = eq(csym, Add(tuple(Mul((k, vec(h)), "juxt") for k, h in zip(keys, states))))
    coords, worked, method = [], [], []
    for j in range(len(states[0])):
        prods = worked_products(w, [(value_of(k), Fraction(h[j])) for k, h in zip(keys, states)])
        total_m = sum(value_of(p) for p in prods)
        m = w.q(total_m, w.digits)
        worked.append(m)
        method.append((total_m, sum(value_of(k) * Fraction(h[j]) for k, h in zip(keys, states))))
        coords.append(eq(
            Sym("c", f"{t or 't'},{j + 1}"),
            Add(tuple(Mul((k, Paren(input_node(h[j]))), "juxt") for k, h in zip(keys, states))),
            Add(tuple(prods)),
            m,
        ))
    result = eq(csym, Vec(tuple(w.n(x) for x in c)))
    note = differs_note(w, [(Sym("c", f"{t or 't'},{j + 1}"), m, w.n(x)) for j, (m, x) in enumerate(zip(worked, c))],
                        f"the weights were rounded to {w.digits} places")
    w.method[name] = [list(v) for v in zip(*method)]  # two whole vectors
    step = Step("blend the states into the context", (), (blend, *coords, result), why, note)
    return step, c


# -- checks (their lines are the Verify section) ------------------------------

encloses, agree = X.encloses, X.agree


def verify_sum(w: Work, weights: Sequence[Ex], name: str = "weights sum to one") -> None:
    nums = [w.n(a) for a in weights]
    s = shown_sum(nums)
    lhs = Add(tuple(nums)) if len(nums) > 1 else nums[0]
    if s == 1:
        line = Chain(lhs, (("=", Num(f"{1:.{w.digits}f}")),))
        tail = " ✓ (sums to one, as any probability distribution must)."
    else:
        rest = (("=", Num(str(s))),) if -s.as_tuple().exponent <= w.digits else ()
        line = Chain(lhs, rest + (("≈", Num("1")),))
        tail = " ✓ — the rounded weights miss 1 only by rounding; the exact weights sum to 1."
    w.check(name, encloses(X.total(weights), Fraction(1)), prose(line, tail))


def verify_range(w: Work, weights: Sequence[Ex]) -> None:
    ok = all(X.sign(a) >= 0 and X.sign(Ex.of(1) - a) >= 0 for a in weights)
    w.check("weights in [0, 1]", ok, prose("Every weight lies in [0, 1] ✓."))


def verify_entropy(w: Work, H: Ex, n: int) -> Ex:
    lnT = X.log(Ex.of(n))
    ok = X.sign(H) >= 0 and (n == 1 or X.sign(lnT - H) >= 0)
    w.check("0 ≤ H ≤ ln Tx", ok, prose(
        Chain(Num("0"), (("≤", Sym("H")), ("=", w.n(H)), ("≤", Call("ln", Num(str(n)))),
                         ("=", w.n(lnT)))),
        " ✓ — entropy is never negative and never above its uniform maximum ln ",
        Sym("T", "x"), ".",
    ))
    return lnT


def verify_hull(w: Work, c: Sequence[Ex], states, t: str | None = None) -> None:
    parts = []
    ok = True
    for k, ck in enumerate(c):
        lo = min(h[k] for h in states)
        hi = max(h[k] for h in states)
        ok = ok and X.sign(ck - Ex.of(lo)) >= 0 and X.sign(Ex.of(hi) - ck) >= 0
        parts.append(Chain(Sym("c", f"{t or 't'},{k + 1}"), (("=", w.n(ck)), ("∈", Vec((input_node(lo), input_node(hi)))))))
    w.check("context inside the hull", ok, prose(
        "Each coordinate of the context lies within the min–max of that coordinate "
        "across the states: ", Seq(tuple(parts)),
        " ✓, as any convex combination must.",
    ))


def answer_softmax(w: Work, sm: Softmax) -> None:
    """Report exponentials, denominator and weights of one softmax; where the
    largest score was subtracted first, the labels say so."""
    shifted = np.array([float(s - sm.shift) for s in sm.scores])
    of = f"exp(score − {number_text(sm.shift)}), the largest score subtracted" if sm.shift else "exp of each score"
    w.vector("exponentials", of, list(sm.exps), np.exp(shifted))
    w.numeric("denominator", "Z, the sum of the exponentials" + (
        f" of the scores minus {number_text(sm.shift)}" if sm.shift else ""), sm.Z,
              float(np.exp(shifted).sum()))
    w.vector("weights", "attention weights", list(sm.weights), sm.numeric,
             distractors=weight_distractors(sm))



def scores_line(scores: Sequence[Fraction], t: str | None, prime: bool = False) -> Seq:
    """e_t1 = …, e_t2 = …; `prime` names them e′ (a second list of scores)."""
    sup = "'" if prime else None
    return Seq(tuple(eq(Sym("e", f"{t}{i + 1}" if t else str(i + 1), sup), input_node(s))
                     for i, s in enumerate(scores)))


def winner(sm: Softmax) -> int:
    """The position of the largest weight (the first of tied ones), decided
    exactly: floats cannot tell 1 from 1.00000000000000000001."""
    return top_positions(sm.scores)[0]


def lead(sm: Softmax) -> int | None:
    """The position of the one largest score; None when several tie for it."""
    tops = top_positions(sm.scores)
    return tops[0] if len(tops) == 1 else None


def worked_weights(w: Work, sm: Softmax) -> list[Fraction]:
    """The weights a student gets by the worked method (printed exponentials
    over their printed sum), for rows the solution does not write out."""
    return worked_softmax(w, sm)[2]


def worked_weights_calculator(w: Work, sm: Softmax) -> list[Fraction]:
    """worked_weights with an exponential of a million or more kept to the
    working places, as a calculator shows it, where the page rounds it to
    three significant digits (4.85 × 10⁸): a student gets these where the
    page prints no exponentials (H).  At β = 20 on the scores 0.1, 1, −0.4
    the page's route gives 6.91 × 10⁻¹³ for the smallest weight, this one
    6.90 × 10⁻¹³.  (A float holds such an exponential to far finer than the
    window it widens.)"""
    def kept(e: Ex) -> Fraction:
        f = float(e)
        return Fraction(round(Decimal(repr(f)), w.places)) if abs(f) >= 1e6 else value_of(w.i(e))

    values = [kept(e) for e in sm.exps]
    z = sum(values)
    return [v / z for v in values]


def forecast_thresholds(x: float) -> tuple[str, str]:
    """Two round thresholds just below a weight, for the Forecast's guess
    (never "above 1.0": no weight is)."""
    if x >= 0.99:
        return "0.9", "0.99"
    hi = max(0.1, min(0.9, np.floor(x * 10) / 10))
    return f"{hi - 0.1:.1f}", f"{hi:.1f}"


def states_input(raw, n: int):
    return [[number_text(v) for v in h] for h in parse_states(raw, n)]


def scores_input(raw):
    return [number_text(v) for v in parse_scores(raw)]


def fr(values) -> list[Fraction]:
    """Canonical input strings back to exact rationals."""
    return [_fraction(v) for v in values]


@lru_cache(maxsize=8192)
def _fraction(text: str) -> Fraction:
    return Fraction(text)


def states_line(states) -> Seq:
    return Seq(tuple(eq(Sym("h", str(i + 1)), Vec(tuple(input_node(v) for v in h)))
                     for i, h in enumerate(states)))


def weight_distractors(sm: Softmax) -> list[tuple[list[Ex], str]]:
    """Wrong weight vectors from the catalogue, computed on these scores."""
    n = len(sm.scores)
    out: list[tuple[list[Ex], str]] = []
    total_s = sum(sm.scores)
    if total_s != 0:
        out.append(([Ex.of(s / total_s) for s in sm.scores], "divide_by_sum"))
    if sm.shift == 0:
        out.append((list(sm.exps), "forgot_to_normalise"))
    top = max(sm.scores)
    if sm.scores.count(top) == 1:
        out.append(([Ex.of(int(s == top)) for s in sm.scores], "hard_argmax"))
    out.append(([Ex.of(Fraction(1, n))] * n, "uniform_weights"))
    return out


def table_distractors(sms: Sequence[Softmax]) -> list[tuple[list[list[Ex]], str]]:
    """Wrong tables of weights (one row per softmax): each mistake of
    weight_distractors made on every row, where it is defined on every row."""
    rows = [dict((mis, ws) for ws, mis in weight_distractors(sm)) for sm in sms]
    return [([r[mis] for r in rows], mis) for mis in rows[0] if all(mis in r for r in rows)] if rows else []


def context_distractors(sm: Softmax, states) -> list[tuple[list[Ex], str]]:
    """Wrong context vectors: the same mistakes, carried into the blend."""
    return [(context(ws, states), mis) for ws, mis in weight_distractors(sm)]


# -- figure specs (the data and the "what to see" caption; figures only draw) --

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def position_labels(n: int, words: Sequence[str] | None = None) -> list[str]:
    return list(words) if words else [f"h{str(i + 1).translate(_SUB)}" for i in range(n)]


def figure_number(x) -> str:
    """An input number as a figure's label shows it: with a true minus sign, as
    the figures' axes and the typeset text have it, not a hyphen."""
    return number_text(x).replace("-", "\u2212")


def bars_figure(w: Work, weights: Sequence[Ex], labels: Sequence[str], caption: tuple, *,
                winner: int | None = None, ratio: tuple[int, Ex, Fraction] | None = None,
                title: str = "attention weights") -> FigureSpec:
    data = {"labels": list(labels), "values": [float(a) for a in weights],
            "shown": [w.n(a).text for a in weights], "winner": winner, "title": title}
    if ratio is not None:
        over, value, gap = ratio
        data["ratio"] = {"over": over, "shown": X.shown(value, 2).text, "gap": number_text(gap)}
    return FigureSpec("bars", data, caption)


def winner_caption(w: Work, sm: Softmax, labels: Sequence[str], k: int, second: int | None) -> tuple:
    """The seed's Example 1 caption, on this problem's numbers: how much the
    tallest bar stands out is said from the ratio to the runner-up."""
    tops = top_positions(sm.scores)
    if len(tops) > 1:
        names = positions(tops, labels=[labels[i] for i in range(len(labels))])
        return prose(f"the bars for {names} stand level at {w.n(sm.weights[tops[0]]).text}, the tallest: their "
                     "scores tie, so softmax gives them equal weight and no single bar wins.")
    name = f"“{labels[k]}”"
    rest = [i for i in range(len(sm.weights)) if i != k]
    if not rest:
        return prose(f"a single bar, {name}, of height 1.")
    runners = [rest[i] for i in top_positions([sm.scores[i] for i in rest])]  # every tied runner-up
    runner = runners[0]
    # the weights' ratio is exp of the score gap (floats of tiny weights underflow)
    gap = float(sm.scores[k] - sm.scores[runner])
    stands = ("towers over" if gap >= np.log(2) else "stands clearly above" if gap >= np.log(1.25)
              else "is only slightly taller than")
    tallest = (f"the tallest of them, “{labels[runner]}”, is" if len(runners) == 1 else
               f"the tallest of them, {positions(runners, labels=labels)}, are each")
    cap = [f"the hatched vermillion bar for {name} (height {w.n(sm.weights[k]).text}) {stands} the pale blue "
           f"bars of the other positions ({tallest} {w.n(sm.weights[runner]).text})."]
    if second is not None and second != k:
        gap = sm.scores[k] - sm.scores[second]
        only = "only " if gap <= 3 else ""
        cap.append(f" The raw scores differ by {only}{signed(gap)}, yet after exp the winning bar is about "
                   f"{X.shown(X.exp(Ex.of(gap)), 2).text} times as tall as the runner-up “{labels[second]}” — "
                   f"exactly exp({signed(sm.scores[k])} − {signed(sm.scores[second], paren=True)}) = "
                   f"exp({signed(gap)}), the amplification the arrow marks.")
    return prose("".join(cap))


def signed(x: Fraction, paren: bool = False) -> str:
    """A number for prose, with a true minus sign (U+2212); in parentheses
    when negative and `paren` (after a minus: 2.1 − (−0.5))."""
    text = number_text(x).replace("-", "−")
    return f"({text})" if paren and x < 0 else text


def nearest_state(c: Sequence[Ex], states) -> list[int]:
    """Positions of the states nearest to the context (squared distances in
    floats; exact only to decide a near-tie)."""
    cf = [float(x) for x in c]
    d = [sum((x - float(h[j])) ** 2 for j, x in enumerate(cf)) for h in states]
    m = min(d)
    near = [i for i, x in enumerate(d) if x <= m + 1e-9 * max(1.0, m)]
    if len(near) == 1:
        return near
    exact = [X.total((ck - Ex.of(states[i][j])) * (ck - Ex.of(states[i][j])) for j, ck in enumerate(c))
             for i in near]
    return [near[i] for i in top_positions([-x for x in exact])]


def convex_hull(points: Sequence[Sequence[Fraction]]) -> list[tuple[Fraction, Fraction]]:
    """Exact convex hull (Andrew's monotone chain), counter-clockwise."""
    pts = sorted({(p[0], p[1]) for p in points})
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def context_figure(w: Work, weights: Sequence[Ex], states, c: Sequence[Ex], caption: tuple) -> FigureSpec | None:
    if len(states[0]) != 2:
        return None
    data = {"states": [[float(v) for v in h] for h in states], "labels": position_labels(len(states)),
            "weights": [float(a) for a in weights], "weights_shown": [w.n(a).text for a in weights],
            "hull": [[float(x), float(y)] for x, y in convex_hull(states)],
            "context": [float(x) for x in c], "context_shown": [w.n(x).text for x in c]}
    return FigureSpec("context", data, caption)


def context_caption(w: Work, weights: Sequence[Ex], c: Sequence[Ex], states) -> tuple:
    """Where the context sits, said from the geometry: the nearest state, and
    whether it is the one with the largest weight."""
    heavy = top_positions(weights)
    near = nearest_state(c, states)
    sub = lambda i: f"h{str(i + 1).translate(_SUB)}"
    names = lambda idx: and_list([sub(i) for i in idx])
    region, inside, _ = hull_words(states)
    where = f"The context c = ({w.n(c[0]).text}, {w.n(c[1]).text}) (the X) sits {inside} it"
    wt = w.n(weights[heavy[0]]).text
    if len(heavy) == 1 and near == heavy:
        lean = (f", nearest to {sub(heavy[0])}, which carries the largest weight {wt}: the blend is pulled "
                "toward the state it weights most")
    elif len(heavy) == 1 and heavy[0] in near:  # equally near to several, the heaviest among them
        lean = (f", nearest to {names(near)} (equally near), among them {sub(heavy[0])}, which carries the "
                f"largest weight {wt}: the blend is pulled toward the state it weights most")
    elif len(heavy) == 1:
        lean = (f", nearest to {names(near)}, although {sub(heavy[0])} carries the largest weight {wt}: the other "
                "states’ weights pull it away")
    else:
        lean = f", nearest to {names(near)}; {names(heavy)} share the largest weight {wt}"
    return prose(f"each dot is a state, drawn larger the more weight it gets; {region}. {where}{lean} — a blend "
                 "can never leave the hull.")


def hull_words(states) -> tuple[str, str, str]:
    """What the context figure draws as the states' convex hull, in words: a
    shaded region only where the states span a plane, a segment where they
    lie on one line (two states), a point where they coincide.  Returns the
    sentence that names it, the word for a point of it ("inside", "on",
    "at") and where the centroid sits."""
    corners = len(convex_hull(states))
    if corners >= 3:
        return "the shaded region is their convex hull", "inside", "inside the shaded hull"
    if corners == 2 and len({tuple(s) for s in states}) == 2:  # two states: the segment that joins them
        return ("their convex hull is the segment drawn between the two", "on",
                "on the segment drawn between the two states, their convex hull")
    if corners == 2:
        return ("the states lie on one line, so their convex hull is the segment drawn between the outermost "
                "two", "on", "on the segment drawn between the outermost states, their convex hull (they lie on "
                "one line)")
    return "the states are one point, which is their convex hull", "at", "at that one point"


def against_max(w: Work, H: Ex, tx: int) -> str:
    """How an entropy compares with its maximum ln Tx, in words the ratio
    bears out (with the ratio itself)."""
    lnT = X.log(Ex.of(tx))
    r = float(H) / float(lnT) if tx > 1 else 0.0
    if tx > 1 and X.compare(H, lnT) == 0:  # uniform weights: exactly at it
        return f"at the dashed maximum ln {tx} = {w.n(lnT).text}"
    where = ("well below" if r < 0.5 else "below" if r < 0.8 else "a large part of the way to" if r < 0.95
             else "close to")
    return (f"{where} the dashed maximum ln {tx} = {w.n(lnT).text} ({r * 100:.0f}% of it)" if tx > 1
            else "at its maximum ln 1 = 0")


def entropy_figure(w: Work, labels: Sequence[str], values: Sequence[Ex], tx: int, caption: tuple,
                   highlight: int | None = None) -> FigureSpec:
    lnT = X.log(Ex.of(tx))
    data = {"labels": list(labels), "values": [float(v) for v in values], "shown": [w.n(v).text for v in values],
            "max": float(lnT), "max_shown": w.n(lnT).text, "tx": tx, "highlight": highlight}
    return FigureSpec("entropy", data, caption)


def heatmap_figure(w: Work, rows: Sequence[str], cols: Sequence[str], weights, marked, darkest,
                   caption: tuple) -> FigureSpec:
    data = {"rows": list(rows), "cols": list(cols), "values": [[float(a) for a in r] for r in weights],
            "shown": [[w.n(a).text for a in r] for r in weights], "marked": marked,
            "darkest": list(darkest) if darkest else None}
    return FigureSpec("heatmap", data, caption)


def sharpening_figure(w: Work, scores, dials, sms, hi, lo, xname: str, caption: tuple, *,
                      log: bool, labels: Sequence[str] | None = None, base: Fraction = Fraction(0)) -> FigureSpec:
    """Weights against the dial: β scales the scores (log axis), or Δ is the gap of two scores."""
    floats = np.array([float(s) for s in scores])
    if log:
        grid = np.geomspace(min(0.05, float(min(dials)) / 2), max(50.0, float(max(dials)) * 2), 60)
        curves = np.array([NP.softmax(floats * b) for b in grid]).T
    else:
        grid = np.linspace(-8.0, 8.0, 65)
        curves = np.array([NP.softmax([0.0, d]) for d in grid]).T
    data = {"grid": [float(g) for g in grid], "curves": curves.tolist(), "log": log,
            "labels": list(labels or [f"α{str(i + 1).translate(_SUB)}" for i in range(len(scores))]),
            "marks": [float(d) for d in dials], "mark_labels": [number_text(d) for d in dials],
            "marked": [[float(sm.weights[i]) for sm in sms] for i in range(len(sms[0].weights))],
            "marked_shown": [[w.n(a).text for a in sm.weights] for sm in sms],
            "limit_high": [float(v) for v in hi], "limit_high_shown": [str(v) for v in hi],
            "limit_low_shown": [str(v) for v in lo], "xlabel": xname + (" (log scale)" if log else ""),
            "xname": xname}
    return FigureSpec("sharpening", data, caption)
