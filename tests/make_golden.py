"""Regenerate the golden Markdown files and figures: python tests/make_golden.py

A changed golden figure is a change readers see: before regenerating, run
`python tests/make_golden.py --review DIR`, which writes DIR/<kind>.png with
the committed figure (left) beside the new one (right), and look at them."""

import sys
from pathlib import Path

from generator import kinds
from generator.pipeline import sample_problem, solve_problem
from generator.render.markdown import render_problem

GOLDEN = Path(__file__).parent / "golden"
SEED = 20261130


# one problem per figure kind, its SVG compared byte for byte
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


def golden_figure_svgs() -> dict[str, bytes]:
    from generator.figures import FIGURES
    from generator.pipeline import given_problem

    out = {}
    for kind, (k, inputs) in FIGURE_CASES.items():
        problem = given_problem(k, inputs)
        sol = solve_problem(problem)
        spec = next(f for f in sol.figures if f.kind == kind)
        out[f"{kind}.svg"] = FIGURES[kind](problem, sol, spec).data
    return out


def golden_pages() -> dict[str, str]:
    return {f"{k.id}-seed{SEED}.md": render_problem(solve_problem(sample_problem(k.id, SEED)))
            for k in kinds.all_kinds()}


def review(out: Path) -> None:
    """Render each committed golden figure and the figure drawn now side by
    side with Chromium (Debian's, through playwright), as out/<kind>.png."""
    import base64

    from playwright.sync_api import sync_playwright

    def img(data: bytes) -> str:
        return f'<img style="border:1px solid #ccc" src="data:image/svg+xml;base64,{base64.b64encode(data).decode()}">'

    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(device_scale_factor=2)
        for name, new in golden_figure_svgs().items():
            old = GOLDEN / "figures" / name
            page.set_content(f"<body style='margin:4px'>{img(old.read_bytes()) if old.exists() else 'none'} "
                             f"{img(new)}</body>")
            page.wait_for_timeout(50)
            page.screenshot(path=str(out / name.replace(".svg", ".png")), full_page=True)
            print("wrote", out / name.replace(".svg", ".png"))
        browser.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--review"]:
        review(Path(sys.argv[2]))
        sys.exit(0)
    GOLDEN.mkdir(exist_ok=True)
    for name, page in golden_pages().items():
        (GOLDEN / name).write_text(page, encoding="utf-8")
        print("wrote", GOLDEN / name)
    (GOLDEN / "figures").mkdir(exist_ok=True)
    for name, svg in golden_figure_svgs().items():
        (GOLDEN / "figures" / name).write_bytes(svg)
        print("wrote", GOLDEN / "figures" / name)
