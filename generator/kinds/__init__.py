"""The registry of problem kinds: one module per kind, each registering itself
with `register(Kind(...))`.  Modules are discovered, not listed by position."""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import UserError
from ._base import Kind

REGISTRY: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    if kind.id in REGISTRY:
        raise RuntimeError(f"kind {kind.id} registered twice")
    REGISTRY[kind.id] = kind
    return kind


def _discover() -> None:
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


def _order(kind_id: str) -> tuple:
    # cells A–I first, then the exercise labels 1.1 … 5.3 in numeric order
    if kind_id[0].isalpha():
        return (0, kind_id)
    return (1, tuple(int(p) for p in kind_id.split(".")))


def all_kinds() -> list[Kind]:
    return sorted(REGISTRY.values(), key=lambda k: _order(k.id))


def get(name: str) -> Kind:
    """A kind by its id (A, 2.1, case-insensitive) or its slug."""
    kind = REGISTRY.get(name)  # the common case: an id as the registry spells it
    if kind is not None:
        return kind
    key = name.strip()
    for kind in REGISTRY.values():
        if key.upper() == kind.id.upper() or key.lower() == kind.slug:
            return kind
    known = ", ".join(k.id for k in all_kinds())
    raise UserError(f"unknown kind {name!r}; choose one of {known} (see `attndrills kinds`)")


_discover()
