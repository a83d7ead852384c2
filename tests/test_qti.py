"""The Canvas package (`attndrills exam … --qti`) checked as far as this
machine can: every QTI file valid against the IMS QTI 1.2.1 DTD, and
Instructure's QTIMigrationTool — the first stage of Canvas's importer —
converting it with no error, every item present in its QTI 2 output with the
same Canvas type, points and answers.  Both come from ../shared/qti/ (see its
README); never copied into the project.  What only a live Canvas confirms is
in guide/canvas.md."""

import dataclasses
from html import unescape as html_unescape
import io
import os
import re
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from generator import kinds
from generator.cli import main
from generator.exam.assembly import assemble, item_points
from generator.exam.roster import variant_sets
from generator.exam.spec import Item, Spec, load_spec
from generator.exam.window import centre
from generator.figures import draw_figures
from generator.render import qti
from generator.writers.qti_file import deterministic_zip, qti_items, qti_zip

etree = pytest.importorskip("lxml.etree")

ROOT = Path(__file__).resolve().parent.parent
EXAM = ROOT / "examples" / "exam-midterm.yaml"
TOOLS = Path(os.environ.get("ATTNDRILLS_QTI_TOOLS", ROOT.parent / "shared" / "qti"))
DTD = TOOLS / "ims_qtiasiv1p2p1.dtd"
MIGRATE = TOOLS / "QTIMigrationTool" / "migrate.py"
V1 = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
V2 = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
TITLE = 'Midterm 1/2 <b>“white”</b> ]]> end/ Ünïcødé'

needs_tools = pytest.mark.skipif(not (DTD.is_file() and MIGRATE.is_file()),
                                 reason=f"the QTI DTD and QTIMigrationTool are not in {TOOLS}")


def every_kind_spec() -> Spec:
    points = [Fraction(2), Fraction(5, 2), Fraction(3)]
    return Spec(title=TITLE, seed=11, items=tuple(Item(kind=k.id, level=None, points=points[n % 3])
                                                  for n, k in enumerate(kinds.all_kinds())))


def package(spec: Spec, students, master: int) -> bytes:
    """As `exam --qti` makes it, without the papers and key around it."""
    papers = [{"qti": qti_items(spec, master, p.questions)} for p in assemble(spec, students, master, shuffle=False)]
    return qti_zip(spec, master, papers)


@pytest.fixture(scope="module")
def every_kind(tmp_path_factory):
    spec = every_kind_spec()
    return spec, package(spec, variant_sets(2), 11)


@pytest.fixture(scope="module")
def midterm(tmp_path_factory):
    out = tmp_path_factory.mktemp("qti") / "out"
    assert main(["exam", str(EXAM), "--variants", "3", "--qti", "--out", str(out), "--workers", "1"]) == 0
    return load_spec(EXAM), (out / "canvas-qti.zip").read_bytes()


def unpack(data: bytes, folder: Path) -> list[Path]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        z.extractall(folder)
        return [folder / n for n in z.namelist()]


def dtd_errors(path: Path) -> list[str]:
    """The IMS DTD's verdict on a QTI file; the QTI 1.2 namespace attributes
    the DTD predates are removed first, as every QTI 1.2 validator does."""
    tree = etree.parse(str(path))
    for el in tree.getroot().iter():
        if isinstance(el.tag, str) and el.tag.startswith("{"):
            el.tag = el.tag.split("}", 1)[1]
    root = tree.getroot()
    for k in list(root.attrib):
        del root.attrib[k]
    etree.cleanup_namespaces(root)
    dtd = etree.DTD(str(DTD))
    return [] if dtd.validate(tree) else [str(e) for e in dtd.error_log.filter_from_errors()]


def migrate(folder: Path, out: Path) -> str:
    run = subprocess.run([sys.executable, "migrate.py", "--ucvars", "--nogui", "--overwrite", f"--cpout={out}/",
                          f"{folder}/"], cwd=MIGRATE.parent, capture_output=True, text=True, timeout=300)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log
    assert not re.search(r"Traceback|\bError\b|ERROR", log), log
    return log


def fields(item, ns: str) -> dict[str, str]:
    if ns == V1:
        return {f.findtext(f"{V1}fieldlabel"): f.findtext(f"{V1}fieldentry")
                for f in item.iter(f"{V1}qtimetadatafield")}
    return {f.get("name"): f.get("value") for f in item.iter(f"{V2}instructureField")}


