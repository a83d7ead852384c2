"""Markdown renderer (MkDocs Material + pymdownx.arithmatex, admonition, details).

It only formats: prose text is escaped for Markdown, maths nodes go through
the LaTeX printer, and the Jinja templates lay the page out.
"""

from __future__ import annotations

import html
import re

from ..mathlines import Node
from ..model import Prose, Solution
from ..templating import environment
from .latex import latex_display, latex_pieces

# Characters that start inline markup anywhere ($ for arithmatex, | for
# tables, {} for attribute lists); HTML's own are turned into entities.
_INLINE_SPECIAL = set("\\`*_{}[]|$")
# Markers that only mean something at the start of a block.
_BLOCK_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


def escape_md(text: str, *, block_start: bool = False) -> str:
    """Escape user or generated text so Markdown and HTML show it literally."""
    out = []
    for ch in text:
        if ch in _INLINE_SPECIAL:
            out.append("\\" + ch)
        elif ch in "<>&":
            out.append(html.escape(ch))
        elif ch == "\n":
            out.append(" ")
        else:
            out.append(ch)
    escaped = "".join(out)
    if block_start:
        escaped = _BLOCK_START.sub(_escape_marker, escaped)
    return escaped


def _escape_marker(m: re.Match) -> str:
    marker = m.group(2)
    if marker[0].isdigit():  # "1." → "1\." (a backslash before a digit is literal)
        return m.group(1) + marker[:-1] + "\\" + marker[-1]
    return m.group(1) + "\\" + marker


def inline(p: Prose, *, block_start: bool = True) -> str:
    """A paragraph: escaped text and $inline maths$.  `block_start=False` where
    the template puts words before it (no list or heading marker to escape)."""
    parts = []
    for i, seg in enumerate(p):
        if isinstance(seg, Node):
            # a list or a long formula as pieces a phone's line may wrap between
            parts.append("\u2002".join("$" + piece + "$" for piece in latex_pieces(seg)))
        else:
            parts.append(escape_md(seg, block_start=block_start and i == 0))
    return "".join(parts)


def view(solution: Solution, figures=None, src_prefix: str = "") -> dict:
    """What the templates need, all already formatted.  `figures` are the drawn
    figures of the solution (in order), referenced as src_prefix + filename."""
    p = solution.problem
    figs = [{"src": src_prefix + f.filename, "alt": escape_md(f.alt),
             "caption": inline(spec.caption, block_start=False)}
            for spec, f in zip(solution.figures, figures or ())]
    return {
        "kind": p.kind,
        "seed": p.seed,
        "variant": p.variant,
        "title": escape_md(solution.title),
        "question": [inline(q) for q in solution.question],
        "forecast": inline(solution.forecast),
        "steps": [
            {
                "title": escape_md(s.title),
                "body": [inline(b) for b in s.body],
                "math": [latex_display(m) for m in s.math],
                "why": inline(s.why, block_start=False),
                "after": [inline(a) for a in s.after],
            }
            for s in solution.steps
        ],
        "figures": figs,
        "verify": [inline(c.line) for c in solution.checks],
        "recall": [(inline(q), inline(a)) for q, a in solution.recall],
    }


def render_problem(solution: Solution, *, heading: str = "#", number: int | None = None,
                   figures=None, src_prefix: str = "", recall: bool = True, anchor: str | None = None) -> str:
    """One problem with its collapsed worked solution, as Markdown; figures
    (drawn by generator.figures) are embedded with alt text and caption.
    `recall=False` leaves the recall card to the end of a set page."""
    tpl = environment().get_template("markdown/problem.md.j2")
    return tpl.render(p=view(solution, figures, src_prefix), heading=heading, number=number,
                      recall=recall, anchor=anchor)
