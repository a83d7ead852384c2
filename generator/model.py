"""The one intermediate representation between solving and rendering.

A `Problem` is plain JSON-able data (kind id, seed, inputs).  A `Solution`
holds everything a renderer may show: ordered steps, named answers, the
checks that were actually run, recall cards and figure specs.  Nothing here
is LaTeX or Typst: mathematics is held as `generator.mathlines` nodes and
every number in them is already a correctly rounded display string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Union

from .mathlines import Node, Sym

# Prose is a sequence of plain text and inline maths.  Renderers escape the
# text for their format and print the nodes with their maths printer.
Prose = tuple[Union[str, Node], ...]


def prose(*parts: str | Node) -> Prose:
    """Build a prose tuple, dropping empty strings.  This is the one place
    where plain text becomes maths, by a convention every kind's sentences
    rely on: inside a string argument

    - "Tx" and "Ty" (whole words) become the symbols T_x and T_y;
    - a letter with an underscore subscript becomes a subscripted symbol:
      "h_i", "α_t1", "s_{t−1}", and "y_t-1" as answer labels write it
      ("α" is printed as the Greek letter);
    - a hyphen before a digit, after a space, an opening bracket or at the
      start ("-3", "(-0.5"), becomes a true minus sign (U+2212);

    everything else stays text, and nodes passed in are kept as they are.
    So prose("the weight α_t1 of -3") is text, Sym("alpha", "t1"), text with
    "−3": every format typesets the symbols alike.

    Why a documented convention and not a marker in each string: the kinds
    write about 250 prose() calls, and the renderers pass answer labels
    and option texts through prose() too (render.typst.label and its
    siblings), so one rule covers them all; a marker in every string would
    change no output and bury the sentences in markup, while the rule fits
    in this paragraph.  `_SYMBOL` and `_MINUS` below are the expressions."""
    out: list[str | Node] = []
    for p in parts:
        if isinstance(p, str):
            if p:
                out.extend(_typeset_text(p))
        else:
            out.append(p)
    return tuple(out)


# Tx, Ty; a letter with a subscript (h_i, α_t1, s_{t−1}, and as answer labels
# write it, y_t-1); a hyphen used as a minus (after a space, an opening
# bracket or the start, before a digit).
_SYMBOL = re.compile(r"\b(?:T([xy])\b|([A-Za-zα])_\{([^{}]+)\}|([A-Za-zα])_([A-Za-z0-9]+(?:[-−]1)?)\b)")
_GREEK = {"α": "alpha"}
_MINUS = re.compile(r"(?<![\w)\]])-(?=\d)")


@lru_cache(maxsize=4096)  # the same sentences recur in every variant
def _typeset_text(text: str) -> tuple[str | Node, ...]:
    """The pieces of a non-empty text: words and symbols (no empty word)."""
    if "_" not in text and "Tx" not in text and "Ty" not in text:  # no symbol: at most minus signs
        return (_MINUS.sub("−", text),) if "-" in text else (text,)
    text = _MINUS.sub("−", text)
    out: list[str | Node] = []
    at = 0
    for m in _SYMBOL.finditer(text):
        out.append(text[at:m.start()])
        if m.group(1):
            out.append(Sym("T", m.group(1)))
        elif m.group(2):
            out.append(Sym(_GREEK.get(m.group(2), m.group(2)), m.group(3)))
        else:
            out.append(Sym(_GREEK.get(m.group(4), m.group(4)), m.group(5).replace("-", "−")))
        at = m.end()
    out.append(text[at:])
    return tuple(p for p in out if p != "")


@dataclass(frozen=True)
class Problem:
    """kind id, seed, the inputs (JSON data: decimal strings, lists, words)."""

    kind: str
    seed: int
    inputs: dict[str, Any]
    variant: str  # short code from which this exact item is regenerated
    given: bool = False  # inputs typed by the user rather than drawn


@dataclass(frozen=True)
class Step:
    title: str
    body: tuple[Prose, ...]  # paragraphs before the maths
    math: tuple[Node, ...]  # display lines, each its own paragraph
    why: Prose
    after: tuple[Prose, ...] = ()  # paragraphs after the maths


@dataclass(frozen=True)
class Option:
    text: str
    correct: bool
    misconception: str | None


@dataclass(frozen=True)
class Answer:
    """A named result with its exact value, float value and display.

    `exact` is a sympy-printable string, `value` the float (or nested lists
    of floats for vectors and rows), `display` what students see, and
    `tolerance` the half-unit of the last printed place.
    """

    name: str
    type: str  # numeric | vector | choice | matching | truefalse | text
    label: str  # what the answer is, in words
    value: Any
    display: Any
    exact: Any
    tolerance: Any
    options: tuple[Option, ...] = ()
    # a text answer (marked by hand): the question's paragraph that asks for
    # it, which an output with nowhere to write prose leaves out (Moodle)
    prompt: Prose = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": self.type,
            "label": self.label,
            "value": self.value,
            "display": self.display,
            "exact": self.exact,
            "tolerance": self.tolerance,
        }
        if self.options:
            out["options"] = [
                {"text": o.text, "correct": o.correct, "misconception": o.misconception}
                for o in self.options
            ]
        return out


SKIPPED = "numeric check skipped"  # a Check's name where the float path could not decide


@dataclass(frozen=True)
class Check:
    """A check that was run on the exact values; `line` is its Verify line."""

    name: str
    passed: bool
    line: Prose


@dataclass(frozen=True)
class FigureSpec:
    """What to draw; the figure functions turn it into bytes (figures issue)."""

    kind: str
    data: dict[str, Any]
    caption: Prose = ()


class TwoWay(tuple):
    """A recall card meant both ways: a (question, answer) pair whose answer
    makes a prompt of its own (a term and its definition, say), so the decks
    ask it from either side: Anki's "and reversed" note type, Obsidian's
    `:::`.  Build it with `TwoWay(question, answer)`; a plain pair is asked
    one way only, question to answer — the rule, since an answer such as
    "Nothing — softmax is shift-invariant" asks nothing.  It unpacks like
    the plain pair, so code that only reads cards needs no change."""

    __slots__ = ()

    def __new__(cls, question: Prose, answer: Prose):
        return super().__new__(cls, (question, answer))

    def __getnewargs__(self):  # pickled (a worker's result) as the pair it is
        return tuple(self)


def two_way(card: tuple[Prose, Prose]) -> bool:
    """Whether a recall card is asked both ways (see TwoWay)."""
    return isinstance(card, TwoWay)


@dataclass(frozen=True)
class Solution:
    problem: Problem
    title: str
    question: tuple[Prose, ...]
    forecast: Prose
    steps: tuple[Step, ...]
    answers: tuple[Answer, ...]
    checks: tuple[Check, ...]
    recall: tuple[tuple[Prose, Prose], ...]  # (question, answer) pairs, asked one way; TwoWay both
    figures: tuple[FigureSpec, ...] = ()

    def answer(self, name: str) -> Answer:
        for a in self.answers:
            if a.name == name:
                return a
        raise KeyError(name)
