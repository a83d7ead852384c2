"""The one reader of printed numbers: a key as the papers print it
(0.7311, 2.06 × 10⁻⁹), a response as a student types it (the forms in
marking.ACCEPTED_FORMS), and a number node of a worked line (`value_of`)
all come to the same exact rational through `_value`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a name only: the kinds import this module, mathlines need not load first
    from ..mathlines import Num

_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_FROM_SUPERSCRIPT = str.maketrans(_SUPERSCRIPTS + "⁻⁺", "0123456789-+")
MINUS = str.maketrans({"−": "-", "–": "-", "‒": "-", "﹣": "-", "－": "-"})
# "× 10⁻⁹", "x10^-9", "*10^(-9)", "· 10**-9", and "× 10−9" as copied from a PDF (the
# superscript lost) → "e-9"
_TEN_POWER = re.compile(r"\s*[×xX*·⋅]\s*10\s*(?:(?:\^|\*\*)\s*[({]?\s*([+\-−–]?\s*\d+)\s*[)}]?"
                        rf"|([⁻⁺]?[{_SUPERSCRIPTS}]+)|([\-−–]\s*\d+))")
_UNIT = re.compile(r"\s*\bnats?\b\.?", re.I)  # "1.0322 nats": the unit the question names
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?", re.I)
_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+(?:e[+-]?\d+)?", re.I)
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+")
_ROW_BREAK = re.compile(r"[)\]]\s*[,;]?\s*[(\[]")
_BRACKETS = "()[]{}⟨⟩ \t\n"


@dataclass(frozen=True)
class Written:
    """A number as written: its value, the decimal place of its last digit
    (2 for 0.47, 11 for 2.06e-9), its significant digits, whether it was
    written in scientific notation, and its text as read ("2.06e-9")."""
    value: float
    places: int
    sig: int
    sci: bool
    text: str = ""

    @property
    def exact(self) -> Fraction:
        """The exact rational the text stands for (0.3 is 3/10)."""
        mantissa, _, exp = self.text.lower().partition("e")
        return _value(mantissa, int(exp) if exp else None)


def _normalise(text: str) -> str:
    """Powers of ten as e-notation, every minus sign as '-', no unit."""
    def power(m: re.Match) -> str:
        exp = (m.group(1) or m.group(2) or m.group(3)).translate(_FROM_SUPERSCRIPT).translate(MINUS)
        return "e" + exp.replace(" ", "")
    return _TEN_POWER.sub(power, _UNIT.sub("", text)).translate(MINUS)


def _number(token: str, commas: str) -> Written | None:
    """One number token.  `commas`: "decimal" (0,4722 is 0.4722), "thousands"
    (22,082 is 22082; 22,5 is still 22.5) or "none"."""
    t = token.strip()
    if commas == "thousands" and _THOUSANDS.fullmatch(t):
        t = t.replace(",", "")
    elif commas in ("decimal", "thousands") and _DECIMAL_COMMA.fullmatch(t):
        t = t.replace(",", ".")
    if not _NUMBER.fullmatch(t):
        return None
    value = float(t)
    if value in (float("inf"), float("-inf")):
        return None
    mantissa, _, exp = t.lower().lstrip("+-").partition("e")
    whole, _, frac = mantissa.partition(".")
    sig = len((whole + frac).lstrip("0")) or 1
    return Written(value, len(frac) - (int(exp) if exp else 0), sig, bool(exp), t)


def read_number(text: str, whole: bool = False) -> Written | None:
    """A response that should be one number: what follows a last "=" or "≈"
    (so "H = 0.47" reads), spaces and surrounding brackets ignored."""
    t = re.split(r"[=≈]", _normalise(text))[-1]
    t = re.sub(r"\s+", "", t).strip(_BRACKETS).rstrip(";")
    if t.endswith(".") and "." in t[:-1]:  # a full stop after a decimal
        t = t[:-1]
    return _number(t, "thousands" if whole else "decimal")


def parse_number(text: str) -> float | None:
    """A number in any accepted form (decimal comma included), else None."""
    n = read_number(text)
    return None if n is None else n.value


def exact_number(text: str) -> Fraction:
    """The exact value of a printed number (0.7311, 2.06 × 10⁻⁹), read as a
    response is read; ValueError if it is not one number."""
    n = read_number(text)
    if n is None:
        raise ValueError(f"{text!r} is not a number")
    return n.exact


def _layout(text: str, rows_expected: bool) -> tuple[list[str], str, str]:
    """A list of numbers as typed: its rows, the separator of its components
    (";" or "," where one is typed, else "") and the comma rule."""
    t = re.split(r"[=≈]", _normalise(text).replace("\r", ""))[-1].strip()
    t = _ROW_BREAK.sub("|", t)
    rows = [r for r in re.split(r"\||\n" if rows_expected else r"\|", t) if r.strip(_BRACKETS + ",;")]
    if ";" in t:
        return rows, ";", "decimal"
    if len(tokens := t.replace("|", " ").strip(_BRACKETS).split()) > 1 and all(
            _DECIMAL_COMMA.fullmatch(x.strip(_BRACKETS)) for x in tokens):
        return rows, "", "decimal"
    return rows, ",", "none"


def read_rows(text: str, rows_expected: bool) -> list[list[Written | None]]:
    """Rows of components as written; None for a component that is not a number."""
    rows, sep, commas = _layout(text, rows_expected)
    split = rf"[{sep}\s]+" if sep else r"\s+"
    out = []
    for row in rows:
        parts = [p for p in re.split(split, row.strip(_BRACKETS + ",;")) if p.strip(_BRACKETS)]
        out.append([_number(p.strip(_BRACKETS), commas) for p in parts])
    return out


EMPTY = ("", "-")  # a component left out: nothing between its separators, or "-" (Moodle's empty blank)


def read_rows_with_empty(text: str, rows_expected: bool) -> tuple[list[list[Written | None]], list[list[bool]]]:
    """Rows of components as `read_rows` reads them, but keeping a component
    left empty — nothing between two separators ("0.5; ; 0.3"), before the
    first or after the last ("; 0.2; 0.3"), or a lone "-" — as None, and
    whether each component is such an empty one."""
    rows, sep, commas = _layout(text, rows_expected)
    split = rf"\s*{sep}\s*|\s+" if sep else r"\s+"
    got, empty = [], []
    for row in rows:
        parts = [p.strip(_BRACKETS) for p in re.split(split, row.strip(_BRACKETS))]
        got.append([_number(p, commas) for p in parts])
        empty.append([p in EMPTY for p in parts])
    return got, empty


def parse_vector(text: str) -> list[list[float | None]]:
    """Rows of floats (None where a component is not a number)."""
    return [[None if x is None else x.value for x in row] for row in read_rows(text, True)]


def value_of(n: Num) -> Fraction:
    """The exact rational a printed number node stands for (what a student types)."""
    return _value(n.mant, n.exp10)


@lru_cache(maxsize=8192)  # a printed number is read back many times
def _value(mant: str, exp10: int | None) -> Fraction:
    units, power = units_of(mant, exp10)
    return Fraction(units * 10**power) if power >= 0 else Fraction(units, 10**-power)


def units_of(mant: str, exp10: int | None) -> tuple[int, int]:
    """A printed decimal (its mantissa, signed, and power of ten) as (integer
    count of its last place, that place's power of ten): "-0.47" is (-47, -2)."""
    whole, _, frac = mant.partition(".")
    return int(whole + frac), (exp10 or 0) - len(frac)
