"""Specs and the site writer: validation that names file, item and field;
every example spec builds; same seed, same pages; hand-written pages and the
previous output survive a failed run."""

from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import UserError
from generator.pipeline import build_items
from generator.exam.spec import load_spec, parse_spec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


def test_examples_exist():
    names = [p.name for p in EXAMPLES]
    assert any(n.startswith("exam-") for n in names) and any(not n.startswith("exam-") for n in names)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_spec_builds(path):
    spec = load_spec(path)
    solutions = build_items(spec.items, spec.seed or 1, spec.digits)
    assert len(solutions) == spec.size
    if path.name.startswith("exam-"):
        assert all(i.points > 0 for i in spec.items) and any(i.points != 1 for i in spec.items)


def test_level_items_draw_exercises_of_that_level():
    spec = parse_spec({"items": [{"level": 2, "count": 3}, {"level": 5, "count": 2}]}, "t.yaml")
    kinds = [s.problem.kind for s in build_items(spec.items, 99)]
    assert [k[0] for k in kinds] == ["2", "2", "2", "5", "5"]


@pytest.mark.parametrize("text, says", [
    ("items: [}", "line 1, column 9: not valid YAML: a value is missing here"),
    ("- a\n- b\n", "must be a mapping"),
    ("title: T\n", "items: a non-empty list"),
    ("items:\n  - kind: Z\n", "item 1 (line 2): kind: unknown kind 'Z'"),
    ("items:\n  - kind: A\n  - kind: B\n    count: 0\n", "item 2 (line 3): count: a whole number from 1 to 50"),
    ("items:\n  - kind: A\n    count: 100000\n", "item 1 (line 2): count: a whole number from 1 to 50"),
    ("items:\n  - kind: A\n    colour: red\n", "item 1 (line 2): colour: unknown field"),
    ("items:\n  - kind: A\n    level: 2\n", "item 1 (line 2): give exactly one"),
    ("items:\n  - level: 7\n", "item 1 (line 2): level: a level from 1 to 5"),
    ("items:\n  - kind: A\n    params: {gap: 2}\n", "item 1 (line 2): params.gap: kind A has no such parameter"),
    ("items:\n  - kind: A\n    params: {gap_min: x}\n", "item 1 (line 2): params.gap_min: a number"),
    # parameters out of range ended in "internal error (ValueError: low >= high)"
    ("items:\n  - kind: A\n    params: {gap_min: 3, gap_max: 1}\n", "item 1 (line 2): params: gap_min (3) is above gap_max (1)"),
    ("items:\n  - kind: A\n    params: {gap_min: 50}\n", "item 1 (line 2): params.gap_min: a number from 0.1 to 10"),
    ("items:\n  - kind: A\n    params: {gap_min: .nan}\n", "item 1 (line 2): params.gap_min: a number from 0.1 to 10"),
    ("items:\n  - kind: B\n    params: {tx_min: 50}\n", "item 1 (line 2): params.tx_min: a whole number from 2 to 12"),
    ("items:\n  - kind: B\n    params: {tx_min: 2.5}\n", "item 1 (line 2): params.tx_min: a whole number from 2 to 12"),
    ("items:\n  - kind: F\n    params: {max_gap: 0}\n", "item 1 (line 2): params.max_gap: a number from 0.2 to 2"),
    ("items:\n  - kind: '2.1'\n    params: {tx_min: 0, tx_max: 1}\n", "item 1 (line 2): params.tx_min: a whole number"),
    ("items:\n  - kind: C\n    inputs: {scores: [nan]}\n", "item 1 (line 2): inputs: scores[1]"),
    ("items:\n  - kind: A\n    points: -1\n", "item 1 (line 2): points: a positive number"),
    ("seed: -4\nitems:\n  - kind: A\n", "seed: a whole number"),
    ("sets: 0\nitems:\n  - kind: A\n", "sets: a whole number"),
    ("wat: 1\nitems:\n  - kind: A\n", "wat: unknown key"),
    # YAML's safe loader kept the last of two equal keys, silently
    ("title: A\ntitle: B\nitems:\n  - kind: A\n", "line 2, column 1: the key 'title' appears twice"),
    ("items:\n  - {kind: A, count: 1, count: 2}\n", "line 2, column 25: the key 'count' appears twice"),
])
def test_spec_errors_name_file_item_and_field(tmp_path, text, says):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as exc:
        load_spec(path)
    assert str(exc.value).startswith(f"{path}: ") and says in str(exc.value), str(exc.value)


