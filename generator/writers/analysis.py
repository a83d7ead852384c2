"""attndrills analyse's folder: the item analysis (render.analysis) written
whole, replacing a folder attndrills wrote (or any, with --force)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .. import __version__
from ..errors import UserError
from ..exam import canvas_report, moodle_report
from ..exam.grader import grade, results_csv
from ..exam.analysis import analyse, read_results
from ..render.analysis import report_files
from .atomic import check_out, replace_folder


def write_analysis(results: Path, out: Path, site: str = "", force: bool = False,
                   answers: Path | None = None) -> dict[str, str]:
    """Read and analyse RESULTS, then write report.html and the CSVs into
    `out` (every input is read and checked before anything is written).
    With `answers` (the exam's answers.csv), RESULTS is graded first: a
    responses file, Moodle's Responses report or Canvas's Student Analysis."""
    check_out(out, force, "analysis")
    reports: list[str] = []
    analysis = analyse(_graded(results, answers, reports) if answers else _results(results))
    files = report_files(analysis, results.name, site)
    replace_folder(out, files, f"attndrills {__version__} analysis")
    return {"students": str(len(analysis.students)), "flagged": str(sum(bool(it.flags) for it in analysis.items)),
            "warnings": reports}


def _results(path: Path) -> list:
    if moodle_report.is_report(path) or canvas_report.is_student_analysis(path):
        what = "Moodle's Responses report" if moodle_report.is_report(path) else "Canvas's Student Analysis report"
        raise UserError(f"{path}: {what}, not graded results: give the exam's answers.csv with --answers "
                        "(or grade it first with attndrills grade)")
    return read_results(path)


def _graded(responses: Path, answers: Path, reports: list[str]) -> list:
    """The results `attndrills grade ANSWERS RESPONSES` writes, read back as
    analyse reads them; what grade reports (not graded, unknown) goes to `reports`."""
    grading = grade(answers, responses)
    reports += [*grading.reports, grading.summary()]
    with tempfile.TemporaryDirectory(prefix="attndrills-") as tmp:
        path = Path(tmp) / "results.csv"
        path.write_text(results_csv(grading.results), encoding="utf-8")
        return read_results(path)
