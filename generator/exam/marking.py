"""Judging one response against one answer: how a response is read (the
forms in ACCEPTED_FORMS, read by `numbers`), and how it is marked — the
credit, the misconception a wrong response matches, or a hint when it
matches none.

One marking rule everywhere (README, "Marking"): the window is the printed
key (`centre`) ± `answer.tolerance`, never centred on the exact value."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..model import Answer
from .misconceptions import describe
from .numbers import MINUS, Written, read_number, read_rows
from .options import LETTERS
from .window import inside, key_numbers, tolerance_rows

# Shown by `attndrills grade --help` and restated in the README.
ACCEPTED_FORMS = """\
accepted answer forms (letter case and spaces around separators do not matter):
  numbers     0.4722  .4722  -0.47  4.722e-1  2.06 × 10⁻⁹  2.06x10^-9  2.06*10^-9
              2.06 × 10−9 (copied from a PDF)  H = 0.4722  0.4722 nats;
              a decimal comma in a single number (0,4722), except in a whole-number
              answer (a count), where a comma groups thousands (22,082)
  vectors     0.1; 0.7; 0.2   0.1, 0.7, 0.2   0.1 0.7 0.2, with or without (…) or […];
              decimal commas only when components are separated by ; or spaces
              (0,1; 0,7; 0,2 or 0,1 0,7 0,2); rows separated by |, new lines or
              brackets ((0.1, 0.9) (0.3, 0.7)), or every component in row order
  choices     a letter (B, b, (B), B)), several (A, C or A C or AC), or an option's text
  true/false  true, false, T, F, yes, no, Y, N
  matching    c_t → d; e_ti → b  (or ->, with ;, commas or new lines between pairs),
              a right item by its letter or its text; or the right items alone, in the
              order of the left ones (d; b)
credit: a vector earns its points per component inside the window (3 of 4 right
= 3/4 of the points), a matching answer per pair; a number, a choice (one or
several letters) and true/false are all or nothing."""

_ARROW = re.compile(r"\s*(?:→|⟶|⇒|↦|-+>|=+>)\s*")
_NO_ATTEMPT = {"idk", "idontknow", "dontknow", "donotknow", "dunno", "noidea", "notsure", "?", "??", "???",
               "-", "--", "---", "n/a", "na", "none", "pass", "skip", "unknown", "x", "…", "..."}


@dataclass(frozen=True)
class Mark:
    """The share of the points earned (0 to 1, exact), the catalogue name of
    the mistake a wrong response matches, and a note when it matches none."""
    credit: Fraction
    misconception: str | None = None
    note: str = ""

    @property
    def correct(self) -> bool:
        return self.credit == 1


FULL = Mark(Fraction(1))


def _wrong(note: str = "", misconception: str | None = None, credit: Fraction = Fraction(0)) -> Mark:
    return Mark(credit, misconception, note)


def mark(a: Answer, response: str) -> Mark:
    """Mark one response against an answer (with its options, for misconceptions).
    A response inside the window is right and names no mistake."""
    r = response.replace("\r", "").strip()
    if not r:
        return _wrong("no answer")
    markers = {"numeric": _mark_numeric, "vector": _mark_vector, "choice": _mark_choice,
               "truefalse": _mark_truefalse, "matching": _mark_matching}
    if a.type not in markers:
        return _wrong("marked by hand")
    if a.type in ("numeric", "vector") and (note := _per_cent(r)):
        return _wrong(note)
    m = markers[a.type](a, r)
    if m.credit == 0 and m.misconception is None and _plain(r).replace("'", "").replace("’", "") in _NO_ATTEMPT:
        return _wrong(f"“{r}” counts as no answer")
    return m


def _mark_numeric(a: Answer, r: str) -> Mark:
    key = key_numbers(a)[0][0]
    whole = re.fullmatch(r"-?\d+", str(a.display).strip().translate(MINUS)) is not None
    got = read_number(r, whole)
    if got is None:
        return _wrong("not a number")
    tol = float(a.tolerance)
    if inside(got.value, key.value, tol):
        return FULL
    # the named mistake nearest the response, of those whose window holds it
    # (two can: 2.3 names 0 and 0.0001 in a window of ±0.00011)
    near = [(abs(got.value - wrong.value), n, o) for n, o in enumerate(a.options)
            if not o.correct and (wrong := read_number(o.text)) is not None and inside(got.value, wrong.value, tol)]
    if near:
        return _wrong(misconception=min(near, key=lambda x: x[:2])[2].misconception)
    return _wrong(_number_hint(got, key, tol))


_PER_CENT = re.compile(r"\d\s*%")


def _per_cent(r: str) -> str:
    """Said of a response written in per cent (15.43%; 69.14%): the key is a
    fraction of 1, and a per-cent answer is not read, as the paper asks for
    the value itself (and 47.22 for 0.4722 is told so too).  The example is
    fixed: the student's own value converted could be the key."""
    if not _PER_CENT.search(r):
        return ""
    return "written in per cent: give each value as a fraction of 1 (50% is 0.5), not per cent"


