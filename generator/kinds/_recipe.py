"""The three-line recipe (score → softmax → blend) as reusable exact
computations, worked steps and Verify checks.  Kinds compose these and add
the prose that makes their cell's point."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from ..maths import exact as X
from ..maths import numeric as NP
from ..maths.exact import Ex
from ..mathlines import Add, Call, Chain, Frac, Mul, Neg, Num, Paren, Seq, Sym, Tup, Vec, eq  # noqa: F401  (Seq, Tup used by kinds as R.Seq, R.Tup)
from ..model import FigureSpec, Step, prose
from ..inputs import number_text, parse_scores, parse_states
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
    s = [scale * x for x in scores]
    shift = max(s) if max(abs(x) for x in s) > SHIFT_ABOVE else Fraction(0)
    exps = tuple(X.exp(Ex.of(x - shift)) for x in s)
    Z = X.total(exps)
    if all(x == s[0] for x in s):
        # equal scores: every weight is exactly 1/Tx (symmetry), kept rational
        weights = tuple(Ex.of(Fraction(1, len(s))) for _ in s)
    else:
        weights = tuple(e / Z for e in exps)
    # −ln α_i = (m − s_i) + ln(1 + Σ_{j≠top} e^{s_j − m}): both parts are ≥ 0,
    # so nothing cancels even when one weight is within e^-2000 of 1.
    m = max(s)
    top = s.index(m)
    L = X.log1p(X.total(X.exp(Ex.of(x - m)) for j, x in enumerate(s) if j != top))
    neg_logs = tuple(Ex.of(m - x) + L for x in s)
    return Softmax(tuple(s), shift, exps, Z, weights, neg_logs, NP.softmax([float(x) for x in s]))


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


def pct(x: Ex, places: int = 1) -> str:
    return X.shown(x * 100, places).text + "%"


# -- steps ------------------------------------------------------------------

WHY_EXP = prose(
    "Softmax needs positive quantities before it can form fractions; exp delivers "
    "that and blows up the gaps so the biggest score dominates."
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
            "exp of scores this large (or this negative) overflows a calculator. Adding "
            "the same constant to every score does not change the weights (shift "
            "invariance), so we work with the shifted scores, whose largest is 0."
        ),
    )


def steps_softmax(
    w: Work,
    sm: Softmax,
    t: str | None,
    *,
    why_exp: tuple = WHY_EXP,
    why_sum: tuple = WHY_SUM,
    why_div: tuple = WHY_DIV,
    title_exp: str = "exponentiate every score",
) -> list[Step]:
    """exponentiate → denominator → divide (after a shift step when needed)."""
    steps = []
    shift = step_shift(w, sm)
    if shift:
        steps.append(shift)
    exp_nums = [w.n(e) for e in sm.exps]
    shifted = [s - sm.shift for s in sm.scores]
    steps.append(Step(
        title_exp, (),
        (Seq(tuple(eq(Call("exp", input_node(s)), n) for s, n in zip(shifted, exp_nums))),),
        why_exp,
    ))
    z = w.n(sm.Z)
    steps.append(Step(
        "add them for the denominator", (),
        (eq(Sym("Z"), Add(tuple(exp_nums)), z) if len(exp_nums) > 1 else eq(Sym("Z"), z),),
        why_sum,
    ))
    steps.append(Step(
        "divide", (),
        (Seq(tuple(
            eq(alpha(t, i + 1), Frac(n, z), w.n(a))
            for i, (n, a) in enumerate(zip(exp_nums, sm.weights))
        )),),
        why_div,
    ))
    return steps


def step_entropy(w: Work, weights: Sequence[Ex], neg_log_weights: Sequence[Ex] | None,
                 t: str | None, why: tuple) -> tuple[Step, Ex]:
    H = entropy(weights, neg_log_weights)
    nz = [(i, a) for i, a in enumerate(weights) if a.rat != 0]
    lns = [-neg_log_weights[i] if neg_log_weights is not None else X.log(a) for i, a in nz]
    wn = [w.n(a) for _, a in nz]
    definition = eq(Sym("H"), Neg(Paren(Add(tuple(
        Mul((n, Call("ln", n)), "juxt") for n in wn)))))
    terms = Seq(tuple(
        eq(Mul((n, Paren(w.n(ln)))), w.n(a * ln)) for n, ln, (_, a) in zip(wn, lns, nz)
    ))
    total = Chain(Sym("H"), (("=", Add(tuple(w.n(-(a * ln)) for ln, (_, a) in zip(lns, nz)))),
                             ("=", w.n(H))))
    body = ()
    if len(nz) < len(weights):
        body = (prose("Positions with weight 0 contribute nothing (0 · ln 0 is taken as 0)."),)
    step = Step("compute the entropy", body, (definition, terms, total), why,
                (prose("so ", eq(Sym("H"), w.n(H)), " nats."),))
    return step, H


def step_context(w: Work, weights: Sequence[Ex], states, t: str | None, why: tuple
                 ) -> tuple[Step, list[Ex]]:
    c = context(weights, states)
    wn = [w.n(a) for a in weights]
    vec = lambda h: Vec(tuple(input_node(v) for v in h))
    csym = Sym("c", t or "t")
    blend = eq(csym, Add(tuple(Mul((n, vec(h)), "juxt") for n, h in zip(wn, states))))
    coords = []
    for k in range(len(states[0])):
        prods = [a * Ex.of(h[k]) for a, h in zip(weights, states)]
        coords.append(eq(
            Sym("c", f"{t or 't'},{k + 1}"),
            Add(tuple(Mul((n, Paren(input_node(h[k]))), "juxt") for n, h in zip(wn, states))),
            Add(tuple(w.n(p) for p in prods)),
            w.n(c[k]),
        ))
    result = eq(csym, Vec(tuple(w.n(x) for x in c)))
    step = Step("blend the states into the context", (), (blend, *coords, result), why)
    return step, c


# -- checks (their lines are the Verify section) ------------------------------

def encloses(x: Ex, value: Fraction) -> bool:
    lo, hi = x.bounds()
    return lo <= value <= hi and hi - lo < Fraction(1, 10**20)


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


def answer_softmax(w: Work, sm: Softmax, prefix: str = "", what: str = "") -> None:
    """Report exponentials, denominator and weights of one softmax."""
    shifted = np.array([float(s - sm.shift) for s in sm.scores])
    w.vector(f"{prefix}exponentials", f"exp of each score{what}", list(sm.exps), np.exp(shifted))
    w.numeric(f"{prefix}denominator", f"Z, the sum of the exponentials{what}", sm.Z,
              float(np.exp(shifted).sum()))
    w.vector(f"{prefix}weights", f"attention weights{what}", list(sm.weights), sm.numeric,
             distractors=weight_distractors(sm))


def scores_line(scores: Sequence[Fraction], t: str | None, sym: str = "e") -> Seq:
    return Seq(tuple(eq(Sym(sym, f"{t}{i + 1}" if t else str(i + 1)), input_node(s))
                     for i, s in enumerate(scores)))


def winner(sm: Softmax) -> int:
    return int(np.argmax(sm.numeric))


def forecast_thresholds(x: float) -> tuple[str, str]:
    """Two round thresholds just below a weight, for the Forecast's guess."""
    hi = max(0.1, np.floor(x * 10) / 10)
    return f"{hi - 0.1:.1f}", f"{hi:.1f}"


