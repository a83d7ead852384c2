"""Loose files into a folder (figures next to a Markdown page)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import UserError


def _shared(fd: int) -> None:
    """mkstemp makes a file only its owner reads (0600): give it the mode a
    plain new file gets (0666 less the umask), so a web server reads it."""
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)


def write_files(folder: Path, files: dict[str, bytes]) -> None:
    """Write each file whole (temporary name, then rename), creating the folder."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in sorted(files.items()):
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=folder)
            _shared(fd)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, folder / name)
    except OSError as exc:
        raise UserError(f"cannot write figures into {folder}: {exc.strerror}") from None


def write_text(path: Path, text: str) -> None:
    """One file, written whole (temporary name, then rename)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        _shared(fd)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