@pytest.mark.parametrize("text, says", [
    ("items:\n\t- kind: A\n", "line 2, column 1: not valid YAML: a tab; indent with spaces"),
    ("title: a: b\nitems: []\n", "line 1, column 9: not valid YAML: a ':' where none can stand; put a text "
     "holding ': ' in quotes"),
    ("items:\n  - kind: A\n count: 2\n", "line 3, column 2: not valid YAML: this line is indented otherwise"),
    ("items:\n  - kind: A\n    count 2\n  - kind: B\n", "line 4, column 3: not valid YAML: a 'key: value' line "
     "without its ':'"),
    ("title: 'abc\nitems: []\n", "line 1, column 8: not valid YAML: a quote opened here is never closed"),
    ("items: {kind: A\n", "line 2, column 1: not valid YAML: a mapping opened with '{' is not closed with '}'"),
    ("title: @x\n", "line 1, column 8: not valid YAML: this character cannot start a value; put the value in quotes"),
    # ValueError from Python's date and number makers ended as internal errors
    ("title: 2026-13-45\nitems: [{kind: A}]\n", "line 1, column 8: not valid YAML: YAML reads this value as a date "
     "or a number, which it is not; put it in quotes"),
    ("items: [{kind: A, count: !!int abc}]\n", "line 1, column 26: not valid YAML: YAML reads this value as a date"),
    ("title: T\nitems: [{kind: A}]\n\x00", "line 3: not valid YAML: a control character (U+0000), which a spec cannot "
     "hold; remove it"),
    ("title: !!python/object:os.system x\n", "line 1, column 8: not valid YAML: a tag (!!name) that a spec does "
     "not take"),
])
def test_yaml_errors_say_line_column_and_what_to_do(tmp_path, text, says):
    """The YAML reader's own sentence ("found character '\\t' that cannot start
    any token") is kept in brackets, after one in a spec's terms."""
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as exc:
        load_spec(path)
    assert str(exc.value).startswith(f"{path}: {says}") and ("(the YAML reader: " in str(exc.value)
                                                              or "control character" in says), str(exc.value)


