"""attndrills analyse's folder: the item analysis (render.analysis) written
whole, replacing a folder attndrills wrote (or any, with --force)."""

from __future__ import annotations

from pathlib import Path

from .. import __version__
from ..exam.analysis import analyse, read_results
from ..render.analysis import report_files
from .atomic import check_out, replace_folder


def write_analysis(results: Path, out: Path, site: str = "", force: bool = False) -> dict[str, str]:
    """Read and analyse RESULTS, then write report.html and the CSVs into
    `out` (every input is read and checked before anything is written)."""
    check_out(out, force, "analysis")
    analysis = analyse(read_results(results))
    files = report_files(analysis, results.name, site)
    replace_folder(out, files, f"attndrills {__version__} analysis")
    return {"students": str(len(analysis.students)), "flagged": str(sum(bool(it.flags) for it in analysis.items))}
