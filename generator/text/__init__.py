"""Every sentence a student or instructor reads, by key, in text files.

The words live in `generator/text/<lang>/<file>.yaml`: one file per kind
(`cell_a.yaml`), one for what the recipe's builders share (`shared.yaml`).
A file maps keys to sentences; a nested mapping is a group, and its keys are
joined with dots (`steps.shift.title`).  A sentence names what it needs in
braces, `{gap}`; `{{` and `}}` are braces themselves.  Nothing else in a
sentence is special except what `model.prose()` typesets ("Tx", "h_i", "-3").

The code decides which sentence is said, from the numbers: a kind that says
"one clear winner" or "a near tie" holds two keys and picks one by its facts;
a sentence never picks what the numbers mean.  `Sayer` is how the code says
one:

    say = Sayer("cell_a")
    say("forecast", who=..., lo="0.6", hi="0.7")     # -> Prose
    say.text("title")                                # -> str (no maths nodes)

A key is looked up in the sayer's file, then in `shared.yaml`.  Values may be
text, numbers, maths nodes or prose (a tuple of both): text joins the
sentence's own text before `prose()` reads it, exactly as an f-string did,
and nodes stay nodes.  A number's text (`Num.text`, a `NumText`) is
written with the language's decimal mark (`convention`).  A placeholder
written with a capital first letter, `{Who}`, is the value of `{who}`
with its first letter capitalised, for a sentence that starts with it.

Which language and whose edits are used is set for a run with `use()`
(`--lang`, `--text DIR`); an instructor's file overrides the built-in one
sentence by sentence, and is checked before anything is written (`edits.check_dir`).
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Formatter
from typing import Iterator, Mapping, NamedTuple, Union

from ..mathlines import Node, NumText
from ..model import Prose, prose

BUILTIN = Path(__file__).resolve().parent
SHARED = "shared"

Value = Union[str, int, Node, tuple]


@dataclass(frozen=True)
class Sentence:
    """A sentence as written, split at its placeholders: `pieces` holds the
    literal texts and, for each placeholder, its name wrapped in a 1-tuple."""

    key: str
    source: str
    pieces: tuple[Union[str, tuple[str]], ...]
    names: frozenset[str]
    line: int = 0
    capitals: tuple[str, ...] = ()  # {Who}: its placeholders written with a capital


class TextError(ValueError):
    """A text file that cannot be used: `where` is "file:line", `key` the key."""

    def __init__(self, where: str, key: str, message: str):
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
        self.where, self.key, self.message = where, key, message


def parse_sentence(key: str, source: str, line: int = 0) -> Sentence:
    """Split a sentence at its placeholders; ValueError says what is wrong."""
    pieces: list = []
    names = set()
    for literal, name, spec, conversion in Formatter().parse(source):
        if literal:
            pieces.append(literal)
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}} is not "
                             "a placeholder: write a name in braces, such as {gap}, and {{ or }} for a brace")
        pieces.append((name,))
        names.add(name)
    return Sentence(key, source, tuple(pieces), frozenset(names), line,
                    tuple(sorted(n for n in names if base_name(n) != n)))


class Settings(NamedTuple):  # a tuple: hashed at C speed, as every sentence said is memoised by it
    lang: str = "en"
    text_dir: Path | None = None


_settings: contextvars.ContextVar[Settings] = contextvars.ContextVar("texts", default=Settings())


def settings() -> Settings:
    return _settings.get()


class _Now:
    """The run's decimal mark and list separator, kept beside the settings
    they follow (choose() and use() set both): the printers ask for them at
    every number."""

    mark = "."
    sep = ","


NOW = _Now()


def _follow() -> None:
    c = _conventions(_settings.get())
    NOW.mark, NOW.sep = c["decimal_mark"], c["list_separator"]


@contextlib.contextmanager
def use(lang: str = "en", text_dir: Path | None = None) -> Iterator[Settings]:
    """Say every sentence of the block in `lang`, with the edits in
    `text_dir/<lang>/` where there are any."""
    token = _settings.set(Settings(lang, Path(text_dir) if text_dir else None))
    _follow()
    try:
        yield _settings.get()
    finally:
        _settings.reset(token)
        _follow()


def choose(lang: str = "en", text_dir: Path | None = None) -> None:
    """Say the rest of the run's sentences in `lang` with the edits in
    `text_dir` (inside a `use()` block, which restores what was before)."""
    _settings.set(Settings(lang, Path(text_dir) if text_dir else None))
    _follow()


def read_file(path: Path) -> dict[str, Sentence]:
    """A text file's sentences by dotted key; TextError names the file, line
    and key of the first thing that cannot be used."""
    import yaml

    try:
        raw = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TextError(str(path), "", f"cannot read it ({getattr(e, 'strerror', None) or e})") from None
    try:
        root = yaml.compose(raw, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise TextError(f"{path}{line}", "", f"not YAML: {getattr(e, 'problem', None) or e}") from None
    out: dict[str, Sentence] = {}
    if root is None:
        return out
    _flatten(path, root, "", out)
    return out


def _flatten(path: Path, node, prefix: str, out: dict[str, Sentence]) -> None:
    import yaml

    where = f"{path}:{node.start_mark.line + 1}"
    if not isinstance(node, yaml.MappingNode):
        raise TextError(where, prefix.rstrip("."), "expected keys with sentences (key: sentence)")
    for key_node, value in node.value:
        key = prefix + str(key_node.value)
        line = key_node.start_mark.line + 1
        if key in out or any(k.startswith(key + ".") for k in out):
            raise TextError(f"{path}:{line}", key, "given twice")
        if isinstance(value, yaml.MappingNode):
            _flatten(path, value, key + ".", out)
        elif isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:str":
            try:
                out[key] = parse_sentence(key, value.value, line)
            except ValueError as e:
                raise TextError(f"{path}:{line}", key, str(e)) from None
        else:
            raise TextError(f"{path}:{line}", key, "expected a sentence in quotes or a group of keys")


@lru_cache(maxsize=None)
def builtin(lang: str, file: str) -> Mapping[str, Sentence]:
    path = BUILTIN / lang / f"{file}.yaml"
    return read_file(path) if path.is_file() else {}


@lru_cache(maxsize=64)
def edited(text_dir: Path, lang: str, file: str) -> Mapping[str, Sentence]:
    path = text_dir / lang / f"{file}.yaml"
    return read_file(path) if path.is_file() else {}


def lookup(file: str, key: str) -> Sentence:
    """The sentence said for `key` of `file` under the run's settings: the
    instructor's edit, else the built-in sentence of the language, else the
    English one (the translator's check reports it); then the same in
    shared.yaml."""
    s = _settings.get()
    found = _FOUND.get((s, file, key))
    if found is None:
        found = _FOUND[(s, file, key)] = _find(s, file, key)
    return found


_FOUND: dict = {}  # (settings, file, key) → its sentence: a few thousand at most


def _find(s: Settings, file: str, key: str) -> Sentence:
    for name in (file, SHARED) if file != SHARED else (SHARED,):
        if s.text_dir is not None and (hit := edited(s.text_dir, s.lang, name).get(key)):
            return hit
        if hit := builtin(s.lang, name).get(key):
            return hit
        if s.lang != "en" and (hit := builtin("en", name).get(key)):
            return hit
    raise KeyError(f"no sentence {key!r} in text/{s.lang}/{file}.yaml or {SHARED}.yaml")


@lru_cache(maxsize=64)
def _conventions(s: Settings) -> dict[str, str]:
    token = _settings.set(s)
    try:
        return {key: lookup("language", key).source for key in ("decimal_mark", "list_separator", "typst_lang")}
    finally:
        _settings.reset(token)


def convention(key: str) -> str:
    """How the run's language writes numbers (text/<lang>/language.yaml):
    `decimal_mark`, `list_separator`, `typst_lang`."""
    return _conventions(_settings.get())[key]


def number(text: str) -> str:
    """A printed number (0.4498, −1.5, 2.06 × 10⁻⁹) with the run's decimal mark."""
    mark = NOW.mark
    return text if mark == "." else text.replace(".", mark)


def compose(sentence: Sentence, values: Mapping[str, Value]) -> list:
    """The sentence's pieces with the values put in: texts joined into one
    string, nodes kept."""
    parts: list = []
    text = ""
    for piece in sentence.pieces:
        if isinstance(piece, str):
            text += piece
            continue
        name = piece[0]
        if name in values:
            value = values[name]
        elif (lower := base_name(name)) != name and lower in values:
            value = capitalised(_parts(values[lower]))
        else:
            raise KeyError(f"{sentence.key}: no value for {{{name}}}")
        for v in _parts(value):
            if isinstance(v, str):
                text += v
            else:
                if text:
                    parts.append(text)
                    text = ""
                parts.append(v)
    if text:
        parts.append(text)
    return parts


def base_name(name: str) -> str:
    """The placeholder a capitalised one stands for: Who → who."""
    return name[:1].lower() + name[1:]


def capitalised(parts: tuple) -> tuple:
    if parts and isinstance(parts[0], str) and parts[0]:
        return (parts[0][:1].upper() + parts[0][1:],) + tuple(parts[1:])
    return parts


def _parts(value: Value) -> tuple:
    if isinstance(value, NumText):
        return (number(value),)
    if isinstance(value, str):
        return (value,)
    if isinstance(value, tuple):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return (str(value),)
    return (value,)


_TEXTS = frozenset({str, NumText, int})  # the values a sentence is memoised by (not bool: a count is an int)
MEMO = 512  # sentences memoised per file and settings, at most
_SAYERS: dict = {}  # file → its one Sayer, whose memo every caller shares


class Sayer:
    """Says the sentences of one text file (`cell_a`, `shared` …).  Variants
    say the same sentences again and again (a title, a symbol's meaning, a
    step's reason), so a sentence whose values are texts and counts is
    memoised per settings, by key and values; one holding maths (nodes, mostly
    new to each variant, which hash by walking their tree) is put together
    afresh.  The memo is held small (MEMO): a memo of every number said would
    grow the heap the collector walks."""

    __slots__ = ("file", "_said", "_plain")

    def __new__(cls, file: str):
        sayer = _SAYERS.get(file)
        if sayer is None:
            sayer = _SAYERS[file] = super().__new__(cls)
            sayer.file = file
            sayer._said = {}  # settings → {key or (key, *values) → Prose}
            sayer._plain = {}  # settings → {key or (key, *values) → str}
        return sayer

    def __call__(self, key: str, /, **values: Value) -> Prose:
        if values and not _TEXTS.issuperset(map(type, values.values())):
            return prose(*compose(lookup(self.file, key), values))
        memo = self._said.get(s := _settings.get())
        if memo is None or len(memo) >= MEMO:
            memo = self._said[s] = {}
        said = memo.get(at := (key, *values.items()) if values else key)
        if said is None:
            sentence = lookup(self.file, key)
            text = _formatted(sentence, values) if values else None
            said = memo[at] = prose(*compose(sentence, values)) if text is None else prose(text)
        return said

    def text(self, key: str, /, **values: Value) -> str:
        """A sentence as plain text (a title, a label): its values are texts."""
        if values and not _TEXTS.issuperset(map(type, values.values())):
            return _joined(key, compose(lookup(self.file, key), values))
        memo = self._plain.get(s := _settings.get())
        if memo is None or len(memo) >= MEMO:
            memo = self._plain[s] = {}
        said = memo.get(at := (key, *values.items()) if values else key)
        if said is None:
            sentence = lookup(self.file, key)
            said = _formatted(sentence, values) if values else None
            if said is None:
                said = _joined(key, compose(sentence, values))
            memo[at] = said
        return said


def _joined(key: str, parts: list) -> str:
    if any(not isinstance(p, str) for p in parts):
        raise TypeError(f"{key}: a plain text cannot hold maths")
    return "".join(parts)


def _formatted(sentence: Sentence, values: Mapping[str, Value]) -> str | None:
    """The sentence with its values (texts and counts: _TEXTS) put in, as
    `compose` would join them, by str.format at C speed; None when a value
    is missing (compose says which)."""
    mark = NOW.mark
    given = values
    if mark != "." and NumText in map(type, values.values()):
        given = {name: v.replace(".", mark) if type(v) is NumText else v for name, v in values.items()}
    try:
        return sentence.source.format_map(Capitals(given) if sentence.capitals else given)
    except KeyError:
        return None


class Capitals(dict):
    """A sentence's values, texts and counts, for str.format_map: {Who} is
    {who} with a capital first letter (the figures fill their words so too)."""

    def __missing__(self, name: str) -> str:
        lower = base_name(name)
        if lower == name or lower not in self:
            raise KeyError(name)
        value = str(self[lower])
        return value[:1].upper() + value[1:]
