"""The LaTeX printer for maths nodes (the site's MathJax reads it).

Built like sympy's own printers: one `_print_<Class>` method per node, and
sympy expressions (limits, exact values) fall through to sympy's
LatexPrinter.  Words inside maths are escaped here.
"""

from __future__ import annotations

from sympy.printing.latex import LatexPrinter

from .. import mathlines as M

GREEK = {
    "alpha": r"\alpha", "beta": r"\beta", "Delta": r"\Delta", "sigma": r"\sigma",
}
RELATIONS = {"=": "=", "≈": r"\approx", "→": r"\to", "≤": r"\le", "<": "<",
             "≥": r"\ge", ">": ">", "∈": r"\in", "≠": r"\ne"}
_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
    "#": r"\#", "%": r"\%", "_": r"\_", "^": r"\^{}", "~": r"\~{}",
}


def escape_text(s: str) -> str:
    """Escape words for \\text{...} inside MathJax/LaTeX maths."""
    return "".join(_TEXT_ESCAPES.get(ch, ch) for ch in s)


class MathLatexPrinter(LatexPrinter):
    printmethod = "_latex_node"

    def _print_Sym(self, s: M.Sym) -> str:
        base = GREEK.get(s.base, s.base)
        out = base
        if s.sub is not None:
            out += "_{" + s.sub + "}"
        if s.sup is not None:
            out += "^{" + s.sup + "}"
        return out

    def _print_Num(self, n: M.Num) -> str:
        if n.exp10 is None:
            return n.mant
        return f"{n.mant} \\times 10^{{{n.exp10}}}"

    def _print_Text(self, t: M.Text) -> str:
        return r"\text{" + escape_text(t.text) + "}"

    def _print_Call(self, c: M.Call) -> str:
        fn = {"exp": r"\exp", "ln": r"\ln", "max": r"\max"}.get(c.fn, c.fn if len(c.fn) == 1 else r"\operatorname{%s}" % c.fn)
        return f"{fn}({self._print(c.arg)})"

    def _print_Frac(self, f: M.Frac) -> str:
        return r"\frac{%s}{%s}" % (self._print(f.num), self._print(f.den))

    def _print_Add(self, a) -> str:
        if not isinstance(a, M.Add):
            return super()._print_Add(a)
        out = ""
        for i, term in enumerate(a.terms):
            neg, body = M.split_sign(term)
            text = self._print(body)
            if i == 0:
                out = ("-" if neg else "") + text
            else:
                out += (" - " if neg else " + ") + text
        return out

    def _print_Mul(self, m) -> str:
        if not isinstance(m, M.Mul):
            return super()._print_Mul(m)
        sep = {"cdot": r" \cdot ", "times": r" \times ", "juxt": r"\,"}[m.op]
        return sep.join(self._print(f) for f in m.factors)

    def _print_Neg(self, n: M.Neg) -> str:
        return "-" + self._print(n.arg)

    def _print_Paren(self, p: M.Paren) -> str:
        return r"\left(" + self._print(p.arg) + r"\right)"

    def _print_Pow(self, p) -> str:
        if not isinstance(p, M.Pow):
            return super()._print_Pow(p)
        return "{%s}^{%s}" % (self._print(p.base), self._print(p.exp))

    def _print_Chain(self, c: M.Chain) -> str:
        out = self._print(c.first)
        for rel, node in c.rest:
            out += f" {RELATIONS[rel]} {self._print(node)}"
        return out

    def _print_Vec(self, v: M.Vec) -> str:
        return r"\left[" + ", ".join(self._print(x) for x in v.items) + r"\right]"

    def _print_Tup(self, v: M.Tup) -> str:
        return r"\left(" + ", ".join(self._print(x) for x in v.items) + r"\right)"

    def _print_Seq(self, s: M.Seq) -> str:
        return r",\quad ".join(self._print(x) for x in s.items)

    def _print_Args(self, s: M.Args) -> str:
        return ", ".join(self._print(x) for x in s.items)

    def _print_SumOver(self, s: M.SumOver) -> str:
        return r"\sum_{%s} %s" % (s.index, self._print(s.body))

    def _print_Lim(self, lim: M.Lim) -> str:
        return r"\lim_{%s \to %s} %s" % (self._print(lim.var), self._print(lim.to), self._print(lim.body))

    def _print_Infinity(self, i: M.Infinity) -> str:
        return ("-" if i.sign < 0 else "+") + r"\infty"



_PRINTER = MathLatexPrinter()


def latex(node) -> str:
    """LaTeX source of a maths node (or a sympy expression)."""
    return _PRINTER.doprint(node)
