"""Problem-set pages for the MkDocs site, written into docs/generated/
(git-ignored; hand-written pages in docs/ are never touched)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .. import kinds
from ..figures import draw_figures
from ..pipeline import build_items, sample_problem, solve_problem
from ..render.answer_fields import script_text_html
from ..render.cards import distinct_cards, render_obsidian
from ..render.markdown import (course_place, escape_md, heading_md, inline, page_html, page_title, pool_json,
                               ready_block, ready_html, render_problem, to_html)
from ..render.search_text import searchable
from ..render.site_html import cards_html, problem_html
from ..seeding import child_seeds, derived_seed, encode
from ..exam.spec import Spec, default_site_spec
from ..templating import environment
from ..text import Sayer
from .atomic import check_out, write_into
from .cards import anki_package
from .jobs import run_jobs, two_phase
from .sheets import sheet_pdfs

GENERATED = "generated"
POOL = 20  # variants on each kind's practice page ("another one")


def practice_variant(job: tuple[str, int, int]) -> dict:
    """One variant of a practice page: drawn from its own seed, solved and
    rendered with its answer fields but no figures (a pool of twenty would
    multiply the page and the build; every figure is on the set pages and the
    examples page).  The first variant is on the page (converted here like a
    set's problems); the others are converted to HTML here and embedded as
    data that practice.js shows on "another one", so the site builder converts
    one solution per page, not twenty.  Practice pages share nothing with the
    sets, so a variant is built and rendered in one go, in a worker process
    when there is one."""
    kind_id, master, i = job
    sol = solve_problem(sample_problem(kind_id, derived_seed(master, f"practice-{kind_id}-{i}")))
    html, md = problem_html(sol, title=True), None
    if html is None:  # what render.site_html is not sure of: converted by Python-Markdown
        md = render_problem(sol, heading=None, recall=False, answer_fields=True)
        html = page_html(md) if i == 0 else to_html(md)
    if i == 0:  # on the page (with its Markdown, for a site built without Python-Markdown)
        return {"code": sol.problem.variant, "page": html, "md": md}
    return {"code": sol.problem.variant, "html": html}


def set_pages(job: tuple[int, int, Spec, int, bool]) -> dict:
    """One set (number of count), both phases: every problem and solution
    first, then its page (figures included), recall decks (and, with pdf, its
    sheet and key).  Sets share nothing, so each is a job of its own; its
    recall cards come back for the course's deck."""
    number, count, spec, seed, pdf = job
    st = {"number": number, "count": count, "title": spec.title, "seed": seed, "code": f"set-{encode(seed)}",
          "solutions": build_items(spec.items, seed, spec.digits)}
    files: dict[str, str | bytes] = {}
    _render_set(st, pdf, files)
    return {"files": files, "set": {k: v for k, v in st.items() if k not in ("solutions", "cards")}
            | {"size": len(st["solutions"])}, "cards": st["cards"]}


def examples_page(master: int) -> dict:
    """The examples page (one problem of each cell, figures included)."""
    files: dict[str, str | bytes] = {}
    _render_examples(_examples(master), master, files)
    return {"files": files}


def _examples(master: int) -> list:
    cells = [k for k in kinds.all_kinds() if k.id.isalpha()]
    return [solve_problem(sample_problem(k.id, derived_seed(master, f"example-{k.id}"))) for k in cells]


def _job(job: tuple):
    """What a worker runs: one set, the examples page, or one practice variant.
    With a folder, the job writes its files there itself: creating a file
    costs the system about as much as drawing a figure, and so it is done on
    both cores, beside the other worker's computing, rather than after it in
    this process (its result then carries no files)."""
    what, args, folder = job
    done = {"set": set_pages, "examples": examples_page, "practice": practice_variant}[what](args)
    if folder is not None and "files" in done:
        write_into(folder, done["files"])  # each job's names are its own
        done["files"] = {}
    return done


def build_site(specs: list[Spec], master: int) -> dict:
    """Every problem and solution of every set, and the examples page, in this
    process (what set_pages and examples_page render; the tests read them)."""
    sets = []
    for n, (spec, seed) in enumerate(zip(specs, child_seeds(master, len(specs))), start=1):
        sets.append({"number": n, "title": spec.title, "seed": seed, "code": f"set-{encode(seed)}",
                     "solutions": build_items(spec.items, seed, spec.digits)})
    return {"master": master, "sets": sets, "examples": _examples(master)}


def _problem_md(sol, number, anchor=None) -> str:
    """A problem of a set or the examples page: its heading in Markdown (the
    builders make the page's table of contents and search sections from it),
    the rest as ready HTML, laid out here in a worker (render.site_html, or
    Python-Markdown where that is not sure) rather than converted by the
    builder on one core.  Its figures are in the page (data: URLs), not files
    of their own: on the 2,000-problem site they were 2,000 of its 2,600
    files, and every builder copies every file (creating a file costs the
    system as much as drawing the figure)."""
    figures = draw_figures(sol)
    html = problem_html(sol, figures=figures)
    if html is not None:
        return f"{heading_md(sol, '##', number, anchor)}\n\n{ready_block(html)}"
    # what render.site_html is not sure to write as Python-Markdown would: converted
    md = render_problem(sol, heading="##", number=number, figures=figures, src_prefix="figures/", recall=False,
                        anchor=anchor, answer_fields=True)
    heading, body = md.split("\n", 1)
    return f"{heading}\n\n{ready_html(body, figures, 'figures/')}"


def _render_set(st: dict, pdf: bool, files: dict) -> None:
    env = environment()
    nn = f"{st['number']:02d}"
    if pdf:
        files[f"print/set-{nn}-sheet.pdf"], files[f"print/set-{nn}-key.pdf"] = sheet_pdfs(
            st["title"], st["code"], st["seed"], st["solutions"])
    problems = [_problem_md(sol, i) for i, sol in enumerate(st["solutions"], start=1)]
    # the set's recall cards (each once) on the page, and for spaced repetition:
    # an Anki deck and an Obsidian note (the course's decks: course_decks)
    recall = st["cards"] = distinct_cards(card for sol in st["solutions"] for card in sol.recall)
    files[f"cards/set-{nn}.apkg"] = anki_package(st["title"], st["code"], st["seed"], recall)
    files[f"cards/set-{nn}-obsidian.md.txt"] = render_obsidian(
        st["title"], Sayer("ui").text("decks.set_about", code=st["code"]), recall)
    html = cards_html(recall) if recall else None
    if html is not None:
        cards_block = ready_block(html)
    elif recall:  # what render.site_html is not sure of: converted by Python-Markdown
        cards_block = ready_html(env.get_template("markdown/partials/cards.md.j2").render(
            recall=[(inline(q), inline(a)) for q, a in recall]))
    else:
        cards_block = ""
    files[f"set-{nn}.md"] = env.get_template("markdown/set.md.j2").render(
        set=st, title=escape_md(st["title"]), page_title=page_title(st["title"]), problems=problems,
        cards=cards_block, pdf=pdf, script_text=script_text_html())


def _render_examples(examples: list, master: int, files: dict) -> None:
    # the examples are searched: their maths as text (render.search_text)
    pages = [searchable(_problem_md(sol, None, anchor=f"cell-{sol.problem.kind.lower()}")) for sol in examples]
    files["examples.md"] = environment().get_template("markdown/examples.md.j2").render(
        examples=pages, master=master, script_text=script_text_html())


def _render_practice(practice: dict | None, files: dict) -> list[dict]:
    env = environment()
    pages, script_text = [], script_text_html()
    for kind in kinds.all_kinds():
        pool = (practice or {}).get(kind.id, [])
        if not pool:
            continue
        page = {"id": kind.id, "slug": kind.slug, "title": escape_md(kind.title), "source": escape_md(kind.source),
                "size": len(pool), "cell": kind.id.isalpha(), "place": course_place(kind.id, long=True)}
        pages.append(page)
        first = [v for v in pool if "page" in v]
        data = pool_json([{"code": v["code"], "html": v["html"]} for v in pool if "page" not in v])
        # the pool, the first variant's marker and the variant itself: one block of HTML
        # the builders take as it is (or, without Python-Markdown, the variant's Markdown)
        ready = all(v["page"] is not None for v in first)
        body = env.get_template("markdown/partials/practice.html.j2").render(
            kind=page, pool=data, variants=[{"code": v["code"], "html": searchable(v["page"]) if ready else v["md"]}
                                            for v in first]).rstrip("\n")
        files[f"practice/{kind.slug}.md"] = env.get_template("markdown/practice.md.j2").render(
            kind=page, body=ready_block(body).rstrip("\n") if ready else body, script_text=script_text)
    if pages:
        files["practice/index.md"] = env.get_template("markdown/practice_index.md.j2").render(kinds=pages)
    return pages


def course_decks(cards: list, master: int, files: dict, title: str | None = None) -> None:
    """The whole course's recall cards, every set's in set order, each once:
    an Anki deck (its seed derived from the master seed) and an Obsidian note,
    titled `title`, else decks.course ("Whole course").  A card several sets
    share is the same note here as in their decks."""
    say = Sayer("ui")
    title = title or say.text("decks.course")
    recall = distinct_cards(cards)
    files["cards/course.apkg"] = anki_package(title, "course", derived_seed(master, "course-deck"), recall)
    files["cards/course-obsidian.md.txt"] = render_obsidian(
        title, say.text("decks.course_about"), recall)


def _render_index(sets: list[dict], master: int, practice: bool, files: dict) -> None:
    files["index.md"] = environment().get_template("markdown/sets_index.md.j2").render(
        sets=[{**s, "title": escape_md(s["title"])} for s in sets], master=master, practice=practice)


def site_files(specs: list[Spec], master: int, pdf: bool = False, workers: int | None = None,
               folder: Path | None = None, course: str | None = None) -> dict[str, str | bytes]:
    """Every file of the generated folder: the sets, the examples page, the
    practice pages, the course's decks (titled `course`, else "Whole course")
    and the index, built as independent jobs (jobs.run_jobs: sets, the
    examples and the practice variants in one queue, so both cores stay busy
    to the end; kinds H and 5.2 compute sympy limits).  With `folder`,
    the sets and the examples page are written into it as their jobs finish,
    and only the files left to write are returned."""
    seeds = child_seeds(master, len(specs))
    practice_jobs = [(k.id, master, i) for k in kinds.all_kinds() for i in range(POOL)]
    jobs = ([("set", (n, len(specs), spec, seed, pdf), folder)
             for n, (spec, seed) in enumerate(zip(specs, seeds), start=1)]
            + [("examples", master, folder)] + [("practice", j, folder) for j in practice_jobs])
    results = run_jobs(_job, jobs, "sets, examples and practice variants", workers)
    files: dict[str, str | bytes] = {}
    sets, cards = [], []
    for _ in specs:
        done = next(results)
        files.update(done["files"])
        sets.append(done["set"])
        cards += done["cards"]
    course_decks(cards, master, files, course)
    files.update(next(results)["files"])
    practice: dict[str, list[dict]] = {}
    for (kind_id, _, _), variant in zip(practice_jobs, results):
        practice.setdefault(kind_id, []).append(variant)
    for _ in results:  # none left: ends the progress line
        pass
    pages = _render_practice(practice, files)
    _render_index(sets, master, bool(pages), files)
    return files


def write_site(docs: Path, specs: list[Spec], master: int, pdf: bool = False, force: bool = False,
               course: str | None = None) -> Path:
    """Build every set, then swap the whole generated folder into place (it must
    be one this tool wrote, or --force); `course` titles the course's decks."""
    target = docs / GENERATED
    check_out(target, force, "site")
    with two_phase(target, f"attndrills site {master}") as tmp:  # the marker is a dot-file: MkDocs skips it
        write_into(tmp, site_files(specs, master, pdf, folder=tmp, course=course))
    return target


def site_specs(spec: Spec | None, n_sets: int | None) -> list[Spec]:
    if spec is None:
        return default_site_spec(n_sets or 3)
    n = n_sets or spec.sets or 1
    say = Sayer("ui")
    return [dataclasses.replace(spec, sets=n,
                                title=say.text("site_pages.set_title", title=spec.title, n=i) if n > 1 else spec.title)
            for i in range(1, n + 1)]
