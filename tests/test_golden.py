"""Golden Markdown for a fixed seed of every kind (STYLE.md layer 4).
A change here is a change readers see: regenerate with tests/make_golden.py
and review the diff."""

import pytest

from make_golden import GOLDEN, golden_pages

PAGES = golden_pages()


@pytest.mark.parametrize("name", sorted(PAGES))
def test_golden(name):
    path = GOLDEN / name
    assert path.exists(), f"{path} is missing; run python tests/make_golden.py"
    assert PAGES[name] == path.read_text(encoding="utf-8")


def test_no_stale_golden_files():
    assert sorted(p.name for p in GOLDEN.glob("*.md")) == sorted(PAGES)
