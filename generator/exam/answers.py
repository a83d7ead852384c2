"""How an answer is written in answers.csv and the keys (its value, the
half-width of its window, the window written out), and read back from a row
of answers.csv when its variant cannot be regenerated."""

from __future__ import annotations

import re
from decimal import Decimal

from ..model import Answer
from .numbers import Written, parse_number
from .window import centre, key_numbers, tolerance_rows


def answer_text(a: Answer) -> str:
    """The key as answers.csv and the keys write it: components joined by "; ",
    rows by " | ", matching pairs "left → right" joined by "; "."""
    if a.type == "vector":
        if a.display and isinstance(a.display[0], list):
            return " | ".join("; ".join(row) for row in a.display)
        return "; ".join(a.display)
    if a.type == "matching":
        return "; ".join(a.display)
    return str(a.display)


def read_text(a: Answer) -> str:
    """The key as a reader reads it in the run's language (the keys' PDFs, the
    practice pages): answer_text with the language's decimal mark, and true
    or false in its words.  answers.csv keeps answer_text."""
    from ..text import Sayer, number

    if a.type == "truefalse":
        return Sayer("ui").text("answers.true" if str(a.display) == "true" else "answers.false")
    return number(answer_text(a)) if a.type in ("numeric", "vector") else answer_text(a)


def tolerance_text(a: Answer) -> str:
    """The half-width of the marking window, in the answer's own layout: one
    number, or one per component ("; ") and row (" | ") for a vector."""
    if a.type == "numeric":
        return repr(float(a.tolerance))
    if a.type == "vector":
        return " | ".join("; ".join(repr(float(t)) for t in row) for row in tolerance_rows(a, centre(a)))
    return ""


def widened_text(a: Answer) -> str:
    """The window written out, where it is wider than half a unit of the
    key's last place (and the tenth of a unit every window adds): "± 0.00031",
    or one per component in the answer's layout; else "".  The exam key
    prints it, so a marker working from the key accepts what the grader does.
    Each half-width is cut to two places below the key's (rounding down, so
    what is printed never accepts more than the window), trailing zeros dropped."""
    if a.type not in ("numeric", "vector"):
        return ""
    keys = key_numbers(a)
    tols = tolerance_rows(a, [[n.value for n in row] for row in keys])
    if all(t <= 0.6 * 10.0 ** -n.places * (1 + 1e-9) for kr, tr in zip(keys, tols) for n, t in zip(kr, tr)):
        return ""

    def shown(t: float, n: Written) -> str:
        return format(Decimal(repr(t)).quantize(Decimal(1).scaleb(-n.places - 2), rounding="ROUND_DOWN").normalize(), "f")

    return "± " + " | ".join("; ".join(shown(t, n) for n, t in zip(kr, tr)) for kr, tr in zip(keys, tols))


def answer_from_row(answer: str, tolerance: str) -> Answer:
    """An answer rebuilt from an answers.csv row (answer_text and
    tolerance_text read back), for marking when its variant cannot be
    regenerated: the same marking, without the distractors.  A malformed
    tolerance raises ValueError."""
    key, tol = answer.strip(), tolerance.strip()
    if tol:  # only numbers have a window
        return _number_from_row(key, tol)
    if "→" in key:
        pairs = [[s.strip() for s in p.split("→", 1)] for p in key.split(";") if "→" in p]
        return Answer("", "matching", "", [r for _, r in pairs], [f"{l} → {r}" for l, r in pairs], pairs, None)
    if key.lower() in ("true", "false"):
        return Answer("", "truefalse", "", key.lower() == "true", key.lower(), None, None)
    if re.fullmatch(r"[A-J](?:\s*,\s*[A-J])*", key):
        return Answer("", "choice", "", None, key, None, None)
    return Answer("", "text", "", key, key, key, None)


def _number_from_row(key: str, tol: str) -> Answer:
    """A numeric or vector answer from its key and its tolerances, in the
    layout tolerance_text writes (one per component, rows by " | ")."""
    rows = [[x.strip() for x in row.split(";")] for row in key.split("|")]
    tols = [[_tolerance(x) for x in row.split(";")] for row in tol.split("|")]
    if any(parse_number(x) is None for row in rows for x in row):
        raise ValueError(f"the answer {key!r} is not a number or a list of numbers")
    one_tolerance = len(tols) == 1 and len(tols[0]) == 1
    if len(rows) == 1 and len(rows[0]) == 1:
        if not one_tolerance:
            raise ValueError(f"tolerance {tol!r}: one number expected for the answer {key!r}")
        return Answer("", "numeric", "", parse_number(key), key, None, tols[0][0])
    if one_tolerance:  # one tolerance for every component (older files)
        tols = [[tols[0][0]] * len(row) for row in rows]
    if [len(r) for r in tols] != [len(r) for r in rows]:
        raise ValueError(f"tolerance {tol!r} does not match the layout of the answer {key!r}")
    if len(rows) == 1:
        return Answer("", "vector", "", None, rows[0], None, tols[0])
    return Answer("", "vector", "", None, rows, None, tols)


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:  # float's own message ("could not convert string to float") names no column
        raise ValueError(f"tolerance {text.strip()!r} is not a number") from None
    if not 0 <= value < float("inf"):
        raise ValueError(f"tolerance {text.strip()!r} is not a non-negative number")
    return value