def _number_hint(got: Written, key: Written, tol: float) -> str:
    rounded = _rounding_hint(got, key)
    if rounded:
        return rounded
    if key.value != 0 and inside(-got.value, key.value, tol):
        return "the sign is wrong"
    if key.value != 0 and inside(got.value / 100, key.value, tol):
        return "looks like a percentage: give the value itself, not per cent"
    return _outside(tol)


def _outside(tol: float) -> str:
    if tol == 0:
        return "not the key's value, and no known mistake gives it"
    return f"not within {Decimal(repr(float(tol))):f} of the key, and no known mistake gives it"


def _rounding_hint(got: Written, key: Written) -> str:
    """Said when the response is the key rounded (or cut off) to fewer places."""
    if got.places >= key.places:
        return ""
    unit = 10.0 ** -got.places
    if key.sci and not got.sci and abs(key.value) < unit and abs(got.value) <= unit * (1 + 1e-9):
        # 0.0000 for 8.02e-15: rounded away entirely; 0.01 for 6.20e-3: a weight below
        # 10^-digits written to the places the others have
        where = f"{got.places} decimal place{'s' * (got.places != 1)}" if got.places > 0 else "a whole number"
        return f"too small for {where}: a number this small counts to {key.sig} significant digits, as 1.23e-5"
    if key.sci:
        fewer = f"{got.sig} significant digit{'s' * (got.sig != 1)}, the key has {key.sig}"
    elif key.places <= 0 and got.sci:  # 1.23e5 for 122801
        fewer = f"{got.sig} significant digit{'s' * (got.sig != 1)}, the key is a whole number of {key.sig} digits"
    elif got.places <= 0:
        fewer = f"a whole number, the key has {key.places} places"
    else:
        fewer = f"{got.places} place{'s' * (got.places != 1)}, the key has {key.places}"
    if abs(got.value - key.value) <= 0.5 * unit * (1 + 1e-9):
        return f"rounded to {fewer}"
    if abs(got.value) < abs(key.value) and abs(got.value - key.value) < unit and got.value * key.value >= 0:
        return f"cut off (not rounded) at {fewer}"
    return ""


def _mark_vector(a: Answer, r: str) -> Mark:
    key = key_numbers(a)
    tol = tolerance_rows(a, key)
    got = read_rows(r, len(key) > 1)
    flat = [x for row in got for x in row]
    if all(x is None for x in flat):
        return _wrong("not a number" if len(flat) <= 1 else "not a list of numbers")
    got, shape_note = _fit(got, key)
    if shape_note:
        return _wrong(shape_note)
    pairs = [(g, k, t) for grow, krow, trow in zip(got, key, tol) for g, k, t in zip(grow, krow, trow)]
    right = [g is not None and inside(g.value, k.value, t) for g, k, t in pairs]
    if all(right):
        return FULL
    credit = Fraction(sum(right), len(right))
    for o in a.options:
        if not o.correct:
            wrong = read_rows(o.text, len(key) > 1)
            wrong_flat = [x for row in wrong for x in row]
            if len(wrong_flat) == len(pairs) and all(
                    g is not None and w is not None and inside(g.value, w.value, t)
                    for (g, _, t), w in zip(pairs, wrong_flat)):
                return _wrong(misconception=o.misconception, credit=credit)
    return _wrong(_vector_hint(pairs, right, got, key, tol), credit=credit)


def _slips(got: list[list[Written | None]], key: list[list[Written]], tol: list[list[float]]) -> tuple[str, str]:
    """The two slips a list of numbers shows as a whole: the key's values in
    another order ("the right values in another order"), and weights that do
    not sum to 1 ("these weights sum to 1.3, not 1") where the key is a list
    of weights (each row of the printed key in [0, 1] and summing to 1 within
    the sum of its tolerances).  A table names the first row that shows it."""
    order = total = ""
    if any(g is None for row in got for g in row) or len(key[0]) < 2:
        return order, total
    for i, (grow, krow, trow) in enumerate(zip(got, key, tol)):
        where = f"row {i + 1}: " if len(key) > 1 else ""
        if all(inside(g.value, k.value, t) for g, k, t in zip(grow, krow, trow)):
            continue
        if not order and _permutation(grow, krow, trow):
            order = f"{where}the right values in another order"
        weights = all(0 <= k.value <= 1 for k in krow) and inside(sum(k.value for k in krow), 1, sum(trow))
        if not total and weights and not inside(sum(g.value for g in grow), 1, sum(trow)):
            total = f"{where}these weights sum to {_sum_text(grow)}, not 1"
    return order, total


