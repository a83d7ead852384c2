"""The recipe's answers, and the wrong ones offered beside them (each a
mistake of the misconception catalogue, computed on this problem)."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np

from ...inputs import number_text
from ...maths.attention import Softmax, context
from ...maths.exact import ExactReal
from ...text import Sayer
from .._base import SolutionBuilder

say = Sayer("shared")


def answer_softmax(w: SolutionBuilder, sm: Softmax) -> None:
    """Report exponentials, denominator and weights of one softmax; where the
    largest score was subtracted first, the labels say so."""
    shifted = np.array([float(s - sm.shift) for s in sm.scores])
    if sm.shift:
        shift = number_text(sm.shift)
        exps, z = (say.text("answers.exponentials.shifted", shift=shift),
                   say.text("answers.denominator.shifted", shift=shift))
    else:
        exps, z = say.text("answers.exponentials.plain"), say.text("answers.denominator.plain")
    w.vector("exponentials", exps, list(sm.exps), np.exp(shifted))
    w.numeric("denominator", z, sm.Z, float(np.exp(shifted).sum()))
    w.vector("weights", say.text("answers.weights"), list(sm.weights), sm.numeric,
             distractors=weight_distractors(sm))


def weight_distractors(sm: Softmax) -> list[tuple[list[ExactReal], str]]:
    """Wrong weight vectors from the catalogue, computed on these scores."""
    n = len(sm.scores)
    out: list[tuple[list[ExactReal], str]] = []
    total_s = sum(sm.scores)
    if total_s != 0:
        out.append(([ExactReal.of(s / total_s) for s in sm.scores], "divide_by_sum"))
    if sm.shift == 0:
        out.append((list(sm.exps), "forgot_to_normalise"))
    top = max(sm.scores)
    if sm.scores.count(top) == 1:
        out.append(([ExactReal.of(int(s == top)) for s in sm.scores], "hard_argmax"))
    out.append(([ExactReal.of(Fraction(1, n))] * n, "uniform_weights"))
    return out


def table_distractors(sms: Sequence[Softmax]) -> list[tuple[list[list[ExactReal]], str]]:
    """Wrong tables of weights (one row per softmax): each mistake of
    weight_distractors made on every row, where it is defined on every row."""
    rows = [dict((mis, ws) for ws, mis in weight_distractors(sm)) for sm in sms]
    return [([r[mis] for r in rows], mis) for mis in rows[0] if all(mis in r for r in rows)] if rows else []


def context_distractors(sm: Softmax, states) -> list[tuple[list[ExactReal], str]]:
    """Wrong context vectors: the same mistakes, carried into the blend."""
    return [(context(ws, states), mis) for ws, mis in weight_distractors(sm)]

