"""The small interface every problem kind shares, and the per-solve helper."""

from __future__ import annotations

import builtins
import dataclasses
from dataclasses import dataclass, field
import math
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import ProblemRejected
from ..exam.misconceptions import CATALOGUE
from ..exam.numbers import value_of
from ..exam.options import LETTERS
from ..exam.window import inside_key, window
from ..inputs import number_text
from ..maths import exact
from ..maths.crosscheck import agree, cancellation_error
from ..maths.exact import ExactReal
from ..maths.rounding import format_fraction
from ..mathlines import Frac, Num, NumText, Sym
from ..model import SKIPPED, Answer, Check, Option, Problem, Prose, Solution
from ..text import Sayer

MAX_DRAWS = 200  # bounded rejection sampling for a cell's property
say = Sayer("shared")


def _vector_text(display: Sequence) -> str:
    return "(" + ", ".join(_vector_text(d) if isinstance(d, list) else d for d in display) + ")"


def _floats(xs):
    return [_floats(x) if isinstance(x, (list, tuple)) else float(x) for x in xs]


@dataclass(frozen=True)
class Kind:
    """One problem kind: how to draw inputs, check them, and solve them.

    sample(rng, params) -> inputs     JSON data drawn from a numpy Generator
    normalise(inputs) -> inputs       validated, canonical form of given inputs
    property(inputs) -> str | None    why the inputs miss the cell's property
    solve(problem, digits) -> Solution
    accepts(inputs) -> str | None     why typed inputs cannot be taught here
                                      (default: the property), naming the kind
                                      that fits them
    """

    id: str
    slug: str
    source: str
    sample: Callable[[np.random.Generator, dict[str, Any]], dict[str, Any]]
    normalise: Callable[[dict[str, Any]], dict[str, Any]]
    solve: Callable[[Problem, int], Solution]
    property: Callable[[dict[str, Any]], str | None] = lambda inputs: None
    # typed inputs may be wider than draws: a draw keeps to the cell's
    # textbook case, a typed input only has to be one the page tells truly
    accepts: Callable[[dict[str, Any]], str | None] | None = None
    scenarios: dict[str, dict[str, Any]] = field(default_factory=dict)
    # each scenario parameter's (lowest, highest, whole number?); a spec is
    # checked against them, and a NAME_min never above its NAME_max
    limits: dict[str, tuple[float, float, bool]] = field(default_factory=dict)
    level: int | None = None
    words: str = ""  # its text file (generator/text/<lang>/<words>.yaml)
    # how many different variants the kind can draw (None: practically unlimited)
    variety: int | None = None
    # the answers an exam grades (None: the choice-like ones and the standard quantities)
    graded: tuple[str, ...] | None = None

    @builtins.property  # `property` is a field of a Kind
    def title(self) -> str:
        """Its name in the catalogue, in the run's language."""
        return Sayer(self.words).text("name")

    @builtins.property
    def summary(self) -> str:
        return Sayer(self.words).text("summary")

    def draw(self, rng: np.random.Generator, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Draw inputs that satisfy the cell's property (bounded retry)."""
        params = {**self.scenarios.get("default", {}), **(params or {})}
        for _ in range(MAX_DRAWS):
            inputs = self.normalise(self.sample(rng, params))
            if self.property(inputs) is None:
                return inputs
        raise ProblemRejected(say.text("refused.no_draw", kind=self.id, tries=MAX_DRAWS))


# Intermediate values of a worked line (exponentials, the denominator,
# logarithms, products) carry at least this many places, so that a student
# who redoes the next line from them lands on the answer (guide/numbers-and-marking.md, "Numbers").
WORKING_PLACES = 3


def working_note(solution: Solution, digits: int) -> Solution:
    """Where the worked lines print numbers to more places than the answers'
    `digits` (WORKING_PLACES above --digits 2), the first step that does says
    so once and tells the student to keep as many: the window holds the
    result of the working as printed, not of a working rounded to `digits`
    places throughout.  Numbers typed in the inputs do not count."""
    if digits >= WORKING_PLACES:
        return solution
    given = set(_strings(solution.problem.inputs))

    def finer(node) -> bool:
        if isinstance(node, Num):
            return node.exp10 is None and len(node.mant.partition(".")[2]) > digits and node.mant not in given
        if isinstance(node, (tuple, list)):
            return any(finer(x) for x in node)
        if dataclasses.is_dataclass(node):
            return any(finer(getattr(node, f.name)) for f in dataclasses.fields(node))
        return False

    steps = list(solution.steps)
    for i, step in enumerate(steps):
        if finer(step.math):
            places = max(digits, WORKING_PLACES)
            note = say("notes.working", places=places, more=places + 2, digits=digits)
            steps[i] = dataclasses.replace(step, body=(note, *step.body))
            return dataclasses.replace(solution, steps=tuple(steps))
    return solution


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)


