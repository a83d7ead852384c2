"""Problem-set pages for the MkDocs site, written into docs/generated/."""

from __future__ import annotations

from pathlib import Path

from .. import kinds
from ..figures import draw_figures
from ..pipeline import sample_problem, solve_problem
from ..render.markdown import render_problem
from ..seeding import child_seeds, encode
from ..templating import environment
from .atomic import replace_folder

GENERATED = "generated"


def build_sets(n_sets: int, master: int, digits: int = 4) -> list[dict]:
    """Phase one: every problem and solution of every set (one per cell A–I)."""
    cells = [k.id for k in kinds.all_kinds() if k.id.isalpha()]
    sets = []
    for s, set_seed in enumerate(child_seeds(master, n_sets), start=1):
        solutions = [solve_problem(sample_problem(kid, seed), digits)
                     for kid, seed in zip(cells, child_seeds(set_seed, len(cells)))]
        sets.append({"number": s, "seed": set_seed, "code": f"set-{encode(set_seed)}",
                     "solutions": solutions})
    return sets


def render_sets(sets: list[dict], master: int) -> dict[str, str | bytes]:
    """Phase two: every page and figure from the solutions built above."""
    env = environment()
    pages: dict[str, str | bytes] = {}
    for st in sets:
        problems = []
        for i, sol in enumerate(st["solutions"], start=1):
            figures = draw_figures(sol)
            for f in figures:  # content-addressed names: a repeated figure is one file
                pages[f"figures/{f.filename}"] = f.data
            problems.append(render_problem(sol, heading="##", number=i, figures=figures, src_prefix="figures/"))
        pages[f"set-{st['number']}.md"] = env.get_template("markdown/set.md.j2").render(
            set=st, problems=problems)
    pages["index.md"] = env.get_template("markdown/sets_index.md.j2").render(sets=sets, master=master)
    return pages


def write_site(docs: Path, n_sets: int, master: int, digits: int = 4) -> Path:
    target = docs / GENERATED
    replace_folder(target, render_sets(build_sets(n_sets, master, digits), master))
    return target
