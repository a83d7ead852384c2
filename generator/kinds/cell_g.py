"""Cell G — a sentence pair with reordering: Ty × Tx weights and the
off-diagonal alignment read from them (seeds/000, Example 7)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import MAX_TX, MAX_TY, check_keys, number_text, parse_scores, parse_words, require
from ..maths.attention import softmax, winner
from ..maths.exact import ExactReal
from ..mathlines import Sym, Tup, eq
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._bank import PAIRS, is_reordering
from ._base import Kind, SolutionBuilder, draw_decimal
from ._recipe.answers import table_distractors
from ._recipe.figure_specs import heatmap_figure
from ._recipe.parsing import rationals
from ._recipe.verify import verify_sum
from ._recipe.wording import pct
from ._recipe.worked import scores_line, steps_softmax, worked_weights

ALLOWED = {"scores", "source", "target"}
say = Sayer("cell_g")


def sample(rng: np.random.Generator, params: dict) -> dict:
    pairs = [p for p in PAIRS if is_reordering(p["align"])]
    pair = pairs[int(rng.integers(len(pairs)))]
    rows = []
    for j in range(len(pair["target"])):
        row = [draw_decimal(rng, -1.0, 1.0) for _ in pair["source"]]
        row[pair["align"][j]] = draw_decimal(rng, 2.0, 3.5)
        rows.append(row)
    return {"source": pair["source"], "target": pair["target"], "scores": rows}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, ALLOWED, "G")
    source = parse_words(require(inputs, "source", "G"), "source", max_len=MAX_TX)
    target = parse_words(require(inputs, "target", "G"), "target", max_len=MAX_TY)
    rows = require(inputs, "scores", "G")
    if not isinstance(rows, list) or len(rows) != len(target):
        raise UserError(say.text("refused.rows", rows=len(target)))
    out_rows = []
    for j, row in enumerate(rows):
        vals = parse_scores(row, f"scores[{j + 1}]")
        if len(vals) != len(source):
            raise UserError(say.text("refused.row_length", row=j + 1, got=len(vals), words=len(source)))
        out_rows.append([number_text(v) for v in vals])
    return {"source": source, "target": target, "scores": out_rows}


def alignment(inputs: dict) -> list[int]:
    """Each row's position of the largest weight: its largest score (softmax
    keeps the order; the first of equal ones, as numpy's argmax)."""
    out = []
    for r in inputs["scores"]:
        s = rationals(r)
        out.append(s.index(max(s)))
    return out


def missing_property(inputs: dict) -> str | None:
    for j, r in enumerate(inputs["scores"]):
        s = sorted(rationals(r), reverse=True)
        if len(s) > 1 and s[0] == s[1]:
            return say.text("refused.tied_row", row=j + 1)
    if not is_reordering(alignment(inputs)):
        return say.text("refused.in_order")
    return None


def softmax_rows(w: SolutionBuilder, sms: list, src: list[str], tgt: list[str], align: list[int]) -> list[Step]:
    """The first row worked in full (one step), the others' weights in a second."""
    first = steps_softmax(w, sms[0], "1", name="row1_weights", why_div=say(
        "steps.first_row.divide_why", n=align[0] + 1, source_word=src[align[0]],
        pct=pct(sms[0].weights[align[0]]), target_word=tgt[0]), z_answered=False)
    steps = [Step(say.text("steps.first_row.title", word=tgt[0]), (), tuple(m for s in first for m in s.math),
                  say("steps.first_row.why"),
                  tuple(a for s in first for a in s.after) + (first[-1].why,))]
    if len(sms) > 1:
        steps.append(Step(say.text("steps.other_rows.title"), (), tuple(
            eq(Sym("alpha", f"{j + 1}\\cdot"), Tup(tuple(w.shown_answer(a) for a in sms[j].weights)))
            for j in range(1, len(sms))), say("steps.other_rows.why")))
    return steps


