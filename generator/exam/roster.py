"""Rosters: a CSV with a header holding `id` (required, unique) and `name`
(optional); other columns are kept but unused.  Every problem names its line:
nobody is silently dropped."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..loaded import file_bytes
from .tables import csv_problem

MAX_STUDENTS = 2000


@dataclass(frozen=True)
class Student:
    id: str
    name: str

    @property
    def filename(self) -> str:
        """A safe file name; ids that are not already safe get a short hash."""
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", self.id)[:60].lstrip(".") or "student"
        if safe != self.id:
            safe += "-" + hashlib.sha256(self.id.encode()).hexdigest()[:6]
        return safe


def numbered(n: int) -> list[Student]:
    if not 1 <= n <= MAX_STUDENTS:
        raise UserError(f"--students: use 1 to {MAX_STUDENTS}")
    width = max(3, len(str(n)))
    return [Student(f"s{i:0{width}d}", f"Student {i}") for i in range(1, n + 1)]


def variant_sets(n: int) -> list[Student]:
    """`--variants N`: N variant sets v001…, drawn like students with those ids."""
    if not 1 <= n <= MAX_STUDENTS:
        raise UserError(f"--variants: use 1 to {MAX_STUDENTS}")
    width = max(3, len(str(n)))
    return [Student(f"v{i:0{width}d}", f"Variant set {i}") for i in range(1, n + 1)]


MAX_NAME = 200  # a paper's name field holds about 80 characters a line; a name past this runs off it


def load_roster(path: str | Path) -> list[Student]:
    p = Path(path)
    # strict: a quote left open is an error, not a field running to the end of the file
    reader = csv.reader(io.StringIO(_roster_text(p), newline=""), strict=True)
    header, i_id, i_name = _header(p, reader)
    students: list[Student] = []
    seen: dict[str, int] = {}  # id → its line
    files: dict[str, tuple[str, int]] = {}  # a paper's file name, in lower case → (id, line)
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue  # a blank line is not a student
            where = f"{p}: line {reader.line_num}"
            sid = _row_id(where, row, len(header), i_id)
            _unique(where, sid, seen, files, reader.line_num)
            name = row[i_name].strip() if i_name is not None and i_name < len(row) else ""
            if len(name) > MAX_NAME:
                raise UserError(f"{where}: the name is longer than {MAX_NAME} characters")
            for what, text in (("id", sid), ("name", name)):
                _no_control(where, what, text)
            students.append(Student(sid, name or sid))
            if len(students) > MAX_STUDENTS:
                raise UserError(f"{p}: more than {MAX_STUDENTS} students")
    except csv.Error as exc:
        raise UserError(f"{p}: line {reader.line_num}: {csv_problem(exc)}") from None
    if not students:
        raise UserError(f"{p}: no students below the header")
    return students


def _roster_text(p: Path) -> str:
    """The roster's text: readable, UTF-8 (a byte-order mark dropped), no NUL."""
    raw = file_bytes(p, "roster")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise UserError(f"{p}: line {line}: not UTF-8 text; save the roster as UTF-8 CSV") from None
    if "\x00" in text:
        raise UserError(f"{p}: contains NUL bytes; is it really a CSV file?")
    return text


def _header(p: Path, reader) -> tuple[list[str], int, int | None]:
    """The header row, and the places of its id and (optional) name columns."""
    try:
        header = next(reader)
    except StopIteration:
        raise UserError(f"{p}: the roster is empty; it needs a header with an 'id' column") from None
    except csv.Error as exc:
        raise UserError(f"{p}: line 1: {csv_problem(exc)}") from None
    cols = [h.strip().lower() for h in header]
    if "id" not in cols:
        raise UserError(f"{p}: line 1: the header needs an 'id' column (found: {', '.join(header) or 'nothing'})")
    twice = [c for c in ("id", "name") if cols.count(c) > 1]
    if twice:
        raise UserError(f"{p}: line 1: the column {twice[0]!r} appears twice in the header")
    return header, cols.index("id"), cols.index("name") if "name" in cols else None


def _row_id(where: str, row: list[str], width: int, i_id: int) -> str:
    """A row's id, in a row no wider than the header."""
    if len(row) > width and any(cell.strip() for cell in row[width:]):
        raise UserError(f"{where}: {len(row)} fields where the header has {width}; "
                        "a name holding a comma goes in double quotes (\"Smith, John\")")
    sid = row[i_id].strip() if i_id < len(row) else ""
    if not sid:
        raise UserError(f"{where}: empty id")
    if len(sid) > 100:
        raise UserError(f"{where}: the id is longer than 100 characters")
    return sid


def _unique(where: str, sid: str, seen: dict[str, int], files: dict[str, tuple[str, int]], line: int) -> None:
    """An id no earlier row has, nor one that differs from it only in letter
    case (their papers would get one file name); recorded for the next rows."""
    if sid in seen:
        raise UserError(f"{where}: duplicate id {sid!r} (first on line {seen[sid]})")
    filename = Student(sid, sid).filename.lower()
    twin = files.get(filename)
    if twin:  # letter case alone does not tell files apart on macOS' and Windows' disks
        raise UserError(f"{where}: id {sid!r} and {twin[0]!r} (line {twin[1]}) differ only in "
                        "letter case, so their papers would get one file name; make the ids distinct")
    seen[sid] = line
    files[filename] = (sid, line)


def _no_control(where: str, what: str, text: str) -> None:
    if bad := next((ch for ch in text if unicodedata.category(ch) == "Cc"), None):
        raise UserError(f"{where}: the {what} holds a control character (U+{ord(bad):04X}"
                        f"{', a line break' if bad in chr(10) + chr(13) else ''}); remove it")
