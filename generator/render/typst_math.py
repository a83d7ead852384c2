"""The Typst printer for maths nodes: one `_print_<Class>` method per node,
dispatched on the node's class as the LaTeX printer does.  Words inside
maths are string literals, escaped here."""

from __future__ import annotations

import re

from .. import mathlines as M
from .latex import width
from ..text import NOW
from .printer import NodePrinter

RELATIONS = {"=": "=", "≈": "approx", "→": "->", "≤": "<=", "<": "<", "≥": ">=", ">": ">", "∈": "in",
             "≠": "!="}
NAMES = {"alpha": "alpha", "beta": "beta", "Delta": "Delta", "sigma": "sigma"}
FUNCTIONS = {"exp": "exp", "ln": "ln", "max": "max"}
_TOKENS = re.compile(r"\d+|[A-Za-z]|\\cdot|\\Delta|.")


def typst_string(text: str) -> str:
    """A Typst string literal: shows any text as itself, never as code."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _script(text: str) -> str:
    """Sub/superscript contents: single letters and digit runs as separate atoms
    (Typst reads "ti" as one unknown identifier)."""
    out = []
    for tok in _TOKENS.findall(text):
        if tok == "\\cdot":
            out.append("dot")
        elif tok == "\\Delta":
            out.append("Delta")
        elif tok == "'":
            out.append("prime")
        else:
            out.append(tok)
    return " ".join(out)


class TypstMathPrinter(NodePrinter):
    """Anything not a maths node (a sympy object) has no Typst form: NodePrinter.fallback raises."""

    def _print_Sym(self, s: M.Sym) -> str:
        out = NAMES.get(s.base, s.base if len(s.base) == 1 else typst_string(s.base))
        if s.sup == "'":  # before the subscript: after it, Typst would prime the subscript "(t1)"
            out += "'"
        if s.sub is not None:
            out += f"_({_script(s.sub)})"
        if s.sup is not None and s.sup != "'":
            out += f"^({_script(s.sup)})"
        return out

    def _print_Num(self, n: M.Num) -> str:
        mant = n.mant if not n.mant.startswith("-") else "-" + n.mant[1:]
        if NOW.mark != ".":  # in maths a comma is punctuation: quoted, it is the decimal mark
            mant = mant.replace(".", f'"{NOW.mark}"')
        if n.exp10 is None:
            return mant
        return f"{mant} times 10^({n.exp10})"

    def _print_Text(self, t: M.Text) -> str:
        return typst_string(t.text)

    def _print_Call(self, c: M.Call) -> str:
        fn = FUNCTIONS.get(c.fn, f"op({typst_string(c.fn)})")
        return f"{fn}({self._print(c.arg)})"

    def _print_Frac(self, f: M.Frac) -> str:
        return f"({self._print(f.num)})/({self._print(f.den)})"

    def _print_Add(self, a: M.Add) -> str:
        out = ""
        for i, term in enumerate(a.terms):
            neg, body = M.split_sign(term)
            text = self._print(body)
            out = (("-" if neg else "") + text) if i == 0 else out + (" - " if neg else " + ") + text
        return out

    def _print_Mul(self, m: M.Mul) -> str:
        sep = {"cdot": " dot.op ", "times": " times ", "juxt": " "}[m.op]
        return sep.join(self._print(f) for f in m.factors)

    def _print_Neg(self, n: M.Neg) -> str:
        return "-" + self._print(n.arg)

    def _print_Paren(self, p: M.Paren) -> str:
        return f"lr(( {self._print(p.arg)} ))"

    def _print_Pow(self, p: M.Pow) -> str:
        return f"({self._print(p.base)})^({self._print(p.exp)})"

    def _print_Chain(self, c: M.Chain) -> str:
        out = self._print(c.first)
        for rel, node in c.rest:
            out += f" {RELATIONS[rel]} {self._print(node)}"
        return out

    def _print_Vec(self, v: M.Vec) -> str:
        return "lr([ " + f"{self.sep} ".join(self._print(x) for x in v.items) + " ])"

    def _print_Tup(self, v: M.Tup) -> str:
        return "lr(( " + f"{self.sep} ".join(self._print(x) for x in v.items) + " ))"

    def _print_Seq(self, s: M.Seq) -> str:
        return f"{self.sep} quad ".join(self._print(x) for x in s.items)

    def _print_Args(self, s: M.Args) -> str:
        return f"{self.sep} ".join(self._print(x) for x in s.items)

    def _print_SumOver(self, s: M.SumOver) -> str:
        return f"sum_({_script(s.index)}) {self._print(s.body)}"

    def _print_Lim(self, lim: M.Lim) -> str:
        return f"lim_({self._print(lim.var)} -> {self._print(lim.to)}) {self._print(lim.body)}"

    def _print_Infinity(self, i: M.Infinity) -> str:
        return ("-" if i.sign < 0 else "+") + "infinity"


_PRINTER = TypstMathPrinter()


def typst_math(node) -> str:
    return _PRINTER.doprint(node)


# A display formula wider than the PDF's column ran off both sides of the page
# (Typst does not break a block equation).  DISPLAY_BUDGET is what one line of
# a worked solution surely holds, in latex.width's digit widths: over the 1,264
# display formulas of every kind's seeds 0-11, Typst set a digit width in
# 4.05-5.37 pt against a 473.5 pt column (A4; letter is wider), and none
# estimated within 95 overflowed.  A wider formula that is a list of items
# each within it is cut into rows between its items, as even as they go (one
# block equation, lines broken with \); any other becomes a centred
# paragraph in display style that Typst's line breaker wraps, after a
# relation or operator (a paragraph costs about 2 ms to lay out, rows none).
DISPLAY_BUDGET = 95
_SEP = 3.2  # latex.width of ", quad"
_APART = "#h(0.7em, weak: true) "  # between boxed items (after the list separator): about a quad, gone at a line break
INLINE_ITEM = 40  # latex.width of the longest list item kept whole in running text


def typst_inline(node) -> str:
    """Inline maths.  A list's items are kept whole, each in a box, and the
    line may break between them: Typst breaks an inline formula after any
    relation, which left "e₃₄ =" at the end of a line and "−0.6" at the
    start of the next."""
    if not isinstance(node, M.Seq) or any(width(item) > INLINE_ITEM for item in node.items):
        return f"${typst_math(node)}$"
    return (_markup_sep() + _APART).join(f"#box(${typst_math(item)}$)" for item in node.items)


def typst_display(node) -> str:
    """A display formula as Typst markup: `$ … $`, rows of a list, or a
    paragraph that wraps."""
    if width(node) <= DISPLAY_BUDGET:
        return f"$ {typst_math(node)} $"
    items = node.items if isinstance(node, M.Seq) else (node,)
    rows = _rows([width(item) for item in items]) if len(items) > 1 else None
    if rows is not None:
        printed = [typst_math(item) for item in items]
        sep = _PRINTER.sep
        return "$ " + f"{sep} \\\n".join(f"{sep} quad ".join(printed[i:j]) for i, j in rows) + " $"
    parts = []
    for item in items:
        equation = f"math.equation(block: false, math.display(${typst_math(item)}$.body))"
        parts.append(f"#box({equation})" if width(item) <= DISPLAY_BUDGET else f"#{equation}")
    # air between rows of stacked fractions, and above and below them
    leading, inset = ("2.3em", "0.35em") if any("/" in part for part in parts) else ("1em", "0em")
    return (f"#align(center, block(inset: (y: {inset}))[#set par(leading: {leading})\n"
            + (_markup_sep() + _APART).join(parts) + "])")


def _markup_sep() -> str:
    """The list separator in markup, after a `#box(…)`: Typst takes a `;`
    there as the end of the code expression and drops it (German lists lost
    every separator), so it is escaped."""
    sep = _PRINTER.sep
    return "\\;" if sep == ";" else sep


def _rows(widths: list[float]) -> list[tuple[int, int]] | None:
    """The fewest rows (start, end) the items fit in, each within
    DISPLAY_BUDGET, the widest as narrow as it can be; None if an item alone
    is too wide."""
    n = len(widths)

    def span(i, j):
        return sum(widths[i:j]) + _SEP * (j - i - 1)

    if max(widths) > DISPLAY_BUDGET:
        return None
    for k in range(2, n + 1):
        # best[(j, r)]: (widest row, cuts) for the first j items in r rows
        best = {(0, 0): (0.0, [])}
        for r in range(1, k + 1):
            for j in range(r, n + 1):
                options = [(max(best[(i, r - 1)][0], span(i, j)), best[(i, r - 1)][1] + [(i, j)])
                           for i in range(j - 1, r - 2, -1) if (i, r - 1) in best]  # longer rows first
                if options:
                    best[(j, r)] = min(options, key=lambda o: o[0])
        widest, cuts = best[(n, k)]
        if widest <= DISPLAY_BUDGET:
            return cuts
    return None
