"""Typst renderer (the print path).  It only formats: prose is escaped for
Typst markup, maths goes through the Typst printer, user-typed text (names,
labels, titles) becomes string literals, and templates/typst lays it out."""

from __future__ import annotations

import re

from ..mathlines import Node, Seq
from ..model import Prose, Solution, prose
from ..templating import environment
from ..text import Sayer, convention, number
from .typst_math import typst_display, typst_inline, typst_string

_SPECIAL = "\\#$*_@<>[]`~=-+/\"':;"  # ';' too: after an embedded #box(…), Typst ends the expression with it and drops it
# one translation table: a markup character gets a backslash, a newline becomes a space
_ESCAPES = {**{ord(ch): "\\" + ch for ch in _SPECIAL}, ord("\n"): " "}


def escape_typst(text: str) -> str:
    """Escape markup characters so Typst shows the text literally."""
    return text.translate(_ESCAPES)


def inline(p: Prose) -> str:
    return "".join(typst_inline(seg) if isinstance(seg, Node) else escape_typst(seg) for seg in p)


_UNBROKEN = re.compile(r"(\S{24})(?=\S)")


def breakable(text: str) -> str:
    """User text with a zero-width space after every 24 characters that hold
    no space: a line may break there.  A long name or id with no space ran off
    the page (Typst breaks lines only where a space or the script allows)."""
    return _UNBROKEN.sub("\\1\u200b", text)


def label(words: str) -> str:
    """An answer's label, or a matching answer's pairs, as Typst markup: the
    words escaped, a symbol (c_t, α_t1, y_t-1) as maths, as the question sets
    it, and a number's hyphen a true minus."""
    return inline(prose(words)) if words else ""


def view(solution: Solution, figures=None, worked: bool = True, skip: frozenset[int] = frozenset()) -> dict:
    """What the templates need.  Without `worked` (an exam paper prints the
    question only) the worked solution is not formatted: its keys are absent.
    `skip`: indices of question paragraphs left out (an exam's unmarked prompts)."""
    p = solution.problem
    question = {
        "kind": p.kind,
        "variant": escape_typst(p.variant),
        "title": escape_typst(solution.title),
        "question": [inline(q) for n, q in enumerate(solution.question) if n not in skip],
    }
    if not worked:
        return question
    answer_parts = [(a.label, a.display, a.type) for a in solution.answers if a.type != "text"]
    return {
        **question,
        "forecast": inline(solution.forecast),
        "steps": [{"title": escape_typst(s.title), "body": [inline(b) for b in s.body],
                   "math": [typst_display(m) for m in s.math], "after": [inline(a) for a in s.after],
                   "why": inline(s.why)} for s in solution.steps],
        "figures": [{"svg": typst_string(f.data.decode("utf-8")), "alt": typst_string(f.alt),
                     "width": _SVG_WIDTH.search(f.data, 0, 400).group(1).decode(),
                     "caption": inline(spec.caption)}
                    for spec, f in zip(solution.figures, figures or ())],
        "verify": [inline(c.line) for c in solution.checks],
        "answers": [(label(name), label(_flat(display, convention("list_separator") + " ")) if kind == "matching"
                     else escape_typst(typeset_minus(_read(display, kind)))) for name, display, kind in answer_parts],
    }


def work_space(solution: Solution, least: float) -> str:
    """Room to work a problem by hand, in proportion to its worked solution:
    about 0.55 cm a line of working (a list of results counted three to a
    line), from `least` (cm) up to 9 cm.  A fixed 2.4 cm gave kind 1.1's
    matching and G's five softmaxes the same box."""
    lines = sum((len(m.items) + 2) // 3 if isinstance(m, Seq) else 1 for s in solution.steps for m in s.math)
    return f"{max(least, min(9.0, 0.9 + 0.55 * lines)):.2f}cm"


_SVG_WIDTH = re.compile(rb'<svg [^>]*?width="([\d.]+)pt"')  # a figure's own width, as its SVG declares it
_MINUS = re.compile(r"(?<!\w)-(?=[0-9.])")  # a minus that starts a number, not a typed "T-5"


def typeset_minus(text: str) -> str:
    """A number's hyphen-minus becomes the minus sign (U+2212), as in maths:
    answer values are set as text, not maths."""
    return _MINUS.sub("\u2212", text)


def _read(display, kind: str) -> str:
    """A key's value as the reader reads it: the language's decimal mark and
    list separator, true or false in its words."""
    if kind == "truefalse":
        return Sayer("ui").text("answers.true" if str(display) == "true" else "answers.false")
    return number(_flat(display, convention("list_separator") + " "))


def _flat(display, sep: str = ", ") -> str:
    if isinstance(display, list):
        return "(" + sep.join(_flat(d, sep) for d in display) + ")"
    return str(display)


def render_document(template: str, **context) -> str:
    """A whole Typst document from templates/typst/<template>."""
    return environment().get_template(f"typst/{template}").render(
        escape=escape_typst, string=typst_string, minus=typeset_minus, **context)
