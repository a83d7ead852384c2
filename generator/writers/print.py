"""Printable sheets and randomized exams: Typst PDFs, answers.csv, the
manifest, Moodle XML.  Everything is written into a temporary sibling of the
output folder, which is swapped in whole, so a failed run leaves nothing
half-written."""

from __future__ import annotations

import csv
import gc
import hashlib
import html
import io
import json
import multiprocessing as mp
import os
import shutil
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from importlib import metadata
from pathlib import Path

from .. import __version__
from ..errors import UserError
from ..exam.assembly import assemble_paper, item_points, points_csv, points_text, unmarked_prompts
from ..exam.answers import answer_text, tolerance_text, widened_text
from ..mathlines import power_of_ten
from ..pipeline import build_items
from ..render import moodle, plain
from ..render.typst import breakable, escape_typst, label, render_document, view, work_space
from ..render.typst_math import typst_string
from ..exam.roster import Student
from ..seeding import encode
from ..exam.spec import Spec
from ..spreadsheet import cell
from .atomic import MARKER, check_out, marker_text, replace_folder, staged, write_into
from .lifeline import die_with_parent, map_in_order, stop_pool
from .progress import say, shown
from .typst_pool import TypstPool, age_out_cache, compile_settled

PAPERS = {"a4": "a4", "letter": "us-letter", "us-letter": "us-letter"}


_COMPILER = None
_INPUTS: dict[str, str] = {}
_COMPILED = False  # Typst's threads outlive a compiler: once set, this process must not fork
_AGE_OUT = 12
_EXTRA_FONTS: tuple[str, ...] = ()  # --font-path folders, in the order given
_PACKAGED_FONTS = ("manimgx_fonts", "manimgx_fonts_cjk")  # Noto: emoji, scripts, CJK


def font_dirs() -> list[str]:
    """Every folder Typst takes fonts from, besides its own embedded ones:
    matplotlib's (DejaVu, which the figures' SVG text names), the Noto font
    packages this project depends on, then --font-path folders."""
    import importlib.util

    # matplotlib.get_data_path() is its package folder's mpl-data: found
    # without importing matplotlib, which a plain exam never draws with
    dirs = [str(Path(importlib.util.find_spec("matplotlib").origin).with_name("mpl-data") / "fonts" / "ttf")]
    for name in _PACKAGED_FONTS:
        found = importlib.util.find_spec(name)
        if found is not None and found.origin:  # missing: names in those scripts are warned about
            dirs.append(str(Path(found.origin).parent))
    return dirs + list(_EXTRA_FONTS)


def use_fonts(folders) -> None:
    """Add --font-path folders (after the packaged fonts).  Each must hold at
    least one font Typst can read; their families are listed right after New
    Computer Modern (setup.typ.j2), so a character the main font lacks is set
    in them first, whatever order the file system lists the files in."""
    global _EXTRA_FONTS, _COMPILER
    import typst

    checked: list[str] = []
    for folder in folders:
        path = Path(folder)
        if not path.is_dir():
            raise UserError(f"--font-path: {folder} is not a folder")
        found = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=[str(path)])
        if not found.fonts():
            raise UserError(f"--font-path: {folder} holds no font file (.ttf, .otf, .ttc)")
        checked.append(str(path.resolve()))
    if tuple(checked) != _EXTRA_FONTS:
        _EXTRA_FONTS = tuple(checked)
        _COMPILER = None
        _COVERAGE.clear()


def _extra_families() -> list[str]:
    """The families of the --font-path fonts, sorted: the font list in the
    document is then the same for the same fonts."""
    if not _EXTRA_FONTS:
        return []
    import typst

    found = typst.Fonts(include_system_fonts=False, include_embedded_fonts=False, font_paths=list(_EXTRA_FONTS))
    return sorted({f.family for f in found.fonts()})


