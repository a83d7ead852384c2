"""Recall cards for spaced-repetition tools: the text of an Anki note and an
Obsidian card file.  Formats only — the cards come from the solutions.

Obsidian's spaced-repetition plugin reads `question ::: answer` on one line
as a card in both directions (the seeds' own form) in any note tagged
`#flashcards`; Anki shows HTML with \\( … \\) maths through its MathJax."""

from __future__ import annotations

from ..model import Prose
from .html import inline as html_inline
from .markdown import escape_md, inline as md_inline


def anki_fields(question: Prose, answer: Prose) -> list[str]:
    """The note's Front and Back fields: HTML-escaped text, maths as \\( … \\)."""
    return [html_inline(question), html_inline(answer)]


def render_obsidian(title: str, code: str, cards: list[tuple[Prose, Prose]]) -> str:
    """One Markdown note per set: the deck tag, a heading, one card a paragraph."""
    lines = ["#flashcards/attention-drills", "", f"# {escape_md(title)}", "",
             f"Set code `{code}`: the recall cards of its problems.", ""]
    for q, a in cards:
        lines += [f"{md_inline(q)} ::: {md_inline(a)}", ""]
    return "\n".join(lines)
