"""The site as both builders publish it — MkDocs + Material and Zensical
(which runs no MkDocs hook) — in Debian's chromium: maths typeset by the
offline MathJax, figures, search, no page wider than a 390 px phone, no
display formula clipped on a desktop; and each set's recall cards read back
from its Anki deck and its Obsidian note.

The browser tests are skipped with a reason only where no Chromium exists,
and never in CI (CI=true)."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import urlopen

import pytest
import yaml

from generator.render.cards import render_obsidian
from generator.render.html import inline as html_inline
from generator.writers.cards import anki_package, deck_id
from generator.writers.site import build_site, site_specs

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BUILDERS = ("mkdocs", "zensical")
PHONE = 390


# -- the recall cards leave the page (no browser needed) ----------------------

@pytest.fixture(scope="module")
def one_set():
    built = build_site(site_specs(None, 1), 5)
    return built["sets"][0]


def _read_deck(data: bytes) -> tuple[list[tuple[str, str, str]], dict, int]:
    """(notes as (guid, front, back), the decks of the collection, card count)."""
    z = zipfile.ZipFile(io.BytesIO(data))
    assert sorted(z.namelist()) == ["collection.anki2", "media"]
    assert z.read("media") == b"{}"
    import json
    import tempfile

    fd, path = tempfile.mkstemp(suffix=".anki2")
    try:
        os.write(fd, z.read("collection.anki2"))
        os.close(fd)
        con = sqlite3.connect(path)
        notes = [(g, *flds.split("\x1f")) for g, flds in con.execute("SELECT guid, flds FROM notes ORDER BY id")]
        decks = json.loads(con.execute("SELECT decks FROM col").fetchone()[0])
        cards = con.execute("SELECT count(*) FROM cards").fetchone()[0]
        con.close()
    finally:
        os.unlink(path)
    return notes, decks, cards


def test_anki_deck_reads_back_as_the_sets_cards(one_set):
    recall = [card for sol in one_set["solutions"] for card in sol.recall]
    assert len(recall) >= 8
    data = anki_package(one_set["title"], one_set["code"], one_set["seed"], recall)
    notes, decks, cards = _read_deck(data)
    assert [(f, b) for _, f, b in notes] == [(html_inline(q), html_inline(a)) for q, a in recall]
    assert any("\\(" in f + b for _, f, b in notes)  # maths reaches Anki's MathJax as \( … \)
    assert len({g for g, _, _ in notes}) == len(notes)
    assert cards == len(notes)  # question → answer only: no card of these kinds is two-way
    deck = decks[str(deck_id(one_set["seed"]))]
    assert deck["name"] == f"Attention Drills::{one_set['title']}"
    # same seed, same bytes (genanki's own writer stamps the zip with the clock)
    assert anki_package(one_set["title"], one_set["code"], one_set["seed"], recall) == data


def test_obsidian_note_has_one_card_a_line(one_set):
    recall = [card for sol in one_set["solutions"] for card in sol.recall]
    text = render_obsidian(one_set["title"], f"Set code `{one_set['code']}`.", recall)
    assert text.startswith("#flashcards")
    cards = [line for line in text.splitlines() if "::" in line]
    assert len(cards) == len(recall)
    # `::` asks one way, `:::` both: no card of these kinds is two-way
    assert all(line.count(" :: ") == 1 and ":::" not in line for line in cards)


def test_site_seed_is_kept_in_the_repository():
    seed = (ROOT / "site-seed.txt").read_text().strip()
    assert seed.isdigit()
    make = (ROOT / "Makefile").read_text()
    assert "site-seed.txt" in make and '--seed "$(SEED)"' in make
    assert "zensical build" in make
    assert "site-seed.txt" in (ROOT / "README.md").read_text()


def test_mathjax_reaches_docs_without_a_hook(tmp_path, capsys):
    from generator.cli import main

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    assert "hooks" not in config  # Zensical would not run one
    assert main(["site", "--seed", "4", "--sets", "1", "--docs", str(tmp_path)]) == 0
    script = next(s for s in config["extra_javascript"] if "mathjax/" in s)
    assert (tmp_path / script).is_file()
    assert (tmp_path / "assets" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").is_dir()
    ignored = subprocess.run(["git", "check-ignore", "-q", "docs/" + script], cwd=ROOT)
    assert ignored.returncode == 0  # never committed


# -- long formulas: the LaTeX printer's phone layout --------------------------

def _weights(n):
    from generator import mathlines as M

    return [M.Num(f"0.{i:04d}") for i in range(1, n + 1)]


def test_short_formula_stays_on_one_line():
    from generator import mathlines as M
    from generator.render.latex import latex, latex_display, latex_pieces

    z = M.eq(M.Sym("Z"), M.Add(tuple(_weights(2))), M.Num("0.0003"))
    assert latex_display(z) == latex(z) == r"Z = 0.0001 + 0.0002 = 0.0003"
    assert latex_pieces(z) == [latex(z)]


def test_long_list_of_equalities_is_one_line_per_item():
    from generator import mathlines as M
    from generator.render.latex import latex_display, latex_pieces

    seq = M.Seq(tuple(M.eq(M.Call("exp", M.Num(str(i))), w) for i, w in enumerate(_weights(3))))
    assert latex_display(seq) == (
        r"\begin{aligned}\exp(0) & = 0.0001, \\[2pt] \exp(1) & = 0.0002, \\[2pt] \exp(2) & = 0.0003"
        r"\end{aligned}")
    # inline, each item is its own formula, so a line may wrap between them
    assert latex_pieces(seq) == [r"\exp(0) = 0.0001,", r"\exp(1) = 0.0002,", r"\exp(2) = 0.0003"]


def test_long_sum_wraps_between_terms_and_before_relations():
    from generator import mathlines as M
    from generator.render.latex import BUDGET, latex_display, latex_pieces, width

    z = M.eq(M.Sym("Z"), M.Add(tuple(_weights(8))), M.Num("0.0036"))
    assert width(z) > BUDGET
    assert latex_display(z) == (
        r"\begin{aligned}Z & = 0.0001 + 0.0002 + 0.0003 \\[2pt] &\quad {} + 0.0004 + 0.0005"
        r" \\[2pt] &\quad {} + 0.0006 + 0.0007 \\[2pt] &\quad {} + 0.0008 = 0.0036\end{aligned}")  # rows that fit 320 px
    assert latex_pieces(z) == [r"Z = 0.0001 + 0.0002 + 0.0003",
                               r"{} + 0.0004 + 0.0005 + 0.0006", r"{} + 0.0007 + 0.0008 = 0.0036"]
    # a long left side (the Verify sum of many weights) wraps too
    check = M.Chain(M.Add(tuple(_weights(12))), (("=", M.Num("1.0000")),))
    rows = latex_display(check).split(r"\\[2pt]")
    assert len(rows) >= 4 and rows[-1].strip() == r"& = 1.0000\end{aligned}"


def test_a_wide_left_column_puts_each_left_side_on_a_row_of_its_own():
    """At 320 px the entropy's terms ran 31-39 px out of their box
    ("0.4345 · ln(0.4345) = 0.4345 · (−0.8336) = …": a left side and the
    first right side, neither of which can break), and 5.2's
    "α_t1 = 1/(1 + 0.02399) = 1/1.02399" was measured from its own left side
    while the block's left column is as wide as "exp(−3.73)".  Now each row
    is measured from the block's left column, and where a left side and its
    first right side do not fit one row, each left side stands alone with
    its relations below it, a quad in."""
    from generator import mathlines as M
    from generator.render.latex import latex_display

    terms = M.Seq(tuple(M.eq(M.Mul((w, M.Call("ln", w)), "cdot"), M.Mul((w, M.Paren(M.Num("-4.6052"))), "cdot"),
                             M.Num("-0.0461")) for w in _weights(3)))
    rows = latex_display(terms).removeprefix(r"\begin{aligned}").removesuffix(r"\end{aligned}").split(r" \\[2pt] ")
    assert rows[:3] == [r"&0.0001 \cdot \ln(0.0001)", r"&\quad = 0.0001 \cdot \left(-4.6052\right)",
                        r"&\quad = -0.0461,"]
    two = M.Seq((M.eq(M.Call("exp", M.Num("-3.73")), M.Num("0.02399")),
                 M.eq(M.Sym("alpha", "t1"), M.Frac(M.Num("1"), M.Add((M.Num("1"), M.Num("0.02399")))),
                      M.Frac(M.Num("1"), M.Num("1.02399")), M.Num("0.9766"))))
    rows = latex_display(two).split(r" \\[6pt] ")
    assert rows[1] == r"\alpha_{t1} & = \frac{1}{1 + 0.02399}"  # the second fraction on a row of its own


def test_long_tuple_and_bracketed_sum_keep_their_brackets():
    from generator import mathlines as M
    from generator.render.latex import latex_display

    tup = latex_display(M.eq(M.Sym("alpha"), M.Tup(tuple(_weights(10)))))
    assert tup.count(r"\left(") == 1 and tup.count(r"\right)") == 1
    assert tup.count(r"\right.") == tup.count(r"\left.") >= 1
    h = M.eq(M.Sym("H"), M.Neg(M.Paren(M.Add(tuple(M.Mul((w, M.Call("ln", w)), "juxt") for w in _weights(5))))))
    out = latex_display(h)
    assert out.startswith(r"\begin{aligned}H & = -\left( ") and out.endswith(r"\right)\end{aligned}")


# -- both builds in a browser --------------------------------------------------

if CHROMIUM is None and os.environ.get("CI"):
    raise RuntimeError("CI must run the browser tests: install Debian's chromium (see .ci/run)")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Generate two sets, then build the same docs with MkDocs and with Zensical."""
    work = tmp_path_factory.mktemp("sites")
    docs = work / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("generated", "mathjax"))
    gen = subprocess.run([sys.executable, "-m", "generator", "site", "--seed", "7", "--sets", "2", "--pdf",
                          "--docs", str(docs)], capture_output=True, text=True)
    assert gen.returncode == 0, gen.stderr
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config.update(docs_dir="docs", site_dir="site-zensical")
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True))
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mk = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "-f", "mkdocs.yml", "-d", "site-mkdocs"],
                        cwd=work, capture_output=True, text=True, env=env)
    assert mk.returncode == 0, mk.stderr
    zs = subprocess.run([str(BIN / "zensical"), "build", "--strict", "-f", "mkdocs.yml"],
                        cwd=work, capture_output=True, text=True, env=env)
    assert zs.returncode == 0, zs.stdout + zs.stderr
    return {"mkdocs": work / "site-mkdocs", "zensical": work / "site-zensical"}


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def servers(built):
    urls, httpds = {}, []
    for name, folder in built.items():
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        urls[name] = f"http://127.0.0.1:{httpd.server_address[1]}/"
        httpds.append(httpd)
    yield urls
    for h in httpds:
        h.shutdown()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _open(browser, url: str, width: int = 1200):
    """A page at `url`, every request outside 127.0.0.1 refused and noted,
    MathJax finished, every collapsed block opened."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.outside, page.errors = [], []
    page.on("pageerror", lambda e: page.errors.append(str(e)))

    def guard(route):
        if route.request.url.startswith(("data:", "blob:")) or urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            page.outside.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.goto(url, wait_until="networkidle")
    if page.evaluate("document.querySelectorAll('.arithmatex').length"):
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise", timeout=20000)
        page.evaluate("MathJax.startup.promise")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.wait_for_timeout(200)
    return context, page


def _pages(folder: Path) -> list[str]:
    return sorted("" if p.parent == folder else str(p.parent.relative_to(folder)) + "/"
                  for p in folder.rglob("index.html"))


@pytest.mark.parametrize("builder", BUILDERS)
def test_set_page_maths_figures_and_deck_links(browser, servers, builder):
    context, page = _open(browser, servers[builder] + "generated/set-01/")
    state = page.evaluate("""() => ({
        math: document.querySelectorAll('.arithmatex').length,
        rendered: document.querySelectorAll('.arithmatex mjx-container').length,
        errors: document.querySelectorAll('mjx-merror, [data-mjx-error]').length,
        text: document.querySelector('article').innerText,
    })""")
    assert state["math"] > 20 and state["rendered"] == state["math"] and state["errors"] == 0, state["math"]
    assert "\\(" not in state["text"] and "\\frac" not in state["text"]
    imgs = page.evaluate("() => Array.from(document.images).filter(i => i.src.startsWith('data:image/svg+xml'))"
                         ".map(i => i.complete && i.naturalWidth > 0)")
    assert imgs and all(imgs)
    # recall cards read as question and answer, not as "q ::: a"
    assert ":::" not in state["text"]
    assert page.locator("details.tip summary", has_text="Answer").count() >= 8
    # the deck and the Obsidian note are linked, served, and are the page's cards
    deck = page.get_attribute("a[href$='set-01.apkg']", "href")
    note = page.locator("a[href$='set-01-obsidian.md.txt']")
    assert note.get_attribute("download").endswith(".md")
    base = page.url
    from urllib.parse import urljoin

    notes, _, _ = _read_deck(urlopen(urljoin(base, deck)).read())
    questions = page.evaluate("""() => Array.from(document.querySelectorAll('article p strong'))
        .filter(s => /^Card \\d+\\.$/.test(s.innerText)).length""")
    assert len(notes) == questions
    text = urlopen(urljoin(base, note.get_attribute("href"))).read().decode()
    assert sum(" :: " in line for line in text.splitlines()) == len(notes)
    # and the whole course's, which holds every card of the set
    course = page.get_attribute("a[href$='course.apkg']", "href")
    fronts = {f for _, f, _ in _read_deck(urlopen(urljoin(base, course)).read())[0]}
    assert {f for _, f, _ in notes} <= fronts
    note = page.locator("a[href$='course-obsidian.md.txt']")
    assert note.get_attribute("download").endswith(".md")
    assert urlopen(urljoin(base, note.get_attribute("href"))).read().decode().count(" :: ") == len(fronts)
    assert page.outside == [] and page.errors == []
    context.close()


@pytest.mark.parametrize("builder", BUILDERS)
def test_search_finds_a_word(browser, servers, builder):
    context, page = _open(browser, servers[builder])
    if builder == "mkdocs":
        page.click("input.md-search__input")
        page.wait_for_function("document.querySelector('.md-search-result__meta')?.innerText"
                               ".includes('Type to start searching')", timeout=30000)
        page.keyboard.type("sharp peak", delay=20)
        page.wait_for_selector(".md-search-result__item", timeout=15000)
        hits = page.inner_text(".md-search-result")
    else:  # Zensical's own search dialog
        page.click(".md-search__button")
        page.keyboard.type("sharp peak", delay=20)
        page.locator("text=/\\d+ results?/").first.wait_for(timeout=15000)
        # visible links only: a collapsed nav entry (the practice page "One sharp
        # peak") has no rendered text, the dialog's hits do
        hits = " ".join(page.locator("a", has_text="sharp").all_inner_texts())
    assert "sharp peak" in hits.lower(), page.evaluate("() => document.body.innerText.slice(0, 1500)")
    assert page.outside == []
    context.close()


@pytest.mark.parametrize("builder", BUILDERS)
def test_sets_stay_out_of_the_sidebar_and_link_to_their_neighbours(built, builder):
    """A course has a set per student: the sidebar lists the index of sets (not
    every set, drawn again into every page), and each set links to the index
    and its neighbours."""
    site = built[builder]

    def links(page):
        return re.findall(r'href="([^"]*)"', (site / page).read_text(encoding="utf-8"))

    for page in ("index.html", "generated/index.html", "generated/examples/index.html"):
        sets = [h for h in links(page) if re.search(r"set-\d+/$", h)]
        assert sets == ([] if page != "generated/index.html" else ["set-01/", "set-02/"]), (page, sets)
    first, second = links("generated/set-01/index.html"), links("generated/set-02/index.html")
    assert [h for h in first if re.search(r"set-\d+/$", h)] == ["../set-02/"]
    assert [h for h in second if re.search(r"set-\d+/$", h)] == ["../set-01/"]
    assert "../examples/" in first  # the sidebar, as on every page
    ends = [(site / f"generated/set-0{n}/index.html").read_text(encoding="utf-8") for n in (1, 2)]
    assert '<p><a href="../">All problem sets</a> · <a href="../set-02/">Set 2 →</a></p>' in ends[0]
    assert '<p><a href="../set-01/">← Set 1</a> · <a href="../">All problem sets</a></p>' in ends[1]


@pytest.mark.parametrize("builder", BUILDERS)
def test_search_leaves_out_the_sets_and_finds_them_by_code(built, builder):
    """Set pages carry `search: exclude` (their near-identical problems would bury
    the worked examples); the index of sets, with every set code, stays searchable."""
    index = built[builder] / ("search/search_index.json" if builder == "mkdocs" else "search.json")
    data = json.loads(index.read_text(encoding="utf-8"))
    entries = data["docs"] if builder == "mkdocs" else data["items"]
    pages = {e["location"].split("#")[0] for e in entries}
    assert {"", "generated/", "generated/examples/"} <= pages
    assert not [p for p in pages if p.startswith("generated/set-")]
    assert (built[builder] / "generated" / "set-01" / "index.html").is_file()  # left out of search, not of the site
    codes = re.findall(r"set code `(set-[0-9A-Z]+)`", (built[builder].parent / "docs" / "generated" / "index.md").read_text())
    assert len(codes) == 2
    text = " ".join(e["text"] for e in entries if e["location"].split("#")[0] == "generated/")
    assert all(code in text for code in codes)


@pytest.mark.parametrize("builder", BUILDERS)
def test_no_page_scrolls_sideways_on_a_phone(browser, servers, built, builder):
    pages = _pages(built[builder])
    assert {"", "recipe/", "generated/", "generated/examples/", "generated/set-01/"} <= set(pages)
    for rel in pages:
        context, page = _open(browser, servers[builder] + rel, width=PHONE)
        wide = page.evaluate("""(w) => ({
            page: document.documentElement.scrollWidth,
            boxes: Array.from(document.querySelectorAll('div.arithmatex'))
                .filter(d => d.scrollWidth > d.clientWidth + 1).map(d => d.textContent.slice(0, 60)),
        })""", PHONE)
        assert wide["page"] <= PHONE, (rel, wide)
        # every display formula of this seed's pages fits: broken into lines, not scrolled
        assert wide["boxes"] == [], (rel, wide["boxes"])
        context.close()


@pytest.mark.parametrize("builder", BUILDERS)
def test_no_display_formula_clipped_on_a_desktop(browser, servers, built, builder):
    for rel in ("generated/set-01/", "generated/set-02/", "generated/examples/"):
        context, page = _open(browser, servers[builder] + rel, width=1200)
        clipped = page.evaluate("""() => Array.from(document.querySelectorAll('div.arithmatex'))
            .filter(d => d.scrollWidth > d.clientWidth + 1).map(d => d.textContent.slice(0, 60))""")
        assert clipped == [], (rel, clipped)
        context.close()


@pytest.mark.parametrize("builder", BUILDERS)
def test_home_and_recipe(browser, servers, builder):
    context, page = _open(browser, servers[builder])
    text = page.inner_text("article").lower()
    for offer in ("problem sets", "examples", "practice", "printable", "anki"):
        assert offer in text, offer
    context.close()
    context, page = _open(browser, servers[builder] + "recipe/")
    steps = page.evaluate("() => Array.from(document.querySelector('article ol').children).map(li => li.innerText)")
    assert [re.match(r"\w+", s).group(0) for s in steps] == ["Score", "Softmax", "Blend"]
    context.close()


@pytest.mark.parametrize("builder", BUILDERS)
def test_a_spec_title_never_becomes_markup_in_the_page_title(tmp_path, builder):
    """A spec titled "Quiz </title><script>alert(1)</script>" put a live
    script into the set page's <title>: both builders unescape a page's
    title there (Jinja's striptags)."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("generated", "mathjax"))
    spec = tmp_path / "evil.yaml"
    spec.write_text('title: "Quiz </title><script>alert(1)</script> & <b>"\nseed: 1\nitems:\n  - {kind: E}\n',
                    encoding="utf-8")
    gen = subprocess.run([sys.executable, "-m", "generator", "site", "--spec", str(spec), "--docs", str(docs)],
                         capture_output=True, text=True)
    assert gen.returncode == 0, gen.stderr
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config.update(docs_dir="docs", site_dir="out")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True))
    cmd = ([str(BIN / "mkdocs"), "build", "-q", "-f", "mkdocs.yml"] if builder == "mkdocs" else
           [str(BIN / "zensical"), "build", "-f", "mkdocs.yml"])
    run = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    page = (tmp_path / "out" / "generated" / "set-01" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "</title><script" not in page
    assert re.search(r"<title>Quiz ＜/title＞＜script＞alert\(1\)＜/script＞ &(amp;)? ＜b＞", page)
    assert "<h1" in page and "Quiz &lt;/title&gt;&lt;script&gt;" in page  # the heading shows the text as typed
