"""The LaTeX printer for maths nodes (the site's MathJax reads it).

Built like sympy's own printers: one `_print_<Class>` method per node; any
other object (a sympy expression) falls through to sympy's LatexPrinter,
imported only then.  Words inside maths are escaped here.
"""

from __future__ import annotations

from .. import mathlines as M
from ..text import NOW
from .printer import NodePrinter

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


class MathLatexPrinter(NodePrinter):
    def fallback(self, expr) -> str:
        return _sympy_latex(expr)

    def _print_Sym(self, s: M.Sym) -> str:
        base = GREEK.get(s.base, s.base)
        out = base
        if s.sup == "'":  # a prime as TeX writes it (^{'} would be a prime raised twice, half its size)
            out += "'"
        if s.sub is not None:
            out += "_{" + s.sub + "}"
        if s.sup is not None and s.sup != "'":
            out += "^{" + s.sup + "}"
        return out

    def _print_Num(self, n: M.Num) -> str:
        mark = NOW.mark  # the language's (a module attribute: asked at every number)
        mant = n.mant if mark == "." else n.mant.replace(".", "{,}")
        if n.exp10 is None:
            return mant
        return f"{mant} \\times 10^{{{n.exp10}}}"

    def _print_Text(self, t: M.Text) -> str:
        return r"\text{" + escape_text(t.text) + "}"

    def _print_Call(self, c: M.Call) -> str:
        fn = {"exp": r"\exp", "ln": r"\ln", "max": r"\max"}.get(c.fn, c.fn if len(c.fn) == 1 else r"\operatorname{%s}" % c.fn)
        return f"{fn}({self._print(c.arg)})"

    def _print_Frac(self, f: M.Frac) -> str:
        return r"\frac{%s}{%s}" % (self._print(f.num), self._print(f.den))

    def _print_Add(self, a: M.Add) -> str:
        out = ""
        for i, term in enumerate(a.terms):
            neg, body = M.split_sign(term)
            text = self._print(body)
            if i == 0:
                out = ("-" if neg else "") + text
            else:
                out += (" - " if neg else " + ") + text
        return out

    def _print_Mul(self, m: M.Mul) -> str:
        sep = {"cdot": r" \cdot ", "times": r" \times ", "juxt": r"\,"}[m.op]
        return sep.join(self._print(f) for f in m.factors)

    def _print_Neg(self, n: M.Neg) -> str:
        return "-" + self._print(n.arg)

    def _print_Paren(self, p: M.Paren) -> str:
        return r"\left(" + self._print(p.arg) + r"\right)"

    def _print_Pow(self, p: M.Pow) -> str:
        return "{%s}^{%s}" % (self._print(p.base), self._print(p.exp))

    def _print_Chain(self, c: M.Chain) -> str:
        out = self._print(c.first)
        for rel, node in c.rest:
            out += f" {RELATIONS[rel]} {self._print(node)}"
        return out

    def _print_Vec(self, v: M.Vec) -> str:
        return r"\left[" + f"{self.sep} ".join(self._print(x) for x in v.items) + r"\right]"

    def _print_Tup(self, v: M.Tup) -> str:
        return r"\left(" + f"{self.sep} ".join(self._print(x) for x in v.items) + r"\right)"

    def _print_Seq(self, s: M.Seq) -> str:
        return f"{self.sep}\\quad ".join(self._print(x) for x in s.items)

    def _print_Args(self, s: M.Args) -> str:
        return f"{self.sep} ".join(self._print(x) for x in s.items)

    def _print_SumOver(self, s: M.SumOver) -> str:
        return r"\sum_{%s} %s" % (s.index, self._print(s.body))

    def _print_Lim(self, lim: M.Lim) -> str:
        return r"\lim_{%s \to %s} %s" % (self._print(lim.var), self._print(lim.to), self._print(lim.body))

    def _print_Infinity(self, i: M.Infinity) -> str:
        return ("-" if i.sign < 0 else "+") + r"\infty"



def _sympy_latex(expr) -> str:
    from sympy.printing.latex import LatexPrinter

    return LatexPrinter().doprint(expr)


_PRINTER = MathLatexPrinter()


