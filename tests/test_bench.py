"""The benchmark report's logic, without running the benchmark: verdicts are
computed from the targets in bench/references.yaml, and cited figures say so."""

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import report  # noqa: E402

REFS = report.load_references()


def _results(**over) -> dict:
    """A run's results shaped as bench/run.py writes them, every figure comfortably good."""
    base = {
        "machine": "test", "python": "3", "cores": 2, "date": "today",
        "rexams": {
            "md_warm": {"instances": 200, "workers": 2, "seconds": 0.4, "ms_per_instance": 2.0},
            "pdf_warm": {"instances": 200, "workers": 2, "seconds": 0.8, "ms_per_instance": 4.0},
            "moodle_warm": {"instances": 200, "workers": 1, "seconds": 0.1, "ms_per_instance": 0.5},
            "pdf_200": {"instances": 200, "workers": 2, "wall_s": 3.0, "ms_per_instance": 15.0},
            "pdf_2000": {"instances": 2000, "workers": 2, "wall_s": 9.0, "ms_per_instance": 4.5,
                         "peak_process_mb": 120.0, "peak_pss_mb": 200.0},
            "html_200": {"instances": 200, "site_s": 1.0, "mkdocs_s": 2.0, "zensical_s": 1.5,
                         "mkdocs_ms_per_instance": 10.0, "zensical_ms_per_instance": 7.5},
            "html_2000": {"instances": 2000, "site_s": 4.0, "mkdocs_s": 6.0, "zensical_s": 5.5,
                          "mkdocs_ms_per_instance": 3.0, "zensical_ms_per_instance": 2.75},
        },
        "cli": {"kinds": {"command": "attndrills kinds", "runs": 7, "median_s": 0.1, "min_s": 0.09},
                "problem_a": {"command": "attndrills problem A --seed 1", "runs": 7, "median_s": 0.3, "min_s": 0.25}},
        "exam": {"plain": {"options": "plain", "wall_s": 8.0, "cpu_percent": 190, "peak_pss_mb": 300.0},
                 "solutions": {"options": "--solutions", "wall_s": 25.0, "cpu_percent": 190, "peak_pss_mb": 350.0}},
        "site_50": {"sets": 50, "generate_s": 5.0, "mkdocs_build_s": 2.0, "peak_rss_mb": 150.0},
        "per_second": {k: 2 * v for k, v in REFS["figures"]["abdb93e_per_second"]["value"].items()},
        "slowest_a_to_f": 400.0,
        "figure_ms": {"bars": 3.0},
        "growth": {"site_generate": 9.5, "site_build": 5.0},
    }
    for dotted, value in over.items():
        node = base
        *path, last = dotted.split("__")
        for part in path:
            node = node[part]
        node[last] = value
    return base


def _verdict(results: dict, what: str) -> dict:
    rows = [v for v in report.verdicts(results, REFS) if v["what"].startswith(what)]
    assert rows, what
    return rows[0]


def test_every_target_names_a_figure_a_run_measures():
    results = _results()
    for t in REFS["targets"]:
        assert report.lookup(results, t["measured"]) is not None, t["measured"]
        for key in ("at_most", "at_least"):
            bound = t.get(key)
            if isinstance(bound, dict):
                assert bound["of"] in REFS["figures"] and REFS["figures"][bound["of"]]["source"] in REFS["sources"]
    assert [v["what"] for v in report.verdicts(results, REFS) if v["verdict"] != report.MEETS] == []


@pytest.mark.parametrize("dotted, value, what", [
    ("rexams__md_warm__ms_per_instance", 3.6, "Markdown path, warm"),  # 10 × R/exams' 34.8 ms is 3.48
    ("cli__kinds__median_s", 0.21, "attndrills kinds"),
    ("cli__problem_a__median_s", 0.46, "attndrills problem A"),
    ("exam__solutions__wall_s", 30.5, "300-student exam, --solutions"),
    ("site_50__generate_s", 13.7, "site generation, 50 sets"),  # 1.5 × 9.1 s is 13.65
    ("rexams__pdf_2000__peak_process_mb", 131.0, "peak memory of any process"),
])
def test_a_verdict_follows_the_measured_figure_and_the_target(dotted, value, what):
    assert _verdict(_results(), what)["verdict"] == report.MEETS
    missed = _verdict(_results(**{dotted: value}), what)
    assert missed["verdict"] == report.MISSES and missed["measured"] == value


