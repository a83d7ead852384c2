"""Figures: valid SVG holding the numbers they show, alt text with the
values, byte-identical output, content-addressed reuse, and one PNG per
figure kind compared with a golden image."""

import hashlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from matplotlib.testing.compare import compare_images

from generator import kinds
from generator.figures import FIGURES, draw, draw_figures
from generator.pipeline import given_problem, sample_problem, solve_problem
from generator.render.markdown import render_problem
from make_golden import FIGURE_CASES, GOLDEN, golden_figure_pngs

SVG = "{http://www.w3.org/2000/svg}"


def specs_by_kind():
    """(problem, solution, spec) for every figure kind over several kinds and seeds."""
    out = {k: [] for k in FIGURES}
    for kind in kinds.all_kinds():
        for seed in (0, 1, 2):
            sol = solve_problem(sample_problem(kind.id, seed))
            for spec in sol.figures:
                out[spec.kind].append((sol.problem, sol, spec))
    return out


CASES = specs_by_kind()


def numbers_claimed(spec) -> list[str]:
    d = spec.data
    if spec.kind == "bars":
        return d["shown"]
    if spec.kind == "heatmap":
        return [s for row in d["shown"] for s in row]
    if spec.kind == "sharpening":
        return d["mark_labels"]
    if spec.kind == "context":
        return d["weights_shown"] + d["context_shown"]
    return d["shown"] + [d["max_shown"]]


def test_every_figure_kind_is_used():
    assert all(len(v) >= 3 for v in CASES.values()), {k: len(v) for k, v in CASES.items()}


@pytest.mark.parametrize("fig_kind", sorted(FIGURES))
def test_svg_parses_and_holds_its_numbers(fig_kind):
    for problem, sol, spec in CASES[fig_kind][:8]:
        fig = FIGURES[fig_kind](problem, sol, spec)
        root = ET.fromstring(fig.data)
        assert root.tag == SVG + "svg"
        text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
        for n in numbers_claimed(spec):
            assert n in text, (fig_kind, n)
        assert fig.filename.startswith(fig_kind + "-") and fig.filename.endswith(".svg")
        assert b"<dc:date>" not in fig.data
        # the alt text carries the values, not "a chart"
        assert any(n in fig.alt for n in numbers_claimed(spec))
        assert len(fig.alt) > 40


@pytest.mark.parametrize("fig_kind", sorted(FIGURES))
def test_byte_identical_even_after_other_drawings(fig_kind):
    problem, sol, spec = CASES[fig_kind][0]
    first = FIGURES[fig_kind](problem, sol, spec).data
    for other in CASES[fig_kind][1:4]:  # the reused artists must not leak state
        FIGURES[fig_kind](*other)
    assert FIGURES[fig_kind](problem, sol, spec).data == first


def test_byte_identical_across_processes():
    code = ("import hashlib;from generator.pipeline import sample_problem, solve_problem;"
            "from generator.figures import draw_figures;"
            "print([hashlib.sha256(f.data).hexdigest() for k in ('A','G','H','I','F') "
            "for f in draw_figures(solve_problem(sample_problem(k, 11)))])")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    here = str([hashlib.sha256(f.data).hexdigest() for k in ("A", "G", "H", "I", "F")
                for f in draw_figures(solve_problem(sample_problem(k, 11)))])
    assert runs[0] == runs[1] == here + "\n"


def test_same_content_is_drawn_once():
    p1, _ = given_problem("C", {"scores": ["-2", "1", "0"]})
    s1 = solve_problem(p1)
    s2 = solve_problem(p1)
    assert draw(p1, s1, s1.figures[0]) is draw(p1, s2, s2.figures[0])


def test_winner_is_hatched_for_greyscale():
    p, _ = given_problem("A", FIGURE_CASES["bars"][1])
    s = solve_problem(p)
    assert b"<pattern" in FIGURES["bars"](p, s, s.figures[0]).data


def test_markdown_embeds_figures_with_alt_and_caption(tmp_path, capsys):
    from generator.cli import main

    assert main(["problem", "G", "--seed", "4", "--figures", str(tmp_path)]) == 0
    page = capsys.readouterr().out
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files and all(f.startswith("heatmap-") for f in files)
    assert f"]({files[0]})" in page and "![Heatmap of attention weights" in page
    assert "**Figure — what to see:**" in page


def test_no_figures_requested_means_no_images():
    sol = solve_problem(sample_problem("A", 4))
    assert "![" not in render_problem(sol)


@pytest.mark.parametrize("name, png", sorted(golden_figure_pngs().items()))
def test_png_matches_golden(tmp_path, name, png):
    expected = GOLDEN / "figures" / name
    assert expected.exists(), "run python tests/make_golden.py"
    actual = tmp_path / name
    actual.write_bytes(png)
    # RMS tolerance absorbs font rasterisation differences between FreeType builds
    assert compare_images(str(expected), str(actual), tol=6) is None
