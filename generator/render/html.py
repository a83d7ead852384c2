"""HTML for Moodle: text escaped for HTML, maths as \\( … \\) and \\[ … \\]
for Moodle's MathJax filter (its TeX escaped for HTML too: MathJax reads the
page's text, where `&lt;` is `<` again)."""

from __future__ import annotations

import html

from ..mathlines import Node, Sym
from ..model import Prose, Solution
from .latex import latex
from .plain import GREEK
from ..text import Sayer


def tex(node) -> str:
    """A maths node's TeX, escaped for HTML (`<`, `>`, the `&` of an aligned block)."""
    return html.escape(latex(node), quote=False)


def inline(p: Prose) -> str:
    return "".join(f"\\({tex(seg)}\\)" if isinstance(seg, Node) else html.escape(seg) for seg in p)


def question_html(solution: Solution, skip: frozenset[int] = frozenset()) -> str:
    """The question's paragraphs, leaving out those at the indices in `skip`
    (choices that Moodle shows as its own buttons or menus)."""
    return "".join(f"<p>{inline(q)}</p>" for n, q in enumerate(solution.question) if n not in skip)


def symbols_html(solution: Solution) -> dict[str, str]:
    """Symbols of the question by their plain spelling (`e_ti`, `α_ti`,
    `y_t-1`) → typeset maths, so a matching stem shows as maths."""
    out = {}
    for para in solution.question:
        for seg in para:
            if isinstance(seg, Sym):
                name = GREEK.get(seg.base, seg.base) + (f"_{seg.sub}" if seg.sub else "")
                out.setdefault(name, f"\\({tex(seg)}\\)")
    return out


def solution_html(solution: Solution, figures: str = "", anchor: str = "") -> str:
    """The worked solution; `figures` (HTML) goes after the last step, before
    Verify, where the printed key sets them.  With an `anchor`, each step's
    title has the id `<anchor>-step-<n>` (attndrills analyse links to it);
    without, no id (Moodle and Canvas keep their bytes)."""
    say = Sayer("ui").text  # the headings' words (problem.* of text/<lang>/ui.yaml)
    why = html.escape(say("problem.why"))
    out = [f"<p><b>{html.escape(say('problem.forecast'))}.</b> {inline(solution.forecast)}</p>"]
    for n, s in enumerate(solution.steps, start=1):
        at = f' id="{anchor}-step-{n}"' if anchor else ""
        out.append(f"<p{at}><b>{html.escape(say('problem.step', n=n, title=s.title))}</b></p>")
        out += [f"<p>{inline(b)}</p>" for b in s.body]
        out += [f"<p>\\[{tex(m)}\\]</p>" for m in s.math]
        out += [f"<p>{inline(a)}</p>" for a in s.after]
        out.append(f"<p><i>{why}</i> {inline(s.why)}</p>")
    out.append(figures)
    out.append(f"<p><b>{html.escape(say('problem.verify'))}</b></p><ul>"
               + "".join(f"<li>{inline(c.line)}</li>" for c in solution.checks) + "</ul>")
    return "".join(out)