def test_every_mistake_of_a_spec_is_reported_at_once_items_counted_from_1(tmp_path, capsys):
    """Only the first mistake was reported, as `items[1]`, which did not say
    whether it counts from 0 or 1: fixing a spec took a run per mistake."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: ''\nseed: -1\nitems:\n  - kind: Q\n  - kind: A\n    count: 0\n    points: 0\n"
                   "  - {level: 9, colour: red}\n  - kind: B\n")
    assert main(["sheet", str(bad), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {bad}: 7 mistakes:",
        "  title: a non-empty text of at most 200 characters",
        "  seed: a whole number from 0 to 18446744073709551615",
        "  item 1 (line 4): kind: unknown kind 'Q'; choose one of A, B, C, D, E, F, G, H, I, 1.1, 1.2, 1.3, 2.1, "
        "2.2, 2.3, 3.1, 3.2, 3.3, 4.1, 4.2, 4.3, 5.1, 5.2, 5.3 (see `attndrills kinds`)",
        "  item 2 (line 5): count: a whole number from 1 to 50",
        "  item 2 (line 5): points: a positive number of at most 1000",
        "  item 3 (line 8): colour: unknown field; an item has kind or level, count, params, inputs, points",
        "  item 3 (line 8): level: a level from 1 to 5"]
    assert not (tmp_path / "out").exists()
    bad.write_text("items:\n" + "  - kind: Q\n" * 500)
    assert main(["sheet", str(bad), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"error: {bad}: 500 mistakes:" and len(err) == 22 and err[-1] == "  … and 480 more"


def test_a_spec_of_aliases_nesting_lists_in_lists_is_read_at_once(tmp_path):
    """Each list shared through YAML aliases is checked once: 9 aliases a
    level, 12 levels, is 9^12 paths but 13 lists."""
    import time

    lines = ["title: T", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 13)]
    path = tmp_path / "aliases.yaml"
    path.write_text("\n".join(lines + ["items: [{kind: A}]"]) + "\n")
    start = time.monotonic()
    with pytest.raises(UserError, match="a0: unknown key"):
        load_spec(path)
    assert time.monotonic() - start < 5


def test_spec_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("title: Übung\nitems: [{kind: A}]\n".encode("latin-1"))
    with pytest.raises(UserError, match="not UTF-8"):
        load_spec(path)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_same_seed_same_site_bytes(tmp_path, capsys):
    for name in ("one", "two"):
        docs = tmp_path / name
        docs.mkdir()
        (docs / "index.md").write_text("# hand-written\n")
        assert main(["site", "--seed", "42", "--sets", "2", "--docs", str(docs)]) == 0
    one, two = _tree(tmp_path / "one"), _tree(tmp_path / "two")
    assert one == two
    assert one["index.md"] == b"# hand-written\n"  # hand-written pages untouched
    assert {"generated/index.md", "generated/examples.md", "generated/set-01.md", "generated/set-02.md"} <= set(one)
    # figures are in the pages, not files of their own
    assert not any(k.startswith("generated/figures/") for k in one)
    assert 'src="data:image/svg+xml;base64,' in one["generated/examples.md"].decode()
    page = one["generated/set-01.md"].decode()
    assert "`set-" in page and " · variant <code>" in page  # the codes a student quotes
    assert "seed " not in page.split("-->", 1)[1]  # a seed only in the instructors' comment
    assert page.count("## Recall cards") == 1 and '!!! tip "Recall"' not in page
    # default sets cover every cell A–I and every level 1–5
    assert main(["site", "--seed", "42", "--docs", str(tmp_path / "three")]) == 0
    text = " ".join(v.decode() for k, v in _tree(tmp_path / "three").items()
                    if "set-" in k and k.endswith(".md"))
    assert all(f"Cell {c} · variant" in text for c in "ABCDEFGHI")
    assert all(f"Exercise {lv}." in text for lv in "12345")


def test_fresh_seed_each_run(tmp_path, capsys):
    for name in ("a", "b"):
        assert main(["site", "--sets", "1", "--docs", str(tmp_path / name)]) == 0
    assert _tree(tmp_path / "a") != _tree(tmp_path / "b")


def test_failed_run_leaves_previous_output(tmp_path, capsys):
    docs = tmp_path / "docs"
    assert main(["site", "--seed", "1", "--sets", "1", "--docs", str(docs)]) == 0
    before = _tree(docs)
    capsys.readouterr()
    bad = tmp_path / "bad.yaml"
    bad.write_text("items:\n  - kind: Q\n")
    assert main(["site", "--spec", str(bad), "--docs", str(docs)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {bad}: item 1 (line 2): kind")
    assert _tree(docs) == before
    assert sorted(p.name for p in docs.iterdir()) == ["assets", "generated"]  # no temporary folders left


def test_spec_site(tmp_path, capsys):
    assert main(["site", "--spec", str(ROOT / "examples" / "set-basics.yaml"), "--docs", str(tmp_path)]) == 0
    pages = _tree(tmp_path)
    assert "generated/set-02.md" in pages  # the spec asks for two sets
    assert "Attention basics — set 1" in pages["generated/set-01.md"].decode()


def test_site_pdf_links_printable_sheets(tmp_path, capsys):
    assert main(["site", "--seed", "3", "--sets", "1", "--pdf", "--docs", str(tmp_path)]) == 0
    pages = _tree(tmp_path)
    assert pages["generated/print/set-01-sheet.pdf"].startswith(b"%PDF")
    assert pages["generated/print/set-01-key.pdf"].startswith(b"%PDF")
    assert "(print/set-01-sheet.pdf)" in pages["generated/set-01.md"].decode()


def test_site_refuses_a_generated_folder_it_did_not_write(tmp_path, capsys):
    mine = tmp_path / "generated"
    mine.mkdir()
    (mine / "notes.md").write_text("# my own notes\n")
    assert main(["site", "--seed", "1", "--sets", "1", "--docs", str(tmp_path)]) == 2
    assert "did not write" in capsys.readouterr().err
    assert (mine / "notes.md").read_text() == "# my own notes\n"
    assert main(["site", "--seed", "1", "--sets", "1", "--docs", str(tmp_path), "--force"]) == 0
    assert main(["site", "--seed", "2", "--sets", "1", "--docs", str(tmp_path)]) == 0  # now it is ours


# ---------------------------------------------------------------- answer fields and practice pages (issue 13)

import html  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402

from generator import kinds  # noqa: E402
from generator.exam.assembly import graded_answers  # noqa: E402
from generator.exam.marking import mark  # noqa: E402
from generator.exam.window import centre  # noqa: E402
from generator.exam.misconceptions import describe  # noqa: E402
from generator.pipeline import sample_problem, solve_problem  # noqa: E402
from generator.render.answer_fields import answer_view, attribute_json, forecast_field  # noqa: E402
from generator.render.markdown import inline, render_problem  # noqa: E402


def _typed(rows) -> str:
    return " | ".join("; ".join(repr(x) for x in row) for row in rows)


@pytest.mark.parametrize("kind", [k.id for k in kinds.all_kinds()])
def test_answer_field_data_is_grades_window_and_mistakes(kind):
    """The data a page checks with: one field per graded answer; centre = the
    printed key, half-width = the tolerance; every distractor, typed as
    embedded, is the mistake grade names, with that mistake's sentence."""
    for seed in (1, 2, 3):
        sol = solve_problem(sample_problem(kind, seed))
        view = answer_view(sol)
        graded = [a for a in graded_answers(sol) if a.type != "text"]
        assert [f["name"] for f in view["answers"]] == [a.name for a in graded]
        # the script's data is the fields' but their typeset labels (the script's messages are plain text)
        assert json.loads(view["json"])["answers"] == [{k: v for k, v in f.items() if not k.endswith("_html")}
                                                     for f in view["answers"]]
        for a, f in zip(graded, view["answers"]):
            assert f["type"] == a.type
            if a.type == "numeric":
                assert f["key"] == [[centre(a)]] and f["tol"] == [[a.tolerance]]
                assert mark(a, repr(f["key"][0][0])).correct
            elif a.type == "vector":
                rows = centre(a)
                assert f["key"] == rows
                tol = a.tolerance if isinstance(a.tolerance[0], list) else [a.tolerance]
                assert f["tol"] == tol
                assert mark(a, _typed(rows)).correct
            if a.type in ("numeric", "vector"):
                wrong = [o for o in a.options if not o.correct]
                assert len(f["distractors"]) == len(wrong)
                for d, o in zip(f["distractors"], wrong):
                    m = mark(a, _typed(d["value"]))
                    assert not m.correct and m.misconception == o.misconception
                    assert d["sentence"] == f"It looks like you {describe(o.misconception)}."
            elif a.type == "choice":
                for letter, o, shown in zip("ABCDEFGHIJ", a.options, f["options"]):
                    assert shown["letter"] == letter and shown["correct"] == o.correct
                    m = mark(a, letter)
                    if not o.correct and not (m.correct or m.misconception is None):
                        assert shown["sentence"] == f"It looks like you {describe(m.misconception)}."
            elif a.type == "truefalse":
                assert f["key"] == a.value and mark(a, str(a.value).lower()).correct
                m = mark(a, str(not a.value).lower())
                assert f["sentence"] == f"It looks like you {describe(m.misconception)}."
            elif a.type == "matching":
                picked = "; ".join(f"{left} → {f['right'][k]}" for left, k in zip(f["left"], f["key"]))
                assert mark(a, picked).correct


