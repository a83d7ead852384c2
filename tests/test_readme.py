"""The README and the guide say what is true: every command quoted in a
```sh block of README.md and guide/*.md runs, as a newcomer types it after
`make site`, in a copy of the repository's folders (issue 34.8); the README's
picture of a page is what its command prints today; and `make site SPEC=…`
builds one's own course from a spec, leaving site-seed.txt and the spec as
they are (issue 33.7).

How a page's shell blocks are run (one bash script per page, `set -e`, the
venv activated first as the README tells the reader to):

- a line ending in `# fails: exit N` must end with exit code N (an example
  of a refusal);
- a line starting with `make ` is run as `make -n …`: the target exists and
  its recipe expands, without building (the site is built for real by
  test_make_site_spec_for_real_on_a_tiny_spec; `make test` and `make bench`
  are the test suite and the benchmark themselves);
- everything else must exit 0.

They need the `.venv` that `make site` creates (the one running these tests);
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
PAGES = [ROOT / "README.md", *sorted((ROOT / "guide").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
FAILS = re.compile(r"\s+# fails: exit (\d+)\s*$")
SHELL = "sh"


def _need_venv():
    if sys.prefix == sys.base_prefix or not (VENV / "bin" / "activate").exists():
        pytest.skip("not run from a virtual environment such as make site's .venv")


def _checkout(tmp: Path) -> Path:
    """The folders the pages' commands read, as a fresh checkout has them
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
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "SEED", "SPEC")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(p).resolve() != (VENV / "bin").resolve())
    return env


def _fences(page: Path) -> list[tuple[str, str]]:
    return FENCE.findall(page.read_text(encoding="utf-8"))


def _shell_blocks(page: Path) -> list[str]:
    return [body for lang, body in _fences(page) if lang == SHELL]


def _line(line: str) -> str:
    """One quoted line as the test runs it (see the module's docstring)."""
    if line.startswith("make "):
        return "make -n " + line[len("make "):]
    fails = FAILS.search(line)
    if not fails:
        return line
    command, code = line[:fails.start()], fails.group(1)
    quoted = command.replace("'", "'\\''")
    # a command left of || neither stops `set -e` nor springs the ERR trap
    return (f"rc=0; {command} || rc=$?\n"
            f"[ \"$rc\" = {code} ] || {{ echo 'FAILED (exit '$rc', expected {code}): {quoted}' >&2; exit 1; }}")


def _run_page(page: Path, tmp: Path) -> tuple[subprocess.CompletedProcess, Path]:
    work = _checkout(tmp)
    commands = "\n".join(_line(line) for block in _shell_blocks(page) for line in block.splitlines())
    script = ("set -e\ntrap 'echo \"FAILED: $BASH_COMMAND\" >&2' ERR\n. .venv/bin/activate\n" + commands + "\n")
    run = subprocess.run(["bash", "-c", script], cwd=work, env=_shell_env(), capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, f"{page.name}:\n{run.stderr[-3000:]}"
    assert "command not found" not in run.stderr and "Traceback" not in run.stderr, run.stderr[-3000:]
    return run, work


@pytest.mark.parametrize("page", PAGES[1:], ids=lambda p: p.name)
def test_every_command_of_a_guide_page_runs(page, tmp_path):
    _need_venv()
    assert _shell_blocks(page), f"{page.name} quotes no command"
    run, work = _run_page(page, tmp_path)
    if page.name == "grading.md":
        # the example responses answer the exam the page writes: marks for two students, none for the third
        totals = dict(line.split("\t") for line in run.stdout.splitlines() if "\t" in line)
        assert set(totals) == {"A1", "A2", "A3"} and totals["A3"].startswith("0 /")
        assert not totals["A1"].startswith("0 /")


def test_readme_commands_work_as_printed_after_make_site(tmp_path):
    _need_venv()
    tour = _shell_blocks(ROOT / "README.md")[-1]
    assert tour.startswith(". .venv/bin/activate")  # the tour says how to reach the command line
    assert len(tour.splitlines()) <= 12
    run, work = _run_page(ROOT / "README.md", tmp_path)
    for made in ("out/G.md", "out/sheet/sheet.pdf", "out/exam/papers/A1.pdf", "out/exam/answers.csv",
                 "results.csv", "docs/generated/set-01.md", "docs/generated/cards/course.apkg"):
        assert (work / made).is_file(), made


def test_the_readme_picture_is_what_its_command_prints():
    _need_venv()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command, picture = re.search(r"`(attndrills problem [^`]+)` prints[^\n]*\n\n```markdown\n(.*?)^```",
                                 text, re.S | re.M).groups()
    printed = subprocess.run([str(VENV / "bin" / "attndrills"), *command.split()[1:]], capture_output=True,
                             text=True, check=True).stdout
    # `…` alone on a line marks lines left out; every piece is printed as shown, in this order
    at = 0
    for piece in re.split(r"^ *…\n", picture, flags=re.M):
        found = printed.find(piece, at)
        assert found >= 0, f"no longer printed by {command}:\n{piece}"
        at = found + len(piece)


def test_pages_are_short_start_with_their_command_and_hide_no_command():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150
    assert len(PAGES) > 8
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        if page.parent.name == "guide":
            # the title, then the command the page is about
            assert re.match(r"# [^\n]+\n\n```sh\n", text), f"{page.name} does not start with its command"
        for lang, body in _fences(page):
            if lang != SHELL:  # a command in another block would escape the test above
                assert not re.search(r"^(\$ |attndrills |make |\. \.venv)", body, re.M), (page.name, body[:200])
        for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", text):
            if target.startswith(("http://", "https://")):
                continue
            linked = page.parent / target if target else page
            assert linked.exists(), f"{page.name}: broken link {target}"
            if anchor:
                assert anchor in _anchors(linked), f"{page.name}: no heading #{anchor} in {target}"


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", page.read_text(encoding="utf-8")), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


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