def latex(node) -> str:
    """LaTeX source of a maths node (or a sympy expression)."""
    return _PRINTER.doprint(node)


# -- long lines --------------------------------------------------------------
#
# MathJax 3 does not break lines, so a long formula would run off a phone's
# screen.  The printer breaks it itself: a display formula wider than
# BUDGET becomes an `aligned` block — a list of equalities one item per line,
# a chain one relation per line, a long sum, tuple or vector wrapped between
# its terms — and an inline formula becomes pieces the page may wrap between.
# Widths are estimated in digit widths (half an em); BUDGET is what a 390 px
# phone shows inside a solution box.

BUDGET = 28
_REL_W, _OP_W, _COMMA_W, _QUAD_W = 2.7, 2.4, 1.2, 2


_WIDTHS: dict[int, tuple[object, float]] = {}  # id → (node, width): the entry keeps its node alive


def width(node) -> float:
    """Estimated printed width of a maths node, in digit widths (memoised:
    breaking a long line asks for the widths of the same parts many times;
    a number or a symbol costs less to measure than to look up)."""
    t = type(node)
    if t is M.Num:
        # a minus sign is as wide as a plus, not as a digit
        mant = node.mant
        return len(mant) + 0.6 * mant.startswith("-") + (5 + 0.7 * len(str(node.exp10)) if node.exp10 is not None else 0)
    if t is M.Sym:
        base = node.base
        return (2 if len(base) == 1 or base in GREEK else 1.1 * len(base)) \
            + 0.7 * (len(node.sub or "") + len(node.sup or ""))
    hit = _WIDTHS.get(id(node))
    if hit is not None:
        return hit[1]
    if len(_WIDTHS) > 4096:
        _WIDTHS.clear()
    f = _WIDTH_OF.get(t)
    got = f(node) if f is not None else 0.8 * len(str(node))  # a sympy expression
    _WIDTHS[id(node)] = (node, got)
    return got


def _add_width(node) -> float:
    terms = node.terms
    return sum(width(M.split_sign(t)[1]) for t in terms) + _OP_W * (len(terms) - 1) + \
        (1.5 if M.split_sign(terms[0])[0] else 0)


def _items_width(node) -> float:
    return 1.6 + sum(map(width, node.items)) + _COMMA_W * (len(node.items) - 1)


def _chain_width(n) -> float:
    return width(n.first) + sum(_REL_W + width(x) for _, x in n.rest)


_WIDTH_OF = {  # numbers and symbols: in `width`
    M.Text: lambda n: 0.9 * len(n.text),
    M.Call: lambda n: 1.3 * len(n.fn) + 2 + width(n.arg),
    M.Frac: lambda n: max(width(n.num), width(n.den)) + 0.6,
    M.Add: _add_width,
    M.Mul: lambda n: sum(map(width, n.factors)) + (0.4 if n.op == "juxt" else _OP_W) * (len(n.factors) - 1),
    M.Neg: lambda n: 1.5 + width(n.arg),
    M.Paren: lambda n: 1.6 + width(n.arg),
    M.Pow: lambda n: width(n.base) + 0.7 * width(n.exp),
    M.Chain: _chain_width,
    M.Vec: _items_width,
    M.Tup: _items_width,
    M.Seq: lambda n: sum(map(width, n.items)) + 3.2 * (len(n.items) - 1),
    M.Args: lambda n: sum(map(width, n.items)) + _COMMA_W * (len(n.items) - 1),
    M.SumOver: lambda n: 2.5 + width(n.body),
    M.Lim: lambda n: 3 + width(n.body),
    M.Infinity: lambda n: 3,
}


