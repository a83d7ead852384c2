"""Every name prints: names in other scripts are set in the packaged fonts, a
--font-path folder adds fonts (the same fonts give the same bytes), and a name
with characters no font has is named in a warning — never silent boxes."""

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAM = ROOT / "examples" / "exam-midterm.yaml"
SHEET = ROOT / "examples" / "set-basics.yaml"

NAMES = {  # id → name
    "zh": "王小明",
    "ar": "مريم العلي",
    "el": "Ελένη Παπαδοπούλου",
    "em": "Ana 🦊🎓",
    "mix": "Zoë Łukasz Дмитрий Nguyễn Thị Ánh 👨‍👩‍👧",
}
LINEAR_B = "𐀀𐀁"  # U+10000, U+10001: in none of the packaged fonts


def pdf_text(path: Path) -> str:
    return " ".join(p.extract_text() for p in PdfReader(str(path)).pages)


def pdf_fonts(path: Path) -> set[str]:
    names = set()
    for page in PdfReader(str(path)).pages:
        for font in (page.get("/Resources", {}).get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def roster(path: Path, names: dict[str, str]) -> Path:
    path.write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in names.items()), encoding="utf-8")
    return path


def tiny_font(path: Path, family: str, chars: str) -> None:
    """A TrueType font (built here, nothing downloaded) whose glyphs for `chars` are squares."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    names = [".notdef"] + [f"u{ord(c):05X}" for c in chars]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): n for c, n in zip(chars, names[1:])})
    glyphs = {}
    for n in names:
        pen = TTGlyphPen(None)
        pen.moveTo((100, 0))
        pen.lineTo((100, 700))
        pen.lineTo((600, 700))
        pen.lineTo((600, 0))
        pen.closePath()
        glyphs[n] = pen.glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (700, 100) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular", "fullName": family,
                       "psName": family.replace(" ", ""), "version": "Version 1.0"}, mac=False)
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))


@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    base = tmp_path_factory.mktemp("scripts")
    out = base / "out"
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["exam", str(EXAM), "--roster", str(roster(base / "r.csv", NAMES)), "--seed", "5",
                     "--out", str(out)])
    assert code == 0
    return out, err.getvalue()


@pytest.mark.parametrize("sid", list(NAMES))
def test_names_in_other_scripts_print(scripts, sid):
    out, err = scripts
    assert "warning" not in err, err
    paper = out / "papers" / f"{sid}.pdf"
    text = pdf_text(paper)
    for word in NAMES[sid].replace("\u200d", " ").split():  # Arabic comes out in visual order: word by word
        if word != "👨👩👧":
            assert word in text, (word, text[:200])
    fonts = pdf_fonts(paper)
    assert not any(f.startswith("LastResort") for f in fonts), fonts  # Last Resort draws the boxes
    if sid == "zh":
        assert any(f.startswith("NotoSansCJK") for f in fonts), fonts
    if sid == "em":
        assert "NotoEmoji-Regular" in fonts, fonts
    # the key lists every student by name
    key = pdf_text(out / "key.pdf")
    assert NAMES[sid].split()[0] in key or sid == "ar"


def test_missing_glyphs_looks_at_what_the_fonts_have():
    from generator.writers.typst.compiler import missing_glyphs

    assert missing_glyphs("Plain ASCII name") == ""
    for name in NAMES.values():
        assert missing_glyphs(name) == "", name
    assert missing_glyphs(f"Ann {LINEAR_B} {LINEAR_B[0]}") == LINEAR_B  # each once, in order
    assert missing_glyphs("a\u200db\ufe0f") == ""  # joiners and variation selectors have no glyph


def test_a_name_no_font_covers_is_named_and_a_font_path_prints_it(tmp_path, capsys):
    names = {f"p{i}": f"Plain {i}" for i in range(1, 8)} | {"lb": f"Linear {LINEAR_B} B"}
    r = roster(tmp_path / "r.csv", names)
    assert main(["exam", str(EXAM), "--roster", str(r), "--seed", "5", "--out", str(tmp_path / "bare")]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1, warnings
    assert "student lb (Linear 𐀀𐀁 B)" in warnings[0]
    assert "𐀀 (U+10000) 𐀁 (U+10001)" in warnings[0] and "--font-path" in warnings[0]
    assert "LastResortHE-Regular" in pdf_fonts(tmp_path / "bare" / "papers" / "lb.pdf")

    # the same font in two folders under two file names: no warning, the same bytes,
    # with one worker or two (workers get the folders too)
    tiny_font(tmp_path / "f1" / "tiny.ttf", "Tiny Test", LINEAR_B)
    (tmp_path / "f2").mkdir()
    (tmp_path / "f2" / "zz-other-name.ttf").write_bytes((tmp_path / "f1" / "tiny.ttf").read_bytes())
    outs = []
    for folder, workers in (("f1", "2"), ("f2", "1")):
        out = tmp_path / f"with-{folder}"
        assert main(["exam", str(EXAM), "--roster", str(r), "--seed", "5", "--out", str(out),
                     "--workers", workers, "--font-path", str(tmp_path / folder)]) == 0
        assert "warning" not in capsys.readouterr().err
        outs.append(out)
    paper = [o / "papers" / "lb.pdf" for o in outs]
    assert paper[0].read_bytes() == paper[1].read_bytes()
    assert (outs[0] / "key.pdf").read_bytes() == (outs[1] / "key.pdf").read_bytes()
    fonts = pdf_fonts(paper[0])
    assert "TinyTest" in fonts and not any(f.startswith("LastResort") for f in fonts), fonts
    # the other papers do not change: the added font has nothing they print
    assert (outs[0] / "papers" / "p1.pdf").read_bytes() == (tmp_path / "bare" / "papers" / "p1.pdf").read_bytes()
    # a later run without the option uses the packaged fonts only again
    assert main(["exam", str(EXAM), "--roster", str(r), "--seed", "5", "--out", str(tmp_path / "again"),
                 "--only", "lb"]) == 0
    assert "U+10000" in capsys.readouterr().err


def test_sheet_title_no_font_covers_is_named(tmp_path, capsys):
    spec = tmp_path / "s.yaml"
    spec.write_text(SHEET.read_text(encoding="utf-8").replace("title: Attention basics",
                                                              f"title: Basics {LINEAR_B}"), encoding="utf-8")
    assert main(["sheet", str(spec), "--seed", "1", "--out", str(tmp_path / "s")]) == 0
    err = capsys.readouterr().err
    assert re.search(r"^warning: the title: no font has 𐀀 \(U\+10000\)", err, re.M), err


@pytest.mark.parametrize("make, says", [
    (lambda p: p / "missing", "is not a folder"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "holds no font file"),
])
def test_bad_font_path_is_one_error_line(tmp_path, capsys, make, says):
    folder = make(tmp_path)
    assert main(["sheet", str(SHEET), "--seed", "1", "--out", str(tmp_path / "s"), "--font-path", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: --font-path") and says in err, err
    assert not (tmp_path / "s").exists()
