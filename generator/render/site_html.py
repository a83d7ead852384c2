"""The site's problem blocks as HTML, laid out directly: the bytes that
Python-Markdown, run with the site's extensions as the builders run it, makes
of render.markdown's Markdown for the same problem, without parsing it.

`attndrills site` converts every problem of its pages before the builders
see them (render.markdown.ready_html); through Python-Markdown that took
1.4 ms a problem, more than sampling and solving it.  Here the problem's
one view (render.markdown.view, as for the Markdown) is filled by HTML's
Markup: prose written as Python-Markdown writes the escaped Markdown of it;
templates/html/ lays it out as Python-Markdown lays out templates/markdown/,
tag for tag.  What this
module is not sure to write the same way — text that starts like a list or a
heading, text with Markdown's escapable characters or surrounding blanks,
maths Python-Markdown would not read as maths — makes it return None, and
the caller converts that problem's Markdown instead.  tests/test_site.py
holds both ways equal for every kind over many seeds."""

from __future__ import annotations

import re

from ..mathlines import Node
from ..model import Prose, Solution
from ..templating import environment
from .latex import joined_pieces, latex_pieces
from .answer_fields import answer_view
from .markdown import _BLOCK_START, Markup, view


class _Unsure(Exception):
    """Python-Markdown might write this differently: convert the Markdown instead."""


# Characters of text that render.markdown.escape_md escapes and Python-Markdown
# does not simply unescape (`|` only with the tables extension, `$` never, a
# backslash or backtick next to maths or code), and what its preprocessors
# change (tabs, its placeholders' STX/ETX); * _ { } [ ] come back as they were.
_UNSURE_TEXT = re.compile(r"[\\`|$\t\x02\x03]")
# & that does not start a character reference, as Python-Markdown's serializer finds it
_AMP = re.compile(r"&(?!(?:#[0-9]+|#x[0-9a-f]+|[0-9a-z]+);)", re.I)


def _text(text: str, block_start: bool) -> str:
    if _UNSURE_TEXT.search(text) or (block_start and (_BLOCK_START.match(text) or text[:1].isspace())):
        raise _Unsure
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ")


def _maths(piece: str) -> str:
    """An inline formula as arithmatex (generic) writes `$piece$`."""
    if not piece or piece[0].isspace() or piece[-1].isspace() or "$" in piece or "\n" in piece or "`" in piece:
        raise _Unsure
    return '<span class="arithmatex">\\(' + _AMP.sub("&amp;", piece).replace("<", "&lt;").replace(">", "&gt;") \
        + "\\)</span>"


def inline(p: Prose, *, block_start: bool = True) -> str:
    """A paragraph's text and maths (as render.markdown.inline, converted)."""
    parts = []
    for i, seg in enumerate(p):
        if isinstance(seg, Node):
            parts.append(joined_pieces(latex_pieces(seg), _maths))
        else:
            parts.append(_text(seg, block_start and i == 0))
    html = "".join(parts)
    if html[-1:].isspace():
        raise _Unsure
    return html


def _display(m: str) -> str:
    """A display formula as arithmatex (generic) writes a `$$` block."""
    if "$" in m or "\n" in m or not m.strip():
        raise _Unsure
    return '<div class="arithmatex">\\[\n' + m.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") \
        .replace('"', "&quot;") + "\n\\]</div>"


def _title(text: str) -> str:
    """A title inside **…** (the bold would not hold around blanks)."""
    if text[:1].isspace() or text[-1:].isspace():
        raise _Unsure
    return _text(text, False)


def _attribute(text: str) -> str:
    if _UNSURE_TEXT.search(text) or text[:1].isspace() or text[-1:].isspace():
        raise _Unsure
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;") \
        .replace("\n", " ")


# The one problem view (render.markdown.view) written as Python-Markdown writes its Markdown
HTML = Markup(text=_title, alt=_attribute, inline=inline, display=_display)


def problem_html(solution: Solution, *, title: bool = False, figures=None, src_prefix: str | None = None) -> str | None:
    """A problem below its heading (or, with `title`, below its title in bold),
    with its answer fields and its collapsed worked solution, as ready HTML;
    None where Python-Markdown might have written it differently."""
    try:
        p = view(solution, figures, src_prefix, markup=HTML, recall=False)
    except _Unsure:
        return None
    return environment().get_template("html/problem.html.j2").render(
        p=p, title=title, v=answer_view(solution)).removesuffix("\n")


def cards_html(recall: list[tuple[Prose, Prose]]) -> str | None:
    """A set's recall cards, questions shown and answers collapsed; None as above."""
    try:
        cards = [(inline(q), inline(a)) for q, a in recall]
    except _Unsure:
        return None
    return environment().get_template("html/cards.html.j2").render(recall=cards).removesuffix("\n")