def _breakable(node):
    """(opening, [(item, width)], closing, is_sum) for a node that may wrap
    between its items, else None."""
    p = _PRINTER._print
    if isinstance(node, M.Add) and len(node.terms) > 1:
        items = []
        for i, t in enumerate(node.terms):
            neg, body = M.split_sign(t)
            sign = ("-" if neg else "") if i == 0 else ("- " if neg else "+ ")
            items.append((sign + p(body), width(body) + (_OP_W if i else 1.5 * neg)))
        return "", items, "", True
    if isinstance(node, M.Paren) and isinstance(node.arg, M.Add):
        inner = _breakable(node.arg)
        return None if inner is None else (r"\left(", inner[1], r"\right)", True)
    if isinstance(node, M.Neg) and isinstance(node.arg, M.Paren) and isinstance(node.arg.arg, M.Add):
        inner = _breakable(node.arg.arg)
        return None if inner is None else (r"-\left(", inner[1], r"\right)", True)
    if isinstance(node, (M.Vec, M.Tup)) and len(node.items) > 1:
        brackets = (r"\left[", r"\right]") if isinstance(node, M.Vec) else (r"\left(", r"\right)")
        sep = _PRINTER.sep
        items = [(p(x) + (sep if i < len(node.items) - 1 else ""), width(x) + _COMMA_W)
                 for i, x in enumerate(node.items)]
        return brackets[0], items, brackets[1], False
    return None


def _wrap(node, first: float, rest: float, budget: float) -> tuple[list[str], float]:
    """Rows of `node`, and the width the last row reaches: the first row has
    `first` widths used before it, later rows `rest`.  A node that cannot
    wrap is one row, however wide."""
    w = width(node)
    parts = _breakable(node) if first + w > budget else None
    if parts is None:
        return [_PRINTER._print(node)], first + w
    opening, items, closing, is_sum = parts
    rows, cur, used = [], [], first + 1.6 * bool(opening)
    for text, w in items:
        if cur and used + w > budget:
            rows.append(" ".join(cur))
            cur, used = [], rest + 2 * bool(opening)
        cur.append(text)
        used += w
    rows.append(" ".join(cur))
    if opening:  # \left( … \right. on each row but the last, \left. … on each but the first
        rows = [(opening if i == 0 else r"\left.") + " " + r + " " + (closing if i == len(rows) - 1 else r"\right.")
                for i, r in enumerate(rows)]
    if is_sum:  # an empty group keeps a leading + a binary operator
        rows = rows[:1] + ["{} " + r if r.startswith(("+", "-")) else r for r in rows[1:]]
    return rows, used


def _first_piece(node) -> float:
    """The width of the narrowest first row `node` can start (a sum or a list
    wraps after its first item; anything else is one row)."""
    parts = _breakable(node)
    return width(node) if parts is None else parts[1][0][1] + 1.6 * bool(parts[0])


def _chain_rows(node, budget: float, indent: float, column: float | None = None) -> list[tuple[str, str]]:
    """(left, right) cells of an aligned block: the left cell holds what
    stands before the first relation, each later row starts at a relation.
    `column` is the width of the block's left column (the widest left side
    of a list of chains: every row's right cell starts after it); None puts
    the left side on a row of its own and each relation on a row below it,
    a quad in (a left side and its first right side too wide for one row)."""
    if not isinstance(node, M.Chain):
        return [("", r) for r in _wrap(node, 0, indent, budget)[0]]
    if width(node.first) > budget / 2 and _breakable(node.first) is not None:
        return _rows_wrapped_left(node, budget, indent)
    if column is None:
        return _rows_left_alone(node, budget, indent)
    return _rows_in_columns(node, budget, indent, column)


def _rows_wrapped_left(node, budget: float, indent: float) -> list[tuple[str, str]]:
    """A long left side (a sum of many weights) wraps too; everything then
    starts in the right-hand column."""
    wrapped, _ = _wrap(node.first, 0, indent, budget)
    rows = [("", r if i == 0 else r"\quad " + r) for i, r in enumerate(wrapped[:-1])]
    lw = indent
    last = wrapped[-1] if len(wrapped) == 1 else r"\quad " + wrapped[-1]
    rows.append(("", last))
    for rel, n in node.rest:
        pieces, _ = _wrap(n, lw + _REL_W, lw + indent, budget)
        rows += [("", f" {RELATIONS[rel]} {pieces[0]}")] + [("", r"\quad " + x) for x in pieces[1:]]
    return rows


