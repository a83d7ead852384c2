import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal

import pytest
import sympy as sp

from generator.pipeline import given_problem, solve_problem
from generator.render.markdown import render_problem


def ref(expr, places: int) -> str:
    """Independent reference: sympy evaluates to 60 digits, Decimal rounds half-up."""
    value = Decimal(str(sp.N(sp.sympify(expr), 60)))
    return str(value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def solve_given(kind, inputs, digits=4):
    return solve_problem(given_problem(kind, inputs), digits)


def md(kind, inputs, digits=4):
    """The problem's Markdown with the phone layout of its formulas undone
    (aligned rows, one inline formula per list item), so tests read the
    maths as one line, as the printer would write it on a wide page."""
    return flat(render_problem(solve_given(kind, inputs, digits)))


def flat(page: str) -> str:
    page = page.replace(r"\begin{aligned}", "").replace(r"\end{aligned}", "")
    for gap in (r" \\[2pt] ", r" \\[6pt] "):
        page = page.replace(gap + r"&\quad {} ", " ").replace(gap + r"&\quad ", " ").replace(gap, " ")
    page = page.replace(" &", "").replace("&", "")
    page = page.replace("$\u200b${} ", " ").replace("$\u200b${}", " ")
    return page.replace(",$\u2002$", ",\\quad ").replace("$\u2002$", " ")


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, input=stdin, timeout=120)


@pytest.fixture
def cli():
    return run_cli
