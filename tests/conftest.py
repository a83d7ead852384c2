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
    problem, warning = given_problem(kind, inputs)
    return solve_problem(problem, digits, warning)


def md(kind, inputs, digits=4):
    return render_problem(solve_given(kind, inputs, digits))


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, input=stdin, timeout=120)


@pytest.fixture
def cli():
    return run_cli
