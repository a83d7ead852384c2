"""Write a whole folder at once: into a temporary sibling, then swap it in,
so a failed or interrupted run never leaves a half-written folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import UserError


@contextmanager
def staged(target: Path) -> Iterator[Path]:
    """A temporary sibling of `target` to fill.  When the block succeeds it
    replaces `target` in one rename; when anything fails it is removed."""
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
        tmp.chmod(0o755)  # mkdtemp makes it private; the output is meant to be shared
    except OSError as exc:
        raise UserError(f"cannot write into {parent}: {exc.strerror}") from None
    try:
        yield tmp
        old = None
        if target.exists():
            old = parent / f".{target.name}.old-{os.getpid()}"
            os.replace(target, old)
        os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(f"cannot write {target}: {exc.strerror}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def write_into(folder: Path, files: dict[str, bytes | str]) -> None:
    """Write `files` (relative path → content) under `folder`."""
    for rel, content in sorted(files.items()):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)


def replace_folder(target: Path, files: dict[str, bytes | str]) -> None:
    """Make `target` hold exactly `files` (relative path → content)."""
    with staged(target) as tmp:
        write_into(tmp, files)