def test_answer_field_labels_set_symbols_as_maths_and_the_script_reads_them_plain():
    """A field's label and a matching item printed their symbols as typed
    ("context vector c_t", "y_t-1", read as y_t minus 1) under a question
    that typesets them: now the label typesets them as arithmatex does, and
    the script's messages ("The answer: …") write them in Unicode (cₜ, yₜ₋₁)."""
    view = answer_view(solve_problem(sample_problem("B", 1)))
    context = next(f for f in view["answers"] if f["name"] == "context")
    assert context["label_html"] == ('context vector <span class="arithmatex" aria-hidden="true">\\(c_{t}\\)</span>'
                                     '<span class="ad-sr">c sub t</span>')  # spoken: Chromium names no MathML
    assert json.loads(view["json"])["answers"][1]["label"] == "context vector cₜ"
    view = answer_view(solve_problem(sample_problem("1.1", 0)))
    pairs = next(f for f in view["answers"] if f["type"] == "matching")
    assert all(re.fullmatch(r'<span class="arithmatex" aria-hidden="true">\\\(.+\\\)</span><span class="ad-sr">.+</span>', left)
               for left in pairs["left_html"])
    shown = json.loads(view["json"])["answers"][0]["shown"]
    assert "_" not in shown and "→" in shown, shown
    earlier = [f for seed in range(8) for f in answer_view(solve_problem(sample_problem("1.1", seed)))["answers"]
               if f["type"] == "matching"]
    typeset = {left: html for f in earlier for left, html in zip(f["left"], f["left_html"])}
    assert typeset["y_t-1"] == ('<span class="arithmatex" aria-hidden="true">\\(y_{t−1}\\)</span>'
                                '<span class="ad-sr">y sub t minus 1</span>')  # not y_t, minus 1
    md = render_problem(solve_problem(sample_problem("5.1", 0)), answer_fields=True)
    assert ('Your forecast: <span class="arithmatex" aria-hidden="true">\\(\\alpha_{t1}\\)</span>'
            '<span class="ad-sr">α sub t1</span> (a number)') in md


