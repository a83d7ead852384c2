"""The print path: Typst printer strings, sheets, exams, rosters, Moodle XML,
escaping round trips, reproducibility, --only, and grading."""

import csv
import io
import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator import kinds
from generator import mathlines as M
from generator.cli import main
from generator.pipeline import sample_problem, solve_problem
from generator.render.typst import escape_typst
from generator.render.typst_math import typst_math, typst_string

ROOT = Path(__file__).resolve().parent.parent
EXAM = ROOT / "examples" / "exam-midterm.yaml"
SHEET = ROOT / "examples" / "set-basics.yaml"


def pdf_text(path: Path) -> str:
    return " ".join(p.extract_text() for p in PdfReader(str(path)).pages)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("node, want", [
    (M.eq(M.Sym("alpha", "21"), M.Frac(M.Num("1.350"), M.Num("11.165")), M.Num("0.121")),
     "alpha_(21) = (1.350)/(11.165) = 0.121"),
    (M.Sym("e", "ti"), "e_(t i)"),
    (M.Sym("alpha", "t1", "'"), "alpha'_(t 1)"),  # primed before the subscript: after, Typst primes "(t1)"
    (M.Sym("Z", None, "'"), "Z'"),
    (M.Sym("s", "t-1"), "s_(t - 1)"),
    (M.Num("2.06", -9), "2.06 times 10^(-9)"),
    (M.Add((M.Num("-2"), M.Num("1"), M.Num("-0.5"))), "-2 + 1 - 0.5"),
    (M.Chain(M.Num("0"), (("≤", M.Sym("H")), ("≈", M.Num("1")))), "0 <= H approx 1"),
    (M.Lim(M.Sym("beta"), M.Infinity(), M.Sym("alpha")), "lim_(beta -> +infinity) alpha"),
    (M.Vec((M.Num("0.7"), M.Num("2"))), "lr([ 0.7, 2 ])"),
    (M.Text('say "hi" \\ #x'), '"say \\"hi\\" \\\\ #x"'),
    (M.Call("f", M.Args((M.Sym("s", "t"), M.Sym("c", "t")))), 'op("f")(s_(t), c_(t))'),
])
def test_typst_printer(node, want):
    assert typst_math(node) == want


def test_typst_escaping():
    assert escape_typst("#read(\"/etc/passwd\") $x$ *b* _i_ @ref <l>") == \
        '\\#read(\\"\\/etc\\/passwd\\") \\$x\\$ \\*b\\* \\_i\\_ \\@ref \\<l\\>'
    assert typst_string('#read("/etc/passwd")') == '"#read(\\"/etc/passwd\\")"'


@pytest.mark.parametrize("text, want", [
    ("-0.4706", "\u22120.4706"), ("(1.2941, -0.4706, 0.1765)", "(1.2941, \u22120.4706, 0.1765)"),
    ("exp(-1)", "exp(\u22121)"), ("-.5", "\u2212.5"),
    ("T-5 → x-1", "T-5 → x-1"),  # typed words keep their hyphens
])
def test_answer_values_get_a_true_minus(text, want):
    from generator.render.typst import typeset_minus

    assert typeset_minus(text) == want


def test_a_list_in_running_text_breaks_between_its_items_not_after_an_equals_sign():
    """Typst breaks an inline formula after any relation: a question's
    scores printed "e₃₄ =" at the end of a line and "−0.6" at the start of
    the next.  Each item of a list is now one unbreakable box."""
    from generator.render.typst import inline

    scores = M.Seq(tuple(M.Chain(M.Sym("e", f"3{i}"), (("=", M.Num(v)),)) for i, v in ((1, "2.7"), (2, "-0.5"))))
    text = inline(("The scores are ", scores, "."))
    assert text == ("The scores are #box($e_(31) = 2.7$),#h(0.7em, weak: true) "
                    "#box($e_(32) = -0.5$).")


def test_answer_labels_get_a_true_minus_in_the_key_and_on_papers():
    """5.2 seed 1 asks for "(α_t1, α_t2) at Δ = -0.27": the key's table of
    final answers and the exam paper's answer line printed the hyphen."""
    from generator.exam.assembly import Part
    from generator.render.typst import view
    from generator.writers.exams import _part_view

    sol = solve_problem(sample_problem("5.2", 1))
    labels = [label for label, _ in view(sol)["answers"]]
    assert any("\u22120.27" in label for label in labels) and not any("-0.27" in label for label in labels)
    answer = next(a for a in sol.answers if "-0.27" in a.label)
    assert "\u22120.27" in _part_view(Part("1", answer, 1, answer.label))["quantity"]


@pytest.fixture(scope="module")
def exam(tmp_path_factory):
    out = tmp_path_factory.mktemp("exam") / "out"
    roster = out.parent / "roster.csv"
    roster.write_text('id,name,email\nA1,"#read(""/etc/passwd"")",x\nB2,"Zoë, $x$ *b* <i>",\nC/3,Plain,\n'
                      "D4,Dee,\nE5,Eve,\nF6,Fay,\nG7,Gus,\nH8,Hal,\nI9,Ivy,\n", encoding="utf-8")
    assert main(["exam", str(EXAM), "--roster", str(roster), "--out", str(out), "--workers", "2"]) == 0
    return out, roster


