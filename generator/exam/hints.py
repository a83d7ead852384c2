"""What a wrong number, or a wrong list of numbers, tells of the slip behind
it when it matches no named mistake: the key rounded or cut off, the sign
flipped, a percentage, the right values in another order, weights that do
not sum to 1, or a list of another shape than the key's."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from ..mathlines import NumText
from ..text import Sayer
from .numbers import Written
from .window import inside

say = Sayer("grade")  # the hints' words: hints.* in text/<lang>/grade.yaml


def number_hint(got: Written, key: Written, tol: float) -> str:
    rounded = _rounding_hint(got, key)
    if rounded:
        return rounded
    if key.value != 0 and inside(-got.value, key.value, tol):
        return say.text("hints.sign")
    if key.value != 0 and inside(got.value / 100, key.value, tol):
        return say.text("hints.percentage")
    return _outside(tol)


def _outside(tol: float) -> str:
    if tol == 0:
        return say.text("hints.outside_exact")
    return say.text("hints.outside", tol=NumText(f"{Decimal(repr(float(tol))):f}"))


def _rounding_hint(got: Written, key: Written) -> str:
    """Said when the response is the key rounded (or cut off) to fewer places."""
    if got.places >= key.places:
        return ""
    unit = 10.0 ** -got.places
    if key.sci and not got.sci and abs(key.value) < unit and abs(got.value) <= unit * (1 + 1e-9):
        # 0.0000 for 8.02e-15: rounded away entirely; 0.01 for 6.20e-3: a weight below
        # 10^-digits written to the places the others have
        where = ("places_one" if got.places == 1 else "places") if got.places > 0 else "whole"
        return say.text(f"hints.too_small.{where}", places=got.places, key_sig=key.sig)
    if key.sci:
        fewer = "sig_one" if got.sig == 1 else "sig"
    elif key.places <= 0 and got.sci:  # 1.23e5 for 122801
        fewer = "sig_one_of_whole" if got.sig == 1 else "sig_of_whole"
    elif got.places <= 0:
        fewer = "whole"
    else:
        fewer = "places_one" if got.places == 1 else "places"
    fewer = say.text(f"hints.fewer.{fewer}", sig=got.sig, places=got.places, key_sig=key.sig, key_places=key.places)
    if abs(got.value - key.value) <= 0.5 * unit * (1 + 1e-9):
        return say.text("hints.rounded", fewer=fewer)
    if abs(got.value) < abs(key.value) and abs(got.value - key.value) < unit and got.value * key.value >= 0:
        return say.text("hints.cut_off", fewer=fewer)
    return ""


def fit(got: list[list], key: list[list]) -> tuple[list[list], str]:
    """The response in the key's layout, or a note on how its shape differs.
    A flat list with every component in row order fits a table."""
    if [len(r) for r in got] == [len(r) for r in key]:
        return got, ""
    flat = [x for row in got for x in row]
    if len(flat) == sum(len(r) for r in key):
        it = iter(flat)
        return [[next(it) for _ in row] for row in key], ""
    if len(key) == 1:
        return got, _shape("components", len(flat), len(key[0]))
    if len(got) == 1:  # a table typed on one line counts, so the count is what is wrong
        total = sum(len(r) for r in key)
        return got, _shape("components", len(flat), total)
    if len(got) != len(key):
        return got, _shape("rows", len(got), len(key))
    i = next(i for i, (g, k) in enumerate(zip(got, key)) if len(g) != len(k))
    return got, _shape("row_components", len(got[i]), len(key[i]), row=i + 1)


def _shape(what: str, count: int, expected: int, **row: int) -> str:
    """How many components or rows the response has where the key has `expected`."""
    return say.text(f"hints.shape.{what}{'_one' if count == 1 else ''}", count=count, expected=expected, **row)


def vector_hint(pairs: list[tuple], right: list[bool], got, key, tol, empty: list[bool]) -> str:
    """What is wrong with a list of numbers that matches no named mistake;
    `empty`: which components were left empty (a blank is told as such, not
    as "not a number")."""
    notes = [say.text("hints.vector.right", right=sum(right), total=len(right))] if any(right) else []
    unread = [i + 1 for i, (g, _, _) in enumerate(pairs) if g is None and not empty[i]]
    blank = [i + 1 for i, (g, _, _) in enumerate(pairs) if g is None and empty[i]]
    if unread:
        notes.append(say.text("hints.vector.not_numbers" if len(unread) > 1 else "hints.vector.not_a_number",
                              which=", ".join(map(str, unread))))
    if blank:
        notes.append(say.text("hints.vector.empty_many" if len(blank) > 1 else "hints.vector.empty_one",
                              which=", ".join(map(str, blank))))
    slip = _vector_slip(pairs, right, got, key, tol, bool(unread or blank))
    if slip:
        notes.append(slip)
    elif not notes:
        notes.append(say.text("hints.vector.no_component"))
    return "; ".join(notes)


def _vector_slip(pairs: list[tuple], right: list[bool], got, key, tol, unread: bool) -> str:
    """The one slip the wrong components show together, the first of: the
    right values in another order, the key rounded alike in each, the sign
    flipped in each (as "the sign is wrong" says of one number), weights that
    do not sum to 1; "" for none."""
    order, total = _slips(got, key, tol)
    if order or unread:
        return order or total
    misses = [(i + 1, g, k, t) for i, ((g, k, t), ok) in enumerate(zip(pairs, right)) if not ok]
    hints = {_rounding_hint(g, k) for _, g, k, _ in misses}
    if len(hints) == 1 and "" not in hints:
        return hints.pop()
    if all(k.value != 0 and inside(-g.value, k.value, t) for _, g, k, t in misses):
        if not any(right):
            return say.text("hints.vector.sign_everywhere")
        flipped = [i for i, *_ in misses]
        return say.text("hints.vector.sign_in" if len(flipped) > 1 else "hints.vector.sign_in_one",
                        which=", ".join(map(str, flipped)))
    return total


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
        table = len(key) > 1  # a table names the row
        if all(inside(g.value, k.value, t) for g, k, t in zip(grow, krow, trow)):
            continue
        if not order and _permutation(grow, krow, trow):
            order = say.text("hints.vector.order_in_row" if table else "hints.vector.order", row=i + 1)
        weights = all(0 <= k.value <= 1 for k in krow) and inside(sum(k.value for k in krow), 1, sum(trow))
        if not total and weights and not inside(sum(g.value for g in grow), 1, sum(trow)):
            total = say.text("hints.vector.sum_in_row" if table else "hints.vector.sum", row=i + 1,
                             sum=_sum_text(grow))
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
    return NumText(text.rstrip("0").rstrip(".") if "." in text else text)
