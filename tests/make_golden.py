"""Regenerate the golden Markdown files: python tests/make_golden.py"""

from pathlib import Path

from generator import kinds
from generator.pipeline import sample_problem, solve_problem
from generator.render.markdown import render_problem

GOLDEN = Path(__file__).parent / "golden"
SEED = 20261130


def golden_pages() -> dict[str, str]:
    return {f"{k.id}-seed{SEED}.md": render_problem(solve_problem(sample_problem(k.id, SEED)))
            for k in kinds.all_kinds()}


if __name__ == "__main__":
    GOLDEN.mkdir(exist_ok=True)
    for name, page in golden_pages().items():
        (GOLDEN / name).write_text(page, encoding="utf-8")
        print("wrote", GOLDEN / name)
