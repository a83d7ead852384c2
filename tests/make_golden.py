"""Regenerate the golden Markdown files: python tests/make_golden.py"""

from pathlib import Path

from generator import kinds
from generator.pipeline import sample_problem, solve_problem
from generator.render.markdown import render_problem

GOLDEN = Path(__file__).parent / "golden"
SEED = 20261130


# one problem per figure kind, drawn to PNG and compared with a tolerance
FIGURE_CASES = {
    "bars": ("A", {"scores": ["0.3", "2.1", "0.5"], "source": ["Je", "suis", "étudiant"],
                   "target": ["I", "am", "a", "student"], "step": 2}),
    "heatmap": ("G", {"source": ["neural", "machine", "translation"],
                      "target": ["traduction", "automatique", "neuronale"],
                      "scores": [["0.1", "0.4", "3.0"], ["0", "2", "0.5"], ["2.5", "0.3", "0"]]}),
    "sharpening": ("H", {"scores": ["0", "1"], "betas": ["1", "5", "20"]}),
    "context": ("I", {"weights": ["0.1", "0.7", "0.2"], "states": [["1", "0"], ["0", "2"], ["3", "3"]]}),
    "entropy": ("F", {"scores": ["0.2", "2.5", "2.4", "0.1"]}),
}


def golden_figure_pngs() -> dict[str, bytes]:
    from generator.figures import FIGURES
    from generator.pipeline import given_problem

    out = {}
    for kind, (k, inputs) in FIGURE_CASES.items():
        problem, _ = given_problem(k, inputs)
        sol = solve_problem(problem)
        spec = next(f for f in sol.figures if f.kind == kind)
        out[f"{kind}.png"] = FIGURES[kind](problem, sol, spec, "png").data
    return out


def golden_pages() -> dict[str, str]:
    return {f"{k.id}-seed{SEED}.md": render_problem(solve_problem(sample_problem(k.id, SEED)))
            for k in kinds.all_kinds()}


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for name, page in golden_pages().items():
        (GOLDEN / name).write_text(page, encoding="utf-8")
        print("wrote", GOLDEN / name)
    (GOLDEN / "figures").mkdir(exist_ok=True)
    for name, png in golden_figure_pngs().items():
        (GOLDEN / "figures" / name).write_bytes(png)
        print("wrote", GOLDEN / "figures" / name)