def answer_and_check(w: SolutionBuilder, src: list[str], tgt: list[str], sms: list, align: list[int],
                     back: list[int]) -> None:
    """The table of weights and the alignment; each row sums to one, and the
    alignment steps back (the reordering)."""
    w.vector("weights", say.text("answers.weights"),
             [list(sm.weights) for sm in sms], np.array([sm.numeric for sm in sms]),
             method=[w.method["row1_weights"][:1] + [worked_weights(w, sm) for sm in sms[1:]]],
             distractors=table_distractors(sms))
    w.vector("alignment", say.text("answers.alignment"),
             [ExactReal.of(i + 1) for i in align], np.array(align, dtype=float) + 1, whole=True)
    for j, sm in enumerate(sms):
        verify_sum(w, sm.weights, f"row {j + 1} sums to one")
    pairs = ", ".join(say.text("verify.pair", target_word=tgt[j], source_word=src[align[j]]) for j in back)
    w.check("reordering", is_reordering(align), say(
        "verify.reordering_one" if len(back) == 1 else "verify.reordering_many", pairs=pairs))


def alignment_step(src: list[str], tgt: list[str], align: list[int], back: list[int]) -> Step:
    """The alignment read off row by row, the rows that look back marked."""
    reads = [say("steps.alignment.read_back" if j in back else "steps.alignment.read",
                 target_word=tgt[j], row=j + 1, source_word=src[i], column=i + 1)
             for j, i in enumerate(align)]
    return Step(say.text("steps.alignment.title"), tuple(reads), (), say("steps.alignment.why"))


def heatmap(w: SolutionBuilder, src: list[str], tgt: list[str], sms: list, align: list[int], back: list[int]):
    """The heatmap of the weights, its arrow on the surest row that steps back."""
    # the arrow's row: one that steps back off the main diagonal where there is
    # one (a full reversal's middle row steps back onto it), the surest of them
    off = [j for j in back if align[j] != j] or back
    dr = max(off, key=lambda j: float(sms[j].weights[align[j]]))
    dc = align[dr]
    reversal = align == list(range(len(src)))[::-1]
    return heatmap_figure(w, tgt, src, [list(sm.weights) for sm in sms],
                          [[j, i] for j, i in enumerate(align)], [dr, dc], say(
        "figure.reversal" if reversal else "figure.crossing", ty=len(tgt), tx=len(src), target_word=tgt[dr],
        row=dr + 1, source_word=src[dc], column=dc + 1, weight=w.shown_answer(sms[dr].weights[dc]).text))


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    src, tgt = inp["source"], inp["target"]
    rows = [rationals(r) for r in inp["scores"]]
    w = SolutionBuilder(digits)
    sms = [softmax(r) for r in rows]
    align = [winner(sm) for sm in sms]
    question = [say("question.pair", source=" ".join(src), target=" ".join(tgt), ty=len(tgt), tx=len(src))]
    question += [say("question.row", word=tgt[j], scores=scores_line(r, str(j + 1))) for j, r in enumerate(rows)]
    question.append(say("question.ask"))
    forecast = say("forecast", word=tgt[0])
    steps = softmax_rows(w, sms, src, tgt, align)
    # a row "looks back" when its dark cell lies left of an earlier row's:
    # that crossing, not a cell off a (non-square) diagonal, is reordering
    back = [j for j in range(len(align)) if any(align[i] > align[j] for i in range(j))]
    steps.append(alignment_step(src, tgt, align, back))
    answer_and_check(w, src, tgt, sms, align, back)
    recall = ((say("recall.front"), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, tuple(steps),
                    tuple(w.answers), tuple(w.checks), recall, (heatmap(w, src, tgt, sms, align, back),))


KIND = register(Kind(
    **about("G"),
    sample=sample, normalise=normalise, solve=solve, property=missing_property,
    scenarios={"default": {}},
    graded=("weights", "alignment"),  # every quantity the question asks, in its order
))
