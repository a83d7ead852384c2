"""What a wrong number, or a wrong list of numbers, tells of the slip behind
it when it matches no named mistake: the key rounded or cut off, the sign
flipped, a percentage, the right values in another order, weights that do
not sum to 1, or a list of another shape than the key's."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from .numbers import Written
from .window import inside


def number_hint(got: Written, key: Written, tol: float) -> str:
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
        return got, f"{len(flat)} component{'s' * (len(flat) != 1)}, expected {len(key[0])}"
    if len(got) == 1:  # a table typed on one line counts, so the count is what is wrong
        total = sum(len(r) for r in key)
        return got, f"{len(flat)} component{'s' * (len(flat) != 1)}, expected {total}"
    if len(got) != len(key):
        return got, f"{len(got)} row{'s' * (len(got) != 1)}, expected {len(key)}"
    i = next(i for i, (g, k) in enumerate(zip(got, key)) if len(g) != len(k))
    return got, f"row {i + 1}: {len(got[i])} component{'s' * (len(got[i]) != 1)}, expected {len(key[i])}"


def vector_hint(pairs: list[tuple], right: list[bool], got, key, tol, empty: list[bool]) -> str:
    """What is wrong with a list of numbers that matches no named mistake;
    `empty`: which components were left empty (a blank is told as such, not
    as "not a number")."""
    notes = [f"{sum(right)} of {len(right)} components right"] if any(right) else []
    unread = [i + 1 for i, (g, _, _) in enumerate(pairs) if g is None and not empty[i]]
    blank = [i + 1 for i, (g, _, _) in enumerate(pairs) if g is None and empty[i]]
    if unread:
        notes.append(f"component{'s' * (len(unread) > 1)} {', '.join(map(str, unread))} "
                     f"{'are not numbers' if len(unread) > 1 else 'is not a number'}")
    if blank:
        notes.append(f"component{'s' * (len(blank) > 1)} {', '.join(map(str, blank))} "
                     f"{'are' if len(blank) > 1 else 'is'} empty")
    slip = _vector_slip(pairs, right, got, key, tol, bool(unread or blank))
    if slip:
        notes.append(slip)
    elif not notes:
        notes.append("no component within the key's window, and no known mistake gives these")
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
            return "the sign is wrong in every component"
        flipped = [i for i, *_ in misses]
        return f"the sign is wrong in component{'s' * (len(flipped) > 1)} {', '.join(map(str, flipped))}"
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