def states_input(raw, n: int):
    return [[number_text(v) for v in h] for h in parse_states(raw, n)]


def scores_input(raw):
    return [number_text(v) for v in parse_scores(raw)]


def fr(values) -> list[Fraction]:
    """Canonical input strings back to exact rationals."""
    return [Fraction(v) for v in values]


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


def context_distractors(sm: Softmax, states) -> list[tuple[list[Ex], str]]:
    """Wrong context vectors: the same mistakes, carried into the blend."""
    return [(context(ws, states), mis) for ws, mis in weight_distractors(sm)]


# -- figure specs (the data and the "what to see" caption; figures only draw) --

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def position_labels(n: int, words: Sequence[str] | None = None) -> list[str]:
    return list(words) if words else [f"h{str(i + 1).translate(_SUB)}" for i in range(n)]


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
    """The seed's Example 1 caption, on this problem's numbers."""
    name = f"“{labels[k]}”"
    cap = [f"the hatched vermillion bar for {name} (height {w.n(sm.weights[k]).text}) towers over the "
           "pale blue bars of the other positions."]
    if second is not None and second != k:
        gap = sm.scores[k] - sm.scores[second]
        cap.append(f" The raw scores differ by only {number_text(gap)}, yet after exp the winning bar is about "
                   f"{X.shown(X.exp(Ex.of(gap)), 2).text} times as tall as the runner-up “{labels[second]}” — "
                   f"exactly exp({number_text(sm.scores[k])} − {number_text(sm.scores[second])}) = "
                   f"exp({number_text(gap)}), the amplification the arrow marks.")
    return prose("".join(cap))


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


def context_caption(w: Work, weights: Sequence[Ex], c: Sequence[Ex]) -> tuple:
    k = max(range(len(weights)), key=lambda i: float(weights[i]))
    return prose(f"each dot is a state, drawn larger the more weight it gets; the shaded region is their "
                 f"convex hull. The context c = ({w.n(c[0]).text}, {w.n(c[1]).text}) (the X) sits inside it, "
                 f"pulled toward h{str(k + 1).translate(_SUB)}, which carries the largest weight "
                 f"{w.n(weights[k]).text} — a blend can never leave the hull.")


def entropy_figure(w: Work, labels: Sequence[str], values: Sequence[Ex], tx: int, caption: tuple,
                   highlight: int | None = None) -> FigureSpec:
    lnT = X.log(Ex.of(tx))
    data = {"labels": list(labels), "values": [float(v) for v in values], "shown": [w.n(v).text for v in values],
            "max": float(lnT), "max_shown": w.n(lnT).text, "tx": tx, "highlight": highlight}
    return FigureSpec("entropy", data, caption)


def heatmap_figure(w: Work, rows: Sequence[str], cols: Sequence[str], weights, marked, darkest,
                   caption: tuple) -> FigureSpec:
    data = {"rows": list(rows), "cols": list(cols), "values": [[float(a) for a in r] for r in weights],
            "shown": [[w.n(a).text for a in r] for r in weights], "marked": marked, "darkest": list(darkest)}
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
