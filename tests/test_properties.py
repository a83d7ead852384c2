"""Property tests with hypothesis on the exact and numeric paths and on
typed inputs (STYLE.md layer 3)."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import UserError
from generator.maths import exact
from generator.maths.attention import entropy, softmax
from generator.maths.exact import ExactReal, agree, encloses
from generator.maths.ties import rational_value
from generator.pipeline import given_problem, solve_problem

decimals = st.decimals(min_value=-50, max_value=50, places=2, allow_nan=False, allow_infinity=False)
score_lists = st.lists(decimals.map(lambda d: Fraction(str(d))), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(score_lists)
def test_exact_weights_sum_to_one_and_agree_with_numpy(scores):
    sm = softmax(scores)
    assert encloses(exact.total(sm.weights), Fraction(1))
    for a, n in zip(sm.weights, sm.numeric):
        lo, hi = a.bounds()
        assert 0 <= lo and hi <= 1
        assert abs(float(a) - n) <= 1e-12


@settings(max_examples=100, deadline=None)
@given(score_lists, decimals.map(lambda d: Fraction(str(d))))
def test_shift_invariance_exactly(scores, k):
    a = softmax(scores).weights
    b = softmax([s + k for s in scores]).weights
    assert all(encloses(x - y, Fraction(0)) for x, y in zip(a, b))
    assert all(agree(x, y) for x, y in zip(a, b))


def _encloses_by_fractions(x: ExactReal, value: Fraction) -> bool:
    lo, hi = x.bounds()
    return lo <= value <= hi and hi - lo < Fraction(1, 10**20)


@settings(max_examples=150, deadline=None)
@given(score_lists, decimals.map(lambda d: Fraction(str(d))), st.integers(-3, 3))
def test_checks_on_interval_ends_say_what_the_fractions_say(scores, k, nudge):
    """encloses and agree compare the interval ends as integers; they decide
    as the same test on Fractions does, and fail where the values differ
    (by a little: nudge × 10^-21 … 10^-19, or by a lot)."""
    a = softmax(scores).weights
    b = softmax([s + k for s in scores]).weights
    for eps in (Fraction(0), nudge * Fraction(1, 10**21), nudge * Fraction(1, 10**19), Fraction(nudge, 7)):
        for x, y in zip(a, b):
            y2 = y + ExactReal.of(eps)
            assert agree(x, y2) == _encloses_by_fractions(x - y2, Fraction(0))
            assert encloses(x - y2, Fraction(0)) == _encloses_by_fractions(x - y2, Fraction(0))
        total = exact.total(a) + ExactReal.of(eps)
        assert encloses(total, Fraction(1)) == _encloses_by_fractions(total, Fraction(1))
    assert not agree(a[0], a[0] + ExactReal.of(Fraction(1, 10**19)))
    assert agree(ExactReal.of(Fraction(1, 3)), ExactReal.of(Fraction(1, 3)))
    assert not encloses(ExactReal.of(Fraction(1, 3)), Fraction(1, 2))


@settings(max_examples=100, deadline=None)
@given(score_lists, st.randoms(use_true_random=False))
def test_permutation_equivariance(scores, rnd):
    perm = list(range(len(scores)))
    rnd.shuffle(perm)
    a = softmax(scores)
    b = softmax([scores[i] for i in perm])
    assert [exact.shown(b.weights[j], 6) for j in range(len(perm))] == [exact.shown(a.weights[i], 6) for i in perm]


@settings(max_examples=100, deadline=None)
@given(score_lists)
def test_entropy_bounds(scores):
    sm = softmax(scores)
    H = entropy(sm.weights, sm.neg_log_weights)
    assert exact.sign(H) >= 0
    assert exact.compare(exact.log(ExactReal.of(len(scores))), H) >= 0 or len(set(scores)) == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=6), st.integers(-10**7, 10**7), st.floats(), st.none(),
                          st.sampled_from(["0", "-0", "1e-300", "999999", "-1000", "1/3", "5e-324"])),
                max_size=6))
def test_typed_scores_solve_or_refuse_cleanly(raw):
    for kind, extra in (("A", {}), ("B", {}), ("C", {}), ("D", {"shift": "1.5"}), ("F", {})):
        try:
            problem = given_problem(kind, {"scores": raw, **extra})
        except UserError:
            continue
        sol = solve_problem(problem)
        assert np.isclose(sum(sol.answer("weights").value), 1)


def test_sympy_time_is_bounded():
    import time

    import pytest

    from generator.errors import ProblemRejected
    from generator.maths.budget import sympy_budget

    start = time.perf_counter()
    with pytest.raises(ProblemRejected, match="more than 0.2 s"):
        with sympy_budget("a slow step", seconds=0.2):
            time.sleep(5)
    assert time.perf_counter() - start < 2


small_scores = st.lists(st.integers(-6, 6).map(lambda k: Fraction(k, 2)), min_size=2, max_size=4)


@settings(max_examples=25, deadline=None)
@given(small_scores)
def test_cell_h_limits_are_sympys_limits(scores):
    """The closed-form limits of cell H (ties included) are what sympy's `limit` finds."""
    import sympy as sp

    from generator.kinds.cell_h import limits

    beta = sp.Symbol("beta", positive=True)
    hi, lo = limits(scores)
    for i, si in enumerate(scores):
        a = 1 / sp.Add(*[sp.exp(beta * sp.Rational(sj - si)) for sj in scores])
        assert sp.limit(a, beta, sp.oo) == sp.Rational(hi[i])
        assert sp.limit(a, beta, 0) == sp.Rational(lo[i])


def test_exercise_5_2_limits_are_sympys_limits():
    import sympy as sp

    from generator.kinds.ex_5_2 import LIMITS

    d = sp.Symbol("Delta", real=True)
    for e1 in (Fraction(0), Fraction(-3, 2), Fraction(17, 10)):
        a = sp.Rational(e1)
        a2 = sp.exp(a + d) / (sp.exp(a) + sp.exp(a + d))
        for name, to in (("plus", sp.oo), ("zero", 0), ("minus", -sp.oo)):
            lim2 = sp.limit(a2, d, to)
            assert (sp.simplify(1 - lim2), lim2) == tuple(sp.Rational(v) for v in LIMITS[name])


def test_exact_ties_are_settled_by_collecting_terms():
    """Equal weights, and weights against 1, are told apart or equal without
    sympy; a value that is not a rational is left to the interval path."""
    equal = softmax([Fraction(1), Fraction(1), Fraction(3)])
    assert rational_value(equal.weights[0] - equal.weights[1]) == 0
    assert exact.compare(equal.weights[0], equal.weights[1]) == 0
    sm = softmax([Fraction(1), Fraction(14, 5), Fraction(3)])
    assert rational_value(exact.total(sm.weights) - ExactReal.of(1)) == 0
    e = exact.exp(ExactReal.of(2))
    assert rational_value(e / (e + e)) == Fraction(1, 2)
    assert rational_value(sm.weights[0]) is None
    assert rational_value(sm.weights[0] - sm.weights[1]) is None
