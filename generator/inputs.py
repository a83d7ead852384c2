"""Parsing and validation of what users type: numbers, score lists, states, words.

Decimals are exact: "0.3" is 3/10, never the binary float 0.29999...
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .errors import UserError
from .mathlines import NumText
from .text import Sayer

MAX_ABS = Fraction(10) ** 6  # scores and states larger than this are refused
MIN_ABS = Fraction(1, 10**100)  # non-zero values smaller than this would be subnormal floats
# Largest minus smallest score.  Beyond it the smallest weight is below
# e^-10000 ≈ 10^-4343 and exact rounding needs numbers of millions of bits.
MAX_SPREAD = Fraction(10) ** 4
MAX_TX = 12  # input positions one worked solution can show legibly
MAX_TY = 8  # decoder steps (rows) one worked solution can show legibly
MAX_DIGITS_TYPED = 30  # characters in one typed number


def _refused(key: str, /, **values) -> UserError:
    """The refusal KEY (refused.*) of the shared text file, in the run's language."""
    return UserError(Sayer("shared").text(key, **values))


_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?$")
_RATIO = re.compile(r"^[+-]?\d+/\d+$")


def parse_number(raw: Any, what: str) -> Fraction:
    """An exact rational from a decimal string, a ratio "p/q" or an int.

    Floats are accepted only from JSON and read through their shortest repr
    (0.3 → 3/10); NaN, infinities and magnitudes above 10^6 are refused.
    """
    if isinstance(raw, str):  # a str, or a number's text (NumText)
        hit = _PARSED.get(raw)  # drawn inputs repeat a few hundred decimals
        if hit is not None:
            return hit
    if isinstance(raw, bool):
        raise _refused("refused.expected_number", what=what, got=repr(raw))
    if isinstance(raw, int):
        text = str(raw)
    elif isinstance(raw, float):
        text = repr(raw)
    elif isinstance(raw, str):
        text = raw.strip()
    else:
        raise _refused("refused.expected_number", what=what, got=type(raw).__name__)
    if text == "":
        raise _refused("refused.empty_number", what=what)
    low = text.lower().lstrip("+-")
    if low in ("nan", "inf", "infinity"):
        raise _refused("refused.not_finite", what=what, got=repr(text))
    if len(text) > MAX_DIGITS_TYPED:
        raise _refused("refused.too_long", what=what, start=text[:20], most=MAX_DIGITS_TYPED)
    if _DECIMAL.match(text):
        value = Fraction(text)
    elif _RATIO.match(text):
        num, den = text.split("/")
        if int(den) == 0:
            raise _refused("refused.divides_by_zero", what=what, got=repr(text))
        value = Fraction(int(num), int(den))
    else:
        raise _refused("refused.not_a_number", what=what, got=repr(text))
    if abs(value) > MAX_ABS:
        raise _refused("refused.too_large", what=what, typed=text)
    if value != 0 and abs(value) < MIN_ABS:
        raise _refused("refused.too_small", what=what, typed=text)
    if isinstance(raw, str) and len(_PARSED) < 16384:
        _PARSED[str(raw)] = value
    return value


_PARSED: dict[str, Fraction] = {}  # accepted texts → their values


@lru_cache(maxsize=8192)  # the same inputs are written many times per solution
def number_text(f: Fraction) -> str:
    """The canonical text of an exact input: a terminating decimal or p/q (a
    NumText: put into a sentence, it takes the language's decimal mark)."""
    return NumText(_number_text(f))


def _number_text(f: Fraction) -> str:
    if f.denominator == 1:
        return str(f.numerator)
    d = f.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return f"{f.numerator}/{f.denominator}"
    places = max(twos, fives)
    q = f * 10**places
    sign = "-" if q < 0 else ""
    whole, frac = divmod(abs(q.numerator), 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def parse_scores(raw: Any, what: str = "scores", *, max_len: int = MAX_TX) -> list[Fraction]:
    if isinstance(raw, str):
        raw = raw.split(",")
    if not isinstance(raw, list):
        raise _refused("refused.not_a_list", what=what)
    if not raw:
        raise _refused("refused.empty_list", what=what)
    if len(raw) > max_len:
        raise _refused("refused.too_many_values", what=what, count=len(raw), most=max_len)
    values = [parse_number(v, f"{what}[{i + 1}]") for i, v in enumerate(raw)]
    check_spread(values, what)
    return values


def check_spread(values: list[Fraction], what: str) -> None:
    if max(values) - min(values) > MAX_SPREAD:
        raise _refused("refused.spread", what=what, most=str(MAX_SPREAD))


def parse_states(raw: Any, n: int, what: str = "states") -> list[list[Fraction]]:
    if not isinstance(raw, list) or not raw:
        raise _refused("refused.not_vectors", what=what)
    if len(raw) != n:
        raise _refused("refused.one_vector" if len(raw) == 1 else "refused.vector_count", what=what,
                       count=len(raw), n=n)
    out = []
    dim = None
    for i, vec in enumerate(raw):
        if not isinstance(vec, list) or not vec:
            raise _refused("refused.empty_vector", what=f"{what}[{i + 1}]")
        if dim is None:
            dim = len(vec)
        if len(vec) != dim:
            raise _refused("refused.one_component" if len(vec) == 1 else "refused.components", what=f"{what}[{i + 1}]",
                           count=len(vec), first=dim)
        if dim > 4:
            raise _refused("refused.too_many_components", what=what)
        out.append([parse_number(v, f"{what}[{i + 1}][{j + 1}]") for j, v in enumerate(vec)])
    return out


def parse_words(raw: Any, what: str, *, max_len: int) -> list[str]:
    if isinstance(raw, str):
        raw = raw.split()
    if not isinstance(raw, list) or not raw:
        raise _refused("refused.not_words", what=what)
    if len(raw) > max_len:
        raise _refused("refused.too_many_words", what=what, count=len(raw), most=max_len)
    words = []
    for i, w in enumerate(raw):
        if not isinstance(w, str) or not w.strip():
            raise _refused("refused.empty_word", what=f"{what}[{i + 1}]")
        if len(w) > 40:
            raise _refused("refused.long_word", what=f"{what}[{i + 1}]")
        words.append(w.strip())
    return words


def check_keys(inputs: dict[str, Any], allowed: set[str], kind: str) -> None:
    unknown = sorted(set(inputs) - allowed)
    if unknown:
        raise _refused("refused.unknown_input", kind=kind, key=repr(unknown[0]), allowed=", ".join(sorted(allowed)))


def require(inputs: dict[str, Any], key: str, kind: str) -> Any:
    if key not in inputs:
        raise _refused("refused.missing_input", kind=kind, key=repr(key))
    return inputs[key]