def v1_marks(item) -> dict:
    """What a QTI 1.2 item marks: (response, choice) → score action, and the range of a numerical answer."""
    marks = {}
    for cond in item.iter(f"{V1}respcondition"):
        setvar = cond.find(f"{V1}setvar")
        if setvar is None:
            continue
        cv = cond.find(f"{V1}conditionvar")
        eqs = [(e.get("respident"), e.text) for e in cv.iter(f"{V1}varequal")
               if e.getparent().tag != f"{V1}not"]
        rng = [e.text for e in cv if e.tag in (f"{V1}vargte", f"{V1}varlte")]
        marks[tuple(eqs) or ("range", *rng)] = (setvar.get("action", "Set"), float(setvar.text))
    return marks


def v2_marks(item) -> dict:
    marks = {}
    for cond in item.iter(f"{V2}responseIf", f"{V2}responseElseIf"):
        score = [s for s in cond.findall(f"{V2}setOutcomeValue") if s.get("identifier") == "SCORE"]
        if not score:
            continue
        test = cond[0]
        if test.tag in (f"{V2}gt", f"{V2}lt"):
            continue  # the tool's own clamp of SCORE to the outcome's bounds (decvar minvalue/maxvalue)
        rng = [b.text for op in test.iter(f"{V2}customOperator") for b in op.iter(f"{V2}baseValue")]
        eqs = [(m[0].get("identifier"), re.sub(r"^RESPONSE_", "", m[1].text)) for m in test.iter(f"{V2}match")]
        # several right choices: <member> of each, <not> around the others (left out, as in v1_marks)
        eqs += [(m[0].get("identifier"), re.sub(r"^RESPONSE_", "", m[0].text)) for m in test.iter(f"{V2}member")
                if m.getparent().tag != f"{V2}not"]
        summed = score[0].find(f"{V2}sum")
        value = float((summed if summed is not None else score[0]).iter(f"{V2}baseValue").__next__().text)
        marks[tuple(eqs) or ("range", *rng)] = ("Add" if summed is not None else "Set", value)
    return marks


def check_package(spec: Spec, data: bytes, tmp: Path, points=None) -> dict:
    """The DTD on every QTI file, the migration tool on the package, every
    item in its QTI 2 output with the same type, points and marks."""
    files = unpack(data, tmp / "in")
    assert {f.name for f in files} >= {"imsmanifest.xml"}
    manifest = etree.parse(str(tmp / "in" / "imsmanifest.xml")).getroot()
    resources = list(manifest.iter("{http://www.imsglobal.org/xsd/imscp_v1p1}resource"))
    assert [r.get("type") for r in resources] == ["imsqti_xmlv1p2"]
    tests = [tmp / "in" / f.get("href") for f in resources[0] if f.get("href").endswith(".xml")]
    assert tests and all(t.is_file() for t in tests)
    for t in tests:
        assert dtd_errors(t) == [], t
    migrate(tmp / "in", tmp / "out")
    items = {}
    for t in tests:
        root = etree.parse(str(t)).getroot()
        assert root.find(f"{V1}assessment").get("title") == spec.title
        for item in root.iter(f"{V1}item"):
            items[item.get("ident")] = item
    converted = {p.stem: etree.parse(str(p)).getroot() for p in (tmp / "out" / "assessmentItems").glob("*.xml")}
    assert sorted(converted) == sorted(items)
    for ident, item in items.items():
        f1, f2 = fields(item, V1), fields(converted[ident], V2)
        assert f2["question_type"] == f1["question_type"] and f2["points_possible"] == f1["points_possible"], ident
        assert v2_marks(converted[ident]) == v1_marks(item), ident
    # the groups: one per exam question, picking one item, every item's points the question's
    test2 = next((tmp / "out" / "assessmentTests").glob("*.xml"))
    sections = [s for s in etree.parse(str(test2)).getroot().iter(f"{V2}assessmentSection")
                if s.find(f"{V2}selection") is not None]
    points = item_points(spec) if points is None else points
    assert len(sections) == len(points)
    for s, pts in zip(sections, points):
        assert s.find(f"{V2}selection").get("select") == "1"
        refs = [r.get("identifier") for r in s.iter(f"{V2}assessmentItemRef")]
        assert refs and {fields(items[r], V1)["points_possible"] for r in refs} == {repr(float(pts))}
    return items


@needs_tools
def test_every_kind_passes_the_dtd_and_the_migration_tool(every_kind, tmp_path):
    spec, data = every_kind
    items = check_package(spec, data, tmp_path)
    types = {fields(i, V1)["question_type"] for i in items.values()}
    assert types == {"numerical_question", "multiple_choice_question", "matching_question",
                     "fill_in_multiple_blanks_question"}, types


@needs_tools
def test_the_example_exam_with_variants_passes_the_dtd_and_the_migration_tool(midterm, tmp_path):
    spec, data = midterm
    items = check_package(spec, data, tmp_path)
    assert len(items) == 3 * len(spec.items)  # three variants of every question