class SolutionBuilder:
    """What a kind's solve() builds one Solution with: numbers rounded for the
    page (shown_*), typed answers with exact and numeric values cross-checked,
    the Verify checks, and the values the worked steps reach (method, slips)."""

    def __init__(self, digits: int):
        self.digits = digits
        self.places = max(digits, WORKING_PLACES)  # of intermediate values
        self.answers: list[Answer] = []
        self.checks: list[Check] = []
        # answer name → worked-method values (per component for vectors),
        # filled by the worked steps and read when the answer is made
        self.method: dict[str, list] = {}
        # answer name → (wrong exact value, misconception) pairs a worked step
        # knows of (a working rounded too soon), named beside the kind's own
        self.slips: dict[str, list[tuple[ExactReal, str]]] = {}

    def shown_answer(self, x: ExactReal) -> Num:
        """An answer's value: the exact value correctly rounded to --digits places."""
        return exact.shown(x, self.digits)

    def shown_working(self, x: ExactReal) -> Num:
        """An intermediate value of a worked line (an exponential), exact value
        correctly rounded to the working places — and, when it is small, to
        four significant digits within at most two more places (exp(−5) =
        0.006738, exp(−7) = 0.000912; below 10^-(places+2) in scientific
        notation), so that quotients taken from it keep the answer's
        precision."""
        return exact.shown(x, self._sig_places(float(x)))

    def shown_working_result(self, v: Fraction) -> Num:
        """A result from printed operands, rounded like `shown_working` (a sum of
        exponentials)."""
        return format_fraction(v, self._sig_places(float(v)))

    def _sig_places(self, f: float) -> int:
        f = abs(f)
        if 0 < f < 1:
            return min(max(self.places, 3 - math.floor(math.log10(f))), self.places + 2)
        return self.places

    def shown_result(self, v: Fraction, places: int | None = None) -> Num:
        """A result computed from printed operands, rounded to `places` (default:
        the intermediate places)."""
        return format_fraction(v, self.places if places is None else places)

    def numeric(self, name: str, label: str, exact: ExactReal, numeric: float,
                distractors: Sequence[tuple[ExactReal, str]] = (), *, whole: bool = False,
                method: Sequence[Fraction] | None = None, cancelled: float = 0.0) -> ExactReal:
        """A number; `distractors` are (wrong exact value, misconception) pairs;
        `method` the values a student reaches by following the worked lines
        from printed numbers (the marking window holds them; by default what
        the worked steps kept under `name`); `whole` marks a count, shown as
        an integer with tolerance 0; `cancelled` the size of the terms the
        numeric path subtracted (see crosscheck.agree)."""
        if not agree(name, float(exact), float(numeric), cancelled=cancelled):
            # the float path cannot resolve this value: the page says so
            mant, power = f"{cancellation_error(cancelled):.0e}".split("e")  # one digit: 2 × 10⁻¹⁵
            self.checks.append(Check(SKIPPED, True, say("verify.skipped", label=label, near=NumText(f"{cancelled:.2f}"),
                                                        err=Num(mant, int(power)).text)))
        method = self.method.get(name, ()) if method is None else method
        distractors = [*distractors, *self.slips.get(name, ())]
        if whole:
            text, tol = str(int(exact.rat)), 0.0
            wrong = [(str(int(x.rat)), m) for x, m in distractors]
        else:
            shown = self.shown_answer(exact)
            text, tol = shown.text, window(shown, method)
            wrong = [(self.shown_answer(x).text, m) for x, m in distractors
                     if abs(float(x) - float(value_of(shown))) > tol]
        self.answers.append(Answer(name, "numeric", label, float(exact), text, exact, tol,
                                   self._options(text, wrong)))
        return exact

    def vector(self, name: str, label: str, exact: Sequence, numeric, *, whole: bool = False,
               distractors: Sequence[tuple[Sequence[ExactReal], str]] = (),
               method: Sequence[Sequence] | None = None) -> None:
        """A vector answer, or a list of rows (several decoder steps).
        `whole` marks counts and positions, shown as integers with tolerance 0;
        `distractors` are (wrong exact vector, misconception) pairs; `method`
        holds worked-method vectors (same shape, Fractions) for the window
        (by default what the worked steps kept under `name`)."""
        numeric = np.asarray(numeric, dtype=np.float64)
        method = self.method.get(name, ()) if method is None else method

        def walk(ex, nu, ms, path):
            if isinstance(ex, (list, tuple)):
                parts = [walk(e, v, [m[i] for m in ms], f"{path}[{i + 1}]")
                         for i, (e, v) in enumerate(zip(ex, nu))]
                return tuple(list(p) for p in zip(*parts)) if parts else ([], [], [])
            agree(path, float(ex), float(nu))
            if whole:
                return float(ex), str(int(ex.rat)), 0.0
            shown = self.shown_answer(ex)
            return float(ex), shown.text, window(shown, ms)

        value, display, tol = walk(list(exact), numeric, list(method), name)
        wrong = [(_vector_text(self._texts(d)), m) for d, m in distractors
                 if not inside_key(_floats(d), display, tol)]
        options = self._options(_vector_text(display), wrong)
        self.answers.append(Answer(name, "vector", label, value, display, list(exact), tol, options))

    def _texts(self, xs: Sequence) -> list:
        """Display strings of a (possibly nested) list of exact values."""
        return [self._texts(x) if isinstance(x, (list, tuple)) else self.shown_answer(x).text for x in xs]

    @staticmethod
    def _options(key: str, wrong: Sequence[tuple[str, str]]) -> tuple[Option, ...]:
        """The key and the distractors that differ from it, and from each other,
        at the printed precision (the first of two equal ones is kept)."""
        if not wrong:
            return ()
        out = [Option(key, True, None)]
        seen = {key}
        for text, mis in wrong:
            if mis not in CATALOGUE:
                raise KeyError(f"misconception {mis!r} is not in the catalogue")
            if text not in seen:
                seen.add(text)
                out.append(Option(text, False, mis))
        return tuple(out)

    def choice(self, name: str, label: str, correct: Sequence[str],
               wrong: Sequence[tuple[str, str]], order_seed: int) -> tuple[Option, ...]:
        """Multiple choice (one or several correct), options in a per-variant order.
        Returns the options in the order shown; the answer's display is their letters."""
        options = [Option(t, True, None) for t in correct]
        options += [o for o in self._options("\0", wrong)[1:]]
        perm = np.random.default_rng(order_seed).permutation(len(options))
        shown = tuple(options[i] for i in perm)
        keys = [i for i, o in enumerate(shown) if o.correct]
        self.answers.append(Answer(
            name, "choice", label, keys, ", ".join(LETTERS[i] for i in keys),
            [o.text for o in shown if o.correct], None, shown))
        return shown

    def truefalse(self, name: str, label: str, truth: bool, misconception: str) -> None:
        if misconception not in CATALOGUE:
            raise KeyError(misconception)
        options = (Option("true", truth, None if truth else misconception),
                   Option("false", not truth, misconception if truth else None))
        self.answers.append(Answer(name, "truefalse", label, truth, "true" if truth else "false",
                                   truth, None, options))

    def matching(self, name: str, label: str, pairs: Sequence[tuple[str, str]]) -> None:
        """Each left item matched to its right item (value: the rights, in order)."""
        self.answers.append(Answer(
            name, "matching", label, [r for _, r in pairs], [f"{l} → {r}" for l, r in pairs],
            [list(p) for p in pairs], None,
            tuple(Option(f"{l} → {r}", True, None) for l, r in pairs)))

    def text(self, name: str, label: str, model_answer: str, prompt: Prose) -> None:
        """A model answer, marked by hand; `prompt` is the question's own
        paragraph that asks for it (no other sentence in it)."""
        self.answers.append(Answer(name, "text", label, model_answer, model_answer, model_answer, None,
                                   prompt=prompt))

    def check(self, name: str, passed: bool, line: Prose) -> None:
        if not passed:
            raise ProblemRejected(f"check {name!r} failed on this problem")
        self.checks.append(Check(name, True, line))


def input_node(f) -> Num | Frac:
    """An exact input as typed: a terminating decimal, or p/q as a fraction."""
    return _input_node(type(f), f)


@lru_cache(maxsize=4096)  # nodes are immutable: the same input is the same node
def _input_node(_type: type, f) -> Num | Frac:  # keyed by type too: 1 == 1.0 == Fraction(1)
    text = number_text(f)
    if "/" in text:
        p, q = text.split("/")
        return Frac(Num(p), Num(q))
    return Num(text)


def alpha(t: str | None, i: int) -> Sym:
    return Sym("alpha", f"{t}{i}" if t else str(i))


def shown_sum(nums: Sequence[Num]) -> Decimal:
    """The exact sum of the displayed strings (for the honest Verify line)."""
    total = Decimal(0)
    for n in nums:
        d = Decimal(n.mant)
        if n.exp10 is not None:
            d = d.scaleb(n.exp10)
        total += d
    return total


def draw_decimal(rng: np.random.Generator, lo: float, hi: float, places: int = 1) -> str:
    """A decimal string drawn uniformly on a grid of 10^-places in [lo, hi]."""
    scale = 10**places
    k = int(rng.integers(round(lo * scale), round(hi * scale) + 1))
    return number_text(Fraction(k, scale))