def test_forecast_targets():
    """Each kind's Forecast asks for one number (an answer's printed key) or for words."""
    modes = {}
    for k in kinds.all_kinds():
        sol = solve_problem(sample_problem(k.id, 5))
        f = forecast_field(sol)
        modes[k.id] = f["mode"]
        if f["mode"] == "number":
            assert isinstance(f["key"], float) and f["tol"] >= 0 and f["label"]
        else:
            assert f["answers"] and all(x["shown"] for x in f["answers"])
    assert [k for k, m in modes.items() if m == "number"] == ["A", "B", "C", "E", "F", "2.1", "4.1", "4.3", "5.1", "5.3"]
    sol = solve_problem(sample_problem("A", 5))
    weights = [float(x) for x in sol.answer("weights").display]
    assert forecast_field(sol)["key"] == max(weights)  # the winner's weight


def test_practice_html_uses_the_sites_markdown_extensions():
    import yaml

    from generator.render.markdown import SITE_EXTENSIONS

    configured = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["markdown_extensions"]
    names = {e if isinstance(e, str) else next(iter(e)) for e in configured}
    assert set(SITE_EXTENSIONS) <= names
    assert {"generic": True}.items() <= next(e for e in configured if isinstance(e, dict)
                                              and "pymdownx.arithmatex" in e)["pymdownx.arithmatex"].items()


def test_embedded_data_round_trips_through_its_attribute():
    for kind in ("A", "1.1", "4.2"):
        sol = solve_problem(sample_problem(kind, 1))
        page = render_problem(sol, answer_fields=True)
        raw = re.search(r"<div class=\"ad-check\" data-ad='([^']*)' hidden>", page).group(1)
        # single-quoted, and no character reference for a builder to decode
        assert "&" not in raw and json.loads(raw) == json.loads(answer_view(sol)["json"])
    # user text with the attribute's quote, an ampersand and markup survives
    data = {"label": "it's <b>&amp;</b> \\' & \"x\""}
    raw = attribute_json(data)
    assert "'" not in raw and "&" not in raw and json.loads(raw) == data


