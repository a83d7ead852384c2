"""Markdown renderer (MkDocs Material + pymdownx.arithmatex, admonition, details).

It only formats: prose text is escaped for Markdown, maths nodes go through
the LaTeX printer, and the Jinja templates lay the page out.
"""

from __future__ import annotations

import base64
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from ..mathlines import Node
from ..model import Prose, Solution
from ..templating import environment, ui
from ..text import Sayer
from .answer_fields import answer_view, attribute_json
from .latex import joined_pieces, latex_display, latex_pieces

# Characters that start inline markup anywhere ($ for arithmatex, | for
# tables, {} for attribute lists); HTML's own are turned into entities.
_INLINE_SPECIAL = "\\`*_{}[]|$"
_ESCAPES = str.maketrans({**{ch: "\\" + ch for ch in _INLINE_SPECIAL},
                          **{ch: html.escape(ch) for ch in "<>&"}, "\n": " "})
# Markers that only mean something at the start of a block.
_BLOCK_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


_ESCAPED = re.compile("[" + re.escape("".join(chr(c) for c in _ESCAPES)) + "]")


def escape_md(text: str, *, block_start: bool = False) -> str:
    """Escape user or generated text so Markdown and HTML show it literally."""
    escaped = text.translate(_ESCAPES) if _ESCAPED.search(text) else text  # most sentences hold none
    if block_start:
        escaped = _BLOCK_START.sub(_escape_marker, escaped)
    return escaped


def page_title(text: str) -> str | None:
    """The front matter's `title:` (a YAML string) for a page headed by
    user text holding "<" or ">", else None (the page's heading is its title).
    MkDocs and Zensical put a page's title into <title> through Jinja's
    `striptags`, which unescapes "&lt;": a spec titled "</title><script>…"
    ran as a script however the heading escaped it.  The title they read
    has look-alike angle brackets (＜ ＞) instead; the heading keeps the text."""
    if "<" not in text and ">" not in text:
        return None
    return json.dumps(text.replace("<", "\uff1c").replace(">", "\uff1e"), ensure_ascii=False)


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
            parts.append(joined_pieces(latex_pieces(seg), lambda piece: "$" + piece + "$"))
        else:
            parts.append(escape_md(seg, block_start=block_start and i == 0))
    return "".join(parts)


# the levels' names, by the keys of text/<lang>/ui.yaml
LEVELS = {1: "site_pages.level_1", 2: "site_pages.level_2", 3: "site_pages.level_3", 4: "site_pages.level_4",
          5: "site_pages.level_5"}


def course_place(kind: str, long: bool = False) -> str:
    """Where a kind sits in the course, in the course's words: "Cell F" or
    "Exercise 2.1" (long: "Cell F of the scenario matrix", "Exercise 2.1,
    level 2: application") — what a student reads instead of a kind id
    (site_pages in text/<lang>/ui.yaml)."""
    say = Sayer("ui")
    if kind.isalpha():
        return say.text("site_pages.cell_long" if long else "site_pages.cell", kind=kind)
    level = kind.split(".")[0]
    if long and level.isdigit() and int(level) in LEVELS:
        return say.text("site_pages.exercise_long", kind=kind, level=level,
                        level_name=say.text(LEVELS[int(level)]))
    return say.text("site_pages.exercise", kind=kind)


@dataclass(frozen=True)
class Markup:
    """How an output writes the leaves of a problem's view: its titles, its
    figures' alt texts, its paragraphs (Prose, `block_start` as for `inline`)
    and its display formulas (LaTeX).  Markdown's is MARKDOWN; the site's HTML
    (render.site_html) writes what Python-Markdown makes of it."""
    text: Callable[[str], str]
    alt: Callable[[str], str]
    inline: Callable[..., str]
    display: Callable[[str], str]


MARKDOWN = Markup(text=escape_md, alt=escape_md, inline=inline, display=lambda tex: tex)


def view(solution: Solution, figures=None, src_prefix: str | None = "", *, markup: Markup = MARKDOWN,
         recall: bool = True) -> dict:
    """What the templates need, all already formatted by `markup`: the one
    view of a problem behind templates/markdown/ and templates/html/.
    `figures` are the drawn figures of the solution (in order), referenced
    as src_prefix + filename or, with src_prefix None, put into the page
    (data_uri); `recall=False` leaves the recall cards out."""
    p = solution.problem
    fmt = markup.inline
    figs = [{"src": data_uri(f) if src_prefix is None else src_prefix + f.filename, "alt": markup.alt(f.alt),
             "caption": fmt(spec.caption, block_start=False)}
            for spec, f in zip(solution.figures, figures or ())]
    return {
        "kind": p.kind,
        "seed": p.seed,
        "variant": p.variant,
        "variant_line": ui("problem.variant_line", variant=p.variant, kind=p.kind) if p.seed is None else ui(
            "problem.variant_line_seed", variant=p.variant, kind=p.kind, seed=p.seed),
        "place": course_place(p.kind),
        "title": markup.text(solution.title),
        "question": [fmt(q) for q in solution.question],
        "forecast": fmt(solution.forecast),
        "steps": [
            {
                "title": markup.text(s.title),
                "heading": ui("problem.step", n=i, title=markup.text(s.title)),
                "body": [fmt(b) for b in s.body],
                "math": [markup.display(latex_display(m)) for m in s.math],
                "why": fmt(s.why, block_start=False),
                "after": [fmt(a) for a in s.after],
            }
            for i, s in enumerate(solution.steps, start=1)
        ],
        "figures": figs,
        "verify": [fmt(c.line) for c in solution.checks],
        "recall": [(fmt(q), fmt(a)) for q, a in solution.recall] if recall else [],
    }


