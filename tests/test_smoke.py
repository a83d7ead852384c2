"""Every kind × several seeds renders a complete page in both formats (layer 2)."""

import json

import pytest

from generator import kinds
from generator.pipeline import sample_problem, solve_problem
from generator.render import json as render_json
from generator.render import markdown as render_md

KINDS = [k.id for k in kinds.all_kinds()]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2, 2**40 + 17])
def test_every_kind_renders(kind, seed):
    sol = solve_problem(sample_problem(kind, seed))
    page = render_md.render_problem(sol)
    for part in ("!!! question \"Forecast\"", "??? success \"Solution\"", "**Step 1 —",
                 "*Why this step?*", "**Verify.**", "!!! tip \"Recall\"", " ::: "):
        assert part in page, part
    assert page.count("*Why this step?*") == len(sol.steps)
    assert sol.checks and all(c.passed for c in sol.checks)
    data = json.loads(render_json.render_problem(sol))
    assert data["kind"] == kind and data["seed"] == seed
    assert data["answers"]
    if kind.isalpha():  # every cell of the matrix computes weights
        assert "weights" in data["answers"]


@pytest.mark.parametrize("kind", KINDS)
def test_slug_reaches_the_same_kind(kind):
    k = kinds.get(kind)
    assert kinds.get(k.slug) is k and kinds.get(kind.lower()) is k