def test_exam_outputs(exam):
    out, _ = exam
    files = tree(out)
    assert {"answers.csv", "key.pdf", "manifest.json", "moodle.xml", "papers/A1.pdf"} <= set(files)
    rows = list(csv.DictReader(io.StringIO(files["answers.csv"].decode())))
    assert list(rows[0]) == ["student", "variant", "question", "answer", "tolerance", "points"]
    assert {r["student"] for r in rows} == {"A1", "B2", "C/3", "D4", "E5", "F6", "G7", "H8", "I9"}
    # questions are shuffled per student
    orders = {s: [r["variant"].split("-")[0] for r in rows if r["student"] == s and r["question"][-1] in "0123456789a"]
              for s in ("A1", "B2", "D4", "E5")}
    assert len({tuple(o) for o in orders.values()}) > 1


def test_manifest_hashes_every_file_as_written(exam):
    import hashlib
    import json

    out, _ = exam
    files = tree(out)
    manifest = json.loads(files["manifest.json"])
    hashed = set(files) - {"manifest.json", ".attndrills"}
    assert set(manifest["sha256"]) == hashed
    for name in hashed:
        assert manifest["sha256"][name] == hashlib.sha256(files[name]).hexdigest(), name


def test_student_pdf_holds_the_numbers_not_the_answers(exam):
    out, _ = exam
    text = pdf_text(out / "papers" / "A1.pdf")
    assert '#read("/etc/passwd")' in text  # the name is printed as text, never run
    rows = [r for r in csv.DictReader(open(out / "answers.csv")) if r["student"] == "A1"]
    for r in rows:
        assert r["variant"] in text
        if r["tolerance"]:  # numeric and vector answers must not be on the student's paper
            for number in re.findall(r"-?\d+\.\d{4}", r["answer"]):
                assert number not in text, (r, number)
    assert "Points: 33" in text


def test_key_holds_every_answer(exam):
    out, _ = exam
    text = re.sub(r"\s+", "", pdf_text(out / "key.pdf"))
    for r in csv.DictReader(open(out / "answers.csv")):
        for token in re.findall(r"-?\d+\.\d+|\b[A-J]\b|true|false", r["answer"]):
            assert token.replace("-", "") in text.replace("−", "-").replace("-", ""), (r, token)


def test_moodle_xml_is_wellformed_and_typed(exam):
    out, _ = exam
    root = ET.parse(out / "moodle.xml").getroot()
    assert root.tag == "quiz"
    types = {q.get("type") for q in root}
    assert {"category", "numerical", "cloze", "multichoice"} <= types  # one Moodle question per exam question
    num = next(q for q in root if q.get("type") == "numerical")
    assert num.find("answer[@fraction='100']/tolerance") is not None
    assert num.find("generalfeedback/text").text.startswith("<p><b>Forecast.</b>")
    wrong = [a for a in num.findall("answer") if a.get("fraction") == "0"]
    assert wrong and all(a.find("feedback/text").text for a in wrong)  # the misconception, in words
    # the roster's ids (C/3) never reach a category path: categories are per exam question
    paths = [q.find("category/text").text for q in root if q.get("type") == "category"]
    assert len(paths) == 10 and not any("C/3" in p or "C//3" in p for p in paths)


