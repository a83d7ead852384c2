"""The README's commands work as a newcomer types them after `make site`:
the tour of the command line and the grading example, run as printed
(`. .venv/bin/activate` included) in a copy of the repository's folders;
and `make site SPEC=…` builds one's own course from a spec, leaving
site-seed.txt and the spec as they are.

Both need the `.venv` that `make site` creates (the one running these tests);
they are skipped with a reason only when the tests run outside a virtual
environment."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)


def _need_venv():
    if sys.prefix == sys.base_prefix or not (VENV / "bin" / "activate").exists():
        pytest.skip("not run from a virtual environment such as make site's .venv")


def _checkout(tmp: Path) -> Path:
    """The folders the README's commands read, as a fresh checkout has them
    (no generated pages), and make site's .venv."""
    work = tmp / "repo"
    work.mkdir()
    for name in ("Makefile", "pyproject.toml", "site-seed.txt", "mkdocs.yml"):
        shutil.copy2(ROOT / name, work / name)  # copy2: the venv's stamp stays newer than pyproject.toml
    shutil.copytree(ROOT / "examples", work / "examples")
    shutil.copytree(ROOT / "docs", work / "docs", ignore=shutil.ignore_patterns("generated", "mathjax"))
    (work / ".venv").symlink_to(VENV)
    return work


def _shell_env() -> dict:
    """A shell as a newcomer opens it: the venv neither active nor on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(p).resolve() != (VENV / "bin").resolve())
    return env


def _blocks(section: str) -> list[str]:
    """The ```sh blocks of a README section (up to the next '## ')."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(f"\n## {section}\n")
    end = text.find("\n## ", start + 1)
    return re.findall(r"```sh\n(.*?)```", text[start:end if end > 0 else None], re.S)


def test_readme_commands_work_as_printed_after_make_site(tmp_path):
    _need_venv()
    (tour,) = _blocks("A short tour of the CLI")
    (grade,) = _blocks("Grading an exam")
    work = _checkout(tmp_path)
    script = ("set -e\ntrap 'echo \"FAILED: $BASH_COMMAND\" >&2' ERR\n" + tour + grade)
    run = subprocess.run(["bash", "-c", script], cwd=work, env=_shell_env(), capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "error:" not in run.stderr and "not found" not in run.stderr, run.stderr[-3000:]
    # the tour says how to reach the command line, as does the section that introduces make site
    assert tour.startswith(". .venv/bin/activate")
    assert ". .venv/bin/activate" in _blocks("The two commands")[1]
    for made in ("out/G.md", "out/sheet/sheet.pdf", "out/exam/papers/A1.pdf", "out/exam/answers.csv",
                 "results.csv", "docs/generated/set-01.md", "docs/generated/cards/course.apkg"):
        assert (work / made).is_file(), made
    # the example responses answer that exam: marks for two students, none for the third
    totals = dict(line.split("\t") for line in run.stdout.splitlines() if "\t" in line)
    assert set(totals) == {"A1", "A2", "A3"} and totals["A3"].startswith("0 /") and not totals["A1"].startswith("0 /")


def _make_n(*args: str) -> str:
    run = subprocess.run(["make", "-n", "-C", str(ROOT), "site", *args], capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k not in ("SEED", "SPEC")})
    assert run.returncode == 0, run.stderr
    (line,) = [x for x in run.stdout.splitlines() if "attndrills site" in x]
    return line


def test_make_site_spec_builds_that_spec_with_its_own_seed():
    seed = (ROOT / "site-seed.txt").read_text().strip()
    assert _make_n().endswith(f'attndrills site --pdf --seed "{seed}"')
    assert _make_n("SEED=123").endswith('attndrills site --pdf --seed "123"')
    # a spec: its own seed (site-seed.txt's is the default course's), or SEED
    assert _make_n("SPEC=my.yaml").rstrip().endswith('attndrills site --pdf --spec "my.yaml"')
    assert _make_n("SPEC=my.yaml", "SEED=9").endswith('attndrills site --pdf --spec "my.yaml" --seed "9"')


def test_make_site_spec_for_real_on_a_tiny_spec(tmp_path):
    _need_venv()
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    work = _checkout(tmp_path)
    (work / "tiny.yaml").write_text("title: My own course\nseed: 5\nitems:\n  - {kind: E}\n", encoding="utf-8")
    before = {name: (work / name).read_bytes() for name in ("site-seed.txt", "tiny.yaml", "docs/index.md")}
    # -o: the venv is make site's own, installed already (its stamp is not remade here)
    run = subprocess.run(["make", "-o", ".venv/.installed", "site", "SPEC=tiny.yaml"], cwd=work,
                         env=_shell_env(), capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert ". .venv/bin/activate" in run.stdout  # make site says how to reach the command line
    assert {name: (work / name).read_bytes() for name in before} == before
    index = (work / "site/generated/index.html").read_text(encoding="utf-8")
    assert "My own course" in index and "Problem set 1" not in index
    assert (work / "site/generated/cards/course.apkg").is_file()
    assert not (work / "site/generated/set-02").exists()  # one set, as the spec asks
