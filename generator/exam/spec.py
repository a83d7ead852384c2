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

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import kinds, text
from ..errors import UserError
from ..loaded import find_fault, place
from ..pipeline import MAX_DIGITS, MIN_DIGITS
from ..seeding import MAX_SEED
from ..text import Sayer
from ..text.edits import languages
from .spec_yaml import read_yaml

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
    lang: str | None = None  # the language of the words (`--lang` overrides it)
    text: str | None = None  # a folder of edited text files, as the spec names it (`--text` overrides it)

    @property
    def size(self) -> int:
        return sum(i.count for i in self.items)


def _label(path: Path) -> str:
    """The spec's name as it is printed and recorded: a file name in no
    encoding (its undecodable bytes) written as escapes, as no UTF-8 file can
    hold them raw (manifest.json records it)."""
    return str(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def load_spec(path: str | Path, lang: str | None = None) -> Spec:
    """Read and validate a spec file; its items' typed inputs are refused in
    `lang` (--lang), else in the spec's own `lang:`."""
    p = Path(path)
    data, lines = read_yaml(p)
    return parse_spec(data, _label(p), lines, lang)


class _Mistake(Exception):
    pass


def _fail(where: str, what: str):
    raise _Mistake(f"{where}: {what}")


class _Mistakes:
    """The mistakes found so far; `check()` is a block whose mistake (one
    _fail) is recorded while the checks after it still run."""

    def __init__(self):
        self.found: list[str] = []

    @contextmanager
    def check(self):
        try:
            yield
        except _Mistake as exc:
            self.found.append(str(exc))


_SHOWN = 20  # mistakes listed under the error line

# The spec's own fields: (name, default, whether a value is right, what to write instead).
_FIELDS = (
    ("title", "Problem set", lambda v: isinstance(v, str) and bool(v.strip()) and len(v) <= 200,
     "a non-empty text of at most 200 characters"),
    ("seed", None, lambda v: v is None or (_is_int(v) and 0 <= v <= MAX_SEED), f"a whole number from 0 to {MAX_SEED}"),
    ("sets", None, lambda v: v is None or (_is_int(v) and 1 <= v <= MAX_SETS), f"a whole number from 1 to {MAX_SETS}"),
    ("digits", 4, lambda v: _is_int(v) and MIN_DIGITS <= v <= MAX_DIGITS,
     f"a whole number from {MIN_DIGITS} to {MAX_DIGITS}"),
    ("lang", None, lambda v: v is None or (isinstance(v, str) and v.isalpha() and len(v) <= 8),
     "a language code such as en or de"),
    ("text", None, lambda v: v is None or (isinstance(v, str) and bool(v.strip())),
     "a folder of edited text files (`attndrills text export DIR` writes one)"),
)


def parse_spec(data: Any, source: str, lines: dict[int, int] | None = None, lang: str | None = None) -> Spec:
    """A spec from its YAML data; every mistake in it is reported at once
    (UserError: one of them as its message, several as `details`), each as
    `PLACE: what to fix`.  Items are counted from 1, as people count, and
    named with their line when `lines` (mapping id → line) is given."""
    lines = lines or {}
    if not isinstance(data, dict):
        raise UserError(f"{source}: the spec must be a mapping with 'title' and 'items'")
    fault = find_fault(data)
    if fault is not None:
        path, what = fault
        raise UserError(f"{source}: {_place(path, data, lines)}: {what}")
    mistakes = _Mistakes()
    with mistakes.check():
        unknown = sorted(set(map(str, data)) - {name for name, *_ in _FIELDS} - {"items"})
        if unknown:
            _fail(unknown[0], "unknown key; a spec has title, seed, sets, digits, lang, text and items")
    values = {}
    for name, default, right, what in _FIELDS:
        values[name] = data.get(name, default)
        with mistakes.check():
            if not right(values[name]):
                _fail(name, what)
    with text.use(_words_lang(lang or values["lang"])):
        items = _parse_items(data.get("items"), lines, mistakes)
    found = mistakes.found
    if len(found) == 1:
        raise UserError(f"{source}: {found[0]}")
    if found:  # a list of a thousand broken items shows its first mistakes, and how many more
        shown = found[:_SHOWN] + ([f"… and {len(found) - _SHOWN} more"] if len(found) > _SHOWN else [])
        raise UserError(f"{source}: {len(found)} mistakes:", details=shown)
    return Spec(values["title"].strip(), tuple(items), values["seed"], values["sets"], values["digits"], source,
                values["lang"], values["text"])


def _words_lang(lang: Any) -> str:
    """The language the items' refusals are said in: a known one, else English
    (an unknown one is refused as the spec's or --lang's own mistake)."""
    return lang if isinstance(lang, str) and lang in languages() else "en"


def _parse_items(raw_items: Any, lines: dict[int, int], mistakes: _Mistakes) -> list[Item]:
    """The items without a mistake (each item's mistakes recorded)."""
    items = []
    with mistakes.check():
        if not isinstance(raw_items, list) or not raw_items:
            _fail("items", "a non-empty list of items, each with a kind (or a level) and a count")
        for n, it in enumerate(raw_items, start=1):
            before = len(mistakes.found)
            item = _parse_item(it, _item_name(n, it, lines), mistakes)
            if len(mistakes.found) == before:
                items.append(item)
        if len(items) == len(raw_items):
            total = sum(i.count for i in items)
            if total > MAX_ITEMS:
                _fail("items", f"{total} problems in all; at most {MAX_ITEMS} per set or exam")
    return items


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


def _parse_item(it: Any, where: str, mistakes: _Mistakes) -> Item | None:
    """One item; its mistakes are recorded in `mistakes` (each check that
    does not depend on another one's outcome runs)."""
    with mistakes.check():
        if not isinstance(it, dict):
            _fail(where, "each item is a mapping such as {kind: A, count: 2}")
    if not isinstance(it, dict):
        return None
    with mistakes.check():
        unknown = sorted(set(map(str, it)) - {"kind", "level", "count", "params", "inputs", "points"})
        if unknown:
            _fail(f"{where}: {unknown[0]}", "unknown field; an item has kind or level, count, params, inputs, "
                  "points")
    kind_id = level = None
    known_kind = False  # the kind (or level) is valid: what depends on it can be checked
    with mistakes.check():
        kind_id, level = _kind_or_level(it, where)
        known_kind = True
    count = it.get("count", 1)
    with mistakes.check():
        if not _is_int(count) or not 1 <= count <= MAX_COUNT:
            _fail(f"{where}: count", f"a whole number from 1 to {MAX_COUNT}")
    params = it.get("params", {})
    with mistakes.check():
        if not isinstance(params, dict):
            _fail(f"{where}: params", "a mapping of scenario parameters")
        if params and known_kind:
            _check_params(params, kind_id, where)
    inputs = it.get("inputs")
    with mistakes.check():
        if inputs is not None and known_kind:
            _check_inputs(inputs, kind_id, count, where)
    points = it.get("points", 1)
    with mistakes.check():
        if not isinstance(points, (int, float)) or isinstance(points, bool) or not 0 < points <= 1000:
            _fail(f"{where}: points", "a positive number of at most 1000")
    return Item(kind_id, level, count, dict(params) if isinstance(params, dict) else {}, inputs, points)


def _kind_or_level(it: dict, where: str) -> tuple[str | None, int | None]:
    """The item's kind id, or its level (the other None)."""
    if ("kind" in it) == ("level" in it):
        _fail(where, "give exactly one of 'kind' (A…I, 1.1…5.3) or 'level' (1…5)")
    if "level" in it:
        level = it["level"]
        if not _is_int(level) or level not in LEVELS:
            _fail(f"{where}: level", "a level from 1 to 5")
        return None, level
    name = it["kind"]
    if isinstance(name, float):  # YAML reads 2.1 as a number
        name = f"{name:g}"
    if not isinstance(name, (str, int)) or isinstance(name, bool):
        _fail(f"{where}: kind", "a kind id such as A or 2.1 (see `attndrills kinds`)")
    try:
        return kinds.get(str(name)).id, None
    except UserError as exc:
        _fail(f"{where}: kind", str(exc))


def _check_params(params: dict, kind_id: str | None, where: str) -> None:
    """Scenario parameters the kind has, each within its limits, no NAME_min above its NAME_max."""
    if kind_id is None:
        _fail(f"{where}: params", "scenario parameters need a 'kind', not a 'level'")
    kind = kinds.get(kind_id)
    known = kind.scenarios.get("default", {})
    for key, value in params.items():
        if key not in known:
            names = ", ".join(known) or "none"
            _fail(f"{where}: params.{key}", f"kind {kind_id} has no such parameter (it has: {names})")
        lo, hi, whole = kind.limits[key]
        if whole and not _is_int(value):
            _fail(f"{where}: params.{key}", f"a whole number from {lo:g} to {hi:g}")
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
            _fail(f"{where}: params.{key}", f"a {'whole ' if whole else ''}number from {lo:g} to {hi:g}")
    merged = {**known, **params}
    for key in merged:
        top = key.removesuffix("_min") + "_max"
        if key.endswith("_min") and top in merged and merged[key] > merged[top]:
            _fail(f"{where}: params", f"{key} ({merged[key]:g}) is above {top} ({merged[top]:g})")


def _check_inputs(inputs: Any, kind_id: str | None, count: Any, where: str) -> None:
    """Fixed inputs the kind takes, on an item of count 1."""
    if kind_id is None:
        _fail(f"{where}: inputs", "fixed inputs need a 'kind', not a 'level'")
    if not isinstance(inputs, dict):
        _fail(f"{where}: inputs", "a mapping such as {scores: ['0.3', '2.1']}")
    if count != 1:
        _fail(f"{where}: count", "an item with fixed inputs has count 1")
    try:
        kinds.get(kind_id).normalise(inputs)
    except UserError as exc:
        _fail(f"{where}: inputs", str(exc))


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
        specs.append(Spec(Sayer("ui").text("site_pages.default_set_title", n=s + 1), items))
    return specs
