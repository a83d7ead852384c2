"""Plain text, where no maths can be typeset (the site's feedback messages,
the exam key's lines): a symbol with a subscript in Unicode, αₜ₁, cₜ, yₜ₋₁,
as the figures' legends write α₁; a subscript with a letter Unicode has no
small form for keeps its underscore (h_b stays h_b)."""

from __future__ import annotations

from ..mathlines import Node, Sym
from ..text import Sayer
from ..model import Prose, prose

_SMALL = str.maketrans("0123456789−-aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₋₋ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
GREEK = {"alpha": "α", "beta": "β", "Delta": "Δ", "sigma": "σ"}  # a symbol's name → its letter


def _symbol(s: Sym) -> str:
    base = GREEK.get(s.base, s.base)
    if s.sub is None:
        return base
    small = s.sub.translate(_SMALL)
    return base + (small if all(ord(c) > 0x7E for c in small) else "_" + s.sub)


def text(p: Prose) -> str:
    """A prose's words and symbols (labels hold no other maths)."""
    return "".join(_symbol(seg) if isinstance(seg, Node) else seg for seg in p)


def label(words: str) -> str:
    """An answer's label or a matching item as plain text: "context vector cₜ"."""
    return text(prose(words)) if words else words


def _spoken_symbol(s: Sym) -> str:
    """A symbol as a screen reader should say it: "c sub t", "α sub t1",
    "y sub t minus 1" (a subscript letter such as ₜ is read as nothing, or as
    an unknown character, by some readers)."""
    say = Sayer("ui").text
    out = GREEK.get(s.base, s.base)
    if s.sup == "'":
        out = say("spoken.prime", symbol=out)
    if s.sub is not None:
        minus = say("spoken.minus")
        out = say("spoken.sub", symbol=out, sub=s.sub.replace("−", f" {minus} ").replace("-", f" {minus} ")
                  .replace("  ", " "))
    return out


def spoken_node(node: Node) -> str:
    """One maths node of a label as words to be spoken."""
    return _spoken_symbol(node) if isinstance(node, Sym) else text((node,))

