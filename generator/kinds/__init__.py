"""The registry of problem kinds: one module per kind, each registering itself
with `register(Kind(**about(ID), ...))`.  Modules are discovered, not listed
by position.

A kind's module is imported when the kind is first asked for (`get`), or all
of them at once (`all_kinds`): the modules bring numpy and sympy with them,
which `attndrills kinds` and one `problem` of another kind do not need.
INDEX is the one place a kind's id, slug, title, level, source and summary
are written: `attndrills kinds` prints it without importing any module, and
each module takes its own from it with `about(ID)`.

A kind's sentences are built with `model.prose()`, which typesets the
symbols written in the text ("Tx", "h_i", "-3"): its docstring gives the rule.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

from ..errors import UserError

if TYPE_CHECKING:
    from ._base import Kind


class Entry(NamedTuple):
    """What `attndrills kinds` lists about a kind, and the module that holds it."""

    id: str
    slug: str
    title: str
    level: int | None
    source: str
    summary: str
    module: str


INDEX: tuple[Entry, ...] = (
    Entry("A", "sharp-peak", "One sharp peak", None, "seeds/000 Example 1 (cell A)",
          "one score clearly biggest; amplification exp(gap)", "cell_a"),
    Entry("B", "equal-scores", "All scores equal", None, "seeds/000 Example 2 (cell B)",
          "uniform weights 1/Tx; context = plain average", "cell_b"),
    Entry("C", "negative-scores", "Negative scores present", None, "seeds/000 Example 3 (cell C)",
          "naive divide-by-sum breaks; softmax survives", "cell_c"),
    Entry("D", "shifted-scores", "Shifted scores (+k)", None, "seeds/000 Example 4 (cell D)",
          "weights unchanged: shift invariance", "cell_d"),
    Entry("E", "single-input", "A single input word (Tx = 1)", None, "seeds/000 Example 5 (cell E)",
          "weight 1, context = h1", "cell_e"),
    Entry("F", "near-tie", "Two near-tied peaks", None, "seeds/000 Example 6 (cell F)",
          "soft blend, high entropy", "cell_f"),
    Entry("G", "reordering", "Word problem with reordering", None, "seeds/000 Example 7 (cell G)",
          "translation, non-monotonic alignment, heatmap", "cell_g"),
    Entry("H", "sharpness-limit", "Scores × β, β → ∞", None, "seeds/000 Example 8 (cell H)",
          "sharpening toward a hard argmax (and β → 0: uniform)", "cell_h"),
    Entry("I", "already-normalised", "Already-normalised input", None, "seeds/000 Example 9 (cell I)",
          "do NOT softmax twice; context and entropy", "cell_i"),
    Entry("1.1", "symbol-matching", "Match the symbols", 1, "seeds/002 Exercise 1.1",
          "symbols ↔ plain-English meanings, shuffled", "ex_1_1"),
    Entry("1.2", "true-or-false", "True or false", 1, "seeds/002 Exercise 1.2",
          "true statements and false ones contradicting them", "ex_1_2"),
    Entry("1.3", "what-sums-to-one", "What sums to one?", 1, "seeds/002 Exercise 1.3",
          "multiple choice: the weights, not scores or states", "ex_1_3"),
    Entry("2.1", "weights-from-scores", "Weights from scores", 2, "seeds/002 Exercise 2.1",
          "softmax of drawn scores", "ex_2_1"),
    Entry("2.2", "context-vector", "The context vector", 2, "seeds/002 Exercise 2.2",
          "blend drawn 2-D or 3-D states with the weights", "ex_2_2"),
    Entry("2.3", "shift-constant", "Shift every score", 2, "seeds/002 Exercise 2.3",
          "shift invariance with a drawn constant", "ex_2_3"),
    Entry("3.1", "entropy-uniform-vs-spiked", "Entropy: uniform versus spiked", 3, "seeds/002 Exercise 3.1",
          "H = ln Tx for uniform; a spike's H is far lower", "ex_3_1"),
    Entry("3.2", "bahdanau-vs-luong", "Bahdanau versus Luong", 3, "seeds/002 Exercise 3.2",
          "which decoder state scores, and why (the ordering)", "ex_3_2"),
    Entry("3.3", "permute-states", "Permute two states", 3, "seeds/002 Exercise 3.3",
          "weights permute, context unchanged", "ex_3_3"),
    Entry("4.1", "count-scores", "Counting alignment scores", 4, "seeds/002 Exercise 4.1",
          "Tx × Ty scores; the bottleneck trade-off", "ex_4_1"),
    Entry("4.2", "heatmap-reordering", "Describe the heatmap", 4, "seeds/002 Exercise 4.2",
          "hot cells for a drawn reordering from the sentence bank", "ex_4_2"),
    Entry("4.3", "gradient-flow", "Gradient flow", 4, "seeds/002 Exercise 4.3",
          "one hop through attention versus a long recurrent chain", "ex_4_3"),
    Entry("5.1", "single-source-word", "A one-word source", 5, "seeds/002 Exercise 5.1",
          "Tx = 1: α = 1 and c_t = h_1 at every step", "ex_5_1"),
    Entry("5.2", "two-score-limits", "Two scores and their limits", 5, "seeds/002 Exercise 5.2",
          "Δ → +∞, 0, −∞; the d_k scaling", "ex_5_2"),
    Entry("5.3", "spike-entropy-drop", "A score jumps: the entropy drops", 5, "seeds/002 Exercise 5.3",
          "uniform then spike; entropy before, after and the drop", "ex_5_3"),
)

def about(kind_id: str) -> dict:
    """A kind's metadata from INDEX, as Kind's keyword arguments."""
    entry = next(e for e in INDEX if e.id == kind_id)
    return {"id": entry.id, "slug": entry.slug, "title": entry.title, "level": entry.level,
            "source": entry.source, "summary": entry.summary}


REGISTRY: dict[str, Kind] = {}
_all_loaded = False


def register(kind: Kind) -> Kind:
    if kind.id in REGISTRY:
        raise RuntimeError(f"kind {kind.id} registered twice")
    REGISTRY[kind.id] = kind
    return kind


def _discover() -> None:
    """Import every kind module (each registers itself on import)."""
    global _all_loaded
    if not _all_loaded:
        import pkgutil

        for info in pkgutil.iter_modules(__path__):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__name__}.{info.name}")
        _all_loaded = True


def _order(kind_id: str) -> tuple:
    # cells A–I first, then the exercise labels 1.1 … 5.3 in numeric order
    if kind_id[0].isalpha():
        return (0, kind_id)
    return (1, tuple(int(p) for p in kind_id.split(".")))


def listing() -> list[Entry]:
    """Every kind as INDEX lists it, in order — without importing a kind module."""
    return sorted(INDEX, key=lambda e: _order(e.id))


def entry(name: str) -> Entry:
    """A kind's INDEX entry by id (case-insensitive) or slug, without importing it."""
    key = name.strip()
    for e in INDEX:
        if key.upper() == e.id.upper() or key.lower() == e.slug:
            return e
    raise UserError(f"unknown kind {name!r}; choose one of {', '.join(e.id for e in listing())} "
                    "(see `attndrills kinds`)")


def all_kinds() -> list[Kind]:
    _discover()
    return sorted(REGISTRY.values(), key=lambda k: _order(k.id))


def get(name: str) -> Kind:
    """A kind by its id (A, 2.1, case-insensitive) or its slug."""
    kind = REGISTRY.get(name)  # the common case: an id as the registry spells it
    if kind is not None:
        return kind
    key = name.strip()
    for entry in INDEX:
        if key.upper() == entry.id.upper() or key.lower() == entry.slug:
            importlib.import_module(f"{__name__}.{entry.module}")
            if entry.id in REGISTRY:
                return REGISTRY[entry.id]
            break  # INDEX is out of date: look through every module
    _discover()
    for kind in REGISTRY.values():
        if key.upper() == kind.id.upper() or key.lower() == kind.slug:
            return kind
    known = ", ".join(k.id for k in all_kinds())
    raise UserError(f"unknown kind {name!r}; choose one of {known} (see `attndrills kinds`)")
