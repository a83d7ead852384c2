"""CSV cells a spreadsheet opens as text, never as a formula (OWASP's "CSV
injection"): a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
return gets a single quote in front, which spreadsheets read as "text" —
unless it is a number the project wrote itself (a key of -0.4722 stays a
number).  A roster id `=1+1` is written `'=1+1`; `attndrills grade` takes the
quote off again when it reads answers.csv, so the id still matches the
responses' `=1+1`.  A cell that already starts with a quote before one of
those characters (or before a second quote) gets one more, so reading back
gives exactly what was written."""

from __future__ import annotations

import re

_FORMULA = frozenset("=+-@\t\r")
_ONE = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+| × 10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?"
# a number, or a list or table of them as answers.csv writes a key: "-0.2493; 3.5836 | 0.1; 0.9"
_NUMBER = re.compile(rf"{_ONE}(?:(?:; | \| ){_ONE})*")


def _needs_quote(text: str) -> bool:
    first = text[:1]
    return first in _FORMULA or (first == "'" and (text[1:2] in _FORMULA or text[1:2] == "'"))


def cell(text: str, number: bool = False) -> str:
    """`text` as a CSV cell a spreadsheet shows as text.  `number`: the
    project wrote this column, and a number (or a key's list of numbers) in
    it stays as written."""
    if number and _NUMBER.fullmatch(text):
        return text
    return "'" + text if text and _needs_quote(text) else text


def read_cell(text: str) -> str:
    """What `cell` was given, from what it wrote."""
    return text[1:] if text.startswith("'") and _needs_quote(text[1:]) else text
