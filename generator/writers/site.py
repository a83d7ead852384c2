"""Problem-set pages for the MkDocs site, written into docs/generated/
(git-ignored; hand-written pages in docs/ are never touched)."""

from __future__ import annotations

from pathlib import Path

from .. import kinds
from ..figures import draw_figures
from ..pipeline import build_items, sample_problem, solve_problem
from ..render.markdown import escape_md, inline, render_problem
from ..seeding import child_seeds, derived_seed, encode
from ..spec import Spec, default_site_spec
from ..templating import environment
from .atomic import replace_folder

GENERATED = "generated"
POOL = 20  # variants on each kind's practice page ("another one")


def build_site(specs: list[Spec], master: int) -> dict:
    """Phase one: every problem and solution of every set, and the examples page."""
    sets = []
    for n, (spec, seed) in enumerate(zip(specs, child_seeds(master, len(specs))), start=1):
        sets.append({"number": n, "title": spec.title, "seed": seed, "code": f"set-{encode(seed)}",
                     "solutions": build_items(spec.items, seed, spec.digits)})
    cells = [k for k in kinds.all_kinds() if k.id.isalpha()]
    examples = [solve_problem(sample_problem(k.id, derived_seed(master, f"example-{k.id}")))
                for k in cells]
    practice = {k.id: [solve_problem(sample_problem(k.id, derived_seed(master, f"practice-{k.id}-{i}")))
                       for i in range(POOL)] for k in kinds.all_kinds()}
    return {"master": master, "sets": sets, "examples": examples, "practice": practice}


def render_site(built: dict, pdf: bool = False) -> dict[str, str | bytes]:
    """Phase two: every page and figure (and, with pdf, each set's printable
    sheet and key) from the solutions built above."""
    env = environment()
    files: dict[str, str | bytes] = {}
    if pdf:
        from .print import sheet_pdfs

        for st in built["sets"]:
            sheet, key = sheet_pdfs(st["title"], st["code"], st["seed"], st["solutions"])
            files[f"print/set-{st['number']:02d}-sheet.pdf"] = sheet
            files[f"print/set-{st['number']:02d}-key.pdf"] = key

    def problem_md(sol, number, anchor=None):
        figures = draw_figures(sol)
        for f in figures:  # content-addressed names: a repeated figure is one file
            files[f"figures/{f.filename}"] = f.data
        return render_problem(sol, heading="##", number=number, figures=figures, src_prefix="figures/",
                              recall=False, anchor=anchor, answer_fields=True)

    for st in built["sets"]:
        problems = [problem_md(sol, i) for i, sol in enumerate(st["solutions"], start=1)]
        recall = [(inline(q), inline(a)) for sol in st["solutions"] for q, a in sol.recall]
        files[f"set-{st['number']:02d}.md"] = env.get_template("markdown/set.md.j2").render(
            set=st, title=escape_md(st["title"]), problems=problems, recall=recall, pdf=pdf)
    examples = [problem_md(sol, None, anchor=f"cell-{sol.problem.kind.lower()}") for sol in built["examples"]]
    files["examples.md"] = env.get_template("markdown/examples.md.j2").render(
        examples=examples, master=built["master"])
    # Practice pages: no figures (a pool of twenty would multiply the page and
    # the build; every figure is on the set pages and the examples page).
    practice = []
    for kind in kinds.all_kinds():
        pool = built["practice"].get(kind.id, [])
        if not pool:
            continue
        page = {"id": kind.id, "slug": kind.slug, "title": escape_md(kind.title), "source": escape_md(kind.source),
                "level": kind.level, "size": len(pool)}
        practice.append(page)
        files[f"practice/{kind.slug}.md"] = env.get_template("markdown/practice.md.j2").render(
            kind=page, variants=[{"code": sol.problem.variant,
                                  "md": render_problem(sol, heading=None, recall=False, answer_fields=True)}
                                 for sol in pool])
    if practice:
        files["practice/index.md"] = env.get_template("markdown/practice_index.md.j2").render(kinds=practice)
    files["index.md"] = env.get_template("markdown/sets_index.md.j2").render(
        sets=[{**s, "title": escape_md(s["title"]), "size": len(s["solutions"])} for s in built["sets"]],
        master=built["master"], practice=bool(practice))
    return files


def write_site(docs: Path, specs: list[Spec], master: int, pdf: bool = False, force: bool = False) -> Path:
    """Build every set, then swap the whole generated folder into place (it must
    be one this tool wrote, or --force)."""
    from .print import MARKER, check_out

    target = docs / GENERATED
    check_out(target, force)
    files = render_site(build_site(specs, master), pdf)
    files[MARKER] = f"attndrills site {master}\n"  # MkDocs skips dot-files
    replace_folder(target, files)
    return target


def site_specs(spec: Spec | None, n_sets: int | None) -> list[Spec]:
    if spec is None:
        return default_site_spec(n_sets or 3)
    n = n_sets or spec.sets or 1
    return [Spec(f"{spec.title} — set {i}" if n > 1 else spec.title, spec.items, spec.seed, n, spec.digits,
                 spec.source) for i in range(1, n + 1)]
