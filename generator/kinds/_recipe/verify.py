"""The recipe's checks: each passes or rejects the problem, and its line is
a sentence of the Verify section."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ...maths import exact
from ...maths.exact import ExactReal, encloses
from ...mathlines import Add, Call, Chain, Num, Seq, Sym, Vec
from ...text import Sayer
from .._base import SolutionBuilder, input_node, shown_sum

say = Sayer("shared")


def verify_sum(w: SolutionBuilder, weights: Sequence[ExactReal], name: str = "weights sum to one") -> None:
    nums = [w.shown_answer(a) for a in weights]
    s = shown_sum(nums)
    lhs = Add(tuple(nums)) if len(nums) > 1 else nums[0]
    if s == 1:
        line = Chain(lhs, (("=", Num(f"{1:.{w.digits}f}")),))
        key = "verify.sum.exact"
    else:
        rest = (("=", Num(str(s))),) if -s.as_tuple().exponent <= w.digits else ()
        line = Chain(lhs, rest + (("≈", Num("1")),))
        key = "verify.sum.rounded"
    w.check(name, encloses(exact.total(weights), Fraction(1)), say(key, line=line))


def verify_range(w: SolutionBuilder, weights: Sequence[ExactReal]) -> None:
    ok = all(exact.sign(a) >= 0 and exact.sign(ExactReal.of(1) - a) >= 0 for a in weights)
    w.check("weights in [0, 1]", ok, say("verify.range"))


def verify_entropy(w: SolutionBuilder, H: ExactReal, n: int) -> ExactReal:
    lnT = exact.log(ExactReal.of(n))
    ok = exact.sign(H) >= 0 and (n == 1 or exact.sign(lnT - H) >= 0)
    w.check("0 ≤ H ≤ ln Tx", ok, say("verify.entropy", chain=Chain(
        Num("0"), (("≤", Sym("H")), ("=", w.shown_answer(H)), ("≤", Call("ln", Num(str(n)))),
                   ("=", w.shown_answer(lnT))))))
    return lnT


def verify_hull(w: SolutionBuilder, c: Sequence[ExactReal], states, t: str | None = None) -> None:
    parts = []
    ok = True
    for k, ck in enumerate(c):
        lo = min(h[k] for h in states)
        hi = max(h[k] for h in states)
        ok = ok and exact.sign(ck - ExactReal.of(lo)) >= 0 and exact.sign(ExactReal.of(hi) - ck) >= 0
        parts.append(Chain(Sym("c", f"{t or 't'},{k + 1}"), (("=", w.shown_answer(ck)), ("∈", Vec((input_node(lo), input_node(hi)))))))
    w.check("context inside the hull", ok, say("verify.hull", coords=Seq(tuple(parts))))

