"""Figures: pure functions fig_<name>(problem, solution, spec) →
Figure(bytes, filename, alt): deterministic SVG written directly (_canvas),
so importing this package does not import matplotlib; only its DejaVu Sans
font file is read, for a few text widths, on first need.

`draw_figures` draws every figure a solution asks for, in the run's
language (the words drawn and the alt text: text/<lang>/ui.yaml, figures:,
handed to each figure by `draw`); figures with the same content and words
are drawn once per run (content-addressed cache)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING

from ..text import convention

from ._canvas import Figure
from ._words import run_words
from .bars import fig_bars
from .context import fig_context
from .entropy import fig_entropy
from .heatmap import fig_heatmap
from .sharpening import fig_sharpening

if TYPE_CHECKING:  # the model is only named here: importing the figures stays cheap
    from ..model import FigureSpec, Problem, Solution

FIGURES = {
    "bars": fig_bars,
    "heatmap": fig_heatmap,
    "sharpening": fig_sharpening,
    "context": fig_context,
    "entropy": fig_entropy,
}
_CACHE: dict[str, Figure] = {}
_CACHE_LIMIT = 4096


_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_TEXT = re.compile(rb"(<text[^>]*>)([^<]*)(</text>)")


def with_mark(figure: Figure, mark: str) -> Figure:
    """The figure with every number it draws and says written with the
    language's decimal mark (0,4498): its texts and its alt text."""
    if mark == ".":
        return figure
    data = _TEXT.sub(lambda m: m[1] + _POINT.sub(mark, m[2].decode("utf-8")).encode("utf-8") + m[3], figure.data)
    digest = hashlib.sha256(data).hexdigest()[:12]
    return Figure(data, f"{figure.filename.rsplit('-', 1)[0]}-{digest}.svg", _POINT.sub(mark, figure.alt))


def draw(problem: Problem, solution: Solution, spec: FigureSpec) -> Figure:
    """One figure of a solution, as SVG, with the words of the run's language
    (_words: a figure is a function of its spec and the words it is handed)
    and its numbers written with the language's decimal mark."""
    words = run_words(spec.kind)
    mark = convention("decimal_mark")
    key = json.dumps([spec.kind, spec.data, words, mark], sort_keys=True, ensure_ascii=False)
    hit = _CACHE.get(key)
    if hit is None:
        hit = with_mark(FIGURES[spec.kind](problem, solution, spec, words), mark)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = hit
    return hit


def draw_figures(solution: Solution) -> list[Figure]:
    return [draw(solution.problem, solution, spec) for spec in solution.figures]


__all__ = ["FIGURES", "Figure", "draw", "draw_figures"]
