"""Exact-string tests of the printers, escaping and rounding (STYLE.md layer 1)."""

import re
from fractions import Fraction

import pytest
import sympy as sp

from generator import kinds
from generator import mathlines as M
from generator.maths import exact
from generator.maths.exact import ExactReal
from generator.maths.rounding import format_fraction
from generator.render.latex import escape_text, latex
from generator.render.markdown import escape_md, inline
from linecheck import paragraphs


@pytest.mark.parametrize("node, want", [
    (M.eq(M.Sym("alpha", "21"), M.Frac(M.Num("1.350"), M.Num("11.165")), M.Num("0.121")),
     r"\alpha_{21} = \frac{1.350}{11.165} = 0.121"),
    (M.Add((M.Num("-2"), M.Num("1"), M.Num("-0.5"))), "-2 + 1 - 0.5"),
    (M.Num("2.06", -9), r"2.06 \times 10^{-9}"),
    (M.Call("exp", M.Num("0.3")), r"\exp(0.3)"),
    (M.Mul((M.Num("0.1"), M.Paren(M.Num("-2.3026")))), r"0.1 \cdot \left(-2.3026\right)"),
    (M.Vec((M.Num("0.7"), M.Num("2"))), r"\left[0.7, 2\right]"),
    (M.Chain(M.Num("0"), (("≤", M.Sym("H")), ("≈", M.Num("1")))), r"0 \le H \approx 1"),
    (M.Lim(M.Sym("beta"), M.Infinity(), M.Sym("alpha")), r"\lim_{\beta \to +\infty} \alpha"),
    (M.Text("a_b & #1"), r"\text{a\_b \& \#1}"),
    (M.SumOver("j", M.Sym("e", "tj")), r"\sum_{j} e_{tj}"),
])
def test_latex_printer(node, want):
    assert latex(node) == want


def test_latex_printer_falls_back_to_sympy():
    assert latex(sp.exp(sp.Rational(3, 10))) == r"e^{\frac{3}{10}}"


@pytest.mark.parametrize("text, want", [
    ("a*b_c", r"a\*b\_c"),
    ("<script>&", "&lt;script&gt;&amp;"),
    ("$5 [x](y) |", r"\$5 \[x\](y) \|"),
    ("plain (words), fine!", "plain (words), fine!"),
])
def test_escape_md(text, want):
    assert escape_md(text) == want


@pytest.mark.parametrize("text, want", [("# title", r"\# title"), ("1. item", r"1\. item"),
                                        ("- item", r"\- item"), ("> quote", "&gt; quote")])
def test_escape_md_block_markers(text, want):
    assert escape_md(text, block_start=True) == want
    assert inline((text,)) == want


def test_escape_latex_text():
    assert escape_text(r"\input{x}$") == r"\textbackslash{}input\{x\}\$"


@pytest.mark.parametrize("value, digits, want", [
    (Fraction(1, 4), 4, "0.2500"),
    (Fraction(1, 8), 2, "0.13"),  # ties round away from zero
    (Fraction(-1, 8), 2, "-0.13"),
    (Fraction(0), 3, "0.000"),
    (Fraction(7, 2), 0, "4"),
    (Fraction(1, 10**5), 4, "1.00 × 10⁻⁵"),
    (Fraction(9995, 10**7), 3, "1.00 × 10⁻³"),  # 9.995e-4 rounds up to the next decade
    (Fraction(123456789), 4, "1.23 × 10⁸"),
])
def test_format_fraction(value, digits, want):
    assert format_fraction(value, digits).text == want


def test_shown_matches_sympy_at_high_precision():
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    for p, q in [(3, 10), (21, 10), (-7, 3), (1, 7), (1000, 1), (-1000, 1), (-40, 1)]:
        x = exact.exp(ExactReal.of(Fraction(p, q))) / (1 + exact.exp(ExactReal.of(Fraction(q, 7))))
        ref = Decimal(str(sp.N(x.sympy(), 80)))
        for digits in (1, 4, 9):
            got = exact.shown(x, digits)
            with localcontext() as ctx:
                ctx.prec = 100
                if got.exp10 is None:
                    want = ref.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
                    assert got.mant == str(want)
                else:
                    mant = (ref.scaleb(-got.exp10)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
                    assert got.mant == str(mant)


def test_rational_tie_decided_exactly():
    # exp(s)/(4 exp(s)) is exactly 1/4, a tie at one place: no interval can
    # decide it, so sympy does — and the tie rounds away from zero
    s = exact.exp(ExactReal.of(Fraction(17, 10)))
    quarter = s / (s + s + s + s)
    assert exact.shown(quarter, 1).text == "0.3"
    assert exact.shown(ExactReal.of(Fraction(1, 4)), 1).text == "0.3"


def test_a_cut_formula_shows_no_gap_where_it_may_break():
    """A formula too wide for a phone is cut into pieces a line may break
    between: the pieces of one formula are joined by a zero-width space (the
    + or = that begins a piece keeps TeX's spacing, so no gap shows on one
    line), the items of a list by an en space."""
    from generator.pipeline import sample_problem, solve_problem
    from generator.render.latex import joined_pieces
    from generator.render.markdown import render_problem

    assert joined_pieces(["a + b", "{} = c"], lambda p: f"${p}$") == "$a + b$\u200b${} = c$"
    assert joined_pieces(["e_1 = 1,", "e_2 = 2"], lambda p: f"${p}$") == "$e_1 = 1,$\u2002$e_2 = 2$"
    page = render_problem(solve_problem(sample_problem("B", 2)))
    assert "$\u200b${} + 0.1667" in page and "$\u200b${} = 1.0002$" in page
    assert "\u2002${}" not in page


_UNICODE_SUBSCRIPT = re.compile("[\u2080-\u209c\u1d62-\u1d6a]")


@pytest.mark.parametrize("kind", [k.id for k in kinds.all_kinds()])
def test_symbols_in_the_text_are_maths_not_unicode_subscripts(kind):
    """A symbol in a sentence or a choice (s_{t-1}, α_ti) is written as maths,
    so the PDF, the page and Moodle set it as their equations do; a Unicode
    subscript (sₜ₋₁) printed upright, its subscript from a fallback font."""
    from generator.pipeline import sample_problem, solve_problem

    for seed in range(1, 21):
        sol = solve_problem(sample_problem(kind, seed))
        for p in paragraphs(sol):
            words = "".join(seg for seg in p if isinstance(seg, str))
            assert not _UNICODE_SUBSCRIPT.search(words), (kind, seed, words)
        for a in sol.answers:
            if a.type == "choice":
                assert not any(_UNICODE_SUBSCRIPT.search(o.text) for o in a.options), (kind, seed, a.options)


def test_a_mistake_reads_as_plain_text():
    """The catalogue's sentences go where no maths is set (Moodle's option
    feedback, the practice page's messages, `attndrills grade`): a symbol is
    written in Unicode there (sₜ₋₁), never in the s_{t-1} notation maths reads."""
    from generator.exam.misconceptions import CATALOGUE

    for name, sentence in CATALOGUE.items():
        assert "_" not in sentence and "{" not in sentence, (name, sentence)