def typst_inputs() -> dict[str, str]:
    """The documents' sys.inputs: setup.typ.j2 reads the --font-path families."""
    return {"fonts": "\n".join(_extra_families())}


def compile_pdf(source: str, age_out: bool = True) -> bytes:
    """Typst source → PDF bytes.  Figures travel inside the source (SVG as
    bytes), so the document reads no file but its own (compile_settled).  One
    compiler per process finds and loads the fonts once (a fresh compile of an
    exam paper takes 20 ms, a reused one 8).
    Fonts come only from installed packages and --font-path folders — Typst's
    own, matplotlib's DejaVu, which the figures' SVG text names, and Noto for
    other scripts — never from the machine, so a PDF is the same bytes
    everywhere for the same fonts.  `age_out` false keeps this document's
    layouts for the next one (a student's paper for their worked solutions,
    which set the same questions)."""
    global _COMPILER, _COMPILED, _INPUTS
    import typst

    _COMPILED = True
    if _COMPILER is None:
        _INPUTS = typst_inputs()
        _COMPILER = typst.Compiler(ignore_system_fonts=True, font_paths=font_dirs(), sys_inputs=_INPUTS)
    try:
        pdf = _interruptible(compile_settled, _COMPILER, source.encode("utf-8"), _INPUTS)
    except Exception as exc:  # a template bug, never user input: say which
        raise RuntimeError(f"Typst could not compile the document: {exc}") from exc
    # nothing useful is lost where the next document shares no layout with
    # this one (else the caller says age_out=False)
    if age_out:
        age_out_cache(_COMPILER, _AGE_OUT)
    return pdf


def _interruptible(compile, *args) -> bytes:
    """`compile(*args)` in a thread of its own, waited for here, in the main
    thread, where Ctrl-C is raised.  Typst compiles without the interpreter
    and returns to it only at the end: Ctrl-C during the key of a 400-student
    exam waited 3 s for it.  On Ctrl-C the compile is abandoned (the process
    ends; its source folder is removed now) and this process's compiler is not
    used again.  A pool's worker, which ignores Ctrl-C, compiles directly."""
    global _COMPILER
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return compile(*args)
    done: dict = {}

    def run() -> None:
        try:
            done["pdf"] = compile(*args)
        except BaseException as exc:  # noqa: BLE001 - raised again below, in the main thread
            done["error"] = exc

    thread = threading.Thread(target=run, name="typst", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.1)
    except BaseException:
        _COMPILER = None
        import glob
        import tempfile

        for folder in glob.glob(os.path.join(tempfile.gettempdir(), f"attndrills-typst-{os.getpid()}-*")):
            shutil.rmtree(folder, ignore_errors=True)
        raise
    if "error" in done:
        raise done["error"]
    return done["pdf"]


# -- which characters no font has ------------------------------------------------

_COVERAGE: list = []  # FreeType faces of font_dirs(), opened on first need
_NOT_A_FONT = ("LastResort",)  # matplotlib's Last Resort draws a box for every character


def _faces() -> list:
    if not _COVERAGE:
        from matplotlib.ft2font import FT2Font

        for folder in font_dirs():
            for path in sorted(Path(folder).rglob("*")):
                if path.suffix.lower() in (".ttf", ".otf", ".ttc", ".otc") and not path.name.startswith(_NOT_A_FONT):
                    try:
                        _COVERAGE.append(FT2Font(str(path)))
                    except (OSError, RuntimeError, ValueError):  # not a font FreeType reads: Typst skips it too
                        pass
    return _COVERAGE


def _ignorable(ch: str) -> bool:
    """Spaces, joiners, direction marks and variation selectors: no glyph of their own."""
    import unicodedata

    return ch.isspace() or unicodedata.category(ch) == "Cf" or "\ufe00" <= ch <= "\ufe0f" \
        or "\U000e0100" <= ch <= "\U000e01ef"


