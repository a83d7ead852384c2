"""Exercise 4.2 (L4) — describe the attention heatmap of a drawn sentence pair
with a known reordering (full reversals and local swaps) (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import MAX_TX, MAX_TY, check_keys, parse_words, require
from ..maths.exact import ExactReal
from ..model import Problem, Solution, Step, prose
from . import about, register
from ._bank import PAIRS, is_reordering
from ..exam.options import key_line, option_lines
from ._base import Kind, SolutionBuilder
from ._recipe.figure_specs import heatmap_figure
from ._recipe.wording import and_list

DIAGONAL = "down the main diagonal (top-left to bottom-right)"
ANTI = "down the anti-diagonal (top-right to bottom-left)"
SWAP = ("from top-left to bottom-right, except where neighbouring words swap: each row that steps back does so "
        "by one column")
MOVED = ("from top-left to bottom-right, but the last row, and only it, steps back several columns: a word moved "
         "to the end")
MIXED = ("stepping back in other ways: neither a diagonal, a full reversal, neighbours swapping nor a word "
         "moved to the end")
COLUMN = "all in one column"
REORDERING = [i for i, p in enumerate(PAIRS) if is_reordering(p["align"])]
# the options and the mistake each names when chosen wrongly
OPTIONS = [(DIAGONAL, "monotonic_assumed"), (ANTI, "reversal_assumed"), (SWAP, "local_swap_assumed"),
           (MOVED, "word_moved_assumed"), (COLUMN, "single_column")]


def steps_back(align: list[int]) -> dict[int, int]:
    """The rows (0-based) that step back: whose hot cell lies left of the
    rightmost hot cell in the rows above, each with how many columns left of it."""
    return {j: max(align[:j]) - a for j, a in enumerate(align) if j and a < max(align[:j])}


def holds(option: str, align: list[int], tx: int) -> bool:
    """Whether an option's description is true of the alignment (0-based
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


# what the figure shows, and the recall card, for each right answer
SEEN = {
    ANTI: "The hot cells run down the anti-diagonal: a full reversal.",
    SWAP: "The hot cells run from top-left to bottom-right except where neighbouring words swap: there a row "
          "steps back one column.",
    MOVED: "The hot cells run from top-left to bottom-right until the last row, whose hot cell lies several "
           "columns to the left: that word moved to the end.",
    MIXED: "The hot cells step back to the left, but not as a full reversal, a swap of neighbours or one word "
           "moved to the end: the order is rearranged in some other way.",
}
RECALL = {
    ANTI: ("What does an anti-diagonal heatmap mean?",
           "The target reverses the source word order; a monotonic alignment would give the main diagonal "
           "(Exercise 4.2)."),
    SWAP: ("Hot cells that run from top-left to bottom-right but step back one column in places: what does "
           "that mean?",
           "The word order is kept except where neighbouring words swap places (an adjective after its noun, "
           "say); a full reversal would run down the anti-diagonal (Exercise 4.2)."),
    MOVED: ("A heatmap whose last row steps back several columns: what does that mean?",
            "One word moved to the end of the sentence, as a verb does in German or Japanese: the last row "
            "looks back several columns to it; before it the word order is kept (Exercise 4.2)."),
    MIXED: ("Hot cells that step back to the left, but not as a reversal, a swap or one moved word: what does "
            "that mean?",
            "The target rearranges the source's word order: it neither keeps it (main diagonal) nor reverses "
            "it (anti-diagonal) (Exercise 4.2)."),
}


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
    if not is_reordering([a - 1 for a in align]):
        raise UserError("alignment: it keeps the word order; this exercise describes a reordering, so some target "
                        "word must align left of an earlier one")
    return {"source": source, "target": target, "alignment": list(align), "shuffle": int(inputs.get("shuffle", 0))}


def grid_lines(src: list[str], tgt: list[str], align: list[int], back: dict[int, int]) -> tuple:
    """One line per output word: its row of cells, the hot one, and where it steps back."""
    return tuple(prose(f"“{t}” (row {r + 1}): " + " ".join("hot" if c == align[r] else "·" for c in range(len(src))) +
                       f"  → “{src[align[r]]}” (column {align[r] + 1})" +
                       (f" — steps back: {back[r]} column{'s' if back[r] > 1 else ''} left of the rightmost hot cell "
                        f"above (column {max(align[:r]) + 1})" if r in back else ""))
                 for r, t in enumerate(tgt))


def solve(problem: Problem, digits: int) -> Solution:
    inp = problem.inputs
    src, tgt = inp["source"], inp["target"]
    align = [a - 1 for a in inp["alignment"]]
    w = SolutionBuilder(digits)
    right = pattern(align, len(src))
    shown = w.choice("pattern", "where the hot cells run", [right],
                     [o for o in OPTIONS if o[0] != right and not holds(o[0], align, len(src))], inp["shuffle"])
    question = [prose(f"Sketch (describe) the attention heatmap for translating “{' '.join(src)}” → "
                      f"“{' '.join(tgt)}”. Rows are the {len(tgt)} output words, columns the {len(src)} input "
                      "words. Where are the hot cells? Which output word attends to which input word, and "
                      "where do the hot cells run?"), *option_lines(shown)]
    forecast = prose("Before drawing: does this language pair keep the word order, reverse it, swap a few "
                     "neighbouring words, or move one word to the end?")
    back = steps_back(align)
    steps = (
        Step("align each output word", grid_lines(src, tgt, align, back), (), prose(
            "Each output word attends most to the input word it is aligned with; that cell is the hot one in its "
            "row. A row steps back when its hot cell lies left of the rightmost hot cell in the rows above: there "
            "the order changes.")),
        Step("read the pattern", (key_line(shown),), (), prose(
            "Monotonic alignment (speech, OCR) gives the main diagonal; a full reversal gives the "
            "anti-diagonal; swapped neighbours step back one column where they swap; a word moved to the end "
            "steps back several columns in the last row.")),
    )
    w.matching("alignment", "output word → input word", [(t, src[align[r]]) for r, t in enumerate(tgt)])
    rows = and_list([str(r + 1) for r in back])
    w.check("reordering", bool(back), prose(
        f"{'Row' if len(back) == 1 else 'Rows'} {rows} step{'s' if len(back) == 1 else ''} back, left of the "
        "rightmost hot cell above ✓ — a reordering, not a monotonic alignment."))
    hot = [[ExactReal.of(int(c == align[r])) for c in range(len(src))] for r in range(len(tgt))]
    figures = [heatmap_figure(w, tgt, src, hot, [[r, a] for r, a in enumerate(align)], None, prose(
        "an idealised heatmap: each row has one hot cell (1), at the input word it is aligned with. "
        + SEEN[right])),]
    recall = ((prose(RECALL[right][0]), prose(RECALL[right][1])),)
    return Solution(problem, "Describe the heatmap", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall, tuple(figures))


KIND = register(Kind(
    **about("4.2"),
    sample=sample, normalise=normalise, solve=solve, variety=len(REORDERING) * 6,
))
