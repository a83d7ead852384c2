"""Problem-set pages for the MkDocs site, written into docs/generated/
(git-ignored; hand-written pages in docs/ are never touched)."""

from __future__ import annotations

import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .. import kinds
from ..figures import draw_figures
from ..pipeline import build_items, sample_problem, solve_problem
from ..render.cards import render_obsidian
from ..render.markdown import escape_md, inline, pool_json, render_problem, to_html
from ..seeding import child_seeds, derived_seed, encode
from ..spec import Spec, default_site_spec
from ..templating import environment
from .atomic import replace_folder
from .cards import anki_package

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
    return {"master": master, "sets": sets, "examples": examples}


def practice_variant(job: tuple[str, int, int]) -> dict:
    """One variant of a practice page: drawn from its own seed, solved and
    rendered with its answer fields but no figures (a pool of twenty would
    multiply the page and the build; every figure is on the set pages and the
    examples page).  The first variant is the page's Markdown; the others are
    converted to HTML here and embedded as data that practice.js shows on
    "another one", so the site builder converts one solution per page, not
    twenty.  Practice pages share nothing with the sets, so a variant is built
    and rendered in one go, in a worker process when there is one."""
    kind_id, master, i = job
    sol = solve_problem(sample_problem(kind_id, derived_seed(master, f"practice-{kind_id}-{i}")))
    md = render_problem(sol, heading=None, recall=False, answer_fields=True)
    html = to_html(md) if i > 0 else None
    return {"code": sol.problem.variant, "md": md if html is None else None, "html": html}


class PracticePool:
    """Every kind's practice variants, started before the sets are built: with
    a spare core a worker process draws them (kinds H and 5.2 compute sympy
    limits and take most of the time) while this process builds the sets;
    without one they are drawn here when asked for.  The order of the variants
    never depends on who computed them."""

    def __init__(self, master: int, workers: int | None = None):
        self.jobs = [(k.id, master, i) for k in kinds.all_kinds() for i in range(POOL)]
        workers = workers if workers is not None else min(2, (os.cpu_count() or 1) - 1)
        self.pool = None
        if workers >= 1 and "fork" in mp.get_all_start_methods():
            from .print import _start_method, _worker  # as the exam's pool: Ctrl-C is handled here

            self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=_start_method(), initializer=_worker)
            self.results = self.pool.map(practice_variant, self.jobs, chunksize=4)

    def pages(self) -> dict[str, list[dict]]:
        done = self.results if self.pool else map(practice_variant, self.jobs)
        out: dict[str, list[dict]] = {}
        for (kind_id, _, _), variant in zip(self.jobs, done):
            out.setdefault(kind_id, []).append(variant)
        return out

    def close(self) -> None:
        if self.pool:
            self.pool.shutdown(wait=True, cancel_futures=True)


def render_site(built: dict, pdf: bool = False, practice: dict | None = None) -> dict[str, str | bytes]:
    """Phase two: every page and figure (and, with pdf, each set's printable
    sheet and key) from the solutions built above; `practice` holds each
    kind's practice variants (PracticePool.pages)."""
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
        # the same cards for spaced repetition: an Anki deck and an Obsidian note
        cards = [(q, a, sol.problem.variant) for sol in st["solutions"] for q, a in sol.recall]
        files[f"cards/set-{st['number']:02d}.apkg"] = anki_package(st["title"], st["code"], st["seed"], cards)
        files[f"cards/set-{st['number']:02d}-obsidian.md.txt"] = render_obsidian(
            st["title"], st["code"], [(q, a) for q, a, _ in cards])
        files[f"set-{st['number']:02d}.md"] = env.get_template("markdown/set.md.j2").render(
            set=st, title=escape_md(st["title"]), problems=problems, recall=recall, pdf=pdf)
    examples = [problem_md(sol, None, anchor=f"cell-{sol.problem.kind.lower()}") for sol in built["examples"]]
    files["examples.md"] = env.get_template("markdown/examples.md.j2").render(
        examples=examples, master=built["master"])
    pages = []
    for kind in kinds.all_kinds():
        pool = (practice or {}).get(kind.id, [])
        if not pool:
            continue
        page = {"id": kind.id, "slug": kind.slug, "title": escape_md(kind.title), "source": escape_md(kind.source),
                "size": len(pool)}
        pages.append(page)
        files[f"practice/{kind.slug}.md"] = env.get_template("markdown/practice.md.j2").render(
            kind=page, variants=[v for v in pool if v["md"] is not None],
            pool=pool_json([{"code": v["code"], "html": v["html"]} for v in pool if v["md"] is None]))
    if pages:
        files["practice/index.md"] = env.get_template("markdown/practice_index.md.j2").render(kinds=pages)
    files["index.md"] = env.get_template("markdown/sets_index.md.j2").render(
        sets=[{**s, "title": escape_md(s["title"]), "size": len(s["solutions"])} for s in built["sets"]],
        master=built["master"], practice=bool(pages))
    return files


def write_site(docs: Path, specs: list[Spec], master: int, pdf: bool = False, force: bool = False) -> Path:
    """Build every set, then swap the whole generated folder into place (it must
    be one this tool wrote, or --force)."""
    from .print import MARKER, check_out

    target = docs / GENERATED
    check_out(target, force)
    practice = PracticePool(master)  # first, so a worker draws them while the sets are built
    try:
        built = build_site(specs, master)
        files = render_site(built, pdf, practice.pages())
    finally:
        practice.close()
    files[MARKER] = f"attndrills site {master}\n"  # MkDocs skips dot-files
    replace_folder(target, files)
    return target


def site_specs(spec: Spec | None, n_sets: int | None) -> list[Spec]:
    if spec is None:
        return default_site_spec(n_sets or 3)
    n = n_sets or spec.sets or 1
    return [Spec(f"{spec.title} — set {i}" if n > 1 else spec.title, spec.items, spec.seed, n, spec.digits,
                 spec.source) for i in range(1, n + 1)]