@needs_tools
def test_true_false_and_several_right_choices_pass_the_migration_tool(tmp_path):
    """No kind asks one true/false statement alone or a choice with several
    right answers today; made from the kinds' own parts (one statement of a
    three-statement question, a choice with a second right option), they
    become `true_false_question` and `multiple_answers_question` and pass."""
    spec = every_kind_spec()
    made = {}
    for p in assemble(spec, variant_sets(2), 11, shuffle=False):
        for q in p.questions:
            a = q.parts[0].answer if q.parts else None
            if a is not None and a.type == "truefalse":
                made.setdefault("true_false_question", dataclasses.replace(q, parts=q.parts[:1]))
            if a is not None and a.type == "choice":
                wrong = next(n for n, o in enumerate(a.options) if not o.correct)
                options = tuple(dataclasses.replace(o, correct=True) if n == wrong else o
                                for n, o in enumerate(a.options))
                part = dataclasses.replace(q.parts[0], answer=dataclasses.replace(a, options=options))
                made.setdefault("multiple_answers_question", dataclasses.replace(q, parts=(part,)))
    assert sorted(made) == ["multiple_answers_question", "true_false_question"]
    groups = [{"ident": f"g{n}", "title": t, "items": [qti.render_item(q, 4, "x")]}
              for n, (t, q) in enumerate(sorted(made.items()))]
    files = {"x/x.xml": qti.render_assessment("x", TITLE, groups),
             "imsmanifest.xml": qti.render_manifest("x", TITLE, ["x/x.xml"])}
    items = check_package(spec, deterministic_zip(files), tmp_path, [q.points for _, q in sorted(made.items())])
    assert sorted(fields(i, V1)["question_type"] for i in items.values()) == sorted(made)


def test_the_zip_is_the_same_bytes_for_the_same_seed(every_kind):
    spec, data = every_kind
    assert package(spec, variant_sets(2), 11) == data
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        assert names == sorted(names)
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert package(spec, variant_sets(2), 12) != data


def test_a_numerical_answer_is_the_marking_window(every_kind):
    """The range Canvas accepts is the key ± its tolerance (exam.window), with
    the billionth of slack `inside` allows; the named mistakes are the wrong
    answer's feedback, each with its value."""
    spec = every_kind_spec()
    seen = 0
    for p in assemble(spec, variant_sets(2), 11, shuffle=False):
        for q in p.questions:
            if not q.parts or qti.canvas_type(q.parts) != "numerical_question":
                continue
            a = q.parts[0].answer
            v = qti.item_view(q, spec.digits, "x")
            lo, hi = map(float, v["range"])
            c, t = centre(a), float(a.tolerance)
            assert lo <= c - t and c + t <= hi and hi - lo <= 2 * t * (1 + 2e-9) + 1e-300
            for o in a.options:
                if not o.correct and o.misconception and f"<li>{o.text}:" in v["wrong"]:
                    seen += 1
    assert seen


def test_names_html_and_unicode_come_through_intact(every_kind, tmp_path):
    """The title with "/", HTML, "]]>" and non-ASCII is the assessment's title
    as written; item texts are escaped HTML that parses back to the same HTML."""
    spec, data = every_kind
    unpack(data, tmp_path)
    test = next(p for p in tmp_path.glob("*/*.xml"))
    root = etree.parse(str(test)).getroot()
    assert root.find(f"{V1}assessment").get("title") == TITLE
    texts = [m.text for m in root.iter(f"{V1}mattext") if m.get("texttype") == "text/html"]
    assert any("<p>" in t for t in texts) and any("\\(" in t for t in texts)
    assert not any("&lt;p&gt;" in t for t in texts)  # escaped once, not twice


