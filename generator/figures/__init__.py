"""Figures: pure functions fig_<name>(problem, solution, spec) →
Figure(bytes, filename, alt): deterministic SVG written directly (_canvas),
so importing this package does not import matplotlib; only its DejaVu Sans
font file is read, for a few text widths, on first need.

`draw_figures` draws every figure a solution asks for, in the run's
language (the words drawn and the alt text: text/<lang>/ui.yaml, figures:,
handed to each figure by `draw`); figures with the same content and words
are drawn once per run (content-addressed cache)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

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


def draw(problem: Problem, solution: Solution, spec: FigureSpec) -> Figure:
    """One figure of a solution, as SVG, with the words of the run's language
    (_words: a figure is a function of its spec and the words it is handed)."""
    words = run_words(spec.kind)
    key = json.dumps([spec.kind, spec.data, words], sort_keys=True, ensure_ascii=False)
    hit = _CACHE.get(key)
    if hit is None:
        hit = FIGURES[spec.kind](problem, solution, spec, words)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = hit
    return hit


def draw_figures(solution: Solution) -> list[Figure]:
    return [draw(solution.problem, solution, spec) for spec in solution.figures]


__all__ = ["FIGURES", "Figure", "draw", "draw_figures"]