def _label_lines(text: str) -> str:
    """Text to compare with a PDF's: symbols are maths on a paper (𝑐𝑡), Unicode
    subscripts in a key (cₜ), plain in answers.csv (c_t); each reads "ct"."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).replace("\u2212", "-").replace("_", ""))


def test_papers_label_every_graded_part_as_answers_csv_does(exam):
    """Every row of answers.csv is on its student's paper: the label (2a, 2b…)
    followed by what it asks for; and no paper shows a label the sheet lacks."""
    from generator.exam.assembly import assemble
    from generator.exam.roster import load_roster
    from generator.exam.spec import load_spec

    out, roster = exam
    rows = list(csv.DictReader(open(out / "answers.csv", encoding="utf-8")))
    students = load_roster(roster)
    papers = {p.student.id: p for p in assemble(load_spec(EXAM), students, 20261201)}
    for s in students:
        text = _label_lines(pdf_text(out / "papers" / f"{s.filename}.pdf"))
        mine = [r for r in rows if r["student"] == s.id]
        parts = [part for q in papers[s.id].questions for part in q.parts]
        assert [r["question"] for r in mine] == [p.label for p in parts]
        for r, p in zip(mine, parts):
            want = _label_lines(f"{p.label} {p.quantity}")
            assert want in text, (s.id, want)
        printed = re.findall(r"(?<![\w.])(\d+[a-j])(?= \S)", text)
        assert set(printed) <= {r["question"] for r in mine}, printed


def test_key_names_the_quantity_on_every_line_one_page_per_student(exam):
    from generator.exam.assembly import assemble
    from generator.exam.roster import load_roster
    from generator.exam.spec import load_spec

    out, roster = exam
    students = load_roster(roster)
    reader = PdfReader(str(out / "key.pdf"))
    assert len(reader.pages) == len(students)  # one page per student, each on its own
    papers = assemble(load_spec(EXAM), students, 20261201)
    rows = list(csv.DictReader(open(out / "answers.csv", encoding="utf-8")))
    for page, paper in zip(reader.pages, papers):
        text = _label_lines(page.extract_text())
        assert paper.code in text
        for q in paper.questions:
            for part in q.parts:
                row = next(r for r in rows if r["student"] == paper.student.id and r["question"] == part.label)
                line = _label_lines(f"{part.label} · {part.quantity} · {row['answer']}")
                assert line in text, (paper.student.id, line)


def test_exam_is_byte_identical_with_one_or_two_workers(exam, tmp_path):
    out, roster = exam
    again = tmp_path / "again"
    assert main(["exam", str(EXAM), "--roster", str(roster), "--out", str(again), "--workers", "1"]) == 0
    assert tree(again) == tree(out)


def test_only_regenerates_the_same_paper(exam, tmp_path):
    out, roster = exam
    one = tmp_path / "one"
    assert main(["exam", str(EXAM), "--roster", str(roster), "--out", str(one), "--only", "B2"]) == 0
    assert (one / "papers" / "B2.pdf").read_bytes() == (out / "papers" / "B2.pdf").read_bytes()


def pdf_fonts(path: Path) -> set[str]:
    """Base names of every font a PDF embeds, figures' (form XObjects) included."""
    names = set()

    def walk(resources):
        for font in (resources.get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources") or {})

    for page in PdfReader(str(path)).pages:
        walk(page.get("/Resources") or {})
    return names


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    out = tmp_path_factory.mktemp("solved") / "out"
    assert main(["exam", str(EXAM), "--students", "8", "--seed", "3", "--out", str(out), "--solutions",
                 "--workers", "2"]) == 0
    return out


def test_worked_solutions_per_student(solved, tmp_path):
    files = tree(solved)
    assert sorted(n for n in files if n.startswith("solutions/")) == [f"solutions/s{i:03d}.pdf" for i in range(1, 9)]
    manifest = __import__("json").loads(files["manifest.json"])
    assert set(manifest["sha256"]) >= {"solutions/s001.pdf", "papers/s001.pdf", "key.pdf"}
    text = re.sub(r"\s+", "", pdf_text(solved / "solutions" / "s004.pdf")).replace("−", "-")
    assert "Whythisstep?" in text and "Whattosee" in text and "Finalanswers" in text
    for r in csv.DictReader(open(solved / "answers.csv")):
        if r["student"] == "s004":
            for token in re.findall(r"-?\d+\.\d+", r["answer"]):
                assert token in text, (r, token)
    again = tmp_path / "again"
    assert main(["exam", str(EXAM), "--students", "8", "--seed", "3", "--out", str(again), "--solutions",
                 "--workers", "1"]) == 0
    assert tree(again) == files


def test_pdfs_use_only_fonts_that_ship_with_the_packages(solved, tmp_path):
    """Typst's own fonts and matplotlib's DejaVu (named by the figures' SVG text),
    never the machine's: the same PDF bytes on every machine."""
    from generator.writers.typst.compiler import compile_pdf

    fonts = pdf_fonts(solved / "solutions" / "s001.pdf") | pdf_fonts(solved / "papers" / "s001.pdf")
    assert {"NewCMMath-Regular-Identity-H", "DejaVuSans"} <= fonts
    assert all(re.match(r"(NewCM|LibertinusSerif|DejaVuSans)", f) for f in fonts), fonts
    # a font only the machine has (Debian's fonts-liberation, where installed) is not found
    (tmp_path / "t.pdf").write_bytes(compile_pdf('#set text(font: "Liberation Sans")\nhello'))
    assert not any("Liberation" in f for f in pdf_fonts(tmp_path / "t.pdf"))


def test_csv_round_trips_awkward_ids(exam):
    out, _ = exam
    rows = list(csv.DictReader(open(out / "answers.csv", newline="")))
    assert any(r["student"] == "C/3" for r in rows)
    assert (out / "papers").joinpath([p for p in tree(out / "papers") if p.startswith("C_3-")][0]).exists()


@pytest.mark.parametrize("text, says", [
    ("name\nAnn\n", "line 1: the header needs an 'id' column"),
    ("id,name\nA,Ann\nB,Bob\nA,Again\n", "line 4: duplicate id 'A' (first on line 2)"),
    ("id,name\nA,Ann\n,Nobody\n", "line 3: empty id"),
    ("id,name\n", "no students"),
    # a comma in a name made the name "Smith"; an open quote swallowed the rest of the file
    ("id,name\nA1,Smith, John\n", 'line 2: 3 fields where the header has 2; a name holding a comma goes in double'),
    ('id,name\nA1,"Alice\nA2,Bob\n', "a quoted field runs to the end of the file"),
    ("id,name,id\nA1,Al,x\n", "line 1: the column 'id' appears twice in the header"),
    ("id,name\nA1," + "x" * 201 + "\n", "line 2: the name is longer than 200 characters"),
])
def test_roster_errors_name_the_line(tmp_path, capsys, text, says):
    roster = tmp_path / "r.csv"
    roster.write_text(text)
    assert main(["exam", str(EXAM), "--roster", str(roster), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and says in err, err
    assert not (tmp_path / "o").exists()


def test_roster_bad_encoding(tmp_path, capsys):
    roster = tmp_path / "r.csv"
    roster.write_bytes("id,name\nA,Zoë\n".encode("latin-1"))
    assert main(["exam", str(EXAM), "--roster", str(roster), "--out", str(tmp_path / "o")]) == 2
    assert "line 2: not UTF-8" in capsys.readouterr().err


def test_sheet_and_paper_size(tmp_path):
    assert main(["sheet", str(SHEET), "--out", str(tmp_path / "a4")]) == 0
    assert main(["sheet", str(SHEET), "--out", str(tmp_path / "letter"), "--paper", "letter"]) == 0
    a4 = PdfReader(str(tmp_path / "a4" / "sheet.pdf")).pages[0].mediabox
    letter = PdfReader(str(tmp_path / "letter" / "key.pdf")).pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)
    sheet = pdf_text(tmp_path / "a4" / "sheet.pdf")
    key = pdf_text(tmp_path / "a4" / "key.pdf")
    assert "Your work" in sheet and "Why this step?" not in sheet
    assert "Why this step?" in key and "Final answers" in key and "What to see" in key
    assert main(["sheet", str(SHEET), "--out", str(tmp_path / "a4b")]) == 0
    assert tree(tmp_path / "a4") == tree(tmp_path / "a4b")


def test_sheets_compiled_in_typst_processes_are_the_same_bytes():
    """many_sheet_pdfs (Typst in processes of its own) writes exactly what
    sheet_pdfs writes in this process, sheet by sheet, in order."""
    from generator.pipeline import build_items
    from generator.exam.spec import load_spec
    from generator.writers import sheets

    spec = load_spec(SHEET)
    made = [(spec.title, f"s{seed}", seed, build_items(spec.items, seed, spec.digits)) for seed in (3, 4, 5)]
    here = [sheets.sheet_pdfs(*s) for s in made]
    with sheets.typst_pool(workers=2) as pool:
        assert list(sheets.many_sheet_pdfs(iter(made), pool=pool, ahead=1)) == here
        procs = list(pool._procs)
        assert procs  # the compiles ran in other processes
    assert all(p.poll() is not None for p in procs)  # and those ended with the pool
    assert len({pdf for pair in here for pdf in pair}) == 6


def test_typst_process_reports_a_broken_document():
    from generator.writers.typst.compiler import typst_pool

    with typst_pool(workers=1) as pool:
        with pytest.raises(RuntimeError, match="Typst could not compile"):
            pool.compile("#let x = (").result()
        assert pool.compile("hello").result().startswith(b"%PDF")  # the process goes on after an error


def test_out_folder_with_foreign_files_is_refused(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("precious")
    assert main(["sheet", str(SHEET), "--out", str(out)]) == 2
    assert "did not write" in capsys.readouterr().err
    assert (out / "thesis.tex").read_text() == "precious"
    assert main(["sheet", str(SHEET), "--out", str(out), "--force"]) == 0


def test_a_file_added_to_a_folder_attndrills_wrote_is_never_deleted_without_force(tmp_path, capsys):
    """Rerunning into a folder the tool wrote deleted what the user had put
    there (responses.csv beside an exam, notes beside a sheet), --only too;
    a sheet replaced an exam folder.  Each is now refused, one error line,
    and the folder is left as it was."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: Kept\nseed: 3\nitems:\n  - {kind: A}\n", encoding="utf-8")
    exam, sheet = tmp_path / "exam", tmp_path / "sheet"
    assert main(["exam", str(spec), "--students", "2", "--out", str(exam), "--workers", "1"]) == 0
    assert main(["sheet", str(spec), "--out", str(sheet)]) == 0
    assert main(["exam", str(spec), "--students", "2", "--out", str(exam), "--workers", "1"]) == 0  # its own files only
    capsys.readouterr()
    (exam / "responses.csv").write_text("student,question,response\n")
    (sheet / "notes").mkdir()
    (sheet / "notes" / "mine.txt").write_text("precious")
    for argv in (["exam", str(spec), "--students", "2", "--out", str(exam), "--workers", "1"],
                 ["exam", str(spec), "--students", "2", "--out", str(exam), "--only", "s001"],
                 ["sheet", str(spec), "--out", str(sheet)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "did not write there" in err and ("responses.csv" in err or "mine.txt" in err)
    assert (exam / "responses.csv").exists() and (sheet / "notes" / "mine.txt").read_text() == "precious"
    (exam / "responses.csv").unlink()
    assert main(["sheet", str(spec), "--out", str(exam)]) == 2
    assert "holds an attndrills exam, not a sheet" in capsys.readouterr().err
    assert (exam / "answers.csv").exists()
    assert main(["sheet", str(spec), "--out", str(sheet), "--force"]) == 0
    assert not (sheet / "notes").exists()


def test_only_refuses_a_folder_of_another_exam(tmp_path, capsys):
    """--only with another seed wrote a paper of other questions beside the
    key and answers.csv of the first exam, which no longer described it."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: Only\nseed: 3\nitems:\n  - {kind: A}\n", encoding="utf-8")
    out = tmp_path / "exam"
    assert main(["exam", str(spec), "--students", "2", "--out", str(out), "--workers", "1"]) == 0
    before = (out / "papers" / "s001.pdf").read_bytes()
    capsys.readouterr()
    assert main(["exam", str(spec), "--students", "2", "--out", str(out), "--only", "s001", "--seed", "4"]) == 2
    assert "holds the exam of seed 3, not 4; add --seed 3" in capsys.readouterr().err
    other = tmp_path / "other.yaml"
    other.write_text("title: Only\nseed: 3\nitems:\n  - {kind: B}\n", encoding="utf-8")
    assert main(["exam", str(other), "--students", "2", "--out", str(out), "--only", "s001"]) == 2
    assert "other questions or paper size" in capsys.readouterr().err
    assert main(["exam", str(spec), "--students", "3", "--out", str(out), "--only", "s003"]) == 2
    assert "holds no paper of 's003'" in capsys.readouterr().err
    assert main(["exam", str(spec), "--students", "2", "--out", str(out), "--only", "s001"]) == 0
    assert (out / "papers" / "s001.pdf").read_bytes() == before


def test_ids_that_differ_only_in_letter_case_are_refused(tmp_path, capsys):
    """A1 and a1 wrote papers/A1.pdf and papers/a1.pdf: one file on macOS'
    and Windows' disks."""
    roster = tmp_path / "r.csv"
    roster.write_text("id,name\nA1,Ann\na1,Al\n", encoding="utf-8")
    assert main(["exam", str(SHEET), "--roster", str(roster), "--out", str(tmp_path / "x"), "--seed", "1"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {roster}: line 3: id 'a1' and 'A1' (line 2) differ only in letter case, so their papers would get "
        "one file name; make the ids distinct"]
    assert not (tmp_path / "x").exists()


def test_control_characters_in_a_roster_are_refused_with_their_line(tmp_path, capsys):
    """A bell character printed as a box on the paper, with no warning; a
    quoted line break split the paper's name line."""
    for cell, code in (("Bell\x07Name", "U+0007"), ('"two\nlines"', "U+000A, a line break")):
        roster = tmp_path / "r.csv"
        roster.write_text("id,name\nb1,Bo\na1," + cell.encode().decode("unicode_escape") + "\n", encoding="utf-8")
        assert main(["exam", str(SHEET), "--roster", str(roster), "--out", str(tmp_path / "x"), "--seed", "1"]) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].endswith(f"the name holds a control character ({code}); remove it"), err
        assert not (tmp_path / "x").exists()


def test_refusal_without_a_seed_is_one_error_line(tmp_path, capsys):
    """A fresh seed is named in the closing line, not above an error."""
    spec = tmp_path / "noseed.yaml"
    spec.write_text("items:\n  - kind: A\n")
    out = tmp_path / "theirs"
    out.mkdir()
    (out / "notes.txt").write_text("keep")
    for command in ("sheet", "exam"):
        extra = ["--students", "2"] if command == "exam" else []
        assert main([command, str(spec), "--out", str(out), *extra]) == 2
        assert capsys.readouterr().err.splitlines() == [
            f"error: {out} holds files attndrills did not write; choose an empty folder or add --force"]
    assert main(["sheet", str(spec), "--out", str(tmp_path / "fresh")]) == 0
    assert re.fullmatch(r"wrote .* \(seed (\d+); rerun with --seed \1\)\n", capsys.readouterr().err)


def _responses(out: Path, fn) -> Path:
    rows = list(csv.DictReader(open(out / "answers.csv")))
    path = out.parent / f"responses-{fn.__name__}.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "question", "response"])
        for r in rows:
            w.writerow([r["student"], r["question"], fn(r)])
    return path


def test_grading_perfect_empty_and_misconceptions(exam, capsys):
    out, _ = exam
    from generator.exam.grader import _answer_for

    def perfect(r):
        return r["answer"]

    def empty(r):
        return ""

    cache = {}

    def mistaken(r):
        a = _answer_for(r, 4, cache)
        wrong = [o for o in (a.options if a else ()) if not o.correct]
        if not wrong:
            return "nonsense"
        if a.type == "choice":
            return "ABCDEFGHIJ"[list(a.options).index(wrong[0])]
        return wrong[0].text.strip("()").replace(", ", "; ")

    results = {}
    for fn in (perfect, empty, mistaken):
        res = out.parent / f"{fn.__name__}-results.csv"
        assert main(["grade", str(out / "answers.csv"), str(_responses(out, fn)), "--out", str(res)]) == 0
        results[fn.__name__] = (capsys.readouterr().out, list(csv.DictReader(open(res))))
    totals = results["perfect"][0]
    assert all(line.endswith("33 / 33") for line in totals.strip().splitlines())
    assert all(line.endswith("0 / 33") for line in results["empty"][0].strip().splitlines())
    named = [r for r in results["mistaken"][1] if r["misconception"]]
    assert all(r["correct"] == "no" for r in results["mistaken"][1])
    assert len(named) >= 0.6 * len(results["mistaken"][1])
    assert any("divided the raw scores by their sum" in r["feedback"] for r in named)


def _on_a_terminal(args: list[str]) -> tuple[int, bytes]:
    """Run `args` with stdout and stderr on a pseudo-terminal: (exit code, what it showed)."""
    import os
    import pty
    import subprocess

    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen(args, stdout=child_fd, stderr=child_fd)
    os.close(child_fd)
    seen = b""
    while True:
        try:
            chunk = os.read(main_fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    return proc.wait(), seen


def test_progress_on_a_terminal_only(tmp_path):
    """Long jobs show progress on a terminal and stay quiet when piped: the
    exam's papers (a --variants pool counts variant sets: it writes no
    papers), what it writes after them, and the site's parts (it showed
    nothing for 15 s)."""
    import subprocess
    import sys

    args = [sys.executable, "-m", "generator", "exam", str(EXAM), "--students", "8", "--seed", "5"]
    piped = subprocess.run(args + ["--out", str(tmp_path / "piped")], capture_output=True, text=True)
    assert piped.returncode == 0 and "papers " not in piped.stderr and "writing" not in piped.stderr
    code, seen = _on_a_terminal(args + ["--out", str(tmp_path / "tty")])
    assert code == 0 and b"papers 8/8" in seen and b"writing answers.csv, moodle.xml and key.pdf" in seen
    code, seen = _on_a_terminal([sys.executable, "-m", "generator", "exam", str(EXAM), "--variants", "3", "--seed",
                                 "5", "--out", str(tmp_path / "pool")])
    assert code == 0 and b"variant sets 3/3" in seen and b"papers" not in seen
    site = [sys.executable, "-m", "generator", "site", "--seed", "1", "--sets", "1", "--docs", str(tmp_path / "d")]
    code, seen = _on_a_terminal(site)
    assert code == 0 and re.search(rb"sets, examples and practice variants (\d+)/\1\r?\n", seen), seen[-300:]
    piped = subprocess.run(site[:-1] + [str(tmp_path / "d2")], capture_output=True, text=True)
    assert piped.returncode == 0 and "practice variants" not in piped.stderr


def test_labels_print_their_symbols_as_maths(tmp_path):
    """The answer lines of a paper and the key's table of final answers
    printed "context vector c_t" and "(α_t1, α_t2) at Δ = …" as typed, under
    a question that typesets them; now they are maths (the exam key, plain
    text, writes cₜ)."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: Labels\nseed: 3\nitems:\n  - {kind: B}\n  - {kind: '5.2'}\n", encoding="utf-8")
    assert main(["sheet", str(spec), "--out", str(tmp_path / "sheet")]) == 0
    assert main(["exam", str(spec), "--students", "1", "--out", str(tmp_path / "exam"), "--workers", "1"]) == 0
    typed = re.compile(r"(?<!\w)[A-Za-zα]_[A-Za-z0-9]")
    for pdf in (tmp_path / "sheet" / "key.pdf", tmp_path / "exam" / "papers" / "s001.pdf",
                tmp_path / "exam" / "key.pdf"):
        text = pdf_text(pdf)
        assert not typed.search(text), (pdf.name, typed.search(text))
        assert re.search(r"context vector (𝑐𝑡|cₜ)", text), pdf.name


def test_one_point_is_singular(tmp_path):
    """A question worth 1 point printed "(1 points)": the template compared
    the printed text "1" with the number 1."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: One\nseed: 3\nitems:\n  - {kind: A, points: 1}\n  - {kind: B, points: 2}\n",
                    encoding="utf-8")
    assert main(["exam", str(spec), "--students", "1", "--out", str(tmp_path / "exam"), "--workers", "1"]) == 0
    paper = pdf_text(tmp_path / "exam" / "papers" / "s001.pdf")
    assert "(1 point)" in paper and "(2 points)" in paper and "(1 points)" not in paper


def test_a_semicolon_after_inline_maths_is_printed():
    """"…gives α = 0.6496; computed exactly, α = 0.6493"
    printed without its semicolon, so the worked value read as the exact
    one: Typst ends an embedded #box(…) expression at a ";" and drops it."""
    from generator.mathlines import Num, Seq, Sym, eq
    from generator.model import prose
    from generator.render.typst import inline
    from generator.writers.typst.compiler import compile_pdf

    # a list of values is set as boxes, one per value: the case that lost it
    two = lambda a, b: Seq((eq(Sym("alpha", "1"), Num(a)), eq(Sym("alpha", "2"), Num(b))))
    line = inline(prose("gives ", two("0.1", "0.6496"), "; computed exactly, ", two("0.1", "0.6493"), "; both"))
    assert "#box(" in line
    pdf = compile_pdf("#set page(width: 12cm, height: auto)\n" + line + "\n")
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert text.count("0.6496;") == 1 and text.count("0.6493;") == 1, text


def test_key_prints_every_window_wider_than_half_a_unit(exam):
    """The key said "tolerance: half a unit of the last printed place", while
    answers.csv and the grader accept more where the worked method from
    rounded numbers lands further (an entropy from 4-place weights): a hand
    marker following the key marked those answers wrong.  Each such line now
    ends with its window, cut down to two more places than the key's."""
    from decimal import Decimal

    out, _ = exam
    text = re.sub(r"\s+", " ", pdf_text(out / "key.pdf")).replace("\u2212", "-")
    rows = list(csv.DictReader(open(out / "answers.csv", encoding="utf-8")))
    wide = 0
    for r in rows:
        if not r["tolerance"]:
            continue
        keys = [row.split("; ") for row in r["answer"].split(" | ")]
        tols = [row.split("; ") for row in r["tolerance"].split(" | ")]
        units = [[Decimal(1).scaleb(Decimal(k).as_tuple().exponent) for k in row] for row in keys]
        widened = any(Decimal(t) > Decimal("0.6") * u * Decimal("1.000000001")
                      for tr, ur in zip(tols, units) for t, u in zip(tr, ur))
        window = "(± " + " | ".join("; ".join(
            format(Decimal(t).quantize(u / 100, rounding="ROUND_DOWN").normalize(), "f") for t, u in zip(tr, ur))
            for tr, ur in zip(tols, units)) + ")"
        assert (f"{r['answer']} {window}" in text) == widened, (r, window)
        wide += widened
    assert wide > 0


def test_a_key_that_runs_onto_another_page_names_its_student_there(tmp_path):
    """On letter paper one student's key ran onto a page with no name on it,
    under a header promising one page per student: a marker could credit
    its last parts to the next student."""
    spec = tmp_path / "all.yaml"
    spec.write_text("title: All kinds\nseed: 99\nitems:\n" + "".join(
        f"  - {{kind: \"{k.id}\"}}\n" for k in kinds.all_kinds()), encoding="utf-8")
    assert main(["exam", str(spec), "--students", "2", "--paper", "letter", "--out", str(tmp_path / "x"),
                 "--workers", "1"]) == 0
    pages = [re.sub(r"\s+", " ", p.extract_text()) for p in PdfReader(str(tmp_path / "x" / "key.pdf")).pages]
    assert len(pages) == 3
    assert pages[1].startswith("Student 1 (s001) — paper") and "(continued)" in pages[1]
    assert "(continued)" not in pages[0] + pages[2] and pages[2].startswith("Student 2 (s002)")


def test_work_space_grows_with_the_worked_solution(tmp_path, monkeypatch):
    """Every exam question had the same 2.4 cm box: G's five softmaxes as
    much as counting Tx·Ty.  The box now grows with the lines of working
    (at least 2.4 cm on a paper, 5.5 cm on a sheet, at most 9 cm), and the
    paper draws each question's own."""
    from generator.render.typst import work_space
    from generator.writers.typst import compiler

    cm = lambda kind, least: float(work_space(solve_problem(sample_problem(kind, 3)), least)[:-2])
    assert cm("4.1", 2.4) == 2.4 and cm("1.1", 5.5) == 5.5
    assert cm("D", 2.4) > cm("A", 2.4) + 2 and cm("D", 5.5) > 5.5 and max(cm(k, 2.4) for k in "DFGI") <= 9
    sources = []
    monkeypatch.setattr(compiler, "compile_pdf", lambda source, **_: sources.append(source) or b"%PDF")
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: Space\nseed: 3\nitems:\n  - {kind: D}\n  - {kind: '4.1'}\n", encoding="utf-8")
    assert main(["exam", str(spec), "--students", "1", "--out", str(tmp_path / "x"), "--workers", "1"]) == 0
    heights = re.findall(r"#block\(height: ([\d.]+)cm, width: 100%, stroke: \(dash", sources[0])
    assert sorted(map(float, heights))[0] == 2.4 and sorted(map(float, heights))[1] > 5


def test_keys_and_solutions_say_what_they_are_on_every_page(tmp_path):
    """A key's or a student's solutions' page carried the footer of the sheet
    or the paper: a stray page in a print batch could not be told apart.
    The solutions also name their student."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("title: Footers\nseed: 3\nitems:\n  - {kind: A}\n", encoding="utf-8")
    roster = tmp_path / "r.csv"
    roster.write_text("id,name\nx1,Zoë O'Brien\n", encoding="utf-8")
    assert main(["sheet", str(spec), "--out", str(tmp_path / "s")]) == 0
    assert main(["exam", str(spec), "--roster", str(roster), "--solutions", "--out", str(tmp_path / "e"),
                 "--workers", "1"]) == 0
    for pdf, says in ((tmp_path / "s" / "key.pdf", "· key"), (tmp_path / "e" / "solutions" / "x1.pdf",
                                                              "· worked solutions")):
        for page in PdfReader(str(pdf)).pages:
            assert says in re.sub(r"\s+", " ", page.extract_text()), pdf
    for page in PdfReader(str(tmp_path / "s" / "sheet.pdf")).pages:
        assert "· key" not in page.extract_text()
    assert "worked solutions for Zoë O'Brien" in re.sub(r"\s+", " ", pdf_text(tmp_path / "e" / "solutions" / "x1.pdf"))


def test_an_exam_asks_only_what_it_marks_and_a_sheet_asks_every_explanation(tmp_path):
    """"Interpret the two values." (3.1) and "Say why you cannot simply divide
    …" (C) were printed on exam papers, whose marks go to the labelled lines
    alone ("those lines are what is marked"): a student could spend time on
    an explanation worth nothing.  The exam paper and its worked solutions'
    statement leave such a sentence out, as Moodle does; the worked solution
    still argues it; a problem sheet, where nothing is marked, still asks it."""
    spec = tmp_path / "spec.yaml"
    spec.write_text('title: Asked\nseed: 4\nitems:\n  - {kind: "3.1"}\n  - {kind: C}\n  - {kind: "4.1"}\n'
                    '  - {kind: D}\n', encoding="utf-8")
    from generator.pipeline import build_items
    from generator.exam.spec import load_spec

    prompts = ["Interpret the two values.", "Say why you cannot simply divide each score by their sum.",
               "Then explain in one sentence", "Compare them with the weights of the original scores."]
    solutions = build_items(load_spec(spec).items, 4)
    assert all(any(p in "".join(s for s in para if isinstance(s, str)) for sol in solutions
                   for para in sol.question) for p in prompts)  # the problems ask them
    assert main(["exam", str(spec), "--students", "1", "--solutions", "--out", str(tmp_path / "exam")]) == 0
    assert main(["sheet", str(spec), "--seed", "4", "--out", str(tmp_path / "sheet")]) == 0
    flat = {name: re.sub(r"\s+", " ", pdf_text(path)) for name, path in [
        ("paper", tmp_path / "exam" / "papers" / "s001.pdf"), ("solutions", tmp_path / "exam" / "solutions" / "s001.pdf"),
        ("sheet", tmp_path / "sheet" / "sheet.pdf")]}
    for p in prompts:
        assert p not in flat["paper"] and p not in flat["solutions"], p
        assert p in flat["sheet"], p


@pytest.mark.parametrize("display, hint, height", [
    (["0.2", "0.3"], "2 values", "0.75cm"),
    (["0.2000"] * 5, "5 values", "1.5cm"),  # "0.2000; 0.2000; …" did not fit the box's 7.5 cm
    ([["0.5"], ["0.25"]], "2 rows of 1 value", "1.5cm"),  # was "2 rows of 1 values"
    ([["0.1"] * 5] * 5, "5 rows of 5 values", "6cm"),  # ten lines' worth, at most eight
    ([["0.9782", "0.0218"], ["4.78 × 10⁻²⁵", "7.78 × 10⁻²⁰", "1.0000"]], "2 rows of 2 values", "2.25cm"),  # H's last β
])
def test_an_answer_box_has_a_line_for_every_three_values(display, hint, height):
    """A power of ten, written by hand, is as wide as two plain values."""
    from types import SimpleNamespace

    from generator.writers.exams import _part_view

    part = SimpleNamespace(label="2a", quantity="weights", answer=SimpleNamespace(type="vector", display=display))
    view = _part_view(part)
    assert (view["hint"], view["height"]) == (hint, height)


def test_a_papers_code_has_one_name_and_one_length(tmp_path, capsys):
    """A paper's own code was "Variant:" on the paper (beside each question's
    variant code), "paper" in the key and "Set code" in the worked solutions,
    and 9 or 10 characters long: it is the paper code in all three (and in
    manifest.json), 10 characters; a question's code stays its variant code."""
    import json

    out = tmp_path / "exam"
    assert main(["exam", str(EXAM), "--students", "8", "--seed", "5", "--out", str(out), "--solutions"]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    codes = {s["id"]: s["paper_code"] for s in manifest["students"]}
    assert {len(c) for c in codes.values()} == {10} and all("variant" not in s for s in manifest["students"])
    key = pdf_text(out / "key.pdf")
    assert "its variant code and points" in key
    for sid, code in codes.items():
        paper = pdf_text(out / "papers" / f"{sid}.pdf")
        worked = pdf_text(out / "solutions" / f"{sid}.pdf")
        assert f"Paper code: {code}" in paper and "Variant:" not in paper
        assert f"Paper code {code}" in worked and "Set code" not in worked
        assert f"— paper code {code} ·" in key
    tails = {r["variant"].rpartition("-")[2] for r in csv.DictReader(open(out / "answers.csv", encoding="utf-8"))}
    assert {len(t) for t in tails} == {10}


def test_a_number_box_says_how_a_value_below_10_to_the_minus_digits_is_written():
    """With --digits 2 a weight below 0.01 is printed 6.20 × 10⁻³ in the key,
    but the paper said so only in its instructions at the top: typed as 0.01
    beside its box it was refused.  Every box asking for numbers (not counts)
    now says it beside the box, whatever its key."""
    from types import SimpleNamespace

    from generator.render.typst import escape_typst
    from generator.writers.exams import _part_view

    def view(type_, display, tol, digits=2):
        a = SimpleNamespace(type=type_, display=display, tolerance=tol)
        return _part_view(SimpleNamespace(label="1", quantity="w", answer=a), digits)["hint"]

    assert view("vector", ["0.25", "0.75"], [0.006, 0.006]) == escape_typst(
        "2 values; below 10⁻²: 3 significant digits, as 1.23e-5")
    assert view("numeric", "0.99", 0.006, 4) == escape_typst("below 10⁻⁴: 3 significant digits, as 1.23e-5")
    assert view("numeric", "12", 0.0) == ""  # a count