@needs_tools
def test_what_canvas_reads_of_the_converted_items(every_kind, tmp_path):
    """Canvas's importer (canvas-lms gems/plugins/qti_exporter, read through the
    search tool) takes a blank's name from its choiceInteraction's
    `response_<name>` and needs `[name]` in the text; a wrong choice's feedback
    from modalFeedback `FEEDBACK_<n>_fb` beside choice `RESPONSE_<n>`; a
    numerical answer's range from customOperator vargte/varlte; the worked
    solution from `general_fb` (neutral comments) and the named mistakes of a
    numerical answer from `general_incorrect_fb` (incorrect comments)."""
    spec, data = every_kind
    unpack(data, tmp_path / "in")
    migrate(tmp_path / "in", tmp_path / "out")
    seen = set()
    for path in (tmp_path / "out" / "assessmentItems").glob("*.xml"):
        root = etree.parse(str(path)).getroot()
        kind = fields(root, V2)["question_type"]
        body = "".join(d.text or "" for d in root.find(f"{V2}itemBody").findall(f"{V2}div"))
        feedback = {f.get("identifier"): f for f in root.iter(f"{V2}modalFeedback")}
        assert "general_fb" in feedback and "Step 1" in "".join(feedback["general_fb"].itertext())
        if kind == "fill_in_multiple_blanks_question":
            for ci in root.iter(f"{V2}choiceInteraction"):
                name = ci.get("responseIdentifier").removeprefix("response_")
                assert f"[{name}]" in body and ci.findall(f"{V2}simpleChoice")
        elif kind == "multiple_choice_question":
            choices = {c.get("identifier") for c in root.iter(f"{V2}simpleChoice")}
            named = [k for k in feedback if k.startswith("FEEDBACK_")]
            assert named and all(f"RESPONSE_{k[9:-3]}" in choices for k in named)
        elif kind == "numerical_question":
            ops = [op.get("class") for op in root.iter(f"{V2}customOperator")]
            assert ops == ["vargte", "varlte"]
            if "general_incorrect_fb" in feedback:
                seen.add("mistakes")
        seen.add(kind)
    assert {"mistakes", "numerical_question", "multiple_choice_question", "fill_in_multiple_blanks_question"} <= seen


@needs_tools
def test_every_figure_of_a_worked_solution_is_a_file_of_the_package(every_kind, tmp_path):
    """Each figure a worked solution shows (bars, heatmap, sharpening curve,
    context plane, entropy bars) is an SVG in the package, listed in the
    manifest, shown in the item's feedback by an <img> whose src finds it
    beside the assessment file and whose alt is the figure's own; the
    migration tool keeps the <img> in the converted feedback."""
    spec, data = every_kind
    files = unpack(data, tmp_path / "in")
    test = next(f for f in files if f.suffix == ".xml" and f.name != "imsmanifest.xml")
    listed = {f.get("href") for f in etree.parse(str(tmp_path / "in" / "imsmanifest.xml")).getroot().iter(
        "{http://www.imsglobal.org/xsd/imscp_v1p1}file")}
    svgs = {f for f in files if f.suffix == ".svg"}
    assert svgs and {str(f.relative_to(tmp_path / "in")) for f in svgs} <= listed
    kinds_drawn = {f.name.split("-")[0] for f in svgs}
    assert kinds_drawn == {"bars", "heatmap", "sharpening", "context", "entropy"}, kinds_drawn
    root = etree.parse(str(test)).getroot()
    shown = {}
    for item in root.iter(f"{V1}item"):
        for fb in item.iter(f"{V1}itemfeedback"):
            html = "".join(fb.itertext())
            for src, alt in re.findall(r'<img src="([^"]+)" alt="([^"]*)" />', html):
                shown[src] = alt
    assert {test.parent / s for s in shown} == svgs  # every file shown, every <img> finds its file
    for p in assemble(spec, variant_sets(2), 11, shuffle=False):
        for q in p.questions:
            for f in draw_figures(q.solution) if q.parts else []:
                assert html_unescape(shown[f"figures/{f.filename}"]) == f.alt
    migrate(tmp_path / "in", tmp_path / "out")
    converted = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out" / "assessmentItems").glob("*.xml"))
    assert all(f"figures/{f.name}" in converted for f in svgs)


def test_qti_with_only_is_refused_before_anything_is_written(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["exam", str(EXAM), "--students", "2", "--only", "s001", "--qti", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --only") and not out.exists()


def test_every_text_a_number_blank_accepts_lies_in_the_marking_window():
    """A blank is marked by its text: each accepted form is inside the window
    (exam.window.inside), and the key as printed is among them."""
    from generator.exam.window import inside
    assert qti.typed_forms(0.25, 0.00005, 4) == ["0.2500", "0.25"]
    assert qti.typed_forms(6665.0, 0.0, 4) == ["6665"]
    assert qti.typed_forms(2.65e-23, 6e-26, 4) == ["2.65e-23"]
    for key, tol in [(1.3863, 0.00015), (-0.5, 0.00005), (4.78e-25, 5e-28), (0.0, 0.00005)]:
        forms = qti.typed_forms(key, tol, 4)
        assert forms and all(inside(float(f), key, tol) for f in forms), (key, forms)


@needs_tools
def test_the_dtd_check_fails_on_a_broken_item(every_kind, tmp_path):
    spec, data = every_kind
    files = unpack(data, tmp_path)
    test = next(f for f in files if f.suffix == ".xml" and f.name != "imsmanifest.xml")
    test.write_text(test.read_text(encoding="utf-8").replace("<presentation>", "<presentation><bogus/>", 1),
                    encoding="utf-8")
    assert dtd_errors(test)
