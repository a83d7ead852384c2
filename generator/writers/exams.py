"""Randomized exams: each student's paper (and worked solutions), written
by the jobs of the job driver, then what the papers share: answers.csv,
moodle.xml (moodle_file), the key and manifest.json (manifest)."""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
from pathlib import Path

from .. import __version__
from ..errors import UserError
from ..exam.answers import answer_text, read_text, tolerance_text, widened_text
from ..exam.assembly import assemble_paper, points_csv, points_text, unmarked_prompts
from ..exam.roster import Student
from ..exam.spec import Spec
from ..mathlines import power_of_ten
from ..render import moodle, plain
from ..render.typst import breakable, escape_typst, label, render_document, view, work_space
from ..render.typst_math import typst_string
from ..spreadsheet import cell
from ..text import Sayer, number
from .atomic import check_out, write_into
from .jobs import run_jobs, two_phase
from .manifest import check_same_exam, manifest_json
from .moodle_file import moodle_xml
from .qti_file import qti_items, qti_zip
from .progress import say
from .sheets import footer
from .typst import compiler
from .typst.compiler import paper_name


_VALUES_A_LINE = 3


def _part_view(part, digits: int | None = None) -> dict:
    """One answer line under a question on the paper: its label, what it
    asks for, and room in proportion to what is written there.  With the
    paper's `digits`, a part asking for numbers (not counts) says beside its
    box how a value below 10^-digits is written — on every such part, so the
    hint does not tell which keys are that small."""
    a = part.answer
    say = Sayer("ui").text
    hint, rows = "", 1
    if a.type == "vector":
        key = a.display if a.display and isinstance(a.display[0], list) else [a.display]
        # a line of the box (45 % of the column, 7.5 cm) holds three handwritten
        # values ("0.2000;" is about 2.2 cm), a power of ten ("4.78 × 10⁻²⁵;")
        # counting as two; each row of a table starts a line
        rows = min(sum(-(-sum(2 if "×" in x else 1 for x in row) // _VALUES_A_LINE) for row in key), 8)
        values = say("papers.value" if len(key[0]) == 1 else "papers.values", n=len(key[0]))
        hint = say("papers.rows", n=len(key), values=values) if len(key) > 1 else values
    elif a.type == "choice":
        hint = say("papers.letter" if sum(o.correct for o in a.options) == 1 else "papers.letters")
    elif a.type == "matching":
        rows = 2
        hint = say("papers.pairs", n=len(a.exact))
    if digits is not None and a.type in ("numeric", "vector") and any(_flat(a.tolerance)):
        small = say("papers.small", small=power_of_ten(-digits))
        hint = say("papers.hint_and_small", hint=hint, small=small) if hint else small
    return {"label": escape_typst(part.label), "quantity": label(part.quantity),
            "hint": escape_typst(hint), "height": f"{0.75 * rows:g}cm"}


def _flat(x) -> list:
    return [v for item in x for v in _flat(item)] if isinstance(x, list) else [x]


def _key_answer(a) -> str:
    """The key's value for an answer: for a choice, the letter and its text."""
    text = read_text(a)
    if a.type == "choice":
        text += " — " + "; ".join(o.text for o in a.options if o.correct)
    return text


def _figures(q) -> list:
    """The figures of a question's worked solution, drawn (the Moodle
    question's feedback embeds them, as the printed key shows them)."""
    from ..figures import draw_figures

    return draw_figures(q.solution)


def _paper(job: tuple) -> dict:
    """One student's paper, written into `folder` (and the worked solutions,
    if asked), from the assembly's data: answer rows, key lines, Moodle
    questions, hashes.  With `papers` false (a --variants pool) no PDF."""
    spec, student, master, paper, with_solutions, folder, papers, canvas = job
    exam = assemble_paper(spec, student, master, shuffle=papers)
    rows, key = [], []
    moodle_questions = []
    for q in exam.questions:
        sol = q.solution
        # one string per line: a Typst string literal lays out far leaner than
        # marked-up text (the 300-student key compiles in half the memory)
        for n, p in enumerate(q.parts):
            line = f"{p.label} · {plain.label(p.quantity)} · {plain.label(_key_answer(p.answer))}"
            if wider := widened_text(p.answer):
                line += f" ({wider})"
            markup = "#" + typst_string(line)
            if n == 0:  # variant and points kept whole: a line break split "[H-" from its code
                end = Sayer("ui").text("papers.key_variant", variant=sol.problem.variant, points=points_text(q.points))
                markup += f"#h(1.5em, weak: true)#box({typst_string(end)})"
            key.append(markup)
        for p in q.parts:
            rows.append({"student": student.id, "variant": sol.problem.variant, "question": p.label,
                         "answer": answer_text(p.answer), "tolerance": tolerance_text(p.answer),
                         "points": points_csv(p.points)})
        moodle_questions.append((q.item, sol.problem.variant, moodle.render_question(q, spec.digits, _figures(q))))
    written = {}
    if papers:
        # one view per problem serves the paper and the worked solutions
        ordered = [q.solution for q in exam.questions]
        if with_solutions:
            from ..figures import draw_figures

            figures = [draw_figures(s) for s in ordered]
        else:
            figures = [()] * len(ordered)
        # the paper asks only what it marks (and the worked solutions set the paper's question)
        problems = [view(s, f, worked=with_solutions, skip=unmarked_prompts(s)) for s, f in zip(ordered, figures)]
        for v, q in zip(problems, exam.questions):
            v["points"] = points_text(q.points)
            v["space"] = work_space(q.solution, 2.4)
            v["parts"] = [_part_view(p, spec.digits) for p in q.parts]
        page_footer = footer(spec.title, f"{student.id} · {exam.code}")
        written[f"papers/{student.filename}.pdf"] = compiler.compile_pdf(render_document(
            "exam.typ.j2", title=spec.title, code=exam.code, seed=master, paper=paper, problems=problems,
            student_name=typst_string(breakable(student.name)), student_id=typst_string(breakable(student.id)),
            total=number(points_text(sum(q.points for q in exam.questions))),
            digits=spec.digits, footer=page_footer), age_out=not with_solutions)
        if with_solutions:  # the student's own variants, worked, with their figures
            say = Sayer("ui").text
            written[f"solutions/{student.filename}.pdf"] = compiler.compile_pdf(render_document(
                "key.typ.j2", title=say("papers.solutions_title", title=spec.title, name=breakable(student.name)),
                suffix="", code=exam.code, code_name=say("papers.paper_code"), seed=exam.seed, paper=paper,
                problems=problems,
                footer=footer(spec.title, say("papers.solutions_footer", id=student.id, code=exam.code))))
        write_into(folder, written)  # here, so the PDFs never travel back to the main process
    return {"student": student, "seed": exam.seed, "code": exam.code, "rows": rows, "key": key,
            "points": points_text(sum(q.points for q in exam.questions)), "moodle": moodle_questions,
            "qti": qti_items(spec, master, exam.questions) if canvas else [],
            "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in written.items()}}


def write_exam(spec: Spec, students: list[Student], master: int, out: Path, paper: str = "a4",
               only: str | None = None, force: bool = False, workers: int | None = None,
               solutions: bool = False, papers: bool = True, canvas: bool = False) -> int:
    """All papers (or just `only`), key, answers.csv, manifest.json, moodle.xml.
    With `papers` false (`--variants N`), `students` are the pool's variant
    sets and no paper is written: the key, answers.csv, manifest and Moodle
    pool only."""
    check_out(out, force, "exam")
    paper = paper_name(paper)
    if only is not None:
        chosen = [s for s in students if s.id == only]
        if not chosen:
            raise UserError(f"--only: no student with id {only!r} in the roster")
        students = chosen
        check_same_exam(out, spec, master, paper, only)
    from .. import figures  # noqa: F401 (imported once, here: forked workers share it; moodle.xml embeds them)
    with two_phase(out, f"attndrills {__version__} exam {master}") as folder:
        if only is not None and out.is_dir():
            # --only: regenerate that student's paper next to the existing outputs
            shutil.copytree(out, folder, dirs_exist_ok=True)
        done = list(run_jobs(_paper, [(spec, s, master, paper, solutions, folder, papers, canvas)
                                        for s in students],
                             "papers" if papers else "variant sets", workers))
        if only is None:
            say("writing answers.csv, moodle.xml and key.pdf")
            _write_shared(folder, spec, master, paper, done, papers, canvas)
    return len(done)


def _write_shared(folder: Path, spec: Spec, master: int, paper: str, papers: list[dict],
                  with_papers: bool = True, canvas: bool = False) -> None:
    """answers.csv, moodle.xml, key.pdf and manifest.json into `folder`.  Each
    is written as soon as it is made and then let go: Typst lays out the key
    (the largest memory of the run) without the Moodle variants beside it."""
    hashes: dict[str, str] = {}

    def put(name: str, data: str | bytes) -> None:
        write_into(folder, {name: data})
        hashes[name] = hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()

    buf = io.StringIO()
    writer = csv.DictWriter(buf, ["student", "variant", "question", "answer", "tolerance", "points"],
                            lineterminator="\n")
    writer.writeheader()
    # ids and texts a spreadsheet would run as formulas go in as text (the key's numbers stay numbers)
    writer.writerows({k: cell(v, number=k in ("answer", "tolerance", "points")) for k, v in r.items()}
                     for p in papers for r in p["rows"])
    put("answers.csv", buf.getvalue())
    del buf
    put("moodle.xml", moodle_xml(spec, master, papers))
    if canvas:
        put("canvas-qti.zip", qti_zip(spec, master, papers))
    for p in papers:
        p["moodle"] = p["qti"] = ()  # in moodle.xml and canvas-qti.zip now
    key_source = render_document(
        "exam_key.typ.j2", title=spec.title, seed=master, paper=paper,
        footer=footer(spec.title, Sayer("ui").text("papers.exam_key_footer")),
        students=[{"name": typst_string(breakable(p["student"].name)), "id": typst_string(breakable(p["student"].id)),
                   "code": p["code"], "points": p["points"], "lines": p["key"]} for p in papers])
    put("key.pdf", compiler.compile_pdf(key_source))
    put("manifest.json", manifest_json(spec, master, paper, papers, hashes, with_papers))
