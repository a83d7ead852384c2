"""The built site in a real browser: Python playwright driving Debian's
chromium (never a downloaded browser), the site served on 127.0.0.1.

Skipped with a reason only where no Chromium exists — and never in CI
(CI=true), where .ci/run installs it: a green CI run has run these."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "output"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if CHROMIUM is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI must run the browser tests: install Debian's chromium (see .ci/run)")
    pytest.skip("no Chromium on this machine (apt-get install chromium); browser tests skipped",
                allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Generate fresh sets and build the site into a temporary folder."""
    work = tmp_path_factory.mktemp("site")
    docs = work / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("generated"))
    gen = subprocess.run([sys.executable, "-m", "generator", "site", "--seed", "7", "--docs", str(docs)],
                         capture_output=True, text=True)
    assert gen.returncode == 0, gen.stderr
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config.update(docs_dir=str(docs), site_dir=str(work / "site"))
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True))
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(work / "mkdocs.yml")],
                           capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert build.returncode == 0, build.stderr
    return work / "site"


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Visit:
    """One page load with the console and every request watched."""

    def __init__(self, browser, url: str, color_scheme: str = "light"):
        self.context = browser.new_context(color_scheme=color_scheme, viewport={"width": 1200, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def guard(route):
            host = urlparse(route.request.url).hostname
            if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
                route.continue_()
            else:
                self.outside.append(route.request.url)
                route.abort()

        self.page.route("**/*", guard)
        self.page.goto(url, wait_until="networkidle")
        self.page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
        self.page.evaluate("MathJax.startup.promise")

    def close(self):
        self.context.close()


def check_math(page):
    """Every formula rendered: no raw delimiters, no MathJax errors, accessible MathML present."""
    state = page.evaluate("""() => ({
        math: document.querySelectorAll('.arithmatex').length,
        rendered: document.querySelectorAll('.arithmatex mjx-container').length,
        errors: document.querySelectorAll('mjx-merror, [data-mjx-error]').length,
        assistive: document.querySelectorAll('mjx-assistive-mml math').length,
        raw: Array.from(document.querySelectorAll('.md-content')).map(e => e.innerText).join(' '),
    })""")
    assert state["math"] > 0
    assert state["rendered"] == state["math"], state
    assert state["errors"] == 0
    assert state["assistive"] >= state["math"]  # the accessible MathML form
    for raw in ("\\(", "\\)", "\\[", "$$", "\\frac", "\\alpha"):
        assert raw not in state["raw"], raw


def check_headings(page):
    levels = page.evaluate("() => Array.from(document.querySelectorAll('.md-content h1, .md-content h2, "
                           ".md-content h3, .md-content h4')).map(h => +h.tagName[1])")
    assert levels and levels[0] == 1
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:])), levels


def test_home_page(browser, server):
    v = Visit(browser, server)
    check_math_optional = v.page.evaluate("document.querySelectorAll('.arithmatex').length")
    if check_math_optional:
        check_math(v.page)
    check_headings(v.page)
    assert "Attention Drills" in v.page.title()
    assert v.errors == [] and v.outside == []
    v.close()


def test_recipe_page_renders_maths_and_links_every_cell(browser, server):
    v = Visit(browser, server + "recipe/")
    check_math(v.page)
    check_headings(v.page)
    links = v.page.eval_on_selector_all("table a", "as => as.map(a => a.getAttribute('href'))")
    assert [h.split("#")[1] for h in links] == [f"cell-{c}" for c in "abcdefghi"]
    v.page.click("table a >> nth=6")  # cell G
    v.page.wait_for_load_state("networkidle")
    assert v.page.evaluate("document.getElementById('cell-g') !== null")
    assert v.errors == [] and v.outside == []
    v.close()


def test_set_page(browser, server):
    v = Visit(browser, server + "generated/set-01/")
    page = v.page
    check_math(page)
    check_headings(page)
    # every figure loaded, with alt text
    imgs = page.evaluate("() => Array.from(document.images).filter(i => i.src.includes('/figures/'))"
                         ".map(i => [i.complete && i.naturalWidth > 0, i.alt.length])")
    assert imgs and all(ok and alt > 40 for ok, alt in imgs)
    # solutions start collapsed and open on click
    details = page.locator("details.success")
    assert details.count() > 0
    assert page.evaluate("() => Array.from(document.querySelectorAll('details.success')).every(d => !d.open)")
    details.first.locator("summary").click()
    assert page.evaluate("document.querySelector('details.success').open")
    assert "Why this step?" in details.first.inner_text()
    assert page.locator("h2#recall-cards").count() == 1  # the set's recall cards, at the end
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / "set-page-light.png"), full_page=False)
    assert v.errors == [] and v.outside == []
    v.close()
    dark = Visit(browser, server + "generated/set-01/", color_scheme="dark")
    assert dark.page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    check_math(dark.page)
    dark.page.screenshot(path=str(OUTPUT / "set-page-dark.png"), full_page=False)
    assert dark.errors == [] and dark.outside == []
    dark.close()


def test_search_finds_a_problem(browser, server):
    v = Visit(browser, server)
    page = v.page
    page.click("input.md-search__input")  # on a wide screen the search field sits in the header
    # the index is built in a web worker; a query typed before it is ready is dropped
    page.wait_for_function("document.querySelector('.md-search-result__meta')?.innerText"
                           ".includes('Type to start searching')", timeout=30000)
    page.keyboard.type("sharp peak", delay=20)
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    hits = page.inner_text(".md-search-result")
    assert "sharp peak" in hits.lower()
    assert v.errors == [] and v.outside == []
    v.close()
