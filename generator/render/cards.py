"""Recall cards for spaced-repetition tools: the text of an Anki note and an
Obsidian card file.  Formats only — the cards come from the solutions.

Obsidian's spaced-repetition plugin reads `question :: answer` on one line
as a card asked one way and `question ::: answer` as one asked both ways
(the seeds' form), in any note tagged `#flashcards`; a card is asked both
ways only where its kind built it as `model.TwoWay`.  Anki shows HTML with
\\( … \\) maths through its MathJax."""

from __future__ import annotations

from ..model import Prose, two_way
from .html import inline as html_inline
from .markdown import escape_md, inline as md_inline


def anki_fields(question: Prose, answer: Prose) -> list[str]:
    """The note's Front and Back fields: HTML-escaped text, maths as \\( … \\)."""
    return [html_inline(question), html_inline(answer)]


def distinct_cards(cards):
    """The cards in their order, each once: a card that several problems (or
    several sets) give is one card, as it is one note in Anki."""
    seen, out = set(), []
    for card in cards:
        key = tuple(anki_fields(*card))
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out


def render_obsidian(title: str, about: str, cards: list[tuple[Prose, Prose]]) -> str:
    """One Markdown note: the deck tag, a heading, a line saying whose cards
    they are, one card a paragraph (`::` one way, `:::` both ways)."""
    lines = ["#flashcards/attention-drills", "", f"# {escape_md(title)}", "", about, ""]
    for card in cards:
        q, a = card
        lines += [f"{md_inline(q)} {':::' if two_way(card) else '::'} {md_inline(a)}", ""]
    return "\n".join(lines)
