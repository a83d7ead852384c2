"""Exercise 1.1 (L1) — match each symbol of the recipe to its meaning (seeds/002)."""

from __future__ import annotations

import numpy as np

from ..errors import UserError
from ..inputs import check_keys, require
from ..mathlines import Sym
from ..model import Problem, Solution, Step
from ..text import Sayer
from . import about, register
from ..exam.options import LETTERS
from ._base import Kind, SolutionBuilder

say = Sayer("ex_1_1")
# key and symbol; what each means, and why, is options.<key>.text / .feedback
# in the text file
SYMBOLS = {"s_prev": Sym("s", "t-1"), "h": Sym("h", "i"), "alpha": Sym("alpha", "ti"), "c": Sym("c", "t"),
           "e": Sym("e", "ti"), "T": Sym("T", "x"), "y_prev": Sym("y", "t-1")}
COUNT = 5
# what each symbol's value is, for the Forecast's question (forecast.<shape>.one / .many)
SHAPE = {"s_prev": "vector", "h": "vector", "alpha": "number", "c": "vector", "e": "number", "T": "count",
         "y_prev": "word"}
SHAPES = ("number", "vector", "count", "word")  # the order the Forecast asks in


def sample(rng: np.random.Generator, params: dict) -> dict:
    keys = list(SYMBOLS)
    chosen = [keys[i] for i in rng.choice(len(keys), size=COUNT, replace=False)]
    return {"symbols": chosen, "meaning_order": [int(i) for i in rng.permutation(COUNT)]}


def normalise(inputs: dict) -> dict:
    check_keys(inputs, {"symbols", "meaning_order"}, "1.1")
    symbols = require(inputs, "symbols", "1.1")
    if not isinstance(symbols, list) or len(set(symbols)) != len(symbols) or \
            not 2 <= len(symbols) <= len(SYMBOLS) or any(s not in SYMBOLS for s in symbols):
        raise UserError(say.text("refused.symbols", names=", ".join(SYMBOLS)))
    order = inputs.get("meaning_order", list(range(len(symbols))))
    if sorted(order) != list(range(len(symbols))):
        raise UserError(say.text("refused.meaning_order", last=len(symbols) - 1))
    return {"symbols": list(symbols), "meaning_order": [int(i) for i in order]}


def solve(problem: Problem, digits: int) -> Solution:
    symbols = problem.inputs["symbols"]
    order = problem.inputs["meaning_order"]
    letter = {symbols[i]: LETTERS[pos].lower() for pos, i in enumerate(order)}
    meaning = {k: say.text("options.letter", letter=letter[k], meaning=say.text(f"options.{k}.text"))
               for k in symbols}
    w = SolutionBuilder(digits)
    question = [say("question.symbols", symbols=tuple(x for k in symbols for x in (SYMBOLS[k], ", "))[:-1]),
                say("question.meanings", meanings="; ".join(meaning[symbols[i]] for i in order))]
    asks = _shapes_asked(symbols)
    forecast = say(f"forecast.asks_{len(asks)}",
                   **{f"ask{n}": say.text(f"forecast.{'first' if n == 1 else 'next'}.{shape}.{many}")
                      for n, (shape, many) in enumerate(asks, start=1)})
    lines = tuple(say("steps.match.line", symbol=SYMBOLS[k], meaning=meaning[k],
                      why=say.text(f"options.{k}.feedback")) for k in symbols)
    steps = (Step(say.text("steps.match.title"), lines, (), say("steps.match.why")),)
    w.matching("matching", say.text("answers.matching"), [(_plain(k), meaning[k]) for k in symbols])
    w.check("one meaning each", len(set(letter.values())) == len(symbols), say("verify.once"))
    recall = ((say("recall.front", alpha=SYMBOLS["alpha"], e=SYMBOLS["e"]), say("recall.back")),)
    return Solution(problem, say.text("title"), tuple(question), forecast, steps,
                    tuple(w.answers), tuple(w.checks), recall)


def _shapes_asked(symbols: list[str]) -> list[tuple[str, str]]:
    """What the Forecast asks: "which of these symbols are single numbers,
    which are vectors, and which is a word", as (shape, "one" or "many")
    for only the shapes the drawn symbols have."""
    counts = [(shape, sum(SHAPE[k] == shape for k in symbols)) for shape in SHAPES]
    return [(shape, "one" if n == 1 else "many") for shape, n in counts if n]


def _plain(key: str) -> str:
    sym = SYMBOLS[key]
    base = {"alpha": "α"}.get(sym.base, sym.base)
    return f"{base}_{sym.sub}"


KIND = register(Kind(
    **about("1.1"),
    sample=sample, normalise=normalise, solve=solve,
))
