"""The one driver: sample → solve.  Every output format is a thin wrapper
that renders and writes what this returns."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kinds
from .errors import UserError
from .kinds._base import working_note
from .model import Problem, Solution
from .seeding import rng_for, variant_code
from .text import Sayer

# At 1 place the weights of even four equal scores print as 0.3 and add to
# 1.2: too coarse to teach from (guide/numbers-and-marking.md, "Numbers").
MIN_DIGITS, MAX_DIGITS = 2, 10
say = Sayer("shared")


def check_digits(digits: int) -> int:
    if not MIN_DIGITS <= digits <= MAX_DIGITS:
        raise UserError(f"--digits: {digits} is out of range; use {MIN_DIGITS} to {MAX_DIGITS} decimal places")
    return digits


def sample_problem(kind_name: str, seed: int, params: dict[str, Any] | None = None) -> Problem:
    """Draw a problem of a kind from its own seed."""
    kind = kinds.get(kind_name)
    inputs = kind.draw(rng_for(seed), params)
    return Problem(kind.id, seed, inputs, variant_code(kind.id, seed))


def given_problem(kind_name: str, inputs: dict[str, Any]) -> Problem:
    """A problem from typed inputs.  Inputs that miss the cell's scenario are
    refused with the reason and the kind that fits them: the cell's words
    (“position 1 wins big”, “naive division fails”) would be false."""
    kind = kinds.get(kind_name)
    if not isinstance(inputs, dict):
        raise UserError("--input: expected a JSON object such as {\"scores\": [\"0.3\", \"2.1\"]}")
    clean = kind.normalise(inputs)
    why = (kind.accepts or kind.property)(clean)
    if why:
        raise UserError(say.text("refused.not_shown", what=_name(kind), why=why))
    return Problem(kind.id, None, clean, variant_code(kind.id, None), given=True)


def _name(kind) -> str:
    return say.text("refused.cell" if kind.level is None else "refused.exercise", id=kind.id, title=kind.title)


def solve_problem(problem: Problem, digits: int = 4) -> Solution:
    """The worked solution of a problem (exact and numeric paths cross-checked)."""
    return working_note(kinds.get(problem.kind).solve(problem, check_digits(digits)), digits)


def kinds_of_level(level: int) -> list[str]:
    return [k.id for k in kinds.all_kinds() if k.level == level]


def build_items(items, seed: int, digits: int = 4) -> list[Solution]:
    """Phase one for a set or an exam paper: every problem of the spec's items,
    each drawn from its own child seed (adding an item never changes the others)."""
    from .seeding import child_seeds

    total = sum(i.count for i in items)
    seeds = iter(child_seeds(seed, total))
    out = []
    for item in items:
        for _ in range(item.count):
            s = next(seeds)
            if item.inputs is not None:
                problem = given_problem(item.kind, item.inputs)
            else:
                kind = item.kind
                if kind is None:  # a level: which exercise is part of the draw
                    options = kinds_of_level(item.level)
                    kind = options[int(np.random.default_rng([s, item.level]).integers(len(options)))]
                problem = sample_problem(kind, s, item.params)
            out.append(solve_problem(problem, digits))
    return out
