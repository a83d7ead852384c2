"""Judging one response against one answer: how a response is read (the
forms in ACCEPTED_FORMS, read by `numbers`), and how it is marked — the
credit, the misconception a wrong response matches, or a hint when it
matches none.

One marking rule everywhere (guide/numbers-and-marking.md): the window is the printed
key (`centre`) ± `answer.tolerance`, never centred on the exact value."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from ..model import Answer
from .misconceptions import describe
from .hints import fit, number_hint, vector_hint
from ..text import Sayer
from .numbers import MINUS, read_number, read_rows, read_rows_with_empty
from .options import LETTERS
from .window import inside, key_numbers, tolerance_rows

say = Sayer("grade")

# Shown by `attndrills grade --help` and restated in guide/grading.md.
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
        return _wrong(say.text("marks.no_answer"))
    markers = {"numeric": _mark_numeric, "vector": _mark_vector, "choice": _mark_choice,
               "truefalse": _mark_truefalse, "matching": _mark_matching}
    if a.type not in markers:
        return _wrong(say.text("marks.by_hand"))
    if a.type in ("numeric", "vector") and (note := _per_cent(r)):
        return _wrong(note)
    m = markers[a.type](a, r)
    if m.credit == 0 and m.misconception is None and _plain(r).replace("'", "").replace("’", "") in _NO_ATTEMPT:
        return _wrong(say.text("marks.counts_as_none", response=r))
    return m


def _mark_numeric(a: Answer, r: str) -> Mark:
    key = key_numbers(a)[0][0]
    whole = re.fullmatch(r"-?\d+", str(a.display).strip().translate(MINUS)) is not None
    got = read_number(r, whole)
    if got is None:
        return _wrong(say.text("marks.not_a_number"))
    tol = float(a.tolerance)
    if inside(got.value, key.value, tol):
        return FULL
    # the named mistake nearest the response, of those whose window holds it
    # (two can: 2.3 names 0 and 0.0001 in a window of ±0.00011)
    near = [(abs(got.value - wrong.value), n, o) for n, o in enumerate(a.options)
            if not o.correct and (wrong := read_number(o.text)) is not None and inside(got.value, wrong.value, tol)]
    if near:
        return _wrong(misconception=min(near, key=lambda x: x[:2])[2].misconception)
    return _wrong(number_hint(got, key, tol))


_PER_CENT = re.compile(r"\d\s*%")


def _per_cent(r: str) -> str:
    """Said of a response written in per cent (15.43%; 69.14%): the key is a
    fraction of 1, and a per-cent answer is not read, as the paper asks for
    the value itself (and 47.22 for 0.4722 is told so too).  The example is
    fixed: the student's own value converted could be the key."""
    if not _PER_CENT.search(r):
        return ""
    return say.text("marks.per_cent")


def _mark_vector(a: Answer, r: str) -> Mark:
    key = key_numbers(a)
    tol = tolerance_rows(a, key)
    got, empty = _components(r, key)
    unread = _unread(got, empty)
    if unread:
        return _wrong(unread)
    got, shape_note = fit(got, key)
    if shape_note:
        return _wrong(shape_note)
    pairs = [(g, k, t) for grow, krow, trow in zip(got, key, tol) for g, k, t in zip(grow, krow, trow)]
    right = [g is not None and inside(g.value, k.value, t) for g, k, t in pairs]
    if all(right):
        return FULL
    credit = Fraction(sum(right), len(right))
    named = _named_mistake(a, pairs, len(key) > 1)
    if named is not None:
        return _wrong(misconception=named, credit=credit)
    left_empty = [e for row in empty for e in row] if empty else [False] * len(pairs)
    return _wrong(vector_hint(pairs, right, got, key, tol, left_empty), credit=credit)


def _unread(got: list[list], empty: list[list[bool]] | None) -> str:
    """What to say of a list of which no component is a number ("" if one is)."""
    flat = [x for row in got for x in row]
    if any(x is not None for x in flat):
        return ""
    if not flat or (empty and all(e for row in empty for e in row)):  # brackets, separators, "-" alone
        return say.text("marks.no_answer")
    return say.text("marks.not_a_number" if len(flat) <= 1 else "marks.not_numbers")


def _components(r: str, key: list[list]) -> tuple[list[list], list[list[bool]] | None]:
    """The response's components, and which were left empty ("0.5; ; 0.3",
    Moodle's "-" for an empty blank) when reading them so gives the key's
    shape (in its layout); else read as before, an empty one not counted, so
    "0.5;; 0.3" for two weights is two components — and no empty ones (None)."""
    kept, empty = read_rows_with_empty(r, len(key) > 1)
    if any(e for row in empty for e in row):
        fitted, note = fit(kept, key)
        if not note:
            return fitted, fit(empty, key)[0]
    return read_rows(r, len(key) > 1), None


def _named_mistake(a: Answer, pairs: list[tuple], rows_expected: bool) -> str | None:
    """The misconception of the first wrong option whose every component's
    window (the key's tolerance, around the option's value) holds the response."""
    for o in a.options:
        if o.correct:
            continue
        wrong = [x for row in read_rows(o.text, rows_expected) for x in row]
        if len(wrong) == len(pairs) and all(g is not None and w is not None and inside(g.value, w.value, t)
                                            for (g, _, t), w in zip(pairs, wrong)):
            return o.misconception
    return None


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
        return _wrong(say.text("marks.not_an_option", letters=_range(count)))
    outside = sorted(i for i in chosen if i >= count)
    if outside:
        return _wrong(say.text("marks.no_such_option", letter=LETTERS[outside[0]], letters=_range(count)))
    if chosen == keys:
        return FULL
    for i in sorted(chosen - keys):
        if i < len(a.options) and a.options[i].misconception:
            return _wrong(misconception=a.options[i].misconception)
    if chosen < keys:
        return _wrong(say.text("marks.options_chosen", n=len(chosen), of=len(keys)))
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
    words = {"true": True, "t": True, "yes": True, "y": True, "false": False, "f": False, "no": False, "n": False,
             "wahr": True, "w": True, "richtig": True, "ja": True, "j": True, "falsch": False, "nein": False}
    said = words.get(r.strip(" .!()").casefold())
    if said is None:
        return _wrong(say.text("marks.true_or_false"))
    if said == a.value:
        return FULL
    return _wrong(misconception=next((o.misconception for o in a.options if not o.correct), None))


def _mark_matching(a: Answer, r: str) -> Mark:
    key = a.exact if a.exact and all(isinstance(p, list) and len(p) == 2 for p in a.exact) else \
        [[s.strip() for s in d.split("→", 1)] for d in a.display]
    got = _pairs(r, len(key))
    if got is None:
        return _wrong(say.text("marks.pairs_form"))
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
    return _wrong(say.text("marks.pairs_right", n=sum(right), of=len(key)), credit=Fraction(sum(right), len(key)))


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
