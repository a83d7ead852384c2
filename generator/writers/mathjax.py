"""MkDocs hook: copy MathJax 3 from the installed PyPI package
`django-static-mathjax` into the built site, so formulas render with no
network and no third-party file is ever committed."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

# What tex-mml-chtml.js loads: itself, its CHTML fonts, and the components it
# may fetch on demand (accessibility, speech, menu, TeX extensions).
PARTS = ("tex-mml-chtml.js", "output/chtml/fonts/woff-v2", "a11y", "sre", "ui", "input/tex/extensions")


def mathjax_root() -> Path:
    root = Path(str(resources.files("mathjax"))) / "static" / "mathjax"
    if not (root / "es5" / "tex-mml-chtml.js").is_file():
        raise RuntimeError("MathJax is missing: install django-static-mathjax (pip install -e '.[site]')")
    return root


def on_post_build(config, **kwargs) -> None:
    root = mathjax_root()
    target = Path(config["site_dir"]) / "javascripts" / "mathjax"
    shutil.rmtree(target, ignore_errors=True)
    for part in PARTS:
        src = root / "es5" / part
        dst = target / part
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    shutil.copy2(root / "LICENSE", target / "LICENSE")