def _permutation(got: list[Written], key: list[Written], tol: list[float]) -> bool:
    """Whether each value of `got` is a different key value (within that
    value's window), though not in the key's order."""
    free = list(range(len(key)))
    for g in got:
        hit = next((j for j in free if inside(g.value, key[j].value, tol[j])), None)
        if hit is None:
            return False
        free.remove(hit)
    return True


def _sum_text(nums: list[Written]) -> str:
    """The sum of the numbers as typed, to the places of the finest of them
    (0.2; 0.9; 0.2 → 1.3), trailing zeros dropped."""
    places = max(0, *(n.places for n in nums))
    total = round(sum((n.exact for n in nums), Fraction(0)), places)
    text = format(Decimal(total.numerator) / Decimal(total.denominator), f".{places}f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _fit(got: list[list], key: list[list]) -> tuple[list[list], str]:
    """The response in the key's layout, or a note on how its shape differs.
    A flat list with every component in row order fits a table."""
    if [len(r) for r in got] == [len(r) for r in key]:
        return got, ""
    flat = [x for row in got for x in row]
    if len(flat) == sum(len(r) for r in key):
        it = iter(flat)
        return [[next(it) for _ in row] for row in key], ""
    if len(key) == 1:
        return got, f"{len(flat)} component{'s' * (len(flat) != 1)}, expected {len(key[0])}"
    if len(got) == 1:  # a table typed on one line counts, so the count is what is wrong
        total = sum(len(r) for r in key)
        return got, f"{len(flat)} component{'s' * (len(flat) != 1)}, expected {total}"
    if len(got) != len(key):
        return got, f"{len(got)} row{'s' * (len(got) != 1)}, expected {len(key)}"
    i = next(i for i, (g, k) in enumerate(zip(got, key)) if len(g) != len(k))
    return got, f"row {i + 1}: {len(got[i])} component{'s' * (len(got[i]) != 1)}, expected {len(key[i])}"


def _vector_hint(pairs: list[tuple], right: list[bool], got, key, tol) -> str:
    notes = [f"{sum(right)} of {len(right)} components right"] if any(right) else []
    order, total = _slips(got, key, tol)
    unread = [i + 1 for i, (g, _, _) in enumerate(pairs) if g is None]
    if unread:
        notes.append(f"component{'s' * (len(unread) > 1)} {', '.join(map(str, unread))} "
                     f"{'are not numbers' if len(unread) > 1 else 'is not a number'}")
    hints = {_rounding_hint(g, k) for (g, k, _), ok in zip(pairs, right) if not ok and g is not None}
    flipped = [i + 1 for i, ((g, k, t), ok) in enumerate(zip(pairs, right)) if not ok]
    if order:
        notes.append(order)
    elif len(hints) == 1 and "" not in hints and not unread:
        notes.append(hints.pop())
    elif not unread and all(k.value != 0 and inside(-g.value, k.value, t)
                            for (g, k, t), ok in zip(pairs, right) if not ok):
        # every miss is the key with its sign flipped, as "the sign is wrong" says of one number
        notes.append("the sign is wrong in every component" if not any(right) else
                     f"the sign is wrong in component{'s' * (len(flipped) > 1)} {', '.join(map(str, flipped))}")
    elif total:
        notes.append(total)
    elif not notes:
        notes.append("no component within the key's window, and no known mistake gives these")
    return "; ".join(notes)


def _plain(text: str) -> str:
    """Text for comparing: compatibility forms (ₜ → t), no case, no spaces,
    no _ { }, one minus sign, no full stop at the end."""
    t = unicodedata.normalize("NFKC", text).casefold().translate(MINUS).replace("alpha", "α")
    return re.sub(r"[\s_{}]+", "", t).rstrip(".")


def _letter(text: str) -> str | None:
    m = re.fullmatch(r"\(?([A-Ja-j])\s*[).:]?", text.strip())
    return m.group(1).upper() if m else None


def _mark_choice(a: Answer, r: str) -> Mark:
    keys = {LETTERS.index(x.strip()) for x in str(a.display).split(",") if x.strip()}
    count = len(a.options) or len(LETTERS)
    chosen = _choices(r, a)
    if chosen is None:
        return _wrong(f"not one of the options: answer with a letter ({_range(count)}) or an option's text")
    outside = sorted(i for i in chosen if i >= count)
    if outside:
        return _wrong(f"there is no option {LETTERS[outside[0]]} ({_range(count)})")
    if chosen == keys:
        return FULL
    for i in sorted(chosen - keys):
        if i < len(a.options) and a.options[i].misconception:
            return _wrong(misconception=a.options[i].misconception)
    if chosen < keys:
        return _wrong(f"{len(chosen)} of the {len(keys)} right options chosen")
    return _wrong()


def _range(count: int) -> str:
    return f"A–{LETTERS[count - 1]}" if count > 1 else "A"


def _choices(r: str, a: Answer) -> set[int] | None:
    """The options a response picks, by letter or by text; None if unreadable."""
    texts = [_plain(o.text) for o in a.options]

    def one(piece: str) -> int | None:
        letter = _letter(piece) or (m.group(1).upper() if (m := re.match(r"\s*\(?([A-Ja-j])[).:]\s+\S", piece))
                                    else None)
        if letter:
            return LETTERS.index(letter)
        return texts.index(_plain(piece)) if _plain(piece) in texts else None

    if (i := one(r)) is not None:
        return {i}
    for pattern in (r"\s*[;\n]\s*", r"\s*(?:[,;/&+\n]|\band\b|\s)\s*"):
        pieces = [p for p in re.split(pattern, r) if p.strip()]
        found = [one(p) for p in pieces]
        if len(pieces) > 1 and all(i is not None for i in found):
            return set(found)
    if re.fullmatch(r"[A-J]{2,}", r.strip()):  # "AC": capitals only, so words are not read as letters
        return {LETTERS.index(c) for c in r.strip()}
    return None


def _mark_truefalse(a: Answer, r: str) -> Mark:
    words = {"true": True, "t": True, "yes": True, "y": True, "false": False, "f": False, "no": False, "n": False}
    said = words.get(r.strip(" .!()").casefold())
    if said is None:
        return _wrong("write true or false")
    if said == a.value:
        return FULL
    return _wrong(misconception=next((o.misconception for o in a.options if not o.correct), None))


def _mark_matching(a: Answer, r: str) -> Mark:
    key = a.exact if a.exact and all(isinstance(p, list) and len(p) == 2 for p in a.exact) else \
        [[s.strip() for s in d.split("→", 1)] for d in a.display]
    got = _pairs(r, len(key))
    if got is None:
        return _wrong("write the pairs as left → right, separated by ; or new lines")
    if got and got[0][0] is None:  # right items alone, in the key's order
        right = [_same_right(g, k) for (_, g), (_, k) in zip(got, key)]
    else:
        right = []
        seen: dict[str, int] = {}
        for left, want in key:
            n = seen[_plain(left)] = seen.get(_plain(left), -1) + 1
            given = [g for l, g in got if _plain(l) == _plain(left)]
            right.append(len(given) > n and _same_right(given[n], want))
    if all(right) and len(right) == len(key):
        return FULL
    return _wrong(f"{sum(right)} of {len(key)} pairs right", credit=Fraction(sum(right), len(key)))


def _pairs(r: str, count: int) -> list[tuple[str | None, str]] | None:
    """(left, right) pairs as written; (None, right) items when no arrow is
    used and there is one item per left; None when unreadable."""
    segments = _ARROW.split(r.strip())
    if len(segments) == 1:
        items = [p for p in re.split(r"\s*[;\n]\s*", r) if p.strip()]
        if len(items) == 1:
            items = [p for p in re.split(r"\s*,\s*", r) if p.strip()]
        return [(None, p.strip()) for p in items] if len(items) == count else None
    lefts, rights = [segments[0]], []
    for middle in segments[1:-1]:
        # the right item ends at the last separator before the next left item
        cut = max(middle.rfind(";"), middle.rfind(","), middle.rfind("\n"))
        if cut < 0:
            cut = len(middle.rstrip()) - len(middle.rstrip().split()[-1]) - 1 if middle.split() else -1
        if cut < 0:
            return None
        rights.append(middle[:cut])
        lefts.append(middle[cut + 1:])
    rights.append(segments[-1])
    return [(l.strip(" ;,\n"), g.strip(" ;,\n")) for l, g in zip(lefts, rights)]


def _same_right(got: str, want: str) -> bool:
    """A right item by its text, with or without its letter "(d)", or by the letter alone."""
    m = re.fullmatch(r"\(([a-jA-J])\)\s*(.*)", want.strip())
    forms = {_plain(want)} | ({_plain(m.group(2))} if m else set())
    if _plain(got) in forms:
        return True
    return bool(m) and _letter(got) == m.group(1).upper()


def feedback(m: Mark) -> str:
    """What a student reads: the named mistake, else the note (nothing when right)."""
    if m.correct:
        return ""
    return "; ".join(x for x in (describe(m.misconception) if m.misconception else "", m.note) if x)
