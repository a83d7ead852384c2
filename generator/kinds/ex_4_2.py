"""Exercise 4.2 (L4) — describe the attention heatmap of a drawn sentence pair
with a known reordering (full reversals and local swaps) (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import MAX_TX, MAX_TY, check_keys, parse_words, require
from ..maths.exact import ExactReal
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ._bank import PAIRS, is_reordering
from ..exam.options import key_line, option_lines
from ._base import Kind, SolutionBuilder
from ._recipe.figure_specs import heatmap_figure
from ._recipe.wording import and_list

say = Sayer("ex_4_2")
# where the hot cells run, by name: each option's text is options.<name> in
# text/en/ex_4_2.yaml; MIXED is what none of the others is
DIAGONAL, ANTI, SWAP, MOVED, MIXED, COLUMN = "diagonal", "anti_diagonal", "swap", "moved", "mixed", "column"
REORDERING = [i for i, p in enumerate(PAIRS) if is_reordering(p["align"])]
# the options and the mistake each names when chosen wrongly
OPTIONS = [(DIAGONAL, "monotonic_assumed"), (ANTI, "reversal_assumed"), (SWAP, "local_swap_assumed"),
           (MOVED, "word_moved_assumed"), (COLUMN, "single_column")]


def steps_back(align: list[int]) -> dict[int, int]:
    """The rows (0-based) that step back: whose hot cell lies left of the
    rightmost hot cell in the rows above, each with how many columns left of it."""
    return {j: max(align[:j]) - a for j, a in enumerate(align) if j and a < max(align[:j])}


def holds(option: str, align: list[int], tx: int) -> bool:
    """Whether an option (by name) is true of the alignment (0-based
    input position per output row).  MIXED is what none of the others is."""
    back = steps_back(align)
    return {
        DIAGONAL: not back,
        ANTI: align == list(range(tx))[::-1],
        SWAP: bool(back) and all(step == 1 for step in back.values()),
        MOVED: list(back) == [len(align) - 1] and back[len(align) - 1] > 1,
        COLUMN: len(set(align)) == 1,
    }.get(option, False)


def pattern(align: list[int], tx: int) -> str:
    """Where the hot cells run: the first option that holds, in the order a
    reader checks them (a two-word reversal is also a swap of neighbours;
    it is the reversal, and the swap is then not offered as wrong)."""
    return next((o for o in (DIAGONAL, ANTI, SWAP, MOVED) if holds(o, align, tx)), MIXED)


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
        raise UserError(say.text("refused.alignment", tx=len(source)))
    if not is_reordering([a - 1 for a in align]):
        raise UserError(say.text("refused.keeps_order"))
    return {"source": source, "target": target, "alignment": list(align), "shuffle": int(inputs.get("shuffle", 0))}


def grid_lines(src: list[str], tgt: list[str], align: list[int], back: dict[int, int]) -> tuple:
    """One line per output word: its row of cells, the hot one, and where it steps back."""
    hot = say.text("grid.hot")

    def row(r: int, t: str):
        said = {"word": t, "row": r + 1, "input": src[align[r]], "column": align[r] + 1,
                "cells": " ".join(hot if c == align[r] else "·" for c in range(len(src)))}
        if r not in back:
            return say("grid.row", **said)
        # a row that steps back says how far (one column, or several) and from where
        return say("grid.row_steps_back" if back[r] > 1 else "grid.row_steps_back_one", **said, back=back[r],
                   above=max(align[:r], default=-1) + 1)

    return tuple(row(r, t) for r, t in enumerate(tgt))


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    src, tgt = inp["source"], inp["target"]
    align = [a - 1 for a in inp["alignment"]]
    w = SolutionBuilder(digits)
    right = pattern(align, len(src))
    shown = w.choice("pattern", say.text("answers.pattern"), [say.text(f"options.{right}")],
                     [(say.text(f"options.{o}"), mistake) for o, mistake in OPTIONS
                      if o != right and not holds(o, align, len(src))], inp["shuffle"])
    question = [say("question", source=" ".join(src), target=" ".join(tgt), ty=len(tgt), tx=len(src)),
                *option_lines(shown)]
    forecast = say("forecast")
    back = steps_back(align)
    steps = (
        Step(say.text("steps.align.title"), grid_lines(src, tgt, align, back), (), say("steps.align.why")),
        Step(say.text("steps.pattern.title"), (key_line(shown),), (), say("steps.pattern.why")),
    )
    w.matching("alignment", say.text("answers.alignment"), [(t, src[align[r]]) for r, t in enumerate(tgt)])
    rows = and_list([str(r + 1) for r in back])
    w.check("reordering", bool(back), say("verify.one_row_back" if len(back) == 1 else "verify.rows_back", rows=rows))
    hot = [[ExactReal.of(int(c == align[r])) for c in range(len(src))] for r in range(len(tgt))]
    figures = [heatmap_figure(w, tgt, src, hot, [[r, a] for r, a in enumerate(align)], None,
                              say("figure.caption", seen=say.text(f"figure.seen.{right}"))),]
    recall = ((say(f"recall.{right}.front"), say(f"recall.{right}.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("4.2"),
    sample=sample, normalise=normalise, solve=solve, variety=len(REORDERING) * 6,
))