def test_the_scripts_own_words_are_text_en_ui_yaml_and_a_page_carries_any_other(tmp_path):
    """practice.js says the page's messages (practice.script in ui.yaml) and
    its own English where a page carries none: the two are the same, so an
    English page carries none (its bytes as before), and an edited one
    carries every message, edits and all."""
    from generator import text
    from generator.render.answer_fields import SCRIPT, script_text, script_text_html

    js = (ROOT / "docs" / "javascripts" / "practice.js").read_text("utf-8")
    start = js.index("var MESSAGES = {") + len("var MESSAGES = ")
    own = json.loads(js[start:js.index("\n  };", start) + 4])
    yaml_ = {k.removeprefix(SCRIPT): s.source for k, s in text.builtin("en", "ui").items() if k.startswith(SCRIPT)}
    assert own == yaml_ | {"decimal_mark": "."}  # the mark is the language's (language.yaml)
    used = set(re.findall(r'\bT\("([a-z_0-9]+)"\s*[,)]', js)) | set(re.findall(r'one\([^,]+, "([a-z_0-9]+)"\)', js))
    assert used - set(own) == set(), "a message the script says but does not hold"
    assert script_text() == own and script_text_html() == ""
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "ui.yaml").write_text('practice:\n  script:\n    spot_on: "Genau {{so}} it\'s & <b>."\n', "utf-8")
    with text.use("en", tmp_path):
        html = script_text_html()
    raw = re.fullmatch(r"<div class=\"ad-text\" data-ad-text='([^'&]*)' hidden></div>", html).group(1)
    assert json.loads(raw) == own | {"spot_on": "Genau {{so}} it's & <b>."}


def test_answer_fields_only_where_asked():
    sol = solve_problem(sample_problem("A", 1))
    assert "ad-check" not in render_problem(sol)  # `problem --format md`, goldens: unchanged
    page = render_problem(sol, answer_fields=True)
    block = page[page.index('<div class="ad-check"'):page.index("</form>\n</div>") + 14]
    # one raw HTML block: no blank line, nothing indented (Markdown would end it or make it code)
    assert "\n\n" not in block and not re.search(r"\n {4}", block)
    assert page.index('!!! question "Forecast"') < page.index('<div class="ad-check"') < page.index('??? success')
    # every input is labelled
    ids = re.findall(r'<(?:input|textarea|select) [^>]*id="([^"]+)"', block)
    assert ids and all(f'<label for="{i}">' in block for i in ids)


def test_practice_pages(tmp_path, capsys):
    assert main(["site", "--seed", "5", "--sets", "1", "--docs", str(tmp_path)]) == 0
    pages = _tree(tmp_path)
    for k in kinds.all_kinds():
        page = pages[f"generated/practice/{k.slug}.md"].decode()
        first = re.findall(r'data-ad-variant="([^"]+)"', page)
        blob = re.search(r"data-ad-variants='([^']*)'", page).group(1)
        assert "&" not in blob
        more = json.loads(blob)
        codes = first + [v["code"] for v in more]
        assert len(codes) >= 20 and len(set(codes)) == len(codes)
        assert page.count('<div class="ad-check"') == len(first) == 1
        assert page.count('<details class="success">') == 1
        for v in more:  # the others, converted as the site converts Markdown
            assert v["html"].count('<div class="ad-check"') == 1
            assert '<details class="success">' in v["html"] and "<summary>Solution</summary>" in v["html"]
            assert v["code"] in v["html"]
        assert any('class="arithmatex"' in v["html"] for v in more) == ('class="arithmatex"' in page)  # maths kept for MathJax
        assert "![" not in page and not any("<img" in v["html"] for v in more)  # no figures here
        assert "ad-next" in page and "ad-clear" in page
        assert f"({k.slug}.md)" in pages["generated/practice/index.md"].decode()
    assert "(practice/index.md)" in pages["generated/index.md"].decode()
    # every problem of a set page has its answer fields
    set_page = pages["generated/set-01.md"].decode()
    assert set_page.count('<div class="ad-check"') == set_page.count('<details class="success">') == 8


