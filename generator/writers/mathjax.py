"""Offline MathJax 3 for the site: copied from the installed PyPI package
`django-static-mathjax` into DOCS/assets/mathjax/ (git-ignored) by
`attndrills site`, so that both builders — MkDocs and Zensical, which runs
no MkDocs hook — publish it as a plain static folder.  Nothing is fetched
from a CDN and no third-party file is ever committed."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .atomic import check_out, read_marker, replace_folder

# Where the pages look for it (mkdocs.yml's extra_javascript names the same path).
FOLDER = Path("assets") / "mathjax"
# What tex-mml-chtml.js loads: itself, its CHTML fonts, and the components it
# may fetch on demand (accessibility, speech, menu, TeX extensions).
PARTS = ("tex-mml-chtml.js", "output/chtml/fonts/woff-v2", "a11y", "sre", "ui", "input/tex/extensions")


def mathjax_root() -> Path | None:
    """The package's MathJax folder, or None when django-static-mathjax is not installed."""
    try:
        root = Path(str(resources.files("mathjax"))) / "static" / "mathjax"
    except ModuleNotFoundError:
        return None
    return root if (root / "es5" / "tex-mml-chtml.js").is_file() else None


def _version(root: Path) -> str:
    import json

    return json.loads((root / "package.json").read_text(encoding="utf-8"))["version"]


def check_mathjax(docs: Path, force: bool = False) -> None:
    """Refuse now what write_mathjax would refuse after the whole build: a
    DOCS/assets/mathjax folder attndrills did not write (unless --force)."""
    if mathjax_root() is not None:
        check_out(docs / FOLDER, force, "mathjax")


def write_mathjax(docs: Path, force: bool = False) -> Path | None:
    """Copy MathJax into DOCS/assets/mathjax/ (swapped in whole; skipped when the
    same version is already there).  Returns the folder, or None when the
    package is missing (the caller warns: the pages build, their maths stays raw)."""
    root = mathjax_root()
    if root is None:
        return None
    target = docs / FOLDER
    stamp = f"attndrills mathjax {_version(root)}"
    marker = read_marker(target)
    if marker is not None and marker[0] == stamp and (target / PARTS[0]).is_file():
        return target  # already there: copying 7 MB on every run would only cost time
    check_out(target, force, "mathjax")
    files: dict[str, bytes | str] = {"LICENSE": (root / "LICENSE").read_bytes()}
    for part in PARTS:
        src = root / "es5" / part
        paths = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file())
        for p in paths:
            files[str(Path(part) / p.relative_to(src)) if p != src else part] = p.read_bytes()
    replace_folder(target, files, stamp)
    return target
