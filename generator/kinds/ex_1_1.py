"""Exercise 1.1 (L1) — match each symbol of the recipe to its meaning (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..mathlines import Sym
from ..model import Problem, Solution, Step, prose
from . import about, register
from ..exam.options import LETTERS
from ._base import Kind, SolutionBuilder

# key, symbol, meaning, why it means that
SYMBOLS = {
    "s_prev": (Sym("s", "t-1"), "previous decoder memory",
               "the state we align from, because s_t does not exist yet"),
    "h": (Sym("h", "i"), "encoder memory at input position i", "one summary per input word"),
    "alpha": (Sym("alpha", "ti"), "normalised focus fraction", "in [0, 1], and they sum to 1"),
    "c": (Sym("c", "t"), "weighted summary fed to the decoder", "the blend of the states"),
    "e": (Sym("e", "ti"), "raw relevance number", "unbounded, not yet a probability"),
    "T": (Sym("T", "x"), "number of input positions", "how many boxes there are to attend to"),
    "y_prev": (Sym("y", "t-1"), "previously emitted output word",
               "fed back in so the decoder knows what it just said"),
}
COUNT = 5
# what each symbol's value is, for the Forecast's question
SHAPE = {"s_prev": "vector", "h": "vector", "alpha": "number", "c": "vector", "e": "number", "T": "count",
         "y_prev": "word"}
_SHAPES = {"number": ("a single number", "single numbers"), "vector": ("a vector", "vectors"),
           "count": ("a count", "counts"), "word": ("a word", "words")}


def sample(rng: np.random.Generator, params: dict) -> dict:
    keys = list(SYMBOLS)
    chosen = [keys[i] for i in rng.choice(len(keys), size=COUNT, replace=False)]
    return {"symbols": chosen, "meaning_order": [int(i) for i in rng.permutation(COUNT)]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"symbols", "meaning_order"}, "1.1")
    symbols = require(inputs, "symbols", "1.1")
    if not isinstance(symbols, list) or len(set(symbols)) != len(symbols) or \
            not 2 <= len(symbols) <= len(SYMBOLS) or any(s not in SYMBOLS for s in symbols):
        raise UserError(f"symbols: a list of distinct names from {', '.join(SYMBOLS)}")
    order = inputs.get("meaning_order", list(range(len(symbols))))
    if sorted(order) != list(range(len(symbols))):
        raise UserError(f"meaning_order: a permutation of 0…{len(symbols) - 1}")
    return {"symbols": list(symbols), "meaning_order": [int(i) for i in order]}


def solve(problem: Problem, digits: int) -> Solution:
    symbols = problem.inputs["symbols"]
    order = problem.inputs["meaning_order"]
    meanings = [SYMBOLS[symbols[i]][1] for i in order]  # as listed (a), (b), ...
    letter = {symbols[i]: LETTERS[pos].lower() for pos, i in enumerate(order)}
    w = SolutionBuilder(digits)
    question = [prose("Match each symbol to its plain-English meaning: ",
                      *[x for k in symbols for x in (SYMBOLS[k][0], ", ")][:-1], "."),
                prose("Meanings: " + "; ".join(f"({LETTERS[i].lower()}) {m}" for i, m in enumerate(meanings)) + ".")]
    forecast = prose(f"Before matching: {_shapes_question(symbols)}?")
    lines = tuple(prose(SYMBOLS[k][0], f" → ({letter[k]}) {SYMBOLS[k][1]} — {SYMBOLS[k][2]}.") for k in symbols)
    steps = (Step("match each symbol", lines, (), prose(
        "Each symbol names one stage of the recipe: scores e are made from the decoder state and the "
        "encoder states, softmax turns them into weights α, and the weights blend the states into c.")),)
    w.matching("matching", "symbol → meaning", [(_plain(k), f"({letter[k]}) {SYMBOLS[k][1]}") for k in symbols])
    w.check("one meaning each", len(set(letter.values())) == len(symbols),
            prose("Every meaning is used exactly once ✓."))
    recall = ((prose("What is ", SYMBOLS["alpha"][0], ", and what is ", SYMBOLS["e"][0], "?"),
               prose("α is the normalised focus fraction (in [0, 1], summing to 1); e is the raw, "
                     "unbounded relevance score it is made from (Exercise 1.1).")),)
    return Solution(problem, "Match the symbols", tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


def _shapes_question(symbols: list[str]) -> str:
    """"which of these symbols are single numbers, which are vectors, and
    which is a word": only the shapes the drawn symbols have."""
    asks = []
    for shape, (one, many) in _SHAPES.items():
        n = sum(SHAPE[k] == shape for k in symbols)
        if n:
            asks.append(f"{'is' if n == 1 else 'are'} {one if n == 1 else many}")
    asks[0] = asks[0].replace("is ", "of these symbols is ", 1).replace("are ", "of these symbols are ", 1)
    asks = [f"which {a}" for a in asks]
    return asks[0] if len(asks) == 1 else ", ".join(asks[:-1]) + ", and " + asks[-1]


def _plain(key: str) -> str:
    sym = SYMBOLS[key][0]
    base = {"alpha": "α"}.get(sym.base, sym.base)
    return f"{base}_{sym.sub}"


KIND = register(Kind(
    **about("1.1"),
    sample=sample, normalise=normalise, solve=solve,
))
