"""The Moodle export as Moodle's importer reads it: a category per exam
question holding every variant, escaped category paths, CDATA, cloze weights
that share the points, named mistakes on cloze blanks, marks that add up —
and the exam's assembly it is built from."""

import csv
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from generator import kinds
from generator.cli import main
from generator.exam.assembly import assemble, graded_answers, item_points
from generator.exam.window import centre
from generator.pipeline import sample_problem, solve_problem
from generator.exam.roster import numbered
from generator.exam.spec import load_spec
from generator.render.moodle import category_name, cdata
from generator.render.moodle_text import cloze_weights

ROOT = Path(__file__).resolve().parent.parent
EXAM = ROOT / "examples" / "exam-midterm.yaml"
# a cloze part's letter: bold by style, not <b>, which Moodle's plain-text
# summaries (quiz response reports) write in capitals, as a choice's (A)
PART = r'<p><span style="font-weight: bold">\(([a-j])\)</span> '
BLANK = re.compile(r"\{(\d+):(NUMERICAL|MULTICHOICE\w*|MULTIRESPONSE\w*):((?:[^{}\\]|\\.)*)\}")


def moodle_split(path: str) -> list[str]:
    """Moodle's `split_category_path`: split at a single `/`, `//` is a literal `/`."""
    return [name.replace("//", "/").strip() for name in re.split(r"(?<!/)/(?!/)", path)]


def questions_by_category(root) -> dict[str, list]:
    out, current = {}, None
    for q in root:
        if q.get("type") == "category":
            current = q.find("category/text").text
            out.setdefault(current, [])
        else:
            out[current].append(q)
    return out


@pytest.fixture(scope="module")
def exam(tmp_path_factory):
    out = tmp_path_factory.mktemp("moodle") / "out"
    assert main(["exam", str(EXAM), "--students", "3", "--out", str(out), "--workers", "1"]) == 0
    return out


@pytest.fixture(scope="module")
def slashed(tmp_path_factory):
    """A title with '/', HTML and non-ASCII, and one matching question alone."""
    base = tmp_path_factory.mktemp("slashed")
    spec = base / "spec.yaml"
    spec.write_text('title: "Midterm 1/2 <b>“white”</b> ]]> end/"\nseed: 5\nitems:\n'
                    '  - kind: "1.1"\n    points: 2\n  - kind: "1.2"\n    points: 3\n'
                    '  - kind: "2.3"\n    points: 2.5\n', encoding="utf-8")
    out = base / "out"
    assert main(["exam", str(spec), "--students", "2", "--out", str(out), "--workers", "1"]) == 0
    return out, spec


def test_one_category_per_exam_question_holding_every_variant(exam):
    root = ET.parse(exam / "moodle.xml").getroot()
    cats = questions_by_category(root)
    spec = load_spec(EXAM)
    points = item_points(spec)
    title = "$course$/top/Attention midterm"
    assert list(cats) == [title] + [f"{title}/Question {k} ({p:g} points)" for k, p in enumerate(map(float, points), 1)]
    assert cats[title] == []  # the exam's category holds only the per-question categories
    papers = assemble(spec, numbered(3), 20261201)
    for k in range(1, len(points) + 1):
        want = {q.solution.problem.variant for p in papers for q in p.questions if q.item == k}
        got = [q.find("idnumber").text for q in cats[list(cats)[k]]]
        assert sorted(got) == sorted(want) and len(got) == 3, k
        # names keep the variant code, so a Moodle result traces back to its variant
        assert all(q.find("name/text").text == f"Q{k} {q.find('idnumber').text}" for q in cats[list(cats)[k]])
    rows = list(csv.DictReader(open(exam / "answers.csv")))
    assert {r["variant"] for r in rows} == {q.find("idnumber").text for qs in cats.values() for q in qs}


def test_category_paths_escape_slashes(slashed):
    out, _ = slashed
    assert category_name("a/b") == "a//b" and category_name("/a/") == " //a// "
    root = ET.parse(out / "moodle.xml").getroot()
    paths = [q.find("category/text").text for q in root if q.get("type") == "category"]
    # tags would be stripped by the importer (PARAM_TEXT): they go in as entities, shown as typed
    title = "Midterm 1/2 &lt;b&gt;“white”&lt;/b&gt; ]]&gt; end/"
    assert moodle_split(paths[0]) == ["$course$", "top", title.strip()]
    assert all(moodle_split(p)[:3] == ["$course$", "top", title] for p in paths)
    assert [moodle_split(p)[3:] for p in paths[1:]] == [["Question 1 (2 points)"], ["Question 2 (3 points)"],
                                                        ["Question 3 (2.5 points)"]]


