"""The CSV files a user hands in (answers.csv and responses for `grade`):
read with the delimiter their header is written with, header names matched
whatever their case, every mistake named with its line."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from ..errors import UserError
from ..loaded import file_bytes
from ..spreadsheet import read_cell

# Spreadsheets in decimal-comma locales save "CSV" with semicolons (or tabs)
# between fields: the delimiter is the one under which the header holds the columns.
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}


def csv_problem(exc: Exception) -> str:
    """csv's error in words a user can act on."""
    text = str(exc)
    if "unexpected end of data" in text:
        return 'a quoted field runs to the end of the file (a closing " is missing)'
    return text


def _delimiter(text: str, columns: list[str]) -> str:
    header = text.split("\n", 1)[0]
    for d in DELIMITERS:
        try:
            names = [h.strip().casefold() for h in next(csv.reader([header], delimiter=d), [])]
        except csv.Error:
            continue
        if all(c in names for c in columns):
            return d
    return ","


def read_csv(path: Path, columns: list[str], what: str,
             unquote: bool = False, optional: tuple[str, ...] = ()) -> list[tuple[int, dict[str, str]]]:
    """(line, row) pairs holding `columns`; header names match whatever their
    case and surrounding spaces; blank lines are skipped.  Fields are separated
    by commas, semicolons or tabs (whichever makes the header).  `unquote`:
    the file is one this project wrote, whose cells may carry the quote that
    keeps a spreadsheet from running them (generator.spreadsheet).  `optional`:
    columns read where the header has them."""
    text = _csv_text(path, what)
    delimiter = _delimiter(text, columns)
    # strict: a quote left open is an error, not a field running to the end of the file
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter)
    rows = []
    try:
        names = [h.strip().casefold() for h in next(reader, [])]
        index = _columns(path, names, columns + [c for c in optional if names.count(c) == 1])
        while True:
            line = reader.line_num + 1
            cells = next(reader, None)
            if cells is None:
                break
            _no_extra_fields(path, line, cells, len(names), delimiter)
            if any(c.strip() for c in cells):
                row = {c: cells[i] if i < len(cells) else "" for c, i in index.items()}
                rows.append((line, {c: read_cell(v) for c, v in row.items()} if unquote else row))
    except csv.Error as exc:
        raise UserError(f"{path}: line {reader.line_num}: {csv_problem(exc)}") from None
    return rows


def _csv_text(path: Path, what: str) -> str:
    try:
        text = file_bytes(path, what).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    if "\x00" in text:
        raise UserError(f"{path}: contains NUL bytes; is it really a CSV file?")
    return text


def _columns(path: Path, names: list[str], columns: list[str]) -> dict[str, int]:
    """Where each of `columns` is in the header `names` (each there once)."""
    missing = [c for c in columns if c not in names]
    if missing:
        raise UserError(f"{path}: line 1: the header needs the columns {', '.join(columns)} "
                        f"(missing: {', '.join(missing)}); separate the fields with commas")
    twice = [c for c in columns if names.count(c) > 1]
    if twice:
        raise UserError(f"{path}: line 1: the column {twice[0]} appears twice in the header")
    return {c: names.index(c) for c in columns}


def _no_extra_fields(path: Path, line: int, cells: list[str], width: int, delimiter: str) -> None:
    if len(cells) > width and any(c.strip() for c in cells[width:]):
        example = "0,1; 0,2; 0,7" if delimiter == ";" else "0.1, 0.2, 0.7"
        raise UserError(f"{path}: line {line}: {len(cells)} fields where the header has {width}; "
                        f"a value holding {DELIMITERS[delimiter]}s goes in double quotes (\"{example}\")")