def test_a_bound_comes_from_the_data_file_not_the_code():
    refs = copy.deepcopy(REFS)
    target = next(t for t in refs["targets"] if t["measured"] == "cli.kinds.median_s")
    results = _results(cli__kinds__median_s=0.3)
    assert _verdict(results, "attndrills kinds")["verdict"] == report.MISSES
    target["at_most"] = 0.5
    row = next(v for v in report.verdicts(results, refs) if v["what"].startswith("attndrills kinds"))
    assert row["verdict"] == report.MEETS and row["at_most"] == 0.5
    # a bound relative to a cited figure moves with that figure
    refs["figures"]["rexams_md_warm_ms_best"]["value"] = 15.0
    row = next(v for v in report.verdicts(_results(), refs) if v["what"].startswith("Markdown path"))
    assert row["at_most"] == pytest.approx(1.5) and row["verdict"] == report.MISSES


def test_per_kind_targets_hold_each_kind_to_its_own_cited_figure():
    refs = copy.deepcopy(REFS)
    refs["figures"]["abdb93e_per_second"]["value"] = {"A": 100.0, "2.1": 50.0}
    results = _results(per_second={"A": 95.0, "2.1": 40.0})
    rows = {v["what"].rsplit("— ", 1)[1]: v for v in report.verdicts(results, refs) if v["issue"] == "11.5"}
    assert rows["A"]["verdict"] == report.MEETS and rows["A"]["at_least"] == pytest.approx(90.0)
    assert rows["2.1"]["verdict"] == report.MISSES and rows["2.1"]["at_least"] == pytest.approx(45.0)


def test_a_figure_the_run_lacks_is_not_judged():
    results = _results()
    del results["cli"]
    assert _verdict(results, "attndrills kinds")["verdict"] == report.UNMEASURED


def test_the_report_marks_cited_figures_and_prints_ratios():
    text = report.render(_results(), REFS)
    md_row = next(line for line in text.splitlines() if line.startswith("| Markdown, warm"))
    # ours measured, R/exams' figures cited, and the ratio of the two
    assert "| 2 ms |" in md_row and "34.8 ms (cited)" in md_row and "17.4×" in md_row
    # and R/exams as measured on this machine, cited from its own source, with its ratio (its median ÷ ours)
    assert "24.1 / 26.2 ms (cited)" in md_row and "| 13.1× |" in md_row
    assert "| 0.5 ms |" in next(l for l in text.splitlines() if l.startswith("| Moodle"))
    del_moodle = _results()
    del del_moodle["rexams"]["moodle_warm"]
    moodle_row = next(l for l in report.render(del_moodle, REFS).splitlines() if l.startswith("| Moodle"))
    assert "not measured by this bench" in moodle_row
    # a target relative to a cited figure says where that figure comes from
    gen_row = next(l for l in text.splitlines() if "site generation, 50 sets" in l)
    assert "1.5 × site generation, 50 sets: 9.1 s (cited, issue13)" in gen_row and gen_row.endswith("| meets |")
    assert "R/exams' own benchmark" not in text and "16 ms" not in text


def test_the_report_names_a_miss():
    text = report.render(_results(cli__kinds__median_s=0.9), REFS)
    line = next(l for l in text.splitlines() if "attndrills kinds, wall" in l)
    assert line.endswith("| MISSES |") and "0.9 s" in line and "≤ 0.2 s" in line


def test_every_cited_figure_names_a_source_that_says_where_and_when():
    for name, fig in REFS["figures"].items():
        assert fig["source"] in REFS["sources"], name
    rexams = REFS["sources"]["rexams"]
    assert "2.4-2" in rexams["what"] and "Rnw" in rexams["what"] and rexams["date"] == "2026-12-01"
    assert "bench/rexams.yaml" in rexams["workload"] and "200 instances" in rexams["workload"]
    assert "alternating" in rexams["method"] and "2-core" in rexams["machine"]


def test_targets_against_r_exams_run_here_are_checked_too():
    """Issue 14's 10× targets are also held against R/exams measured on the
    benchmark's machine: 4.5 ms per PDF instance meets 10 × 67.8 ms (the
    table's) and misses 10 × 41.7 ms (R/exams here, best)."""
    rows = [v for v in report.verdicts(_results(rexams__pdf_warm__ms_per_instance=4.5), REFS)
            if v["what"].startswith("PDF path, warm")]
    assert [(v["issue"], v["verdict"]) for v in rows] == [("14.3", report.MEETS), ("14.3 (R here)", report.MISSES)]
    assert rows[1]["at_most"] == pytest.approx(4.17) and "rexams_here" in rows[1]["basis"]
