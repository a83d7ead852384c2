"""Typst for every PDF: the fonts it takes (packaged ones and --font-path
folders, never the machine's), the characters none of them has, the one
compiler of this process, and the compile processes of `pool` set up with
the same fonts, so a PDF is the same bytes wherever it is compiled."""

from __future__ import annotations

import os
import shutil
import signal
import threading
from pathlib import Path

from ...errors import UserError
from .pool import TypstPool, age_out_cache, compile_settled

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

def typst_pool(workers: int | None = None) -> TypstPool:
    """Typst compile processes with this process's fonts (`compile_pdf`'s,
    --font-path included): the same PDF bytes, compiled beside this process."""
    return TypstPool(font_dirs(), typst_inputs(), _AGE_OUT, workers)


def extra_fonts() -> tuple[str, ...]:
    """The --font-path folders in use, for a worker process to take over."""
    return _EXTRA_FONTS


def take_fonts(folders: tuple[str, ...]) -> None:
    """A worker's --font-path folders, as the command checked them (a
    forkserver's worker did not inherit them)."""
    global _EXTRA_FONTS
    _EXTRA_FONTS = folders


def has_compiled() -> bool:
    """Whether this process has compiled: Typst's threads outlive a compiler,
    so it must not fork any more."""
    return _COMPILED
