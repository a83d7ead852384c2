"""The one Jinja loader: templates live at the top level of the repository
(`templates/`) and are shipped inside the wheel as `generator/templates`.

Compiled templates are kept between runs in the user's cache folder
(`$XDG_CACHE_HOME/attndrills`, else `~/.cache/attndrills`): compiling the
three templates of one problem costs more than rendering it.  Jinja checks
each cached template against its source and writes it atomically; a folder
that cannot be written only means compiling every time."""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path

import jinja2

from .text import Sayer, Settings, convention, settings, use

_HERE = Path(__file__).resolve().parent
_CANDIDATES = (_HERE / "templates", _HERE.parent / "templates")
_OPTIONS = dict(
    autoescape=False,  # every renderer escapes for its own format
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


class _Cache(jinja2.FileSystemBytecodeCache):
    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:  # a full disk or a read-only home: no cache, same output
            pass


def _cache() -> _Cache | None:
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attndrills"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: no home folder to find
        return None
    # the compiled code depends on the options and Jinja's version, which the
    # cache key does not hold: they name the files
    tag = hashlib.sha256(f"{sorted(_OPTIONS.items())} {jinja2.__version__}".encode()).hexdigest()[:12]
    return _Cache(str(folder), f"template-{tag}-%s.cache")


# ui(key, **values): the templates' words (text/<lang>/ui.yaml) in the run's
# language, `{{ ui("problem.step", n=1, title=…) }}`; a word without
# placeholders is `{{ t["problem.forecast"] }}`.  They are written in the
# markup of the page they stand on, and put in as they are.
_UI = Sayer("ui")
ui = _UI.text


class _Said:
    """`{{ t["problem.forecast"] }}`: a word of ui.yaml without placeholders,
    as an item (Jinja looks an item up for far less than it calls a function,
    and a page says these for every problem)."""

    def __getitem__(self, key: str) -> str:
        return _UI.text(key)  # memoised there


def template_folders() -> list[Path]:
    return [p for p in _CANDIDATES if p.is_dir()]


_WORD = re.compile(r'\{\{ t\["([a-z_.]+)"\] \}\}')


class _WithWords(jinja2.FileSystemLoader):
    """The templates with each `{{ t["key"] }}` written in as the word it is
    in one language (a constant Jinja writes out when it compiles): a page
    says these words for every problem it holds."""

    def __init__(self, paths: list[str], words: Settings):
        super().__init__(paths)
        self.words = words

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        with use(*self.words):
            source = _WORD.sub(lambda m: "{{ " + json.dumps(_UI.text(m[1]), ensure_ascii=False) + " }}", source)
        return source, filename, uptodate


def environment() -> jinja2.Environment:
    """The Jinja environment of the run's language and edits."""
    return _environment(settings())


@lru_cache(maxsize=8)
def _environment(words: Settings) -> jinja2.Environment:
    paths = [str(p) for p in template_folders()]
    if not paths:  # pragma: no cover - a broken install
        raise RuntimeError("the templates folder is missing from this installation")
    env = jinja2.Environment(
        loader=_WithWords(paths, words),
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
        bytecode_cache=_cache(),
        **_OPTIONS,
    )
    env.globals["ui"] = ui
    env.globals["t"] = _Said()
    env.globals["ui_convention"] = convention
    return env