def missing_glyphs(text: str) -> str:
    """The characters of `text` that no font Typst uses here has (each once, in
    order): they would print as Last Resort boxes.  ASCII needs no look-up.
    Typst's embedded fonts (New Computer Modern, Libertinus) cover no letter
    that DejaVu and STIX lack, so matplotlib's folder stands in for them."""
    wanted = [ch for ch in dict.fromkeys(text) if ord(ch) > 0x7E and not _ignorable(ch)]
    if not wanted:
        return ""
    faces = _faces()
    return "".join(ch for ch in wanted if not any(f.get_char_index(ord(ch)) for f in faces))


def font_warnings(labelled: list[tuple[str, str]]) -> list[str]:
    """One line per (who, text) whose text has characters no font covers."""
    lines = []
    for who, text in labelled:
        missing = missing_glyphs(text)
        if missing:
            shown = " ".join(f"{ch} (U+{ord(ch):04X})" for ch in missing)
            lines.append(f"warning: {who}: no font has {shown}; they print as boxes. "
                         "Add a font that has them with --font-path DIR")
    return lines


def paper_name(paper: str) -> str:
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise UserError(f"--paper: {paper!r}; use a4 or letter") from None


# -- sheets -------------------------------------------------------------------

def sheet_sources(title: str, code: str, seed: int, solutions, paper: str = "a4") -> tuple[str, str]:
    """The Typst sources of a problem sheet and its key (figures drawn here)."""
    from ..figures import draw_figures

    figures = [draw_figures(s) for s in solutions]
    problems = [view(s, f) for s, f in zip(solutions, figures)]
    for p, s in zip(problems, solutions):
        p["space"] = work_space(s, 5.5)
    common = {"title": title, "code": code, "seed": seed, "paper": paper_name(paper),
              "problems": problems, "footer": _footer(title, code)}
    # the key's footer says so: a stray page of it is not taken for a sheet's
    return (render_document("sheet.typ.j2", **common),
            render_document("key.typ.j2", **{**common, "footer": _footer(title, f"{code} · key")}))


def sheet_pdfs(title: str, code: str, seed: int, solutions, paper: str = "a4") -> tuple[bytes, bytes]:
    """The problem sheet (space to work) and its key (worked solutions with
    figures, then a table of final answers) for solutions already built."""
    sheet, key = sheet_sources(title, code, seed, solutions, paper)
    return compile_pdf(sheet), compile_pdf(key)


def typst_pool(workers: int | None = None) -> TypstPool:
    """Typst compile processes with this process's fonts (`compile_pdf`'s,
    --font-path included): the same PDF bytes, compiled beside this process."""
    return TypstPool(font_dirs(), typst_inputs(), _AGE_OUT, workers)


def many_sheet_pdfs(sheets, paper: str = "a4", pool: TypstPool | None = None, workers: int | None = None,
                    ahead: int = 4):
    """`sheet_pdfs` for many sheets: yields (sheet, key) PDF bytes in the order
    of `sheets`, an iterable of (title, code, seed, solutions) that may build
    each sheet's solutions as it is asked for the next one.  This process
    draws and renders; Typst compiles in `pool`'s processes meanwhile (a new
    pool of `workers`, closed at the end, when none is given), at most
    `ahead` sheets before the one yielded next."""
    from collections import deque

    own = pool is None
    pool = pool or typst_pool(workers)
    pending: deque = deque()
    try:
        for title, code, seed, solutions in sheets:
            sheet, key = sheet_sources(title, code, seed, solutions, paper)
            pending.append((pool.compile(sheet), pool.compile(key)))
            while len(pending) > ahead:
                done = pending.popleft()
                yield done[0].result(), done[1].result()
        while pending:
            done = pending.popleft()
            yield done[0].result(), done[1].result()
    finally:
        if own:
            pool.close()


