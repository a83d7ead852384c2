"""The one Jinja loader: templates live at the top level of the repository
(`templates/`) and are shipped inside the wheel as `generator/templates`."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

_HERE = Path(__file__).resolve().parent
_CANDIDATES = (_HERE / "templates", _HERE.parent / "templates")


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    paths = [str(p) for p in _CANDIDATES if p.is_dir()]
    if not paths:  # pragma: no cover - a broken install
        raise RuntimeError("the templates folder is missing from this installation")
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(paths),
        autoescape=False,  # every renderer escapes for its own format
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )
