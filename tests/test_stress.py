"""500 seeds per kind: the cell's property, exact = numeric, the invariants
of attention, and that the draws vary (STYLE.md layer 3, after R/exams'
stresstest_exercise)."""

import math
from fractions import Fraction

import numpy as np
import pytest

from generator import kinds
from generator.maths import numeric as NP
from generator.pipeline import sample_problem, solve_problem

SEEDS = range(500)
KINDS = [k.id for k in kinds.all_kinds()]


def rows(values):
    a = np.asarray(values, dtype=float)
    return a if a.ndim == 2 else a[None, :]


def scores_of(inputs):
    s = inputs.get("scores")
    if s is None:
        return None
    return rows([[float(Fraction(x)) for x in r] if isinstance(r, list) else float(Fraction(r))
                 for r in s])


@pytest.mark.parametrize("kind", KINDS)
def test_stress(kind):
    k = kinds.get(kind)
    seen = set()
    for seed in SEEDS:
        sol = solve_problem(sample_problem(kind, seed))
        inputs = sol.problem.inputs
        assert k.property(inputs) is None, (seed, inputs)
        if seed < 100:
            seen.add(repr(sorted(inputs.items())))
        answers = {a.name: a for a in sol.answers}
        w = rows(answers["weights"].value)
        # weights in [0, 1] summing to 1 (per row)
        assert (w >= 0).all() and (w <= 1).all()
        assert np.allclose(w.sum(axis=1), 1, atol=1e-12)
        # exact = numeric: recompute independently from the inputs with numpy
        s = scores_of(inputs)
        if s is not None and kind not in ("H", "I"):
            np.testing.assert_allclose(w, NP.softmax(s), rtol=1e-9, atol=1e-12)
            # shift invariance and permutation equivariance of the numeric path
            np.testing.assert_allclose(NP.softmax(s + 3.7), NP.softmax(s), atol=1e-12)
            perm = np.random.default_rng(seed).permutation(s.shape[1])
            np.testing.assert_allclose(NP.softmax(s[:, perm]), NP.softmax(s)[:, perm], atol=1e-12)
        if "entropy" in answers:
            H = answers["entropy"].value
            assert -1e-12 <= H <= math.log(w.shape[1]) + 1e-12
            assert abs(H - NP.entropy(w[0])) < 1e-12
        if "context" in answers:
            c = np.asarray(answers["context"].value)
            states = np.asarray([[float(Fraction(v)) for v in h] for h in inputs["states"]])
            assert (c >= states.min(axis=0) - 1e-12).all() and (c <= states.max(axis=0) + 1e-12).all()
            np.testing.assert_allclose(c, w[0] @ states, atol=1e-12)
        # every display is the rounding of its value
        for a in sol.answers:
            for v, d, tol in zip(np.ravel(a.value), np.ravel(a.display), np.ravel(a.tolerance)):
                shown = float(d.replace(" × 10", "e").translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
                assert abs(shown - v) <= tol * (1 + 1e-9), (a.name, v, d)
    # the draws vary: no two of 100 consecutive variants are identical
    # (cell E draws one score and one state, so repeats are rarer than 1 in 100 but possible)
    assert len(seen) >= (97 if kind == "E" else 100), len(seen)
