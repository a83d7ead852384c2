"""`attndrills text check`: what a translator (or an instructor with edits)
must fix, found by rendering every kind x seeds x languages.

Reported, one line each: a key the English has and a language lacks
(missing), a key nothing asks for (unused: neither said while rendering nor
written in the code or the templates), a sentence whose placeholders differ
from the English, a sentence of another language that still reads as
English (two or more words of ENGLISH, or the rendered page of a kind in
that language, with its figures, holding them), and a number written with a
decimal point on a page of a language whose mark is a comma.  The exit code
is 1 when anything is reported."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from .. import text
from ..errors import UserError
from .edits import check_dir, check_lang, files, languages, placeholders, same_names

# Words of English that no German (or other) sentence of this course uses.
ENGLISH = frozenset("""
the and of is are with which this that these those each every from into than why what where when
its their weight weights score scores sum compute position positions step steps largest smallest
because therefore exactly only both between after before there here would could should
""".split())
_WORD = re.compile(r"[^\W\d_]+")
_MATHS = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)


def english_words(sentence: str) -> list[str]:
    """The words of ENGLISH in a sentence or page (placeholders and maths,
    `$…$`, left out: \\sum is no word)."""
    return [w for w in _WORD.findall(_MATHS.sub(" ", re.sub(r"\{[^{}]*\}", " ", sentence))) if w in ENGLISH]


def literals_in_code() -> frozenset[str]:
    """Every string literal of the package's Python and of the templates:
    the keys the code names."""
    from ..templating import template_folders

    root = Path(__file__).resolve().parents[1]
    found = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    for folder in template_folders():
        for path in folder.rglob("*.j2"):
            found.update(m.group(2) for m in re.finditer(r"(['\"])([\w.]+)\1", path.read_text("utf-8")))
    return frozenset(found)


def named(key: str, literals: frozenset[str]) -> bool:
    """A key is named where the code writes it, or its group (a whole group
    handed on, written with its dot: "practice.")."""
    parts = key.split(".")
    return key in literals or any(".".join(parts[:i]) + "." in literals for i in range(1, len(parts)))


class _Recorder:
    """Records which (file, key) the renders ask for, and which fell back to English."""

    def __init__(self):
        self.said: set[tuple[str, str]] = set()
        self.fallback: set[tuple[str, str, str]] = set()
        self._lookup = text.lookup

    def __enter__(self):
        def lookup(file: str, key: str):
            sentence = self._lookup(file, key)
            s = text.settings()
            owner = file if key in text.builtin("en", file) else text.SHARED
            self.said.add((owner, key))
            if s.lang != "en" and key not in text.builtin(s.lang, owner) and \
                    not (s.text_dir and key in text.edited(s.text_dir, s.lang, owner)):
                self.fallback.add((s.lang, owner, key))
            return sentence

        text.lookup = lookup
        return self

    def __exit__(self, *exc):
        text.lookup = self._lookup


def _render_all(langs: tuple[str, ...], text_dir: Path | None, seeds: int, out: list[str]) -> _Recorder:
    from .. import kinds
    from ..pipeline import sample_problem, solve_problem
    from ..figures import draw_figures
    from ..render.html import solution_html
    from ..render.markdown import render_problem

    with _Recorder() as rec:
        for lang in langs:
            for kind in kinds.all_kinds():
                for seed in range(seeds):
                    with text.use(lang, text_dir):
                        try:
                            solution = solve_problem(sample_problem(kind.id, seed), 4)
                            figures = draw_figures(solution)  # their words and alt texts are read too
                            # the page, the figures' words, and the worked solution as Moodle, Canvas
                            # and `analyse` show it (HTML)
                            page = render_problem(solution, figures=figures) + "".join(
                                re.sub(r"<[^>]*>", " ", f.data.decode("utf-8")) for f in figures) + \
                                re.sub(r"<[^>]*>", " ", solution_html(solution))
                        except KeyError as e:
                            out.append(f"{kind.id} seed {seed} ({lang}): {e.args[0]}")
                            continue
                    if lang != "en" and len(set(left := english_words(page))) >= 2:  # a quoted word "the" is data
                        out.append(f"{kind.id} seed {seed} ({lang}): the page reads as English in places "
                                   f"({', '.join(sorted(set(left))[:6])})")
                    if _point_left(lang, page):
                        out.append(f"{kind.id} seed {seed} ({lang}): a number with a decimal point "
                                   f"({_point_left(lang, page)}), not the language's mark")
    return rec


def _point_left(lang: str, page: str) -> str | None:
    """A number written with a decimal point on a page of a language whose
    mark is not one (2+ decimals: "Exercise 2.1" is a name, not a number)."""
    with text.use(lang):
        if text.convention("decimal_mark") == ".":
            return None
    hit = re.search(r"(?<![\w.-])\d+\.\d{2,}(?![\w.])", page)
    return hit.group(0) if hit else None


def _compare(lang: str, out: list[str]) -> None:
    """Missing keys, keys the English lacks, placeholders and English words
    of one language's built-in files."""
    for name in files("en"):
        english, other = text.builtin("en", name), text.builtin(lang, name)
        where = f"text/{lang}/{name}.yaml"
        for key in english:
            if key not in other:
                out.append(f"{where}: {key}: missing")
        for key, s in other.items():
            if key not in english:
                out.append(f"{where}:{s.line}: {key}: the English has no such key")
            elif same_names(s.names) != same_names(english[key].names):
                out.append(f"{where}:{s.line}: {key}: placeholders {placeholders(s.names)}, the English has "
                           f"{placeholders(english[key].names)}")
            elif len(left := english_words(s.source)) >= 2:
                out.append(f"{where}:{s.line}: {key}: still English? ({', '.join(left[:6])})")


def run_check(langs: list[str] | None, text_dir: Path | None, seeds: int) -> int:
    chosen = tuple(check_lang(lang) for lang in langs) if langs else languages()
    if not 1 <= seeds <= 50:
        raise UserError("--seeds: use 1 to 50")
    out: list[str] = []
    if text_dir is not None:
        for lang in chosen:
            if (text_dir / lang).is_dir():
                check_dir(text_dir, lang)  # every mistake of the edits, at once (exit 2)
    for lang in chosen:
        if lang != "en":
            _compare(lang, out)
    rec = _render_all(chosen, text_dir, seeds, out)
    out.extend(f"text/{lang}/{name}.yaml: {key}: missing (said in English)" for lang, name, key in
               sorted(rec.fallback))
    code = literals_in_code()
    for name in files("en"):
        for key, s in text.builtin("en", name).items():
            if (name, key) not in rec.said and not named(key, code):
                out.append(f"text/en/{name}.yaml:{s.line}: {key}: unused (not said in {seeds} seed(s) of every "
                           "kind, nor named in the code)")
    for line in dict.fromkeys(out):
        print(line)
    print(f"checked {', '.join(chosen)}: every kind x {seeds} seed(s); "
          f"{len(dict.fromkeys(out))} thing(s) to fix", file=sys.stderr)
    return 1 if out else 0

