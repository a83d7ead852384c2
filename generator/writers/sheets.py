"""Printable problem sheets: a sheet with room to work and its key (worked
solutions with figures, then the final answers), Typst PDFs."""

from __future__ import annotations

from pathlib import Path

from .. import __version__
from ..exam.spec import Spec
from ..pipeline import build_items
from ..render.typst import escape_typst, render_document, view, work_space
from ..seeding import encode
from ..text import Sayer
from .atomic import check_out, replace_folder
from .typst import compiler
from .typst.compiler import paper_name, typst_pool
from .typst.pool import TypstPool


def sheet_sources(title: str, code: str, seed: int, solutions, paper: str = "a4") -> tuple[str, str]:
    """The Typst sources of a problem sheet and its key (figures drawn here)."""
    from ..figures import draw_figures

    figures = [draw_figures(s) for s in solutions]
    problems = [view(s, f) for s, f in zip(solutions, figures)]
    for p, s in zip(problems, solutions):
        p["space"] = work_space(s, 5.5)
    common = {"title": title, "code": code, "seed": seed, "paper": paper_name(paper),
              "problems": problems, "footer": footer(title, code)}
    # the key's footer says so: a stray page of it is not taken for a sheet's
    key_footer = footer(title, Sayer("ui").text("papers.sheet_key_footer", code=code))
    return (render_document("sheet.typ.j2", **common),
            render_document("key.typ.j2", **{**common, "footer": key_footer}))


def sheet_pdfs(title: str, code: str, seed: int, solutions, paper: str = "a4") -> tuple[bytes, bytes]:
    """The problem sheet (space to work) and its key (worked solutions with
    figures, then a table of final answers) for solutions already built."""
    sheet, key = sheet_sources(title, code, seed, solutions, paper)
    return compiler.compile_pdf(sheet), compiler.compile_pdf(key)


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


def footer(title: str, code: str) -> str:
    """A page's footer line: the title, and the code that tells the page's document."""
    return f"{escape_typst(title)} · {escape_typst(code)}"
