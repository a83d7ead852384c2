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

Every mistake is reported as `FILE: item 2 (line 9): count: what to fix`, items
counted from 1; all of a spec's mistakes at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .. import kinds
from ..errors import UserError
from ..loaded import MAX_NESTING, find_fault, long_number, place
from ..pipeline import MAX_DIGITS, MIN_DIGITS
from ..seeding import MAX_SEED

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
    error (the safe loader keeps the last and says nothing), nesting deeper
    than MAX_NESTING is an error (the composer recurses once per level: 40,000
    levels ended in a RecursionError), a whole number too long for any field
    stays text (Python converts at most 4300 digits; the field's check then
    refuses it), and each mapping's line is kept (`lines`, by id), so a
    mistake in an item names its line."""

    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0
        self.lines: dict[int, int] = {}

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_NESTING} deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} appears twice in one mapping", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_map(self, node):
        data: dict = {}
        self.lines[id(data)] = node.start_mark.line + 1
        yield data
        data.update(self.construct_mapping(node))

    def construct_yaml_int(self, node):
        return long_number(node.value) or super().construct_yaml_int(node)

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, OverflowError) as exc:  # 2026-13-45, !!int abc: Python's own words
            raise yaml.constructor.ConstructorError(
                None, None, f"not a date or number YAML can make: {exc}",
                node.start_mark) from None


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)

# What the YAML reader's sentence means in a spec's terms (its own words follow
# in brackets): the first entry whose text the reader's sentence holds.
_YAML_SAYS = (
    ("found character '\\t'", "a tab; indent with spaces"),
    ("that cannot start any token", "this character cannot start a value; put the value in quotes"),
    ("mapping values are not allowed here", "a ':' where none can stand; put a text holding ': ' in quotes, "
     "or indent this line as the lines it belongs with"),
    ("could not find expected ':'", "a 'key: value' line without its ':', or indented otherwise than the "
     "lines it belongs with"),
    ("expected <block end>", "this line is indented otherwise than the lines it belongs with"),
    ("expected ',' or ']'", "a list opened with '[' is not closed with ']', or lacks a comma"),
    ("expected ',' or '}'", "a mapping opened with '{' is not closed with '}', or lacks a comma"),
    ("expected the node content", "a value is missing here (or a bracket does not match)"),
    ("found unexpected end of stream", "a quote opened here is never closed"),
    ("found unknown escape character", "an unknown escape after a backslash in double quotes; use single "
     "quotes, or write a backslash as \\\\"),
    ("found undefined alias", "an alias (*name) with no anchor (&name) before it"),
    ("could not determine a constructor for the tag", "a tag (!!name) that a spec does not take; remove it"),
    ("not a date or number YAML can make", "YAML reads this value as a date or a number, which it is not; "
     "put it in quotes to keep it as text, or correct it"),
    ("nested more than", None),  # ours, already in a spec's terms
    ("appears twice in one mapping", None),
)


def _yaml_error(source: Path, exc: yaml.YAMLError) -> str:
    """A YAML error as one sentence a user can act on, with its line and column."""
    problem = getattr(exc, "problem", None) or str(exc)
    mark = getattr(exc, "problem_mark", None)
    if "end of stream" in problem and getattr(exc, "context_mark", None) is not None:
        mark = exc.context_mark  # where the unclosed thing starts, not the end of the file
    at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
    said = next((words for text, words in _YAML_SAYS if text in problem), problem)
    if said is None:
        return f"{source}: {at}{problem}"
    if said != problem:
        said += f" (the YAML reader: {problem})"
    return f"{source}: {at}not valid YAML: {said}"


def _label(path: Path) -> str:
    """The spec's name as it is printed and recorded: a file name in no
    encoding (its undecodable bytes) written as escapes, as no UTF-8 file can
    hold them raw (manifest.json records it)."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


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
        loader = _Loader(text)  # its reader refuses control characters here
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise UserError(f"{p}: line {line}: not valid YAML: a control character (U+{exc.character:04X}), "
                        "which a spec cannot hold; remove it") from None
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        raise UserError(_yaml_error(p, exc)) from None
    finally:
        loader.dispose()
    return parse_spec(data, _label(p), loader.lines)


