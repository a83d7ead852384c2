"""bench/ab_kinds.py: per-kind time at two commits, in turns, with the
benchmark's noise rule (no timed assertions: the commits are fakes of known
speed, and the one real run checks only what it prints)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import ab_kinds  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402


class _Commit:
    """A commit whose problems of each kind take `ms` milliseconds, or `slow`
    ms in the turns listed (a disturbance of the machine)."""

    def __init__(self, ms: float, slow: dict | None = None):
        self.ms, self.slow, self.turns = ms, slow or {}, 0

    def begin(self, kind):
        self.turns = 0

    def turn(self, first, count):
        self.turns += 1
        return count * self.slow.get(self.turns, self.ms) / 1000

    def end(self):
        return 40.0


@pytest.mark.parametrize("after_ms, verdict", [(2.0, report.MEETS), (2.09, report.MEETS), (2.2, report.MISSES)])
def test_a_kind_is_judged_by_its_time_ratio_turn_by_turn(after_ms, verdict):
    rows = ab_kinds.compare(_Commit(2.0), _Commit(after_ms), ["A"])
    assert rows[0]["ratios"] == [pytest.approx(after_ms / 2.0, rel=1e-3)] * len(rows[0]["ratios"])
    assert len(rows[0]["ratios"]) >= run.RUNS
    assert ab_kinds.verdict({**rows[0], "load": 0.5}, 1.05, 2)[0] == verdict


def test_one_disturbed_turn_does_not_decide_a_kind_and_a_busy_machine_is_said():
    before = _Commit(2.0, slow={3: 4.0})  # the third turn of BEFORE ran at half speed
    row = ab_kinds.compare(before, _Commit(2.0), ["A"])[0]
    assert max(row["ratios"]) == pytest.approx(1.0) and min(row["ratios"]) == pytest.approx(0.5)
    assert ab_kinds.verdict({**row, "load": 5.0}, 1.05, 2)[0] == report.MEETS  # the middle half is at 1.0
    lines = ab_kinds.table([{**row, "load": 5.0}], 1.05, 2)
    assert lines[0].startswith("| kind | problems | turns | before ms | after ms | after ÷ before |")
    assert "| A |" in lines[2] and "| 1.000 |" in lines[2] and lines[2].endswith("| meets |")


def test_a_commit_that_is_not_there_is_bad_usage(capsys):
    assert ab_kinds.main(["no-such-commit-xyz", "HEAD"]) == 2
    assert "no-such-commit-xyz is not in this checkout" in capsys.readouterr().err


def test_two_commits_from_git_archive(capsys):
    if not (run.ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    code = ab_kinds.main(["HEAD", "HEAD", "--kinds", "1.1"])
    out = capsys.readouterr().out
    assert code in (0, 1)  # the same commit twice: a verdict or "too noisy", never bad usage
    assert "| 1.1 |" in out and "Load (1-minute average) before" in out and "(1 kinds," in out