def _rows_left_alone(node, budget: float, indent: float) -> list[tuple[str, str]]:
    """The left side alone, then the relations a quad in."""
    rows, start = [("", _PRINTER._print(node.first))], _QUAD_W
    cur, used = "", start
    for rel, n in node.rest:
        if cur and used + _REL_W + width(n) > budget:
            rows.append(("", r"\quad" + cur))
            cur, used = "", start
        pieces, used = _wrap(n, used + _REL_W, start + indent, budget)
        cur += f" {RELATIONS[rel]} {pieces[0]}"
        for extra in pieces[1:]:
            rows.append(("", r"\quad" + cur))
            cur = r" \quad " + extra
    rows.append(("", r"\quad" + cur))
    return rows


def _rows_in_columns(node, budget: float, indent: float, column: float) -> list[tuple[str, str]]:
    """The left side in the left column, the relations in the right one."""
    left, rows = _PRINTER._print(node.first), []
    lw = max(width(node.first), column)
    cur, used = "", lw
    for rel, n in node.rest:
        piece_w = _REL_W + width(n)
        if cur and used + piece_w > budget:
            rows.append((left if not rows else "", cur))
            cur, used = "", lw
        pieces, used = _wrap(n, used + _REL_W, lw + indent, budget)
        cur += f" {RELATIONS[rel]} {pieces[0]}"
        for extra in pieces[1:]:
            rows.append((left if not rows else "", cur))
            cur = r"\quad " + extra
    rows.append((left if not rows else "", cur))
    return rows


def latex_display(node, budget: float | None = None) -> str:
    """LaTeX of a display formula: as `latex` when it fits the budget, else an
    `aligned` block with one item, relation or group of terms per line.  The
    block's left column is as wide as its widest left side; where that and a
    first right side do not fit one row, every left side stands on a row of
    its own (0.4345 · ln(0.4345), then = 0.4345 · (−0.8336) below it)."""
    budget = BUDGET if budget is None else budget
    if width(node) <= budget:
        return latex(node)
    items = node.items if isinstance(node, M.Seq) else (node,)
    chains = [i for i in items if isinstance(i, M.Chain) and not
              (width(i.first) > budget / 2 and _breakable(i.first) is not None)]
    column: float | None = max((width(c.first) for c in chains), default=0.0)
    if any(column + _REL_W + _first_piece(c.rest[0][1]) > budget for c in chains):
        column = None
    rows: list[tuple[str, str]] = []
    for i, item in enumerate(items):
        item_rows = _chain_rows(item, budget, 2, column)
        if i < len(items) - 1:
            l, r = item_rows[-1]
            item_rows[-1] = (l, r + _PRINTER.sep)
        rows += item_rows
    if len(rows) == 1 and not rows[0][0]:
        return rows[0][1]
    # air between rows: stacked fractions would touch
    gap = r" \\[6pt] " if any(r"\frac" in l + r for l, r in rows) else r" \\[2pt] "
    return r"\begin{aligned}" + gap.join(f"{l} &{r}".strip() for l, r in rows) + r"\end{aligned}"


def joined_pieces(pieces: list[str], maths) -> str:
    """The pieces of an inline formula (latex_pieces) as text, each through
    `maths`: the items of a list apart by an en space; the pieces of one cut
    formula (they begin with "{}", so their + or = keeps TeX's spacing) by a
    zero-width space, a place to break that shows no gap of its own."""
    out = maths(pieces[0])
    for piece in pieces[1:]:
        out += ("\u200b" if piece.startswith("{}") else "\u2002") + maths(piece)
    return out


def latex_pieces(node, budget: float | None = None) -> list[str]:
    """LaTeX of an inline formula as pieces a line may break between: the
    items of a list, and a formula wider than the budget cut before its
    relations (and between the terms of a long sum)."""
    budget = BUDGET if budget is None else budget
    items = node.items if isinstance(node, M.Seq) else (node,)
    out = []
    for i, item in enumerate(items):
        if width(item) <= budget:
            pieces = [latex(item)]
        else:
            pieces = []
            for left, right in _chain_rows(item, budget, 0, 0.0):
                right = right.removeprefix(r"\quad ")
                pieces.append(f"{left}{right}".strip() if left else "{}" + right if right.startswith(" ") else right)
        if i < len(items) - 1:
            pieces[-1] += _PRINTER.sep
        out += pieces
    return out
