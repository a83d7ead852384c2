"""The attention recipe stays readable (issue 34.1): no module of kinds/ or
maths/ over 400 lines, no kind's solve() over 60 lines or cyclomatic
complexity 15, no function of kinds/, maths/, model.py or mathlines.py over
complexity 20 (radon's measure).  A solve() that grows past these should
give its repeated shapes to the builders in kinds/_recipe/, not be cut into
arbitrary pieces."""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
MODULES = sorted([*(PACKAGE / "kinds").rglob("*.py"), *(PACKAGE / "maths").rglob("*.py")])
MEASURED = [*MODULES, PACKAGE / "model.py", PACKAGE / "mathlines.py"]


def _functions(path: Path):
    for block in radon_complexity.cc_visit(path.read_text(encoding="utf-8")):
        yield block
        yield from getattr(block, "methods", ())
        yield from getattr(block, "closures", ())


def test_no_module_of_kinds_or_maths_is_over_400_lines():
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
            for p in MEASURED for f in _functions(p) if f.complexity > 20}
    assert over == {}