def heading_md(solution: Solution, heading: str, number: int | None = None, anchor: str | None = None) -> str:
    """A problem's heading line, as render_problem writes it."""
    return environment().get_template("markdown/partials/heading.md.j2").render(
        p={"title": escape_md(solution.title)}, heading=heading, number=number, anchor=anchor).removesuffix("\n")


def data_uri(figure) -> str:
    """A drawn SVG figure as the source of an image inside the page, in base64:
    no character that Markdown or HTML would read as anything but the URL."""
    return "data:image/svg+xml;base64," + base64.b64encode(figure.data).decode("ascii")


def render_problem(solution: Solution, *, heading: str = "#", number: int | None = None,
                   figures=None, src_prefix: str = "", recall: bool = True, anchor: str | None = None,
                   answer_fields: bool = False) -> str:
    """One problem with its collapsed worked solution, as Markdown; figures
    (drawn by generator.figures) are embedded with alt text and caption.
    `recall=False` leaves the recall card to the end of a set page;
    `answer_fields=True` adds the site's answer fields and Forecast guess
    (docs/javascripts/practice.js checks them); heading=None prints the
    title as a bold line (a practice page's variants share one heading)."""
    tpl = environment().get_template("markdown/problem.md.j2")
    return tpl.render(p=view(solution, figures, src_prefix, recall=recall), heading=heading, number=number,
                      anchor=anchor, check=answer_fields,
                      v=answer_view(solution) if answer_fields else None)


# The Markdown extensions of the site (mkdocs.yml) that a problem's Markdown
# uses.  Practice variants beyond the first are converted to HTML here and
# embedded as data, so the site builder does not convert twenty worked
# solutions per page (issue 13: the build stays within its time budget).
SITE_EXTENSIONS = {
    "admonition": {},
    "attr_list": {},
    "pymdownx.details": {},
    "pymdownx.superfences": {},
    "pymdownx.arithmatex": {"generic": True},
}
_CONVERTER = None


def to_html(md: str) -> str | None:
    """Markdown → HTML as the site converts it; None when Python-Markdown and
    pymdown-extensions (the `site` extra) are not installed."""
    global _CONVERTER
    if _CONVERTER is None:
        try:
            import markdown
        except ImportError:
            return None
        _CONVERTER = markdown.Markdown(extensions=list(SITE_EXTENSIONS),
                                       extension_configs={k: v for k, v in SITE_EXTENSIONS.items() if v})
    try:
        return _CONVERTER.reset().convert(md)
    except ImportError:  # an extension is missing
        return None


# What MkDocs converts a page with: the site's extensions and the three MkDocs
# always adds.  A set page's problems are converted here, in the workers of
# `attndrills site`, and handed to the builders as ready HTML (see ready_html).
_MKDOCS_DEFAULTS = ("toc", "tables", "fenced_code")
_PAGE_CONVERTER = None


def ready_html(md: str, figures=(), src_prefix: str = "") -> str:
    """A block of page Markdown (a problem below its heading) as the HTML MkDocs
    would make of it, between the markers of render.passthrough, which hands
    it to the page unparsed; the block as it was when Python-Markdown or
    pymdown-extensions is missing.  `figures`, named in `md` as src_prefix +
    file name, are put into the page (data_uri), once it is converted: a URL
    is 3 kB that Python-Markdown would read through and leave as it is."""
    html = page_html(md)
    if html is None:
        for f in figures:
            md = md.replace(f"]({src_prefix}{f.filename})", f"]({data_uri(f)})")
        return md
    for f in figures:
        html = html.replace(f' src="{src_prefix}{f.filename}" ', f' src="{data_uri(f)}" ')
    return ready_block(html)


def page_html(md: str) -> str | None:
    """A block of page Markdown as the HTML MkDocs would make of it (no
    markers); None when Python-Markdown or pymdown-extensions is missing."""
    global _PAGE_CONVERTER
    if _PAGE_CONVERTER is None:
        try:
            import markdown

            _PAGE_CONVERTER = markdown.Markdown(
                extensions=[*_MKDOCS_DEFAULTS, *SITE_EXTENSIONS],
                extension_configs={k: v for k, v in SITE_EXTENSIONS.items() if v})
        except ImportError:
            return None
    return _PAGE_CONVERTER.reset().convert(md)


def ready_block(html: str) -> str:
    """HTML (converted here, or written by a template) as a block the
    builders take unparsed, between the markers of render.passthrough; as it
    is without Python-Markdown (the builders then read it as raw HTML)."""
    try:
        from .passthrough import wrap
    except ImportError:
        return html
    return wrap(html)


def pool_json(variants: list[dict]) -> str:
    """A practice pool's embedded variants ({code, html}), for a single-quoted HTML attribute."""
    return attribute_json(variants)
