"""Checks of what was read from a user's file or option (a spec, `--input`)
before anything uses it: how deep it nests, and text no file can hold.

A lone surrogate (`"\\ud800"`, half of a character) can be written as an
escape in JSON and YAML, but no UTF-8 page, PDF or CSV can hold it: it failed
only when the output was written, as an internal error (or, on the site, after
the MathJax folder was copied).  Nesting thousands deep exhausted Python's
recursion.  Both are refused here, naming the place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .errors import UserError

def file_bytes(path: Path, what: str) -> bytes:
    """A user's file (`what`: the spec, the roster, the answers…) as bytes;
    UserError naming the file and the system's reason when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read the {what} ({exc.strerror})") from None


# Nothing a spec or an input holds nests more than about five deep (a spec's
# items → an item → inputs → states → a vector); this leaves room to spare and
# stays far below Python's recursion limit.
MAX_NESTING = 32
# No number of a spec or an input is longer than this: seeds have at most 20
# digits, typed numbers at most 30 characters.  A longer one is kept as text,
# which the field's check then refuses with its own sentence (Python refuses
# to convert a whole number of more than 4300 digits at all).
MAX_NUMBER_TEXT = 30

_SURROGATE = re.compile("[\ud800-\udfff]")


def long_number(text: str) -> str | None:
    """`text` itself when it is too long for any number (see MAX_NUMBER_TEXT)."""
    return text if len(text) > MAX_NUMBER_TEXT else None


def json_int(text: str) -> int | str:
    """json.loads' parse_int: a too-long whole number stays text."""
    return long_number(text) or int(text)


def surrogate_message(text: str) -> str:
    ch = _SURROGATE.search(text).group()
    return (f"holds \\u{ord(ch):04x}, half of a character (a lone surrogate) or a byte that is not UTF-8, "
            "which no page, PDF or CSV can hold; write the whole character, or remove it")


def find_fault(data: Any) -> tuple[list, str] | None:
    """(path, what is wrong) of the first place in `data` (dicts, lists,
    scalars as JSON and YAML give them) that nests more than MAX_NESTING deep
    or holds a lone surrogate (in a key or a text), else None.  The path is
    the keys and 0-based indices leading there.  Walked without recursion,
    each list and mapping once."""
    stack: list[tuple[Any, list]] = [(data, [])]
    seen: set[int] = set()  # YAML aliases share a list or mapping: walked once, not once per alias
    while stack:
        value, path = stack.pop()
        if isinstance(value, (dict, list)):
            if id(value) in seen:
                continue
            seen.add(id(value))
        if len(path) > MAX_NESTING:
            while path and isinstance(path[-1], int):  # named by its key: "scores", not "scores[1][1]…"
                path = path[:-1]
            return path, f"nested more than {MAX_NESTING} deep"
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return path, surrogate_message(value)
        elif isinstance(value, dict):
            for key in reversed(list(value)):  # first key first
                if isinstance(key, str) and _SURROGATE.search(key):
                    return path + [key], "the key " + surrogate_message(key)
                stack.append((value[key], path + [key]))
        elif isinstance(value, list):
            stack.extend((v, path + [i]) for i, v in reversed(list(enumerate(value))))
    return None


def place(path: list) -> str:
    """A path of keys and 0-based indices as people count: `source[1]` is the first word."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step + 1}]"
        else:
            out += ("." if out else "") + str(step)
    return out


def check_input(data: Any, option: str) -> None:
    """Refuse `--input` data that nests too deep or holds a lone surrogate."""
    fault = find_fault(data)
    if fault is not None:
        path, what = fault
        raise UserError(f"{option}: {place(path) + ': ' if path else ''}{what}")