class _Mistake(Exception):
    pass


_SHOWN = 20  # mistakes listed under the error line


def parse_spec(data: Any, source: str, lines: dict[int, int] | None = None) -> Spec:
    """A spec from its YAML data; every mistake in it is reported at once
    (UserError: one of them as its message, several as `details`), each as
    `PLACE: what to fix`.  Items are counted from 1, as people count, and
    named with their line when `lines` (mapping id → line) is given."""
    lines = lines or {}
    found: list[str] = []

    def fail(where: str, what: str):
        raise _Mistake(f"{where}: {what}")

    class field:  # a check whose mistake is recorded, the other checks still run
        def __enter__(self):
            return self

        def __exit__(self, kind, exc, tb):
            if isinstance(exc, _Mistake):
                found.append(str(exc))
                return True
            return False

    if not isinstance(data, dict):
        raise UserError(f"{source}: the spec must be a mapping with 'title' and 'items'")
    fault = find_fault(data)
    if fault is not None:
        path, what = fault
        raise UserError(f"{source}: {_place(path, data, lines)}: {what}")
    with field():
        unknown = sorted(set(map(str, data)) - {"title", "seed", "sets", "digits", "items"})
        if unknown:
            fail(unknown[0], "unknown key; a spec has title, seed, sets, digits and items")
    title = data.get("title", "Problem set")
    with field():
        if not isinstance(title, str) or not title.strip() or len(title) > 200:
            fail("title", "a non-empty text of at most 200 characters")
    seed = data.get("seed")
    with field():
        if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
            fail("seed", f"a whole number from 0 to {MAX_SEED}")
    sets = data.get("sets")
    with field():
        if sets is not None and (not _is_int(sets) or not 1 <= sets <= MAX_SETS):
            fail("sets", f"a whole number from 1 to {MAX_SETS}")
    digits = data.get("digits", 4)
    with field():
        if not _is_int(digits) or not MIN_DIGITS <= digits <= MAX_DIGITS:
            fail("digits", f"a whole number from {MIN_DIGITS} to {MAX_DIGITS}")
    raw_items = data.get("items")
    items = []
    with field():
        if not isinstance(raw_items, list) or not raw_items:
            fail("items", "a non-empty list of items, each with a kind (or a level) and a count")
        for n, it in enumerate(raw_items, start=1):
            before = len(found)
            item = _parse_item(it, _item_name(n, it, lines), fail, field)
            if len(found) == before:
                items.append(item)
        if len(items) == len(raw_items):
            total = sum(i.count for i in items)
            if total > MAX_ITEMS:
                fail("items", f"{total} problems in all; at most {MAX_ITEMS} per set or exam")
    if len(found) == 1:
        raise UserError(f"{source}: {found[0]}")
    if found:  # a list of a thousand broken items shows its first mistakes, and how many more
        shown = found[:_SHOWN] + ([f"… and {len(found) - _SHOWN} more"] if len(found) > _SHOWN else [])
        raise UserError(f"{source}: {len(found)} mistakes:", details=shown)
    return Spec(title.strip(), tuple(items), seed, sets, digits, source)


def _item_name(n: int, it: Any, lines: dict[int, int]) -> str:
    line = lines.get(id(it))
    return f"item {n}" + (f" (line {line})" if line else "")


def _place(path: list, data: dict, lines: dict[int, int]) -> str:
    """A place in the spec as its mistakes name it: `item 2 (line 7): inputs.source[1]`."""
    if len(path) > 1 and path[0] == "items" and isinstance(path[1], int):
        item = data["items"][path[1]]
        rest = place(path[2:])
        return _item_name(path[1] + 1, item, lines) + (f": {rest}" if rest else "")
    return place(path)


