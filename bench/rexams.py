"""The R/exams-shaped workload, as one command:

    python bench/rexams.py md|pdf|moodle STUDENTS [--workers N] [--warm]

Each student gets the items of bench/rexams.yaml (10 × "weights of 4 scores +
worked solution + bar chart"): Markdown pages with their SVG figures (md),
one PDF of worked solutions per student (pdf), or the student's questions as
Moodle XML, as the exam command writes them (moodle), written to a temporary
folder.
Students are shared out over N worker processes forked after the imports
(both cores where the work is parallel).  Without --warm the process does the
work once (run it as a fresh process to measure it cold, imports included);
with --warm it first does two students, then measures.  Prints JSON.

The work per student goes through the public entry points (build_items,
draw_figures, render_problem, sheet_sources, compile_pdf, assemble_paper,
moodle.render_question, write_files), so faster versions
of them are measured as they land.  `student_files` is the single place to
switch to another entry point (a parallel one, say); `run` is the one place
that spreads students over processes.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.exam.assembly import assemble_paper  # noqa: E402
from generator.figures import draw_figures  # noqa: E402
from generator.render import moodle  # noqa: E402
from generator.exam.roster import Student  # noqa: E402
from generator.pipeline import build_items  # noqa: E402
from generator.render.markdown import render_problem  # noqa: E402
from generator.seeding import child_seeds  # noqa: E402
from generator.exam.spec import load_spec  # noqa: E402
from generator.writers.files import write_files  # noqa: E402
from generator.writers.sheets import sheet_sources  # noqa: E402
from generator.writers.typst.compiler import compile_pdf  # noqa: E402

SPEC = load_spec(Path(__file__).with_name("rexams.yaml"))
INSTANCES_PER_STUDENT = sum(i.count for i in SPEC.items)


def student_files(fmt: str, n: int, seed: int) -> dict[str, bytes]:
    """One student's output: Markdown pages and figures, a PDF, or Moodle XML."""
    if fmt == "moodle":  # the exam's Moodle questions for this student's variants (spec order)
        paper = assemble_paper(SPEC, Student(f"s{n:03d}", f"Student {n}"), seed, shuffle=False)
        xml = [moodle.render_question(q, SPEC.digits) for q in paper.questions]
        return {f"student-{n:03d}.xml": moodle.render_quiz(xml)}
    solutions = build_items(SPEC.items, seed, SPEC.digits)
    if fmt == "md":
        files = {}
        pages = []
        for i, sol in enumerate(solutions, start=1):
            figures = draw_figures(sol)
            files.update({f.filename: f.data for f in figures})
            pages.append(render_problem(sol, heading="##", number=i, figures=figures))
        files[f"student-{n:03d}.md"] = "".join(pages).encode()
        return files
    # one PDF per student, as R/exams writes it: the exercises with their
    # worked solutions and figures (the key; the blank sheet is not compiled)
    _, key = sheet_sources(SPEC.title, f"s{n}", seed, solutions)
    return {f"student-{n:03d}.pdf": compile_pdf(key)}


def _one(job: tuple[str, int, int, str]) -> int:
    fmt, n, seed, out = job
    files = student_files(fmt, n, seed)
    write_files(Path(out), files)
    return len(files)


def _warm(fmt: str, out: str, ready=None) -> None:
    """Two students' work, to warm imports, fonts, templates and caches; then
    wait at `ready` until every worker is warm."""
    for n, seed in enumerate(child_seeds(10**6, 2)):
        _one((fmt, n, seed, out))
    if ready is not None:
        ready.wait()


def run(fmt: str, students: int, master: int, out: Path, workers: int = 1, warm: bool = False) -> float:
    """Seconds to write every student's output (imports excluded; with `warm`,
    each process has done two students first)."""
    jobs = [(fmt, n, seed, str(out)) for n, seed in enumerate(child_seeds(master, students))]
    if workers <= 1:
        if warm:
            _warm(fmt, str(out.with_name("warm-up")))
        start = time.perf_counter()
        for job in jobs:
            _one(job)
        return time.perf_counter() - start
    # Forked right after the imports, before anything runs: a fork after a
    # Typst compile (its Rust threads) can deadlock the child (writers/print.py,
    # pool_context).  Each worker warms itself up; the clock starts when all are warm.
    ctx = mp.get_context("fork")
    ready = ctx.Barrier(workers + 1) if warm else None
    with ctx.Pool(workers, initializer=_warm if warm else None,
                  initargs=(fmt, str(out.with_name("warm-up")), ready) if warm else ()) as pool:
        if ready is not None:
            ready.wait()
        start = time.perf_counter()
        for _ in pool.imap_unordered(_one, jobs, chunksize=max(1, len(jobs) // (8 * workers))):
            pass
        return time.perf_counter() - start


def main(argv: list[str]) -> int:
    fmt, students = argv[0], int(argv[1])
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 1
    with tempfile.TemporaryDirectory() as tmp:
        seconds = run(fmt, students, 1, Path(tmp) / "out", workers, "--warm" in argv)
    n = students * INSTANCES_PER_STUDENT
    print(json.dumps({"format": fmt, "instances": n, "workers": workers, "warm": "--warm" in argv,
                      "seconds": round(seconds, 3), "ms_per_instance": round(1000 * seconds / n, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
