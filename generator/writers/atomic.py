"""Write a whole folder at once: into a temporary sibling, then swap it in,
so a failed or interrupted run never leaves a half-written folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from ..errors import UserError


def replace_folder(target: Path, files: dict[str, bytes | str]) -> None:
    """Make `target` hold exactly `files` (relative path → content)."""
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
        tmp.chmod(0o755)  # mkdtemp makes it private; the output is meant to be shared
    except OSError as exc:
        raise UserError(f"cannot write into {parent}: {exc.strerror}") from None
    try:
        for rel, content in sorted(files.items()):
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode("utf-8") if isinstance(content, str) else content
            path.write_bytes(data)
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
