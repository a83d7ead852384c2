"""A spec file read as YAML: a key given twice, nesting past MAX_NESTING and
a control character are mistakes, and each of the YAML reader's errors is
said in a spec's terms, with its line and column."""

from __future__ import annotations

from pathlib import Path

import yaml

from ..errors import UserError
from ..loaded import MAX_NESTING, file_bytes, long_number


class _Loader(yaml.SafeLoader):
    """YAML's safe loader, except that a key given twice in one mapping is an
    error (the safe loader keeps the last and says nothing), nesting deeper
    than MAX_NESTING is an error (the composer recurses once per level: 40,000
    levels ended in a RecursionError), a whole number too long for any field
    stays text (Python converts at most 4300 digits; the field's check then
    refuses it), and each mapping's line is kept (`lines`, by id), so a
    mistake in an item names its line."""

    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0
        self.lines: dict[int, int] = {}

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_NESTING} deep",
                                                  self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} appears twice in one mapping", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_map(self, node):
        data: dict = {}
        self.lines[id(data)] = node.start_mark.line + 1
        yield data
        data.update(self.construct_mapping(node))

    def construct_yaml_int(self, node):
        return long_number(node.value) or super().construct_yaml_int(node)

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, TypeError, OverflowError) as exc:  # 2026-13-45, !!int abc: Python's own words
            raise yaml.constructor.ConstructorError(
                None, None, f"not a date or number YAML can make: {exc}",
                node.start_mark) from None


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)

# What the YAML reader's sentence means in a spec's terms (its own words follow
# in brackets): the first entry whose text the reader's sentence holds.
_YAML_SAYS = (
    ("found character '\\t'", "a tab; indent with spaces"),
    ("that cannot start any token", "this character cannot start a value; put the value in quotes"),
    ("mapping values are not allowed here", "a ':' where none can stand; put a text holding ': ' in quotes, "
     "or indent this line as the lines it belongs with"),
    ("could not find expected ':'", "a 'key: value' line without its ':', or indented otherwise than the "
     "lines it belongs with"),
    ("expected <block end>", "this line is indented otherwise than the lines it belongs with"),
    ("expected ',' or ']'", "a list opened with '[' is not closed with ']', or lacks a comma"),
    ("expected ',' or '}'", "a mapping opened with '{' is not closed with '}', or lacks a comma"),
    ("expected the node content", "a value is missing here (or a bracket does not match)"),
    ("found unexpected end of stream", "a quote opened here is never closed"),
    ("found unknown escape character", "an unknown escape after a backslash in double quotes; use single "
     "quotes, or write a backslash as \\\\"),
    ("found undefined alias", "an alias (*name) with no anchor (&name) before it"),
    ("could not determine a constructor for the tag", "a tag (!!name) that a spec does not take; remove it"),
    ("not a date or number YAML can make", "YAML reads this value as a date or a number, which it is not; "
     "put it in quotes to keep it as text, or correct it"),
    ("nested more than", None),  # ours, already in a spec's terms
    ("appears twice in one mapping", None),
)


def _yaml_error(source: Path, exc: yaml.YAMLError) -> str:
    """A YAML error as one sentence a user can act on, with its line and column."""
    problem = getattr(exc, "problem", None) or str(exc)
    mark = getattr(exc, "problem_mark", None)
    if "end of stream" in problem and getattr(exc, "context_mark", None) is not None:
        mark = exc.context_mark  # where the unclosed thing starts, not the end of the file
    at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
    said = next((words for text, words in _YAML_SAYS if text in problem), problem)
    if said is None:
        return f"{source}: {at}{problem}"
    if said != problem:
        said += f" (the YAML reader: {problem})"
    return f"{source}: {at}not valid YAML: {said}"


def read_yaml(p: Path) -> tuple[object, dict[int, int]]:
    """The file's data, and each mapping's line (by id)."""
    try:
        text = file_bytes(p, "spec").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{p}: not UTF-8 text (byte {exc.start}); save the spec as UTF-8") from None
    try:
        loader = _Loader(text)  # its reader refuses control characters here
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        raise UserError(f"{p}: line {line}: not valid YAML: a control character (U+{exc.character:04X}), "
                        "which a spec cannot hold; remove it") from None
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        raise UserError(_yaml_error(p, exc)) from None
    finally:
        loader.dispose()
    return data, loader.lines
