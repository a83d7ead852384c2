"""Format-neutral mathematics: small frozen nodes that printers turn into
LaTeX (site) or Typst (print).  Numbers inside are display strings that the
solver already rounded; printers never compute.
"""

from __future__ import annotations

from dataclasses import dataclass


class Node:
    """Base class of every maths node (printers dispatch on the class name)."""

    __slots__ = ()


@dataclass(frozen=True)
class Sym(Node):
    """A named symbol: `base` is a plain name (alpha, beta, e, h, c, Z, H,
    T, Delta, ...), `sub` an optional subscript, `sup` an optional superscript."""

    base: str
    sub: str | None = None
    sup: str | None = None


class NumText(str):
    """A number as plain text (Num.text): put into a sentence, it takes the
    language's decimal mark (generator.text.number)."""

    __slots__ = ()


@dataclass(frozen=True)
class Num(Node):
    """A shown number: mantissa text and, in scientific form, a power of ten."""

    mant: str
    exp10: int | None = None

    @property
    def text(self) -> str:
        """Plain form, as students read and type it (0.7311, -1.5, 2.06 × 10⁻⁹)."""
        if self.exp10 is None:
            return NumText(self.mant)
        return NumText(f"{self.mant} × {power_of_ten(self.exp10)}")


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(exp: int) -> str:
    """10 to a power as plain text: 10⁻⁴ (readable where no markup is)."""
    return "10" + str(exp).translate(_SUPERSCRIPT)


@dataclass(frozen=True)
class Text(Node):
    """Words inside maths (escaped by each printer)."""

    text: str


@dataclass(frozen=True)
class Call(Node):
    """exp(x), ln(x), max(x) ..."""

    fn: str
    arg: Node


@dataclass(frozen=True)
class Frac(Node):
    num: Node
    den: Node


@dataclass(frozen=True)
class Add(Node):
    """A sum; a `Neg` term prints as subtraction."""

    terms: tuple[Node, ...]


@dataclass(frozen=True)
class Mul(Node):
    """A product; op is 'cdot', 'times' or 'juxt' (written side by side)."""

    factors: tuple[Node, ...]
    op: str = "cdot"


@dataclass(frozen=True)
class Neg(Node):
    arg: Node


@dataclass(frozen=True)
class Paren(Node):
    arg: Node


@dataclass(frozen=True)
class Pow(Node):
    base: Node
    exp: Node


@dataclass(frozen=True)
class Chain(Node):
    """first rel1 second rel2 third ... ; rel in = ≈ → ≤ < ∈ ≠ ≥ >."""

    first: Node
    rest: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class Vec(Node):
    """A state or context vector, printed [a, b]."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Tup(Node):
    """A tuple of weights, printed (a, b, c)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Seq(Node):
    """Several expressions separated by commas (a list of equalities)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Args(Node):
    """Function arguments: a plain comma-separated list."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class SumOver(Node):
    """Σ_index body."""

    index: str
    body: Node


@dataclass(frozen=True)
class Lim(Node):
    """lim_{var → to} body."""

    var: Node
    to: Node
    body: Node


@dataclass(frozen=True)
class Infinity(Node):
    sign: int = 1


def split_sign(term: Node) -> tuple[bool, Node]:
    """(negative?, body): printers show a negative term of a sum as subtraction."""
    if isinstance(term, Neg):
        return True, term.arg
    if isinstance(term, Num) and term.mant.startswith("-"):
        return True, Num(term.mant[1:], term.exp10)
    return False, term


def chain(first: Node, *pairs: tuple[str, Node]) -> Chain:
    return Chain(first, tuple(pairs))


def eq(*nodes: Node) -> Chain:
    """a = b = c ..."""
    return Chain(nodes[0], tuple(("=", n) for n in nodes[1:]))
