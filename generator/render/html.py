"""HTML for Moodle: text escaped for HTML, maths as \\( … \\) and \\[ … \\]
for Moodle's MathJax filter."""

from __future__ import annotations

import html

from ..mathlines import Node
from ..model import Prose, Solution
from .latex import latex


def inline(p: Prose) -> str:
    return "".join(f"\\({latex(seg)}\\)" if isinstance(seg, Node) else html.escape(seg) for seg in p)


def question_html(solution: Solution) -> str:
    return "".join(f"<p>{inline(q)}</p>" for q in solution.question)


def solution_html(solution: Solution) -> str:
    out = [f"<p><b>Forecast.</b> {inline(solution.forecast)}</p>"]
    for n, s in enumerate(solution.steps, start=1):
        out.append(f"<p><b>Step {n} — {html.escape(s.title)}.</b></p>")
        out += [f"<p>{inline(b)}</p>" for b in s.body]
        out += [f"<p>\\[{latex(m)}\\]</p>" for m in s.math]
        out += [f"<p>{inline(a)}</p>" for a in s.after]
        out.append(f"<p><i>Why this step?</i> {inline(s.why)}</p>")
    out.append("<p><b>Verify.</b></p><ul>" + "".join(f"<li>{inline(c.line)}</li>" for c in solution.checks) + "</ul>")
    return "".join(out)
