"""bench/compare_outputs.py (issue 34.10): the same commit twice gives the
same bytes everywhere, and a one-word change to a template is found."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "compare_outputs.py"

spec = importlib.util.spec_from_file_location("compare_outputs", SCRIPT)
compare_outputs = importlib.util.module_from_spec(spec)
sys.modules.setdefault("compare_outputs", compare_outputs)  # dataclasses look their module up
spec.loader.exec_module(compare_outputs)

needs_git = pytest.mark.skipif(
    shutil.which("git") is None
    or subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode != 0,
    reason="needs git and a git checkout")


def compare(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def test_compare_trees_counts_a_byte_a_missing_file_and_shows_the_diff(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    for side in (before, after):
        (side / "p").mkdir(parents=True)
        (side / "p" / "same.md").write_text("one\ntwo\n")
        (side / "fig.svg").write_bytes(b"<svg/>")
    (before / "p" / "x.json").write_text('{"value": "0.4722"}\n')
    (after / "p" / "x.json").write_text('{"value": "0.4723"}\n')
    (before / "only.csv").write_text("a\n")
    (after / "bin.dat").write_bytes(b"\0\1")
    c = compare_outputs.compare_trees(before, after)
    assert (c.compared, c.identical, c.differing, c.only_before, c.only_after) == (
        5, 2, ["p/x.json"], ["only.csv"], ["bin.dat"])
    assert not c.same
    shown = compare_outputs.describe(before, after, "p/x.json")
    assert '-{"value": "0.4722"}' in shown and '+{"value": "0.4723"}' in shown
    (before / "b.bin").write_bytes(b"\0\1\2")
    (after / "b.bin").write_bytes(b"\0\1")
    assert "binary, 3 → 2 bytes" in compare_outputs.describe(before, after, "b.bin")
    assert compare_outputs.compare_trees(before / "p", before / "p").same


@pytest.mark.parametrize("args", [["no-such-ref-xyz", "HEAD"], ["HEAD"], ["HEAD", "HEAD", "--seeds", "0"]])
def test_bad_usage_is_one_error_line_and_exit_2(args):
    done = compare(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr


@needs_git
def test_quick_head_against_head_is_identical():
    done = compare("HEAD", "HEAD", "--quick")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "differing 0, only in HEAD 0, only in HEAD 0" in done.stdout
    assert "\nidentical\ncompared in " in done.stdout  # the verdict, then the timing line
    compared = int(done.stdout.split("files compared: ")[1].split(";")[0])
    assert compared > 50  # problems, figures, sheets, the exam and its Typst sources


@needs_git
def test_quick_notices_one_changed_template_word(tmp_path):
    """A throwaway clone with one commit on top of HEAD that changes one word
    of the problem template: every page differs, nothing else."""
    clone = tmp_path / "clone"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", "--shared", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", "--detach", head], check=True)
    template = clone / "templates" / "markdown" / "problem.md.j2"
    text = template.read_text(encoding="utf-8")
    assert '"{{ t["problem.forecast"] }}"' in text  # the word "Forecast", from text/en/ui.yaml
    template.write_text(text.replace('"{{ t["problem.forecast"] }}"', '"Guess"', 1), encoding="utf-8")
    git = ["git", "-C", str(clone), "-c", "user.name=test", "-c", "user.email=test@example.invalid"]
    subprocess.run([*git, "commit", "--quiet", "-am", "one word"], check=True)
    done = compare("HEAD~1", "HEAD", "--quick", "--repo", str(clone))
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "\nDIFFERENT\ncompared in " in out
    assert "only in HEAD~1 0, only in HEAD 0" in out
    assert "problems/A/s0-d4.md" in out
    assert '-!!! question "Forecast"' in out and '+!!! question "Guess"' in out
    differing = int(out.split("differing ")[1].split(",")[0])
    assert differing == 4 * 2 * 2  # 4 kinds x 2 seeds, with and without figures; JSON, SVG, PDF alike
