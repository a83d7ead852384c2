"""Exercise 4.2 (L4) — describe the attention heatmap of a drawn sentence pair
with a known reordering (full reversals and local swaps) (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import MAX_TX, MAX_TY, check_keys, parse_words, require
from ..model import Problem, Solution, Step, prose
from . import register
from ._bank import PAIRS, is_reordering
from ..maths.exact import Ex
from ._base import Kind, Work, key_line, option_lines
from . import _recipe as R

DIAGONAL = "down the main diagonal (top-left to bottom-right)"
ANTI = "down the anti-diagonal (top-right to bottom-left)"
LOCAL = "mostly along the diagonal, leaving it where words swap places"
COLUMN = "all in one column"
REORDERING = [i for i, p in enumerate(PAIRS) if is_reordering(p["align"])]


def pattern(align: list[int], tx: int) -> str:
    if align == list(range(tx))[::-1] and len(align) == tx:
        return ANTI
    return LOCAL


def sample(rng: np.random.Generator, params: dict) -> dict:
    pair = PAIRS[REORDERING[int(rng.integers(len(REORDERING)))]]
    return {"source": pair["source"], "target": pair["target"], "alignment": [a + 1 for a in pair["align"]],
            "shuffle": int(rng.integers(2**31))}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"source", "target", "alignment", "shuffle"}, "4.2")
    source = parse_words(require(inputs, "source", "4.2"), "source", max_len=MAX_TX)
    target = parse_words(require(inputs, "target", "4.2"), "target", max_len=MAX_TY)
    align = require(inputs, "alignment", "4.2")
    if not isinstance(align, list) or len(align) != len(target) or any(
            not isinstance(a, int) or isinstance(a, bool) or not 1 <= a <= len(source) for a in align):
        raise UserError(f"alignment: one source position (1…{len(source)}) per target word")
    return {"source": source, "target": target, "alignment": list(align), "shuffle": int(inputs.get("shuffle", 0))}


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    src, tgt = inp["source"], inp["target"]
    align = [a - 1 for a in inp["alignment"]]
    w = Work(digits)
    right = pattern(align, len(src)) if is_reordering(align) else DIAGONAL
    wrong = [(DIAGONAL, "monotonic_assumed"), (ANTI, "reversal_assumed"), (LOCAL, "local_swap_assumed"),
             (COLUMN, "single_column")]
    shown = w.choice("pattern", "where the hot cells run", [right], [o for o in wrong if o[0] != right],
                     inp["shuffle"])
    question = [prose(f"Sketch (describe) the attention heatmap for translating “{' '.join(src)}” → "
                      f"“{' '.join(tgt)}”. Rows are the {len(tgt)} output words, columns the {len(src)} input "
                      "words. Where are the hot cells? Which output word attends to which input word, and "
                      "where do the hot cells run?"), *option_lines(shown)]
    forecast = prose("Before drawing: does this language pair keep the word order, reverse it, or swap a few words?")
    grid = [prose(f"“{t}” (row {r + 1}): " + " ".join("hot" if c == align[r] else "·" for c in range(len(src))) +
                  f"  → “{src[align[r]]}” (column {align[r] + 1})") for r, t in enumerate(tgt)]
    steps = (
        Step("align each output word", tuple(grid), (), prose(
            "Each output word attends most to the input word it is aligned with; that cell is the hot one in its row.")),
        Step("read the pattern", (key_line(shown),), (), prose(
            "Monotonic alignment (speech, OCR) gives the main diagonal; a full reversal gives the "
            "anti-diagonal; swapped neighbours leave the diagonal only where they swap.")),
    )
    w.matching("alignment", "output word → input word", [(t, src[align[r]]) for r, t in enumerate(tgt)])
    w.check("reordering", is_reordering(align), prose(
        "Some hot cells lie off the main diagonal ✓ — a reordering, not a monotonic alignment."))
    hot = [[Ex.of(int(c == align[r])) for c in range(len(src))] for r in range(len(tgt))]
    figures = [R.heatmap_figure(w, tgt, src, hot, [[r, a] for r, a in enumerate(align)], None, prose(
        "an idealised heatmap: each row has one hot cell (1), at the input word it is aligned with. "
        + ("The hot cells run down the anti-diagonal: a full reversal." if right == ANTI else
           "The hot cells follow the diagonal except where words swap — there they step off it."))),]
    recall = ((prose("What does an anti-diagonal heatmap mean?"),
               prose("The target reverses the source word order; a monotonic alignment would give the main "
                     "diagonal (Exercise 4.2).")),) if right == ANTI else (
        (prose("Hot cells that follow the diagonal but step off it in places: what does that mean?"),
         prose("The word order is kept except where neighbouring words swap places; a full reversal would "
               "run down the anti-diagonal (Exercise 4.2).")),)
    return Solution(problem, "Describe the heatmap", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    id="4.2", slug="heatmap-reordering", title="Describe the heatmap", level=4,
    source="seeds/002 Exercise 4.2", summary="hot cells for a drawn reordering from the sentence bank",
    sample=sample, normalise=normalise, solve=solve, variety=len(REORDERING) * 6,
))