def test_ready_html_reads_as_its_markdown_would():
    """A set page's problems come converted, figures in the page; with the
    passthrough extension (mkdocs.yml) the page is the one Python-Markdown makes
    of the problems' Markdown; without it, the blocks are HTML comments (which
    Zensical passes over quickly) and show nothing."""
    import base64

    import markdown
    import yaml

    from generator.figures import draw_figures
    from generator.render.markdown import data_uri, ready_block, ready_html

    configured = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["markdown_extensions"]
    assert "generator.render.passthrough" in configured
    exts = ["toc", "tables", "fenced_code", "admonition", "attr_list", "pymdownx.details", "pymdownx.superfences",
            "pymdownx.arithmatex"]
    cfg = {"pymdownx.arithmatex": {"generic": True}}
    plain = markdown.Markdown(extensions=exts, extension_configs=cfg)
    fast = markdown.Markdown(extensions=[*exts, "generator.render.passthrough"], extension_configs=cfg)
    for kind in ("A", "G", "1.1", "5.2"):
        sol = solve_problem(sample_problem(kind, 3))
        figures = draw_figures(sol)
        md = render_problem(sol, heading="##", number=1, figures=figures, src_prefix="figures/", recall=False,
                            answer_fields=True)
        heading, body = md.split("\n", 1)
        page = (f"# Set\n\nText *here*.\n\n{heading}\n\n{ready_html(body, figures, 'figures/')}\n"
                "## Recall cards\n\n**Card 1.** x\n")
        for f in figures:  # the page as Python-Markdown makes it of the figures' data: URLs
            md = md.replace(f"](figures/{f.filename})", f"]({data_uri(f)})")
        want = plain.reset().convert(f"# Set\n\nText *here*.\n\n{md}\n## Recall cards\n\n**Card 1.** x\n")
        got = fast.reset().convert(page)
        assert re.sub(r"\n+", "\n", got) == re.sub(r"\n+", "\n", want)
        assert "attndrills" not in got and got.count("<img ") == len(figures) == md.count("![")
        # each figure is the drawn SVG itself, with its alt text
        shown = re.findall(r'<img alt="([^"]*)" src="data:image/svg\+xml;base64,([^"]*)" />', got)
        assert [(html.unescape(alt), base64.b64decode(data)) for alt, data in shown] == [(f.alt, f.data)
                                                                                          for f in figures]
        slow = plain.reset().convert(page)  # no extension: comments
        shown = re.sub(r"<!--.*?-->", "", slow, flags=re.S)
        assert "<img " not in shown and "ad-check" not in shown and "Solution" not in shown
    # what would end a comment early is written as a character reference, which means the same
    raw = "<div data-ad='{\"s\": \"a --> b <!-- c\"}'>\n<p>x</p>\n</div>"
    got = fast.reset().convert(f"# Page\n\n{ready_block(raw)}")
    assert got == "<h1 id=\"page\">Page</h1>\n<div data-ad='{\"s\": \"a --&gt; b &lt;!-- c\"}'>\n<p>x</p>\n</div>"
    # a block goes into the page as written: no tab expanded, no line of spaces emptied
    raw = "<pre>a\tb\n   \nc</pre>"
    assert fast.reset().convert(f"# Page\n\n{ready_block(raw)}\nText\tafter.\n") == (
        '<h1 id="page">Page</h1>\n<pre>a\tb\n   \nc</pre>\n<p>Text    after.</p>')


@pytest.mark.parametrize("kind", [k.id for k in kinds.all_kinds()])
def test_site_html_is_the_html_python_markdown_makes(kind):
    """The site's problems and recall cards are laid out directly
    (render.site_html), not converted: byte for byte what Python-Markdown makes
    of their Markdown, as MkDocs runs it (ready_html) and as the practice pools
    are converted (to_html), with and without a heading, over many seeds."""
    from generator.figures import draw_figures
    from generator.render.markdown import page_html, to_html
    from generator.render.site_html import cards_html, problem_html
    from generator.templating import environment

    for seed in range(12):
        sol = solve_problem(sample_problem(kind, seed))
        figures = draw_figures(sol)
        md = render_problem(sol, heading="##", number=3, figures=figures, src_prefix="figures/", recall=False,
                            answer_fields=True)
        assert problem_html(sol, figures=figures, src_prefix="figures/") == page_html(md.split("\n", 1)[1])
        md = render_problem(sol, heading=None, recall=False, answer_fields=True)
        assert problem_html(sol, title=True) == page_html(md) == to_html(md)
        cards = environment().get_template("markdown/partials/cards.md.j2").render(
            recall=[(inline(q), inline(a)) for q, a in sol.recall])
        assert cards_html(list(sol.recall)) == page_html(cards)


@pytest.mark.parametrize("text", ["$5 each", "1. first", "= equal", "a | b", "tab\there", " lead", "trail ",
                                  "back\\slash", "`tick`"])
