"""Write a whole folder at once: into a temporary sibling, then swap it in,
so a failed or interrupted run never leaves a half-written folder."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import UserError


@contextmanager
def made_folder(folder: Path) -> Iterator[None]:
    """Create `folder` and its missing parents for the block; when the block
    fails, those it created go again, as far as they are empty: a failed
    write (a full disk) leaves no empty folder behind."""
    created = []
    here = folder
    while not os.path.lexists(here) and here != here.parent:
        created.append(here)  # deepest first
        here = here.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        yield
    except BaseException:
        for made in created:
            try:
                made.rmdir()
            except OSError:  # not empty, or already gone: kept as it is
                break
        raise


@contextmanager
def staged(target: Path) -> Iterator[Path]:
    """A temporary sibling of `target` to fill.  When the block succeeds it
    replaces `target` in one rename; when anything fails it is removed, and
    so are the parent folders made for it."""
    parent = target.parent
    with made_folder(parent):
        try:
            # staging folders of runs that were killed
            remove_abandoned(parent, re.compile(rf"\.{re.escape(target.name)}\.(?:tmp|old)-(\d+)(?:-.*)?"))
            tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-{os.getpid()}-", dir=parent))
            tmp.chmod(0o755)  # mkdtemp makes it private; the output is meant to be shared
        except OSError as exc:
            raise UserError(f"cannot write into {parent}: {exc.strerror}") from None
        try:
            yield tmp
            _swap(tmp, target)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise UserError(f"cannot write {target}: {exc.strerror}") from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


def _swap(tmp: Path, target: Path) -> None:
    """Put the folder `tmp` in the place of `target` (a folder, or nothing).
    The old folder is set aside as `.NAME.old-PID` and removed; if the new
    one cannot be put in its place, the old one goes back."""
    if target.is_symlink():  # check_out refuses it; never renamed away and replaced by a folder
        raise UserError(f"{target} is a symbolic link; give the folder it points to, or another path")
    old = None
    if target.exists():
        old = target.parent / f".{target.name}.old-{os.getpid()}"
        os.replace(target, old)
    try:
        os.replace(tmp, target)
    except BaseException:
        if old is not None:
            os.replace(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def remove_abandoned(parent: Path, pattern: re.Pattern) -> None:
    """The folders in `parent` whose whole name `pattern` matches and whose
    process (the id in its first group) is gone: what killed runs left."""
    for entry in parent.iterdir():
        found = pattern.fullmatch(entry.name)
        if found and entry.is_dir() and not _alive(int(found.group(1))):
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    try:  # a killed process not yet reaped (a zombie) is gone all the same
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):  # no /proc: what kill says
        return True
    return state not in ("Z", "X")


MARKER = ".attndrills"  # marks a folder this tool wrote, so it may be replaced


def marker_text(stamp: str, folder: Path) -> str:
    """What MARKER holds: the stamp ("attndrills 1.0 exam 7": what wrote the
    folder), then every file written there, one relative path a line, so a
    later run can tell a file the user added (which replacing the folder
    would delete) from its own."""
    return stamp + "\n" + "".join(f"{rel}\n" for rel in folder_files(folder))


def folder_files(folder: Path) -> list[str]:
    """Every file under `folder` (relative, '/'-separated, sorted), MARKER aside."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if (p.is_file() or p.is_symlink()) and p.name != MARKER)


def read_marker(folder: Path) -> tuple[str, set[str] | None] | None:
    """(stamp, files written) of a folder this tool wrote; None without a
    marker.  A marker from before files were listed gives None for them."""
    try:
        lines = (folder / MARKER).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return (lines[0] if lines else ""), (set(lines[1:]) if len(lines) > 1 else None)


_WHAT = ("exam", "sheet", "site", "mathjax", "analysis")


def check_out(out: Path, force: bool, what: str) -> None:
    """Refuse, unless --force, a non-empty folder this tool did not write, one
    it wrote another kind of output into (`what`: exam, sheet, site or
    mathjax), or one holding files it did not write there: replacing the
    folder would delete them."""
    if out.is_symlink():  # replacing it whole would put a folder in the link's place
        raise UserError(f"{out} is a symbolic link; give the folder it points to, or another path")
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is a file, not a folder")
    if (out / ".git").exists():  # --force or not: a checkout is never replaced
        raise UserError(f"{out} holds a git checkout (.git), which replacing the folder would delete; "
                        "write the output to a folder of its own")
    if force or not out.is_dir() or not any(out.iterdir()):
        return
    marker = read_marker(out)
    if marker is None:
        raise UserError(f"{out} holds files attndrills did not write; choose an empty folder or add --force")
    stamp, listed = marker
    kind = next((w for w in stamp.split() if w in _WHAT), None)
    if kind is not None and kind != what:
        raise UserError(f"{out} holds an attndrills {kind}, not a {what}; choose another folder or add --force")
    if listed is not None:
        added = [rel for rel in folder_files(out) if rel not in listed]
        if added:
            shown = ", ".join(added[:3]) + (f" and {len(added) - 3} more" if len(added) > 3 else "")
            raise UserError(f"{out} holds files attndrills did not write there ({shown}), which replacing it "
                            "would delete; move them out or add --force")


def write_into(folder: Path, files: dict[str, bytes | str]) -> None:
    """Write `files` (relative path → content) under `folder`."""
    for rel, content in sorted(files.items()):
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)


def replace_folder(target: Path, files: dict[str, bytes | str], stamp: str) -> None:
    """Make `target` hold exactly `files` (relative path → content), marked
    with `stamp` and their list."""
    with staged(target) as tmp:
        write_into(tmp, files)
        write_into(tmp, {MARKER: marker_text(stamp, tmp)})
