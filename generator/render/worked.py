"""The item analysis's worked solutions (worked.html): for each named mistake
on each question part, the worked solution of a variant in which it was made
(generator.exam.remedies), every step and recall card with an id of its own,
so the report links to the one step and card that address the mistake.
Formats only; the step was chosen from data."""

from __future__ import annotations

import base64
import html
import re

from .. import kinds
from ..errors import UserError
from ..exam.remedies import Remedy
from ..figures import draw_figures
from ..templating import environment
from ..text import Sayer
from .cards import anki_fields
from .html import inline, question_html, solution_html
from .markdown import inline as md_inline

PAGE = "worked.html"
MATHJAX = "assets/mathjax/tex-mml-chtml.js"  # where the course site has it (writers.mathjax)


def anchor(variant: str) -> str:
    """A variant's id on the page: `v-2-1-5qenkjgqdh` for 2.1-5QENKJGQDH."""
    return "v-" + re.sub(r"[^a-z0-9]+", "-", variant.lower()).strip("-")


def step_link(r: Remedy) -> str:
    """The address of the remedy's worked step (or of its solution, without one)."""
    if r.solution is None:
        return ""
    return f"{PAGE}#{anchor(r.variant)}" + (f"-step-{r.step}" if r.step else "")


def card_link(r: Remedy) -> str:
    return f"{PAGE}#{anchor(r.variant)}-card-1" if r.solution is not None and r.solution.recall else ""


def step_title(r: Remedy) -> str:
    if not (r.solution and r.step):
        return ""
    return Sayer("ui").text("problem.step", n=r.step, title=r.solution.steps[r.step - 1].title).removesuffix(".")


def card_text(r: Remedy, html_form: bool) -> str:
    """The solution's recall cards, `question ::: answer` (HTML with \\( \\)
    maths for the page; Markdown with $ $ maths, as the Obsidian deck writes
    them, for the CSV)."""
    if r.solution is None:
        return ""
    if html_form:
        return " · ".join(" ::: ".join(anki_fields(q, a)) for q, a in r.solution.recall)
    return " · ".join(f"{md_inline(q)} ::: {md_inline(a)}" for q, a in r.solution.recall)


def _figures(sol) -> str:
    """The figures inline (data: URLs), each with its alt text and caption."""
    return "".join(
        f'<p><img src="data:image/svg+xml;base64,{base64.b64encode(f.data).decode("ascii")}" '
        f'alt="{html.escape(f.alt)}"></p><p><i>{inline(spec.caption)}</i></p>'
        for spec, f in zip(sol.figures, draw_figures(sol)))


def worked_page(remedies: list[Remedy], site: str) -> str:
    """Each variant the remedies name, once, in their order: its question,
    worked solution (steps with ids) and recall cards (with ids)."""
    sections, seen = [], {}
    for r in remedies:
        if r.solution is None:
            continue
        if r.variant in seen:
            seen[r.variant]["parts"].append(r.question)
            continue
        sol, a = r.solution, anchor(r.variant)
        try:
            title = kinds.get(sol.problem.kind).title
        except UserError:
            title = sol.title
        seen[r.variant] = {"id": a, "variant": html.escape(r.variant), "title": html.escape(title),
                           "kind": html.escape(sol.problem.kind), "parts": [r.question],
                           "question": question_html(sol),
                           "solution": solution_html(sol, _figures(sol), anchor=a),
                           "cards": [(f"{a}-card-{n}", *anki_fields(q, ans))
                                     for n, (q, ans) in enumerate(sol.recall, start=1)]}
        sections.append(seen[r.variant])
    for s in sections:
        s["parts"] = html.escape(", ".join(dict.fromkeys(s["parts"])))
    return environment().get_template("html/worked.html.j2").render(
        sections=sections, mathjax=html.escape(site + MATHJAX))
