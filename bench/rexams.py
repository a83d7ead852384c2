"""The R/exams-shaped workload, as one command: `python bench/rexams.py md|pdf STUDENTS`.

Each student gets 10 instances of the weights-of-4-scores exercise with its
worked solution and bar chart, rendered to Markdown pages (md) or to one PDF
per student (pdf).  Prints the seconds of a first (cold, imports excluded
from the count but not from the process) and a second (warm) run as JSON."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.figures import draw_figures  # noqa: E402
from generator.pipeline import build_items  # noqa: E402
from generator.render.markdown import render_problem  # noqa: E402
from generator.seeding import child_seeds  # noqa: E402
from generator.spec import load_spec  # noqa: E402
from generator.writers.files import write_files  # noqa: E402
from generator.writers.print import sheet_pdfs  # noqa: E402


def run(fmt: str, students: int, master: int, out: Path) -> float:
    spec = load_spec(Path(__file__).with_name("rexams.yaml"))
    start = time.perf_counter()
    for n, seed in enumerate(child_seeds(master, students)):
        solutions = build_items(spec.items, seed, spec.digits)
        if fmt == "md":
            files = {}
            pages = []
            for i, sol in enumerate(solutions, start=1):
                figures = draw_figures(sol)
                files.update({f.filename: f.data for f in figures})
                pages.append(render_problem(sol, heading="##", number=i, figures=figures))
            files[f"student-{n:03d}.md"] = "".join(pages).encode()
            write_files(out, files)
        else:
            _, key = sheet_pdfs(spec.title, f"s{n}", seed, solutions)
            write_files(out, {f"student-{n:03d}.pdf": key})
    return time.perf_counter() - start


if __name__ == "__main__":
    fmt, students, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 2
    with tempfile.TemporaryDirectory() as tmp:
        times = [run(fmt, students, seed, Path(tmp) / str(seed)) for seed in range(1, runs + 1)]
    print(json.dumps({"first_s": round(times[0], 3), "warm_s": round(times[-1], 3)}))
