"""JSON renderer: the contract of DESIGN.md.

Serialised with the json module (not a template): `{"kind", "seed", "inputs",
"answers", "steps", "checks", "figures"}`, with the exact value of every
answer printed by sympy.
"""

from __future__ import annotations

import json
from typing import Any

from ..maths.exact import ExactReal
from ..model import SKIPPED, Solution, two_way
from .latex import latex
from .markdown import inline


def _exact(x: Any) -> Any:
    if isinstance(x, ExactReal):
        return str(x.sympy())
    if isinstance(x, (list, tuple)):
        return [_exact(v) for v in x]
    return x


def payload(solution: Solution, figures=None) -> dict[str, Any]:
    p = solution.problem
    drawn = list(figures or [None] * len(solution.figures))
    answers = {}
    for a in solution.answers:
        d = a.to_json()
        d["exact"] = _exact(a.exact)
        answers[a.name] = d
    return {
        "kind": p.kind,
        "seed": p.seed,
        "variant": p.variant,
        "title": solution.title,
        "inputs": p.inputs,
        "question": [inline(q) for q in solution.question],
        "forecast": inline(solution.forecast),
        "answers": answers,
        "steps": [
            {
                "title": s.title,
                "body": [inline(b) for b in s.body],
                "math": [latex(m) for m in s.math],
                "after": [inline(b) for b in s.after],
                "why": inline(s.why),
            }
            for s in solution.steps
        ],
        "checks": [{"name": c.name, "passed": c.passed, "line": inline(c.line)} for c in solution.checks],
        # a card meant both ways (model.TwoWay) says so; the others are asked one way
        "recall": [{"question": inline(c[0]), "answer": inline(c[1]), **({"two_way": True} if two_way(c) else {})}
                   for c in solution.recall],
        "figures": [{"kind": f.kind, "caption": inline(f.caption),
                     **({"file": d.filename, "alt": d.alt} if d else {})}
                    for f, d in zip(solution.figures, drawn)],
        # what the page says could not be checked (a numeric cross-check skipped)
        "warnings": [inline(c.line) for c in solution.checks if c.name == SKIPPED],
    }


def render_problem(solution: Solution, figures=None) -> str:
    return json.dumps(payload(solution, figures), ensure_ascii=False, indent=2) + "\n"
