"""An instructor's own words: the text files `attndrills text export` copies
out, and the check of an edited folder before a run uses it (`--text DIR`).

An edited folder holds `<lang>/<file>.yaml` files, each with any of the
built-in file's keys.  A key the built-in file does not have, a placeholder
the sentence does not offer, a placeholder the sentence needs but leaves
out, a file of no known name and YAML that does not parse are refused, all
at once, each as `file:line: key: what is allowed`."""

from __future__ import annotations

import difflib
from pathlib import Path

from ..errors import UserError
from . import BUILTIN, TextError, base_name, builtin, choose, read_file

SHOWN = 20  # mistakes listed; the rest counted


def languages() -> tuple[str, ...]:
    """The languages with built-in text files."""
    return tuple(sorted(p.name for p in BUILTIN.iterdir() if p.is_dir() and any(p.glob("*.yaml"))))


def files(lang: str = "en") -> tuple[str, ...]:
    """The names of the built-in text files of a language (English's set is
    every file there is)."""
    return tuple(sorted(p.stem for p in (BUILTIN / lang).glob("*.yaml")))


def check_lang(lang: str, where: str = "--lang") -> str:
    if lang not in languages():
        raise UserError(f"{where} {lang!r}: no such language; the languages are {', '.join(languages())}")
    return lang


def same_names(names) -> frozenset[str]:
    """Placeholders as a sentence may write them: {Who} is {who} capitalised."""
    return frozenset(base_name(n) for n in names)


def placeholders(names) -> str:
    return ", ".join(f"{{{n}}}" for n in sorted(names)) or "none"


def mistakes_in(path: Path, english: dict) -> list[str]:
    """What cannot be used in one edited file, checked against the built-in
    English file of its name (`english`: key → Sentence)."""
    try:
        edited = read_file(path)
    except TextError as e:
        return [str(e)]
    found = []
    for key, s in edited.items():
        here = f"{path}:{s.line}: {key}"
        ref = english.get(key)
        if ref is None:
            close = difflib.get_close_matches(key, english, n=1)
            found.append(f"{here}: no such sentence in {path.name}" + (f" (did you mean {close[0]}?)" if close else
                                                                       "; `attndrills text export` lists its keys"))
            continue
        got, offered = same_names(s.names), same_names(ref.names)
        if got - offered:
            found.append(f"{here}: {placeholders(got - offered)} is not a placeholder of this sentence; "
                         f"it may use {placeholders(offered)}")
        if offered - got:
            found.append(f"{here}: the sentence needs {placeholders(offered - got)} (it may use "
                         f"{placeholders(offered)})")
    return found


def check_dir(text_dir: Path, lang: str) -> Path:
    """The edited folder, checked whole: UserError lists every mistake."""
    folder = text_dir / lang
    if not folder.is_dir():
        raise UserError(f"--text {text_dir}: it holds no folder {lang}/ of text files; "
                        f"`attndrills text export {text_dir}` writes one to start from")
    known = files("en")
    found: list[str] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.is_dir():
            continue
        if path.suffix != ".yaml" or path.stem not in known:
            close = difflib.get_close_matches(path.stem, known, n=1)
            found.append(f"{path}: not a text file of attndrills" +
                         (f" (did you mean {close[0]}.yaml?)" if close else "; the names are those `text export` writes"))
            continue
        found.extend(mistakes_in(path, dict(builtin("en", path.stem))))
    if len(found) == 1:
        raise UserError(found[0])
    if found:
        more = [f"… and {len(found) - SHOWN} more"] if len(found) > SHOWN else []
        raise UserError(f"--text {text_dir}: {len(found)} mistakes:", details=found[:SHOWN] + more)
    return text_dir


def exported(names: tuple[str, ...], lang: str) -> dict[str, bytes]:
    """The built-in files to copy out, by file name: the named ones and the
    shared sentences they use (every file when `names` is empty)."""
    chosen = names + ("shared",) if names else files(lang)
    return {f"{n}.yaml": (BUILTIN / lang / f"{n}.yaml").read_bytes() for n in sorted(set(chosen))
            if (BUILTIN / lang / f"{n}.yaml").is_file()}


def choose_words(lang: str | None, text_dir: str | None, spec=None) -> None:
    """The run's language and edited sentences: --lang and --text, else the
    spec's lang and text (a folder named from the spec's own folder), else
    English as built in.  An edited folder is checked whole before anything
    is written."""
    if lang:
        lang = check_lang(lang)
    elif spec is not None and spec.lang:
        lang = check_lang(spec.lang, f"{spec.source}: lang")
    else:
        lang = "en"
    folder = Path(text_dir) if text_dir else None
    if folder is None and spec is not None and spec.text:
        folder = Path(spec.source).parent / spec.text
    choose(lang, check_dir(folder, lang) if folder is not None else None)


def export(kinds_named: list[str], folder: Path, lang: str, force: bool) -> None:
    """`attndrills text export`: the built-in files into FOLDER/LANG/."""
    import sys

    from .. import kinds
    from ..writers.files import write_new_files

    lang = check_lang(lang)
    files_out = exported(tuple(kinds.entry(name).module for name in kinds_named), lang)
    write_new_files(folder / lang, files_out, force)
    print(f"wrote {len(files_out)} text file(s) into {folder / lang}; edit them, then use --text {folder}",
          file=sys.stderr)


def text_command(args) -> int:
    """`attndrills text export …` and `attndrills text check …`."""
    if args.action is None:
        raise UserError("text needs an action: `attndrills text export DIR` or `attndrills text check`")
    if args.action == "check":
        from .check import run_check

        return run_check(args.lang, Path(args.text) if args.text else None, args.seeds)
    export(args.kinds, Path(args.dir), args.lang, args.force)
    return 0
