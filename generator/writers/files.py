"""Loose files into a folder (figures next to a Markdown page)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from ..errors import UserError
from .atomic import made_folder


def _shared(fd: int) -> None:
    """mkstemp makes a file only its owner reads (0600): give it the mode a
    plain new file gets (0666 less the umask), so a web server reads it."""
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)


def _write(folder: Path, name: str, data: bytes) -> None:
    """`folder / name` written whole: a temporary file beside it, then a rename.
    Where that fails, the temporary file goes too (nothing half-written stays)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            _shared(fh.fileno())
            fh.write(data)
        os.replace(tmp, folder / name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """Write each file whole, creating the folder."""
    try:
        with made_folder(folder):  # a write that fails leaves no empty folder
            for name, data in sorted(files.items()):
                _write(folder, name, data)
    except OSError as exc:
        raise UserError(f"cannot write figures into {folder}: {exc.strerror}") from None


def write_new_files(folder: Path, files: dict[str, bytes], force: bool = False) -> None:
    """Write each file whole into `folder`, refusing (before writing any)
    to replace a file already there unless `force`."""
    there = sorted(name for name in files if (folder / name).exists())
    if there and not force:
        raise UserError(f"{folder / there[0]} is already there" + (f" (and {len(there) - 1} more)" if len(there) > 1
                        else "") + "; give another folder, or --force to replace them")
    try:
        with made_folder(folder):
            for name, data in sorted(files.items()):
                _write(folder, name, data)
    except OSError as exc:
        raise UserError(f"cannot write into {folder}: {exc.strerror}") from None


def write_text(path: Path, text: str) -> None:
    """One file, written whole (UTF-8, line ends as given)."""
    try:
        with made_folder(path.parent):
            _write(path.parent, path.name, text.encode("utf-8"))
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