def test_site_html_leaves_to_python_markdown_what_it_might_write_otherwise(text):
    """Text Python-Markdown does not simply write back (escapes it keeps,
    list and heading markers, blanks it strips): the problem is converted."""
    import dataclasses

    from generator.render.markdown import page_html
    from generator.render.site_html import cards_html, problem_html

    sol = solve_problem(sample_problem("2.1", 1))
    odd = dataclasses.replace(sol, question=((text,), *sol.question[1:]))
    assert problem_html(sol) is not None and problem_html(odd) is None
    assert cards_html([((text,), ("answer",))]) is None
    # * _ { } [ ] & < > come back as they were, as Python-Markdown writes them
    fine = dataclasses.replace(sol, question=(("a*b_c {d} [0, 1] & <e>",),))
    md = render_problem(fine, heading=None, recall=False, answer_fields=True)
    assert problem_html(fine, title=True) == page_html(md)
    assert "<p>a*b_c {d} [0, 1] &amp; &lt;e&gt;</p>" in page_html(md)


def test_every_scenario_parameter_has_limits_and_its_extremes_draw():
    """Each parameter a kind takes has declared limits, and a spec at either
    end of them still draws problems (or says why not in an error)."""
    from generator import kinds
    from generator.errors import ProblemRejected
    from generator.pipeline import sample_problem

    for kind in kinds.all_kinds():
        params = kind.scenarios.get("default", {})
        assert set(kind.limits) == set(params), kind.id
        for key, (lo, hi, _) in kind.limits.items():
            for value in (lo, hi):
                merged = {**params, key: value}
                pairs = [(k, k.removesuffix("_min") + "_max") for k in merged if k.endswith("_min")]
                if any(merged[a] > merged.get(b, merged[a]) for a, b in pairs):
                    continue  # the spec refuses it
                for seed in range(3):
                    try:
                        sample_problem(kind.id, seed, merged)
                    except ProblemRejected:
                        pass  # an error line naming the kind, not a crash


def test_the_sidebar_lists_practice_pages_in_the_course_order():
    """The sidebar listed the practice pages by file name ("The context
    vector", "Counting…", "Entropy…", "All scores equal" …), each headed
    "Practice: …", in a section called "Generated": mkdocs.yml's nav now
    lists them as the course teaches them, cells A–I then exercises 1.1–5.3,
    one entry per kind."""
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    practice = next(e["Practice"] for e in config["nav"] if "Practice" in e)
    assert practice[0] == "generated/practice/index.md"
    listed = [next(iter(e.items())) for e in practice[1:]]
    assert listed == [(f"{k.id} · {k.title}", f"generated/practice/{k.slug}.md") for k in kinds.all_kinds()]
    assert [k.id for k in kinds.all_kinds()][:9] == list("ABCDEFGHI")
    assert not any("Generated" in str(e) for e in config["nav"])


def test_search_text_reads_maths():
    """The search indexes a formula's twin in plain text (render.search_text)."""
    from generator.render.search_text import searchable, tex_text

    assert tex_text(r"\(T_{x} = 8\)") == "Tₓ = 8"
    assert tex_text(r"\(\left(0.7, 0.7\right)\)") == "(0.7, 0.7)"
    assert tex_text(r"\[\alpha_{ti} = \frac{\exp(e_{ti})}{\sum_{j} \exp(e_{tj})}\]") == "αₜᵢ = exp(eₜᵢ)/(Σⱼ exp(eₜⱼ))"
    assert tex_text(r"\begin{aligned}Z & = 1 + 2 \\[2pt] &\quad {} + 3 = 6\end{aligned}") == "Z = 1 + 2 + 3 = 6"
    assert tex_text(r"2.06 \times 10^{-9}") == "2.06 × 10⁻⁹"
    assert tex_text(r"\unknowncommand{x}") is None
    html = '<p>is <span class="arithmatex">\\(T_{x} = 8\\)</span>.</p>'
    assert searchable(html) == ('<p>is <span class="arithmatex" data-search-exclude>\\(T_{x} = 8\\)</span>'
                                '<span class="ad-search-text" hidden>Tₓ = 8</span>.</p>')
