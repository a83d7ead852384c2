"""A house a maintainer can live in (issue 34.1): no module of the package
over 400 lines, no kind's solve() over 60 lines or cyclomatic complexity 15,
no function anywhere in it over complexity 20 (radon's measure).  A solve() that grows past these should
give its repeated shapes to the builders in kinds/_recipe/, not be cut into
arbitrary pieces."""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _functions(path: Path):
    for block in radon_complexity.cc_visit(path.read_text(encoding="utf-8")):
        yield block
        yield from getattr(block, "methods", ())
        yield from getattr(block, "closures", ())


def test_no_module_is_over_400_lines():
    long = {p.relative_to(PACKAGE).as_posix(): n for p in MODULES
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


def test_no_solve_is_over_60_lines_or_complexity_15():
    over = {}
    for path in sorted((PACKAGE / "kinds").glob("*.py")):
        for f in _functions(path):
            if f.name == "solve" and (f.endline - f.lineno + 1 > 60 or f.complexity > 15):
                over[path.name] = (f.endline - f.lineno + 1, f.complexity)
    assert over == {}


def test_no_function_is_over_complexity_20():
    over = {f"{p.relative_to(PACKAGE).as_posix()}:{f.name}": f.complexity
            for p in MODULES for f in _functions(p) if f.complexity > 20}
    assert over == {}


def test_the_measures_see_what_they_limit():
    """The limits above cannot pass by measuring nothing: a 25-branch function
    is complexity 26, and every kind's solve() is found."""
    source = "def f(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(25))
    assert [f.complexity for f in radon_complexity.cc_visit(source)] == [26]
    kinds = {p.stem for p in (PACKAGE / "kinds").glob("*.py") if any(f.name == "solve" for f in _functions(p))}
    assert len(kinds) == 24
