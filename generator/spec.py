"""Problem-set and exam specs (YAML).

    title: Attention basics
    seed: 2026                  # optional; --seed overrides it
    sets: 3                     # optional (site): how many sets
    digits: 4                   # optional
    items:
      - kind: A                 # a cell A–I, an exercise 1.1–5.3, or a slug
        count: 2
        params: {gap_min: 1.5}  # optional scenario parameters of that kind
      - level: 2                # or: any exercise of a level, drawn per variant
        count: 3
      - kind: C
        inputs: {scores: ["-2", "1", "0"]}   # optional fixed inputs (count 1)
        points: 4               # exams: points per item

Every mistake is reported as `FILE: items[2].count: what to fix`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import kinds
from .errors import UserError
from .pipeline import MAX_DIGITS, MIN_DIGITS
from .seeding import MAX_SEED

MAX_COUNT = 50  # problems of one item
MAX_ITEMS = 100  # problems in one set or exam
MAX_SETS = 200
LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Item:
    kind: str | None  # a kind id, or None when drawn from `level`
    level: int | None
    count: int = 1
    params: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, Any] | None = None
    points: float = 1


@dataclass(frozen=True)
class Spec:
    title: str
    items: tuple[Item, ...]
    seed: int | None = None
    sets: int | None = None
    digits: int = 4
    source: str = "<built-in>"

    @property
    def size(self) -> int:
        return sum(i.count for i in self.items)


class _Loader(yaml.SafeLoader):
    """YAML's safe loader, except that a key given twice in one mapping is an
    error (the safe loader keeps the last and says nothing)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} appears twice in one mapping", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def load_spec(path: str | Path) -> Spec:
    """Read and validate a spec file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise UserError(f"{p}: cannot read the spec ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{p}: not UTF-8 text (byte {exc.start}); save the spec as UTF-8") from None
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        at = f" at line {where.line + 1}, column {where.column + 1}" if where else ""
        raise UserError(f"{p}: not valid YAML{at}: {getattr(exc, 'problem', None) or exc}") from None
    return parse_spec(data, str(p))


def parse_spec(data: Any, source: str) -> Spec:
    def fail(where: str, what: str):
        raise UserError(f"{source}: {where}: {what}")

    if not isinstance(data, dict):
        raise UserError(f"{source}: the spec must be a mapping with 'title' and 'items'")
    unknown = sorted(set(map(str, data)) - {"title", "seed", "sets", "digits", "items"})
    if unknown:
        fail(unknown[0], "unknown key; a spec has title, seed, sets, digits and items")
    title = data.get("title", "Problem set")
    if not isinstance(title, str) or not title.strip() or len(title) > 200:
        fail("title", "a non-empty text of at most 200 characters")
    seed = data.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        fail("seed", f"a whole number from 0 to {MAX_SEED}")
    sets = data.get("sets")
    if sets is not None and (not _is_int(sets) or not 1 <= sets <= MAX_SETS):
        fail("sets", f"a whole number from 1 to {MAX_SETS}")
    digits = data.get("digits", 4)
    if not _is_int(digits) or not MIN_DIGITS <= digits <= MAX_DIGITS:
        fail("digits", f"a whole number from {MIN_DIGITS} to {MAX_DIGITS}")
    raw_items = data.get("items")
    if not isinstance(raw_items, list) or not raw_items:
        fail("items", "a non-empty list of items, each with a kind (or a level) and a count")
    items = tuple(_parse_item(it, f"items[{n}]", fail) for n, it in enumerate(raw_items, start=1))
    total = sum(i.count for i in items)
    if total > MAX_ITEMS:
        fail("items", f"{total} problems in all; at most {MAX_ITEMS} per set or exam")
    return Spec(title.strip(), items, seed, sets, digits, source)


def _parse_item(it: Any, where: str, fail) -> Item:
    if not isinstance(it, dict):
        fail(where, "each item is a mapping such as {kind: A, count: 2}")
    unknown = sorted(set(map(str, it)) - {"kind", "level", "count", "params", "inputs", "points"})
    if unknown:
        fail(f"{where}.{unknown[0]}", "unknown field; an item has kind or level, count, params, inputs, points")
    if ("kind" in it) == ("level" in it):
        fail(where, "give exactly one of 'kind' (A…I, 1.1…5.3) or 'level' (1…5)")
    kind_id = None
    level = None
    if "kind" in it:
        name = it["kind"]
        if isinstance(name, float):  # YAML reads 2.1 as a number
            name = f"{name:g}"
        if not isinstance(name, (str, int)) or isinstance(name, bool):
            fail(f"{where}.kind", "a kind id such as A or 2.1 (see `attndrills kinds`)")
        try:
            kind_id = kinds.get(str(name)).id
        except UserError as exc:
            fail(f"{where}.kind", str(exc))
    else:
        level = it["level"]
        if not _is_int(level) or level not in LEVELS:
            fail(f"{where}.level", "a level from 1 to 5")
    count = it.get("count", 1)
    if not _is_int(count) or not 1 <= count <= MAX_COUNT:
        fail(f"{where}.count", f"a whole number from 1 to {MAX_COUNT}")
    params = it.get("params", {})
    if not isinstance(params, dict):
        fail(f"{where}.params", "a mapping of scenario parameters")
    if params:
        if kind_id is None:
            fail(f"{where}.params", "scenario parameters need a 'kind', not a 'level'")
        kind = kinds.get(kind_id)
        known = kind.scenarios.get("default", {})
        for key, value in params.items():
            if key not in known:
                names = ", ".join(known) or "none"
                fail(f"{where}.params.{key}", f"kind {kind_id} has no such parameter (it has: {names})")
            lo, hi, whole = kind.limits[key]
            if whole and not _is_int(value):
                fail(f"{where}.params.{key}", f"a whole number from {lo:g} to {hi:g}")
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
                fail(f"{where}.params.{key}", f"a {'whole ' if whole else ''}number from {lo:g} to {hi:g}")
        merged = {**known, **params}
        for key in merged:
            top = key.removesuffix("_min") + "_max"
            if key.endswith("_min") and top in merged and merged[key] > merged[top]:
                fail(f"{where}.params", f"{key} ({merged[key]:g}) is above {top} ({merged[top]:g})")
    inputs = it.get("inputs")
    if inputs is not None:
        if kind_id is None:
            fail(f"{where}.inputs", "fixed inputs need a 'kind', not a 'level'")
        if not isinstance(inputs, dict):
            fail(f"{where}.inputs", "a mapping such as {scores: ['0.3', '2.1']}")
        if count != 1:
            fail(f"{where}.count", "an item with fixed inputs has count 1")
        try:
            kinds.get(kind_id).normalise(inputs)
        except UserError as exc:
            fail(f"{where}.inputs", str(exc))
    points = it.get("points", 1)
    if not isinstance(points, (int, float)) or isinstance(points, bool) or not 0 < points <= 1000:
        fail(f"{where}.points", "a positive number of at most 1000")
    return Item(kind_id, level, count, dict(params), inputs, points)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def default_site_spec(n_sets: int) -> list[Spec]:
    """The built-in sets: together they cover every cell A–I and every level 1–5
    (three cells and one exercise of each level per set)."""
    cells = [k.id for k in kinds.all_kinds() if k.id.isalpha()]
    per = 3
    specs = []
    for s in range(n_sets):
        chosen = [cells[(s * per + j) % len(cells)] for j in range(per)]
        items = tuple(Item(c, None) for c in chosen) + tuple(Item(None, lv) for lv in LEVELS)
        specs.append(Spec(f"Problem set {s + 1}", items))
    return specs