def test_every_text_is_cdata(exam, slashed):
    for folder in (exam, slashed[0]):
        raw = (folder / "moodle.xml").read_text(encoding="utf-8")
        texts = re.findall(r"<text>(.*?)</text>", raw, re.S)
        assert texts and all(t == "" or t.startswith("<![CDATA[") for t in texts)
    assert cdata("a ]]> b") == "<![CDATA[a ]]]]><![CDATA[> b]]>"
    assert cdata("x\x00\x1by") == "<![CDATA[xy]]>"
    # the space between a tag and a non-ASCII character survives: CDATA, not escaped markup
    raw = (slashed[0] / "moodle.xml").read_text(encoding="utf-8")
    assert "&lt;p&gt;" not in raw and "<![CDATA[<p>" in raw  # markup sits in CDATA, never escaped
    info = ET.parse(slashed[0] / "moodle.xml").getroot()[0].find("info/text").text
    assert "Midterm 1/2 &lt;b&gt;“white”&lt;/b&gt; ]]&gt; end/: 3 questions" in info  # the user's title: escaped HTML text


def _points(category: str) -> Fraction:
    return Fraction(re.search(r"\(([\d.]+) points?\)$", category).group(1))


def test_marks_add_up_to_the_exam_total(exam):
    root = ET.parse(exam / "moodle.xml").getroot()
    cats = questions_by_category(root)
    total = sum(_points(c) for c in list(cats)[1:])
    assert total == sum(item_points(load_spec(EXAM))) == 33
    for cat, qs in list(cats.items())[1:]:
        pts = _points(cat)
        for q in qs:
            if q.get("type") == "cloze":
                weights = [int(w) for w, _, _ in BLANK.findall(q.find("questiontext/text").text)]
                assert all(w >= 1 for w in weights)
                multiple = sum(weights) / pts
                assert multiple == int(multiple), (cat, weights)  # the points, or a whole multiple of them
                assert q.find("defaultgrade") is None  # the importer ignores it for cloze
            else:
                assert Fraction(q.find("defaultgrade").text) == pts