def write_sheet(spec: Spec, seed: int, out: Path, paper: str = "a4", force: bool = False) -> None:
    check_out(out, force, "sheet")
    solutions = build_items(spec.items, seed, spec.digits)  # phase one
    sheet, key = sheet_pdfs(spec.title, f"sheet-{encode(seed)}", seed, solutions, paper)
    replace_folder(out, {"sheet.pdf": sheet, "key.pdf": key}, f"attndrills {__version__} sheet {seed}")


def _footer(title: str, code: str) -> str:
    return f"{escape_typst(title)} · {escape_typst(code)}"


# -- exams --------------------------------------------------------------------

_VALUES_A_LINE = 3


def _part_view(part, digits: int | None = None) -> dict:
    """One answer line under a question on the paper: its label, what it
    asks for, and room in proportion to what is written there.  With the
    paper's `digits`, a part asking for numbers (not counts) says beside its
    box how a value below 10^-digits is written — on every such part, so the
    hint does not tell which keys are that small."""
    a = part.answer
    hint, rows = "", 1
    if a.type == "vector":
        key = a.display if a.display and isinstance(a.display[0], list) else [a.display]
        # a line of the box (45 % of the column, 7.5 cm) holds three handwritten
        # values ("0.2000;" is about 2.2 cm), a power of ten ("4.78 × 10⁻²⁵;")
        # counting as two; each row of a table starts a line
        rows = min(sum(-(-sum(2 if "×" in x else 1 for x in row) // _VALUES_A_LINE) for row in key), 8)
        values = f"{len(key[0])} value{'s' if len(key[0]) != 1 else ''}"
        hint = f"{len(key)} rows of {values}" if len(key) > 1 else values
    elif a.type == "choice":
        hint = "letter" if sum(o.correct for o in a.options) == 1 else "letters"
    elif a.type == "matching":
        rows = 2
        hint = f"{len(a.exact)} pairs"
    if digits is not None and a.type in ("numeric", "vector") and any(_flat(a.tolerance)):
        small = f"below {power_of_ten(-digits)}: 3 significant digits, as 1.23e-5"
        hint = f"{hint}; {small}" if hint else small
    return {"label": escape_typst(part.label), "quantity": label(part.quantity),
            "hint": escape_typst(hint), "height": f"{0.75 * rows:g}cm"}


def _flat(x) -> list:
    return [v for item in x for v in _flat(item)] if isinstance(x, list) else [x]


def _key_answer(a) -> str:
    """The key's value for an answer: for a choice, the letter and its text."""
    text = answer_text(a)
    if a.type == "choice":
        text += " — " + "; ".join(o.text for o in a.options if o.correct)
    return text


def _paper(job: tuple) -> dict:
    """One student's paper, written into `folder` (and the worked solutions,
    if asked), from the assembly's data: answer rows, key lines, Moodle
    questions, hashes.  With `papers` false (a --variants pool) no PDF."""
    spec, student, master, paper, with_solutions, folder, papers = job
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
                markup += f"#h(1.5em, weak: true)#box({typst_string(f'[{sol.problem.variant}, {points_text(q.points)} pt]')})"
            key.append(markup)
        for p in q.parts:
            rows.append({"student": student.id, "variant": sol.problem.variant, "question": p.label,
                         "answer": answer_text(p.answer), "tolerance": tolerance_text(p.answer),
                         "points": points_csv(p.points)})
        moodle_questions.append((q.item, sol.problem.variant, moodle.render_question(q, spec.digits)))
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
        footer = _footer(spec.title, f"{student.id} · {exam.code}")
        written[f"papers/{student.filename}.pdf"] = compile_pdf(render_document(
            "exam.typ.j2", title=spec.title, code=exam.code, seed=master, paper=paper, problems=problems,
            student_name=typst_string(breakable(student.name)), student_id=typst_string(breakable(student.id)),
            total=points_text(sum(q.points for q in exam.questions)),
            digits=spec.digits, footer=footer), age_out=not with_solutions)
        if with_solutions:  # the student's own variants, worked, with their figures
            written[f"solutions/{student.filename}.pdf"] = compile_pdf(render_document(
                "key.typ.j2", title=f"{spec.title} — worked solutions for {breakable(student.name)}", suffix="",
                code=exam.code, code_name="Paper code", seed=exam.seed, paper=paper, problems=problems,
                footer=_footer(spec.title, f"{student.id} · {exam.code} · worked solutions")))
        write_into(folder, written)  # here, so the PDFs never travel back to the main process
    return {"student": student, "seed": exam.seed, "code": exam.code, "rows": rows, "key": key,
            "points": points_text(sum(q.points for q in exam.questions)), "moodle": moodle_questions,
            "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in written.items()}}


def write_exam(spec: Spec, students: list[Student], master: int, out: Path, paper: str = "a4",
               only: str | None = None, force: bool = False, workers: int | None = None,
               solutions: bool = False, papers: bool = True) -> int:
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
        _same_exam(out, spec, master, paper, only)
    if solutions and papers:
        from .. import figures  # noqa: F401 (imported once, here: forked workers share it)
    with staged(out) as folder:
        if only is not None and out.is_dir():
            # --only: regenerate that student's paper next to the existing outputs
            shutil.copytree(out, folder, dirs_exist_ok=True)
        done = list(_run([(spec, s, master, paper, solutions, folder, papers) for s in students], workers,
                         "papers" if papers else "variant sets"))
        if only is None:
            say("writing answers.csv, moodle.xml and key.pdf")
            _write_shared(folder, spec, master, paper, done, papers)
        write_into(folder, {MARKER: marker_text(f"attndrills {__version__} exam {master}", folder)})
    return len(done)


def _same_exam(out: Path, spec: Spec, master: int, paper: str, only: str) -> None:
    """--only writes one paper beside the key, answers.csv and Moodle export
    already in `out`: they must be of the same exam (seed, questions, paper
    size), and list that student."""
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # no exam there yet: --only writes that one paper
    if manifest.get("master_seed") != master:
        raise UserError(f"--only: {out} holds the exam of seed {manifest.get('master_seed')}, not {master}; "
                        f"add --seed {manifest.get('master_seed')}")
    if manifest.get("spec", {}).get("items") != _manifest_items(spec) or manifest.get("paper") != paper:
        raise UserError(f"--only: {out} holds an exam of other questions or paper size than this spec's; "
                        "write the whole exam, or give the spec and --paper it was written with")
    if only not in {s.get("id") for s in manifest.get("students", [])}:
        raise UserError(f"--only: {out} holds no paper of {only!r}; write the whole exam to add a student")


def _manifest_items(spec: Spec) -> list[dict]:
    """The spec's items as manifest.json records them (and --only compares them)."""
    return [{"kind": i.kind, "level": i.level, "count": i.count, "points": i.points} for i in spec.items]


def _run(jobs: list[tuple], workers: int | None, label: str = "papers"):
    """Papers in roster order; a process pool over students when there are
    enough of them; progress only on a terminal."""
    return shown(_papers(jobs, workers), label, len(jobs))


def _papers(jobs: list[tuple], workers: int | None):
    workers = workers or min(2, os.cpu_count() or 1)
    if workers > 1 and len(jobs) >= 8 and "forkserver" in mp.get_all_start_methods():
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=pool_context(), initializer=pool_worker,
                                   initargs=(_EXTRA_FONTS, os.getpid()))
        try:
            yield from map_in_order(pool, _paper, jobs, chunksize=2)  # small chunks: no core idles at the end
        except BaseException:  # Ctrl-C or a failed paper: stopped at once, the staging folder goes
            stop_pool(pool)
            raise
        pool.shutdown()
    else:
        threshold = gc.get_threshold()
        gc.set_threshold(*_GC_THRESHOLD)
        try:
            yield from map(_paper, jobs)
        finally:
            gc.set_threshold(*threshold)


# A paper allocates many short-lived objects (exact fractions, maths nodes,
# SVG strings) and makes few reference cycles: collecting the youngest generation
# every 20 000 allocations instead of every 700 saves about 6 % of the time.
_GC_THRESHOLD = (20_000, 20, 20)


def pool_worker(extra_fonts: tuple[str, ...] = (), run: int | None = None) -> None:
    """A worker's set-up: it ends with the run (`run`, the command's process),
    ignores the signals the main process handles, and keeps its garbage
    collector off what it inherited."""
    global _EXTRA_FONTS
    die_with_parent(run)
    _EXTRA_FONTS = extra_fonts  # a forkserver's worker did not inherit --font-path
    # Ctrl-C (and a SIGTERM to the group) reaches every worker: the main process handles it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    gc.freeze()  # what the worker inherited is never scanned (nor copied on write by the scan)
    gc.set_threshold(*_GC_THRESHOLD)


def pool_context():
    """Fork this process when that is safe: it has imported everything, so the
    workers start at once.  Forking is safe only while no other thread runs
    (one could hold a lock mid-fork and deadlock the child): a Typst compile
    starts Rust threads, a test runner or a GUI starts Python threads (numpy's
    BLAS threads re-initialise after a fork).  Otherwise a forkserver imports
    the heavy modules once, single-threaded, and forks every worker from there."""
    if not _COMPILED and threading.active_count() == 1 and "fork" in mp.get_all_start_methods():
        return mp.get_context("fork")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["generator.writers.print", "generator.kinds", "generator.figures"])
    return ctx


def moodle_xml(spec: Spec, master: int, papers: list[dict]) -> bytes:
    """Under a category named after the exam, one category per exam question
    (spec order) holding every distinct variant of it, in roster order."""
    points = item_points(spec)
    info = (f"{spec.title}: {len(points)} questions, {points_text(sum(points))} points, master seed {master}. "
            "Build the quiz with one random question from each subcategory and set each slot's mark "
            "to the points in the subcategory's name.")
    out = [moodle.render_category([spec.title], html.escape(info, quote=False))]
    for item, pts in enumerate(points, start=1):
        out.append(moodle.render_category([spec.title, moodle.item_category(item, pts)]))
        seen = set()
        for p in papers:
            for i, variant, xml in p["moodle"]:
                if i == item and variant not in seen:
                    seen.add(variant)
                    out.append(xml)
    return moodle.render_quiz(out)


def _write_shared(folder: Path, spec: Spec, master: int, paper: str, papers: list[dict],
                  with_papers: bool = True) -> None:
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
    for p in papers:
        p["moodle"] = ()  # in moodle.xml now
    key_source = render_document(
        "exam_key.typ.j2", title=spec.title, seed=master, paper=paper, footer=_footer(spec.title, "key"),
        students=[{"name": typst_string(breakable(p["student"].name)), "id": typst_string(breakable(p["student"].id)),
                   "code": p["code"], "points": p["points"], "lines": p["key"]} for p in papers])
    put("key.pdf", compile_pdf(key_source))
    put("manifest.json", json.dumps({
        "tool": f"attndrills {__version__}",
        "dependencies": {d: _version(d) for d in ("sympy", "mpmath", "numpy", "matplotlib", "typst", "jinja2",
                                                      "manimgx-fonts", "manimgx-fonts-cjk")},
        "spec": {"title": spec.title, "source": spec.source, "digits": spec.digits,
                 "items": _manifest_items(spec)},
        "master_seed": master, "paper": paper,
        "students": [{"id": p["student"].id, "name": p["student"].name, "seed": p["seed"], "paper_code": p["code"],
                      **({"paper": f"papers/{p['student'].filename}.pdf"} if with_papers else {})}
                     for p in papers],
        "sha256": dict(sorted({**hashes, **{name: h for p in papers for name, h in p["sha256"].items()}}.items())),
    }, indent=2, ensure_ascii=False) + "\n")


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"
