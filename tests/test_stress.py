"""500 seeds per kind (R/exams' stresstest_exercise, STYLE.md layer 3):
the cell's property, exact = numeric, the invariants of attention, options
and distractors, the spread of the correct option's position, and that the
draws vary."""

import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from generator import kinds
from generator.exam.misconceptions import CATALOGUE
from generator.maths import numeric
from generator.pipeline import sample_problem, solve_problem
from generator.render.markdown import inline

SEEDS = range(500)
KINDS = [k.id for k in kinds.all_kinds()]
SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def rows(values):
    a = np.asarray(values, dtype=float)
    return a if a.ndim == 2 else a[None, :]


def as_float(text: str) -> float:
    return float(text.replace(" × 10", "e").translate(SUPERSCRIPTS))


def check_attention(kind, inputs, answers, seed):
    w = rows(answers["weights"].value)
    assert (w >= 0).all() and (w <= 1).all()
    assert np.allclose(w.sum(axis=1), 1, atol=1e-12)
    s = inputs.get("scores")
    if s is not None and kind not in ("H", "I"):
        s = rows([[float(Fraction(x)) for x in r] if isinstance(r, list) else float(Fraction(r)) for r in s])
        if s.shape == w.shape:
            # exact = numeric: recompute independently from the inputs with numpy
            np.testing.assert_allclose(w, numeric.softmax(s), rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(numeric.softmax(s + 3.7), numeric.softmax(s), atol=1e-12)
            perm = np.random.default_rng(seed).permutation(s.shape[1])
            np.testing.assert_allclose(numeric.softmax(s[:, perm]), numeric.softmax(s)[:, perm], atol=1e-12)
    if "entropy" in answers:
        H = answers["entropy"].value
        assert -1e-12 <= H <= math.log(w.shape[1]) + 1e-12
        assert abs(H - numeric.entropy(w[-1])) < 1e-12
    if "context" in answers:
        c = np.asarray(answers["context"].value)
        states = np.asarray([[float(Fraction(v)) for v in h] for h in inputs["states"]])
        assert (c >= states.min(axis=0) - 1e-12).all() and (c <= states.max(axis=0) + 1e-12).all()
        np.testing.assert_allclose(c, w[0] @ states, atol=1e-12)


def check_answer(a):
    assert a.type in ("numeric", "vector", "choice", "matching", "truefalse", "text")
    if a.type in ("numeric", "vector"):
        for v, d, tol in zip(np.ravel(a.value), np.ravel(a.display), np.ravel(a.tolerance)):
            assert abs(as_float(d) - v) <= tol * (1 + 1e-9), (a.name, v, d)
    if a.options:
        texts = [o.text for o in a.options]
        assert len(set(texts)) == len(texts), texts  # distinct at the printed precision
        assert any(o.correct for o in a.options)
        for o in a.options:
            assert (o.misconception is None) == o.correct
            assert o.misconception is None or o.misconception in CATALOGUE
    if a.type == "choice":
        assert len(a.options) >= 3 and a.value == [i for i, o in enumerate(a.options) if o.correct]
    if a.type == "truefalse":
        assert isinstance(a.value, bool)


@pytest.mark.parametrize("kind", KINDS)
def test_stress(kind):
    k = kinds.get(kind)
    seen = set()
    positions: dict[str, Counter] = {}
    for seed in SEEDS:
        sol = solve_problem(sample_problem(kind, seed))
        inputs = sol.problem.inputs
        assert k.property(inputs) is None, (seed, inputs)
        assert sol.checks and all(c.passed for c in sol.checks)
        if seed < 100:
            seen.add("\n".join(inline(q) for q in sol.question))
        answers = {a.name: a for a in sol.answers}
        for a in sol.answers:
            check_answer(a)
            if a.type == "choice":
                positions.setdefault(a.name, Counter()).update(a.value)
        if "weights" in answers:
            check_attention(kind, inputs, answers, seed)
    # the position of the correct option is spread evenly
    for name, counts in positions.items():
        n = len(sol.answer(name).options)
        expected = len(SEEDS) / n
        assert all(counts[p] >= 0.6 * expected for p in range(n)), (name, counts)
    # the draws vary: no two of 100 consecutive variants show the same question,
    # except where the kind can only draw a small number of variants
    if k.variety is None:
        assert len(seen) >= (97 if kind == "E" else 100), len(seen)
    else:
        assert len(seen) >= 0.6 * min(k.variety, 100), (len(seen), k.variety)