def _parse_item(it: Any, where: str, fail, field) -> Item:
    """One item; its mistakes are recorded through `field` (each check that
    does not depend on another one's outcome runs)."""
    with field():
        if not isinstance(it, dict):
            fail(where, "each item is a mapping such as {kind: A, count: 2}")
    if not isinstance(it, dict):
        return None
    with field():
        unknown = sorted(set(map(str, it)) - {"kind", "level", "count", "params", "inputs", "points"})
        if unknown:
            fail(f"{where}: {unknown[0]}", "unknown field; an item has kind or level, count, params, inputs, "
                 "points")
    kind_id = None
    level = None
    known_kind = False  # the kind (or level) is valid: what depends on it can be checked
    with field():
        if ("kind" in it) == ("level" in it):
            fail(where, "give exactly one of 'kind' (A…I, 1.1…5.3) or 'level' (1…5)")
        if "kind" in it:
            name = it["kind"]
            if isinstance(name, float):  # YAML reads 2.1 as a number
                name = f"{name:g}"
            if not isinstance(name, (str, int)) or isinstance(name, bool):
                fail(f"{where}: kind", "a kind id such as A or 2.1 (see `attndrills kinds`)")
            try:
                kind_id = kinds.get(str(name)).id
            except UserError as exc:
                fail(f"{where}: kind", str(exc))
        else:
            level = it["level"]
            if not _is_int(level) or level not in LEVELS:
                fail(f"{where}: level", "a level from 1 to 5")
        known_kind = True
    count = it.get("count", 1)
    with field():
        if not _is_int(count) or not 1 <= count <= MAX_COUNT:
            fail(f"{where}: count", f"a whole number from 1 to {MAX_COUNT}")
    params = it.get("params", {})
    with field():
        if not isinstance(params, dict):
            fail(f"{where}: params", "a mapping of scenario parameters")
        if params and known_kind:
            if kind_id is None:
                fail(f"{where}: params", "scenario parameters need a 'kind', not a 'level'")
            kind = kinds.get(kind_id)
            known = kind.scenarios.get("default", {})
            for key, value in params.items():
                if key not in known:
                    names = ", ".join(known) or "none"
                    fail(f"{where}: params.{key}", f"kind {kind_id} has no such parameter (it has: {names})")
                lo, hi, whole = kind.limits[key]
                if whole and not _is_int(value):
                    fail(f"{where}: params.{key}", f"a whole number from {lo:g} to {hi:g}")
                if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
                    fail(f"{where}: params.{key}", f"a {'whole ' if whole else ''}number from {lo:g} to {hi:g}")
            merged = {**known, **params}
            for key in merged:
                top = key.removesuffix("_min") + "_max"
                if key.endswith("_min") and top in merged and merged[key] > merged[top]:
                    fail(f"{where}: params", f"{key} ({merged[key]:g}) is above {top} ({merged[top]:g})")
    inputs = it.get("inputs")
    with field():
        if inputs is not None and known_kind:
            if kind_id is None:
                fail(f"{where}: inputs", "fixed inputs need a 'kind', not a 'level'")
            if not isinstance(inputs, dict):
                fail(f"{where}: inputs", "a mapping such as {scores: ['0.3', '2.1']}")
            if count != 1:
                fail(f"{where}: count", "an item with fixed inputs has count 1")
            try:
                kinds.get(kind_id).normalise(inputs)
            except UserError as exc:
                fail(f"{where}: inputs", str(exc))
    points = it.get("points", 1)
    with field():
        if not isinstance(points, (int, float)) or isinstance(points, bool) or not 0 < points <= 1000:
            fail(f"{where}: points", "a positive number of at most 1000")
    return Item(kind_id, level, count, dict(params) if isinstance(params, dict) else {}, inputs, points)


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
