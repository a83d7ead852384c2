"""The registry of problem kinds: one module per kind, each registering itself
with `register(Kind(**about(ID), ...))`.  Modules are discovered, not listed
by position.

A kind's module is imported when the kind is first asked for (`get`), or all
of them at once (`all_kinds`): the modules bring numpy and sympy with them,
which `attndrills kinds` and one `problem` of another kind do not need.
INDEX is the one place a kind's id, slug, level, source and text file are
written: `attndrills kinds` prints it without importing any module, and
each module takes its own from it with `about(ID)`.  Its name and summary
are words, in its text file (`name`, `summary`), said in the run's language.

A kind's sentences are built with `model.prose()`, which typesets the
symbols written in the text ("Tx", "h_i", "-3"): its docstring gives the rule.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

from ..errors import UserError
from ..text import Sayer

if TYPE_CHECKING:
    from ._base import Kind


class Entry(NamedTuple):
    """What `attndrills kinds` lists about a kind, and the module that holds it."""

    id: str
    slug: str
    level: int | None
    source: str
    module: str

    @property
    def title(self) -> str:
        """The kind's name in the catalogue, in the run's language (its text file's `name`)."""
        return Sayer(self.module).text("name")

    @property
    def summary(self) -> str:
        """What the kind asks, in a line (its text file's `summary`)."""
        return Sayer(self.module).text("summary")


INDEX: tuple[Entry, ...] = (
    Entry("A", "sharp-peak", None, "seeds/000 Example 1 (cell A)", "cell_a"),
    Entry("B", "equal-scores", None, "seeds/000 Example 2 (cell B)", "cell_b"),
    Entry("C", "negative-scores", None, "seeds/000 Example 3 (cell C)", "cell_c"),
    Entry("D", "shifted-scores", None, "seeds/000 Example 4 (cell D)", "cell_d"),
    Entry("E", "single-input", None, "seeds/000 Example 5 (cell E)", "cell_e"),
    Entry("F", "near-tie", None, "seeds/000 Example 6 (cell F)", "cell_f"),
    Entry("G", "reordering", None, "seeds/000 Example 7 (cell G)", "cell_g"),
    Entry("H", "sharpness-limit", None, "seeds/000 Example 8 (cell H)", "cell_h"),
    Entry("I", "already-normalised", None, "seeds/000 Example 9 (cell I)", "cell_i"),
    Entry("1.1", "symbol-matching", 1, "seeds/002 Exercise 1.1", "ex_1_1"),
    Entry("1.2", "true-or-false", 1, "seeds/002 Exercise 1.2", "ex_1_2"),
    Entry("1.3", "what-sums-to-one", 1, "seeds/002 Exercise 1.3", "ex_1_3"),
    Entry("2.1", "weights-from-scores", 2, "seeds/002 Exercise 2.1", "ex_2_1"),
    Entry("2.2", "context-vector", 2, "seeds/002 Exercise 2.2", "ex_2_2"),
    Entry("2.3", "shift-constant", 2, "seeds/002 Exercise 2.3", "ex_2_3"),
    Entry("3.1", "entropy-uniform-vs-spiked", 3, "seeds/002 Exercise 3.1", "ex_3_1"),
    Entry("3.2", "bahdanau-vs-luong", 3, "seeds/002 Exercise 3.2", "ex_3_2"),
    Entry("3.3", "permute-states", 3, "seeds/002 Exercise 3.3", "ex_3_3"),
    Entry("4.1", "count-scores", 4, "seeds/002 Exercise 4.1", "ex_4_1"),
    Entry("4.2", "heatmap-reordering", 4, "seeds/002 Exercise 4.2", "ex_4_2"),
    Entry("4.3", "gradient-flow", 4, "seeds/002 Exercise 4.3", "ex_4_3"),
    Entry("5.1", "single-source-word", 5, "seeds/002 Exercise 5.1", "ex_5_1"),
    Entry("5.2", "two-score-limits", 5, "seeds/002 Exercise 5.2", "ex_5_2"),
    Entry("5.3", "spike-entropy-drop", 5, "seeds/002 Exercise 5.3", "ex_5_3"),
)

def about(kind_id: str) -> dict:
    """A kind's metadata from INDEX, as Kind's keyword arguments."""
    entry = next(e for e in INDEX if e.id == kind_id)
    return {"id": entry.id, "slug": entry.slug, "level": entry.level, "source": entry.source,
            "words": entry.module}


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
    raise UserError(Sayer("shared").text("refused.unknown_kind", name=repr(name),
                                         known=", ".join(e.id for e in listing())))


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
    raise UserError(Sayer("shared").text("refused.unknown_kind", name=repr(name),
                                         known=", ".join(k.id for k in all_kinds())))