def test_cloze_weights_share_the_points_as_answers_csv_does():
    from generator.exam.assembly import Part

    def parts(points, blanks):
        a = solve_problem(sample_problem("2.1", 1), 4).answer("weights")
        return [Part("x", a, Fraction(points), "q")] * blanks

    # three true/false statements, 3 points: one point each, summing to the points
    tf = solve_problem(sample_problem("1.2", 1), 4)
    ps = [Part(f"1{c}", a, Fraction(1), "q") for c, a in zip("abc", graded_answers(tf))]
    assert cloze_weights(ps) == [[1], [1], [1]]
    # 4 points over one vector of n components: the smallest whole multiple
    sol = solve_problem(sample_problem("2.1", 1), 4)
    n = len(sol.answer("weights").display)
    w = cloze_weights([Part("2", sol.answer("weights"), Fraction(4), "q")])
    assert len(w[0]) == n and len(set(w[0])) == 1 and sum(w[0]) % 4 == 0
    assert sum(w[0]) == 4 * (n // __import__("math").gcd(n, 4))


def test_cloze_blanks_carry_the_key_and_each_named_mistake(exam):
    root = ET.parse(exam / "moodle.xml").getroot()
    numeric_blanks = mistakes = 0
    for q in root:
        if q.get("type") != "cloze":
            continue
        code = q.find("idnumber").text
        kind, seed = code.rsplit("-", 1)
        from generator.seeding import decode

        sol = solve_problem(sample_problem(kind, decode(seed)), 4)
        keys = []
        for a in graded_answers(sol):
            if a.type == "vector":
                tol = a.tolerance if isinstance(a.value[0], list) else [a.tolerance]
                keys += [(c, t) for row, trow in zip(centre(a), tol) for c, t in zip(row, trow)]
            elif a.type == "numeric":
                keys.append((centre(a), a.tolerance))
        blanks = [b for b in BLANK.findall(q.find("questiontext/text").text) if b[1] == "NUMERICAL"]
        assert len(blanks) == len(keys), code
        for (_, _, alts), (c, t) in zip(blanks, keys):
            first = alts.split("~")[0]
            assert first == f"={float(c)!r}:{float(t)!r}", (code, first)  # centred on the printed key
            numeric_blanks += 1
            named = []
            for alt in alts.split("~")[1:]:
                m = re.fullmatch(r"%0%(-?[\d.e-]+):([\d.e-]+)#(.+)", alt)
                assert m, alt
                assert abs(float(m.group(1)) - c) > t  # a mistake's window never holds the key
                named.append(float(m.group(1)))
                mistakes += 1
            # nor another mistake's value: Moodle would show the first one's feedback for both
            assert all(abs(u - v) > t for i, u in enumerate(named) for v in named[:i]), (code, named)
    assert numeric_blanks > 20 and mistakes > 20
    raw = (exam / "moodle.xml").read_text(encoding="utf-8")
    assert "#divided the raw scores by their sum instead of exponentiating first" in raw


def test_mistakes_within_one_tolerance_of_each_other_are_not_named():
    """2.3 named "took a hard argmax" (0) and "did not divide by their total"
    (0.0001) in one blank of tolerance 0.00011: Moodle gave a response of 0
    the second one's feedback.  Neither is named where both fit."""
    from generator.render.moodle_text import _numeric_blank

    blank = _numeric_blank(1, 0.0189, 0.00011, [(0.0, "argmax"), (0.0001, "no division"), (0.5, "far"),
                                                (0.0189, "inside the key's window"), (0.5, "again")])
    assert blank == "{1:NUMERICAL:=0.0189:0.00011~%0%0.5:0.00011#far}"


def test_true_false_is_a_claim_and_choices_are_not_repeated(exam, slashed):
    for folder in (exam, slashed[0]):
        root = ET.parse(folder / "moodle.xml").getroot()
        for q in root:
            text = (q.find("questiontext/text").text or "") if q.get("type") != "category" else ""
            assert "is true" not in text.replace("is true whatever", "")  # no "statement 1 is true"
            assert not re.search(r"<p>\((?:[A-J]|\d)\) ", text), text  # no (A) … or (1) … paragraph left
            if q.get("type") == "multichoice":
                for a in q.findall("answer"):
                    assert a.find("text").text.removeprefix("<![CDATA[") not in text
            for menu in re.findall(r"\{1:MULTICHOICE:((?:[^{}\\]|\\.)*)\}", text):
                if "True" in menu:
                    assert sorted(re.sub(r"#.*", "", x).lstrip("=%0") for x in menu.split("~")) == ["False", "True"]
    root = ET.parse(slashed[0] / "moodle.xml").getroot()
    tf = [q for q in root if q.get("type") == "cloze" and q.find("idnumber").text.startswith("1.2-")]
    assert tf
    for q in tf:
        lines = re.findall(PART + r"(.+?) \{1:MULTICHOICE:", q.find("questiontext/text").text)
        assert [letter for letter, _ in lines] == ["a", "b", "c"]
        lines = [line for _, line in lines]
        assert len(lines) == 3 and all(line.endswith(".") and "true" not in line.lower() for line in lines)


def test_matching_stems_are_typeset_maths(slashed):
    root = ET.parse(slashed[0] / "moodle.xml").getroot()
    matching = [q for q in root if q.get("type") == "matching"]
    assert matching
    for q in matching:
        stems = [s.find("text").text for s in q.findall("subquestion")]
        assert stems and all(re.fullmatch(r"\\\(.+\\\)", s) for s in stems), stems
        assert "Meanings:" not in q.find("questiontext/text").text  # Moodle's menus list them
        assert Fraction(q.find("defaultgrade").text) == 2
        # the worked solution pairs each symbol with a meaning as the menus list it, unlettered
        feedback = q.find("generalfeedback/text").text
        meanings = [s.find("answer/text").text for s in q.findall("subquestion")]
        assert all(f"→ {m} — " in feedback for m in meanings), feedback
        assert not re.search(r"→ \([a-j]\)", feedback), feedback


def test_each_question_is_one_moodle_question_with_its_own_solution(exam):
    """All parts of an exam question are one Moodle question, graded together,
    so the worked solution (the general feedback) gives away no part before
    every part is answered, in any behaviour."""
    root = ET.parse(exam / "moodle.xml").getroot()
    names = [q.find("name/text").text for q in root if q.get("type") != "category"]
    assert len(names) == len(set(names)) == 27
    for q in root:
        if q.get("type") != "category":
            assert q.find("generalfeedback/text").text.startswith("<p><b>Forecast.</b>")


ASKED = {"F": 3, "G": 2, "H": 3, "3.1": 2, "3.3": 4, "5.2": 4, "5.3": 4}  # quantities each question asks


@pytest.mark.parametrize("kind", sorted(ASKED))
def test_every_quantity_asked_is_graded(kind):
    sol = solve_problem(sample_problem(kind, 3), 4)
    names = [a.name for a in graded_answers(sol)]
    assert names == list(kinds.get(kind).graded)  # every name exists in the kind's answers, in the asked order
    assert len(names) == ASKED[kind]


def test_near_tie_grades_all_three_quantities():
    sol = solve_problem(sample_problem("F", 1), 4)
    assert [a.name for a in graded_answers(sol)] == ["weights", "top_two_share", "entropy"]


def test_variants_pool_without_papers(tmp_path, capsys):
    out = tmp_path / "pool"
    assert main(["exam", str(EXAM), "--variants", "4", "--out", str(out), "--seed", "9", "--workers", "1"]) == 0
    assert "a Moodle pool of 4 variant(s)" in capsys.readouterr().err
    assert not (out / "papers").exists()
    assert {"moodle.xml", "answers.csv", "key.pdf", "manifest.json"} <= {p.name for p in out.iterdir()}
    cats = questions_by_category(ET.parse(out / "moodle.xml").getroot())
    assert len(cats) == 10 and all(1 <= len(qs) <= 4 for qs in list(cats.values())[1:])
    assert sum(len(qs) for qs in cats.values()) > 30  # distinct variants (a kind with few variants may repeat)
    for bad in (["--only", "v001"], ["--solutions"]):
        assert main(["exam", str(EXAM), "--variants", "2", "--out", str(tmp_path / "x"), *bad]) == 2
        assert capsys.readouterr().err.startswith("error: --variants writes no papers")
    assert main(["exam", str(EXAM), "--variants", "2", "--students", "2", "--out", str(tmp_path / "y")]) == 2


# Moodle's cloze alternative syntax (question/type/multianswer/questiontype.php), ported to Python's re
_ALT = re.compile(r"~?(=|%(-?[0-9]+(?:[.,][0-9]*)?)%)?(.+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$))"
                  r"(#(.*?(?<!\\)(?=[~}]|$)))?", re.S)


def _moodle_alternatives(inside: str) -> list[tuple[str, str]]:
    """(answer, feedback) as Moodle stores them (HTML), from a blank's alternatives."""
    out = []
    while inside:
        m = _ALT.match(inside)
        assert m, inside
        unescape = lambda t: __import__("html").unescape(t).replace("\\}", "}").replace("\\#", "#")  # noqa: E731
        out.append((unescape(m.group(3)), unescape(m.group(5) or "")))
        inside = inside[m.end():]
    return out


@pytest.mark.parametrize("text", ["plain", "a~b#c}d{e", "x < y & z > w", "s_{t−1} vs s_t", "&amp; literally"])
def test_cloze_text_survives_moodles_parser(text):
    import html

    from generator.render.moodle_text import _esc

    stored = _moodle_alternatives(f"={_esc(text)}#{_esc(text)}~%0%other#{_esc('why ' + text)}")
    assert [(html.unescape(a), html.unescape(f)) for a, f in stored] == [(text, text), ("other", "why " + text)]
    assert not any("<" in a or "<" in f for a, f in stored)  # stored as HTML: escaped, never markup


def test_a_lone_true_false_part_is_a_moodle_truefalse_stated_as_a_claim():
    from generator.exam.assembly import Part, Question, quantity
    from generator.render.moodle import render_question

    sol = solve_problem(sample_problem("2.3", 4), 4)
    a = sol.answer("weights_change")
    q = Question(3, 2, sol, Fraction(2), (Part("3", a, Fraction(2), quantity(a, "2.3")),))
    root = ET.fromstring(render_question(q, 4))
    assert root.get("type") == "truefalse" and root.find("defaultgrade").text == "2"
    text = root.find("questiontext/text").text
    assert text.endswith("<p><b>True or false:</b> Adding the constant changes the weights.</p>")
    answers = {x.find("text").text: (x.get("fraction"), x.find("feedback/text").text) for x in root.findall("answer")}
    assert answers["false"] == ("100", None) and answers["true"][0] == "0" and answers["true"][1]


def _moodle_question(kind: str, seed: int):
    """One exam question of `kind` as moodle.xml holds it (parsed)."""
    from generator.exam.assembly import PART_LETTERS, Part, Question, quantity
    from generator.render.moodle import render_question

    sol = solve_problem(sample_problem(kind, seed), 4)
    graded = graded_answers(sol)
    parts = tuple(Part(f"1{c}" if len(graded) > 1 else "1", a, Fraction(1), quantity(a, kind))
                  for c, a in zip(PART_LETTERS, graded))
    return sol, ET.fromstring(render_question(Question(1, 1, sol, Fraction(max(1, len(parts))), parts), 4))


@pytest.mark.parametrize("kind, seed", [("2.3", 1), ("3.3", 1), ("F", 2)])
def test_no_part_names_another_parts_answer(kind, seed):
    text = _moodle_question(kind, seed)[1].find("questiontext/text").text
    for giveaway in ("shifted or not", "the same before and after", "α_"):
        assert giveaway not in text


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    """A --variants pool (no papers) of kinds with a matching part, an
    inequality in the worked solution and several parts."""
    base = tmp_path_factory.mktemp("pool")
    spec = base / "spec.yaml"
    spec.write_text('title: "Pool"\nseed: 3\nitems:\n  - kind: "3.1"\n    points: 3\n'
                    '  - kind: "1.1"\n    points: 2\n  - kind: "5.3"\n    points: 4\n', encoding="utf-8")
    out = base / "out"
    assert main(["exam", str(spec), "--variants", "2", "--out", str(out), "--workers", "1"]) == 0
    return out


def test_part_letters_are_those_of_answers_csv(exam, pool):
    """Moodle labels a part by its letter alone, the letter answers.csv gives
    it; in a pool (no papers) the question numbers are Moodle's categories'."""
    for folder in (exam, pool):
        rows = list(csv.DictReader(open(folder / "answers.csv")))
        root = ET.parse(folder / "moodle.xml").getroot()
        checked = 0
        for k, (cat, qs) in enumerate(list(questions_by_category(root).items())[1:], start=1):
            for q in qs:
                variant = q.find("idnumber").text
                labels = list(dict.fromkeys(r["question"] for r in rows if r["variant"] == variant))
                text = q.find("questiontext/text").text
                letters = re.findall(PART, text)
                assert not re.search(r"<(b|strong)>\([a-j]\)", text), variant
                if len(labels) > 1:
                    assert letters == [lab[-1] for lab in labels], (variant, letters, labels)
                    checked += 1
                else:
                    assert letters == [], (variant, letters, labels)
                if folder == pool:
                    assert {re.match(r"\d+", lab).group(0) for lab in labels} == {str(k)}, (variant, labels)
        assert checked


def test_matching_choices_and_tex_read_right_in_html(pool):
    root = ET.parse(pool / "moodle.xml").getroot()
    texts = []
    for q in root:
        if q.get("type") == "category":
            continue
        texts += [q.find("questiontext/text").text, q.find("generalfeedback/text").text]
        for a in q.findall("subquestion/answer/text"):
            assert not re.match(r"\([a-z]\) ", a.text or ""), a.text  # Moodle shows its own order
        for menu in re.findall(r"<li>.*?→ \{\d+:MULTICHOICE:((?:[^{}\\]|\\.)*)\}</li>", texts[-2]):
            assert not any(re.match(r"[=%0]*\([a-z]\) ", x) for x in menu.split("~")), menu
    maths = [m for t in texts for m in re.findall(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", t, re.S)]
    maths = [a or b for a, b in maths]
    assert any("&lt;" in m or "\\le" in m for m in maths)
    assert all("<" not in m and ">" not in m and not re.search(r"&(?![a-z]+;|#\d+;)", m) for m in maths)


_NOTATION = re.compile(r"(?<![\w\\])[A-Za-zα]_[A-Za-z0-9{]")  # c_t, α_t1, y_t-1 as typed, not as TeX writes it


def test_labels_set_their_symbols_as_maths(tmp_path):
    """What each part asks for ("context vector c_t", "(α_t1, α_t2) at Δ",
    "ln T_x") printed its symbols as typed, under a question that typesets
    them; now they are maths, as the question's are."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: Labels\nseed: 3\nitems:\n  - {kind: B}\n  - {kind: F}\n  - {kind: '5.2'}\n"
                    "  - {kind: '5.1'}\n", encoding="utf-8")
    assert main(["exam", str(spec), "--students", "2", "--out", str(tmp_path / "out"), "--workers", "1"]) == 0
    root = ET.parse(tmp_path / "out" / "moodle.xml").getroot()
    seen = 0
    for q in root.iter("question"):
        if q.get("type") == "category":
            continue
        body = q.find("questiontext/text").text
        text = re.sub(r"\\\(.*?\\\)", "", body)  # the maths, where TeX writes c_{t}
        assert not _NOTATION.search(text), _NOTATION.search(text)
        seen += bool(re.search(r"\\\(c_\{t\}\\\)|\\\(\\alpha_\{t1\}\\\)|\\\(T_\{x\}\\\)", body))
    assert seen >= 4


_ASKS_PROSE = re.compile(r"\b(explain|argue|justify|say why|interpret|compare)\b", re.I)


@pytest.mark.parametrize("kind", [k.id for k in kinds.all_kinds()])
def test_moodle_asks_for_nothing_it_has_no_place_for(kind):
    """A text answer (C's "say why", 3.2's "explain the ordering", 4.3's "argue why",
    D's "compare") earns no points: Moodle has nowhere to write it, so its
    question leaves that paragraph out, as the exam paper does (a sheet keeps it)."""
    prompts = 0
    for seed in range(1, 6):
        sol, q = _moodle_question(kind, seed)
        text = q.find("questiontext/text").text or ""
        assert not _ASKS_PROSE.search(re.sub(r"<[^>]+>", " ", text)), text
        for a in sol.answers:
            if a.type == "text" and a.prompt:
                prompts += 1
                assert a.prompt in sol.question  # a paragraph of its own, which the paper prints
                words = "".join(s for s in a.prompt if isinstance(s, str)).strip()
                assert words and words not in text
    assert prompts == (5 if kind in ("C", "D", "3.1", "3.2", "4.1", "4.3") else 0)


def test_a_cloze_menu_letters_its_choices_as_the_worked_answer_does():
    """4.2's worked solution says "Answer: (C) mostly along the diagonal …";
    the cloze menu the student picked from shows the same letters."""
    for seed in range(1, 9):
        sol, q = _moodle_question("4.2", seed)
        text = q.find("questiontext/text").text
        # Moodle sets a vertical menu in a <fieldset>, which a <p> cannot hold
        assert not re.search(r"<p>\{\d+:(MULTICHOICE_V|MULTIRESPONSE)", text)
        menu = re.search(r"\{\d+:MULTICHOICE_V:((?:[^{}\\]|\\.)*)\}", text).group(1)
        options = [re.sub(r"#.*", "", x) for x in menu.split("~")]
        assert [re.match(r"[=%0]*\(([A-J])\) ", o).group(1) for o in options] == list("ABCDEFGHIJ"[:len(options)])
        right = [o.lstrip("=")[:3] for o in options if o.startswith("=")]
        said = re.findall(r"Answer: (\([A-J]\))", q.find("generalfeedback/text").text)
        assert right == said and len(said) == 1, (right, said)


def test_a_student_who_types_numbers_as_the_question_says_gets_every_number_right():
    """A key below 10⁻⁴ counts only to three significant digits (its window is
    that narrow): 4.3's surviving fraction 8.02e-15 typed "to 4 decimal
    places" as 0.0000 got nothing (a Moodle 4.5.6 check). Each number is
    typed here as its part says — its decimal places, or 1.23e-5 below 10⁻⁴
    where the part says so — and must land in the key's window."""
    tiny = 0
    for kind in [k.id for k in kinds.all_kinds()]:
        for seed in range(1, 7):
            _, q = _moodle_question(kind, seed)
            text = q.find("questiontext/text").text or ""
            if q.get("type") == "numerical":
                a = next(a for a in q.findall("answer") if a.get("fraction") == "100")
                keys = [(float(a.find("text").text), float(a.find("tolerance").text), text)]
            else:
                keys = []
                for m in BLANK.finditer(text):
                    if m.group(2) == "NUMERICAL":
                        c, t = m.group(3).split("~")[0].lstrip("=").split(":")
                        keys.append((float(c), float(t), text[text.rfind("<p>", 0, m.start()):m.start()]))
            for c, t, said in keys:
                if t == 0:
                    typed = str(round(c))
                elif 0 < abs(c) < 1e-4 and "1.23e-5" in said:
                    typed, tiny = f"{c:.2e}", tiny + 1
                else:
                    typed = f"{c:.4f}"
                assert abs(float(typed) - c) <= t * (1 + 1e-9), (kind, seed, c, t, typed, said)
    assert tiny  # some keys are that small (4.3, H)
