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


def csv_problem(exc: Exception) -> str:
    """csv's error in words a user can act on."""
    text = str(exc)
    if "unexpected end of data" in text:
        return 'a quoted field runs to the end of the file (a closing " is missing)'
    return text


MAX_NAME = 200  # a paper's name field holds about 80 characters a line; a name past this runs off it


def load_roster(path: str | Path) -> list[Student]:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise UserError(f"{p}: cannot read the roster ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise UserError(f"{p}: line {line}: not UTF-8 text; save the roster as UTF-8 CSV") from None
    if "\x00" in text:
        raise UserError(f"{p}: contains NUL bytes; is it really a CSV file?")
    # strict: a quote left open is an error, not a field running to the end of the file
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
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
    i_id = cols.index("id")
    i_name = cols.index("name") if "name" in cols else None
    students, seen, files = [], {}, {}
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue  # a blank line is not a student
            if len(row) > len(header) and any(cell.strip() for cell in row[len(header):]):
                raise UserError(f"{p}: line {line}: {len(row)} fields where the header has {len(header)}; "
                                "a name holding a comma goes in double quotes (\"Smith, John\")")
            sid = row[i_id].strip() if i_id < len(row) else ""
            if not sid:
                raise UserError(f"{p}: line {line}: empty id")
            if len(sid) > 100:
                raise UserError(f"{p}: line {line}: the id is longer than 100 characters")
            if sid in seen:
                raise UserError(f"{p}: line {line}: duplicate id {sid!r} (first on line {seen[sid]})")
            student = Student(sid, sid)
            twin = files.get(student.filename.lower())
            if twin:  # letter case alone does not tell files apart on macOS' and Windows' disks
                raise UserError(f"{p}: line {line}: id {sid!r} and {twin[0]!r} (line {twin[1]}) differ only in "
                                "letter case, so their papers would get one file name; make the ids distinct")
            seen[sid] = line
            files[student.filename.lower()] = (sid, line)
            name = row[i_name].strip() if i_name is not None and i_name < len(row) else ""
            if len(name) > MAX_NAME:
                raise UserError(f"{p}: line {line}: the name is longer than {MAX_NAME} characters")
            for what, text in (("id", sid), ("name", name)):
                if bad := next((ch for ch in text if unicodedata.category(ch) == "Cc"), None):
                    raise UserError(f"{p}: line {line}: the {what} holds a control character (U+{ord(bad):04X}"
                                    f"{', a line break' if bad in chr(10) + chr(13) else ''}); remove it")
            students.append(Student(sid, name or sid))
            if len(students) > MAX_STUDENTS:
                raise UserError(f"{p}: more than {MAX_STUDENTS} students")
    except csv.Error as exc:
        raise UserError(f"{p}: line {reader.line_num}: {csv_problem(exc)}") from None
    if not students:
        raise UserError(f"{p}: no students below the header")
    return students
