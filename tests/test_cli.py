"""The command-line contract: outputs, reproducibility and bad input."""

import json
from pathlib import Path

import pytest

from generator.cli import main


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_kinds_lists_every_cell(capsys):
    code, out, _ = run(capsys, "kinds", "--json")
    rows = json.loads(out)
    assert code == 0
    assert [r["id"] for r in rows][:9] == list("ABCDEFGHI")
    assert all(r["slug"] and r["title"] and r["source"].startswith("seeds/") for r in rows)
    exercises = [r for r in rows if r["level"]]
    assert [r["id"] for r in exercises] == [f"{l}.{n}" for l in range(1, 6) for n in range(1, 4)]
    assert all(r["level"] == int(r["id"][0]) for r in exercises)


def test_problem_json_contract(capsys):
    code, out, _ = run(capsys, "problem", "I", "--seed", "3", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert {"kind", "seed", "inputs", "answers", "steps", "checks", "figures"} <= set(data)
    assert data["kind"] == "I" and data["seed"] == 3
    for name in ("weights", "entropy", "context"):
        a = data["answers"][name]
        assert {"value", "display", "exact", "tolerance", "type"} <= set(a)
    assert abs(sum(data["answers"]["weights"]["value"]) - 1) < 1e-12


def test_negative_scores_are_values_not_options(capsys):
    code, out, err = run(capsys, "problem", "C", "--scores", "-2,1,0", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["answers"]["weights"]["display"] == ["0.0351", "0.7054", "0.2595"]


def test_same_seed_same_bytes(capsys):
    first = run(capsys, "problem", "G", "--seed", "12345")[1]
    again = run(capsys, "problem", "G", "--seed", "12345")[1]
    other = run(capsys, "problem", "G", "--seed", "12346")[1]
    assert first == again and first != other


def test_fresh_seed_is_printed_and_reproduces(capsys):
    code, out, err = run(capsys, "problem", "A")
    assert code == 0
    seed = err.split("--seed ")[1].split(")")[0]
    assert run(capsys, "problem", "A", "--seed", seed)[1] == out


def test_variant_code_regenerates(capsys):
    out = run(capsys, "problem", "F", "--seed", "99")[1]
    code = out.split("Variant `")[1].split("`")[0]
    assert run(capsys, "problem", code)[1] == out


def test_inputs_that_miss_the_cells_scenario_are_refused_naming_the_kind_that_fits(capsys):
    code, out, err = run(capsys, "problem", "B", "--scores", "1,2,3")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: these inputs do not show cell B") and "not all equal" in err and "2.2" in err


def test_huge_scores_are_solved_exactly(capsys):
    code, out, err = run(capsys, "problem", "C", "--scores", "-1000,1000,0", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["answers"]["weights"]["display"] == ["0.0000", "1.0000", "0.0000"] or \
        data["answers"]["weights"]["display"][0].endswith("10⁻⁸⁶⁹")
    assert "subtract the largest score" in json.dumps(data)


@pytest.mark.parametrize("args, says", [
    (["problem", "Z"], "unknown kind"),
    (["problem", "A", "--scores", "1,,2"], "empty value"),
    (["problem", "A", "--scores", "abc"], "not a number"),
    (["problem", "A", "--scores", "nan"], "not a finite number"),
    (["problem", "A", "--scores", "inf"], "not a finite number"),
    (["problem", "A", "--scores", "-inf,1"], "not a finite number"),
    (["problem", "A", "--scores", ""], "empty"),
    (["problem", "A", "--input", "[]"], "JSON object"),
    (["problem", "A", "--input", "{\"scores\": []}"], "empty"),
    (["problem", "A", "--input", "{bad json"], "not valid JSON"),
    (["problem", "A", "--scores", "2000000,1"], "10^6"),
    (["problem", "C", "--scores", "1e-320,1"], "10^-100"),
    (["problem", "A", "--scores", "0,20000"], "differ by more than"),
    (["problem", "A", "--digits", "-1"], "--digits"),
    (["problem", "A", "--digits", "x"], "invalid int"),
    (["problem", "A", "--seed", "-5"], "--seed"),
    (["problem", "A", "--seed", "1", "--scores", "1,2"], "either"),
    (["problem", "A", "--input", "{\"scores\": [1, 2], \"colour\": 3}"], "does not take"),
    (["problem", "E", "--input", "{\"scores\": [1], \"states\": [[1, 2], [3, 4]]}"], "input positions"),
    (["problem", "H", "--input", "{\"scores\": [0, 1], \"betas\": [-1]}"], "positive"),
    (["nonsense"], "invalid choice"),
    ([], "no command"),
    # an empty path is the current folder to Python: "--out ''" said "spec.yaml lies inside --out ,"
    (["exam", "spec.yaml", "--students", "2", "--out", ""], "--out is empty; give a path"),
    (["sheet", "spec.yaml", "--out", " "], "--out is empty; give a path"),
    (["site", "--docs", ""], "--docs is empty; give a path"),
    (["problem", "A", "--figures", ""], "--figures is empty; give a path"),
    (["grade", "a.csv", "b.csv", "--out", ""], "--out is empty; give a path"),
])
def test_bad_input_exits_2_with_one_error_line(capsys, args, says):
    code, out, err = run(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert says in lines[0]
    assert out == ""
    assert "Traceback" not in err


def test_console_script_runs_as_a_process(cli):
    proc = cli("problem", "A", "--scores", "-2,1,0.5")
    assert proc.returncode == 0 and "Forecast" in proc.stdout
    bad = cli("problem", "A", "--scores", "1,,2")
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


# -- start-up: a command loads only what it needs ------------------------------

# Each command runs in a fresh interpreter that then lists every module it
# loaded: a value, not a time (the time is for `make bench`).
_LOADED = """
import contextlib, io, json, sys
from generator.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""
# what no listing or single problem needs: figures, print, the site builders, Anki decks
HEAVY = {"matplotlib", "typst", "mkdocs", "material", "zensical", "genanki", "markdown", "pymdownx"}


def _loaded(*args: str) -> dict:
    import subprocess
    import sys

    import generator

    # from the folder that holds the package under test (`-c` puts the working folder first on the path)
    root = Path(generator.__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, check=True, cwd=root)
    data = json.loads(proc.stdout)
    data["top"] = {m.split(".")[0] for m in data["modules"]}
    return data


def test_kinds_imports_no_kind_module_and_no_maths_library():
    for args in (["kinds"], ["kinds", "--json"]):
        got = _loaded(*args)
        assert got["code"] == 0 and "sharp-peak" in got["out"]
        # its names and summaries are words of the text files (YAML): no maths, no templates
        assert not got["top"] & (HEAVY | {"numpy", "sympy", "mpmath", "jinja2"}), sorted(got["top"])
        assert not [m for m in got["modules"] if m.startswith("generator.kinds.")]


def test_one_problem_imports_its_own_kind_and_no_output_machinery():
    got = _loaded("problem", "A", "--seed", "1")
    assert got["code"] == 0 and "Forecast" in got["out"]
    assert not got["top"] & HEAVY, sorted(got["top"] & HEAVY)
    kind_modules = [m for m in got["modules"] if m.startswith("generator.kinds.")
                    and not m.split(".")[2].startswith("_")]
    assert kind_modules == ["generator.kinds.cell_a"]
    assert not [m for m in got["modules"] if m.startswith(("generator.figures", "generator.writers"))]
    # the exact path loads mpmath's core alone: neither sympy nor the rest of mpmath
    assert "sympy" not in got["top"]
    assert [m for m in got["modules"] if m.startswith("mpmath.")] == \
        sorted(m for m in got["modules"] if m.startswith("mpmath.libmp"))


def test_mpmath_loaded_core_first_is_still_the_whole_of_mpmath():
    import subprocess
    import sys

    probe = ("import generator.maths.exact, sys; m = sys.modules['mpmath']; assert 'mpf' not in vars(m); "
             "import sympy, mpmath; assert mpmath is m; "
             "print(sympy.nsimplify(sympy.Float(0.375)), mpmath.libmp.libmpf.prec_to_dps(53), "
             "mpmath.mpf(1) / 4, mpmath.iv.mpf(2), mpmath.__version__ != '')")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["3/8", "15", "0.25", "[2.0,", "2.0]", "True"]


def test_grade_help_still_lists_the_accepted_forms(capsys):
    from generator.exam.marking import ACCEPTED_FORMS

    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    out = capsys.readouterr().out
    assert ACCEPTED_FORMS.strip().splitlines()[0] in out and "KEY_CSV" in out


def test_kind_index_matches_the_registered_kinds():
    """`attndrills kinds` lists INDEX without importing the kind modules: every
    module registers the kind its INDEX line names, with that line's metadata
    (taken from INDEX by `about`, written nowhere else), and no other."""
    import importlib

    from generator import kinds
    from generator.kinds._base import Kind

    listed = [(e.id, e.slug, e.title, e.level, e.source, e.summary, e.module) for e in kinds.listing()]
    registered = [(k.id, k.slug, k.title, k.level, k.source, k.summary, k.words) for k in kinds.all_kinds()]
    assert listed == registered, "every kind needs its INDEX line, and its module must register it with about(ID)"
    for entry in kinds.listing():
        module = importlib.import_module(f"generator.kinds.{entry.module}")
        assert [v.id for v in vars(module).values() if isinstance(v, Kind)] == [entry.id]
        assert kinds.get(entry.slug) is kinds.get(entry.id.lower()) is kinds.REGISTRY[entry.id]


def test_compiled_templates_are_kept_between_runs_and_a_cache_that_cannot_be_written_changes_nothing(tmp_path):
    import os
    import subprocess
    import sys

    def run(cache: Path) -> str:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        proc = subprocess.run([sys.executable, "-m", "generator", "problem", "A", "--seed", "3"],
                              capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        return proc.stdout

    first = run(tmp_path / "cache")
    kept = sorted((tmp_path / "cache" / "attndrills").iterdir())
    assert kept and all(p.name.startswith("template-") and p.stat().st_size > 0 for p in kept)
    assert run(tmp_path / "cache") == first  # read from the cache
    assert sorted((tmp_path / "cache" / "attndrills").iterdir()) == kept
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert run(blocked) == first


def test_an_input_inside_the_output_folder_is_refused_even_with_force(tmp_path, capsys):
    """`exam course/spec.yaml --roster course/class.csv --out course --force`
    deleted the spec and the roster with the folder it replaced; `grade
    --out` onto the key or the responses overwrote them."""
    course = tmp_path / "course"
    course.mkdir()
    spec = course / "spec.yaml"
    spec.write_text("title: In\nseed: 3\nitems:\n  - {kind: A}\n", encoding="utf-8")
    roster = course / "class.csv"
    roster.write_text("id,name\na,Ann\n", encoding="utf-8")
    for argv in (["exam", str(spec), "--roster", str(roster), "--out", str(course), "--force"],
                 ["exam", str(tmp_path / "course" / ".." / "course" / "spec.yaml"), "--students", "1", "--out",
                  str(course), "--force"],
                 ["sheet", str(spec), "--out", str(course), "--force"]):
        assert main(argv) == 2, argv
        assert "lies inside --out" in capsys.readouterr().err
    assert spec.exists() and roster.exists()
    out = tmp_path / "exam"
    assert main(["exam", str(spec), "--roster", str(roster), "--out", str(out), "--workers", "1"]) == 0
    responses = tmp_path / "responses.csv"
    responses.write_text("student,question,response\na,1,0.1\n", encoding="utf-8")
    capsys.readouterr()
    for target in (responses, out / "answers.csv"):
        before = target.read_bytes()
        assert main(["grade", str(out / "answers.csv"), str(responses), "--out", str(target)]) == 2
        assert "is one of the files being graded" in capsys.readouterr().err
        assert target.read_bytes() == before


def test_given_inputs_print_no_seed_and_a_code_takes_no_second_seed(capsys):
    """`problem C --scores …` printed "seed None"; `problem A-7 --seed 8`
    silently drew seed 8, not the code's 7."""
    assert main(["problem", "C", "--scores", "-2,1,0"]) == 0
    out = capsys.readouterr().out
    assert "Variant `C-given` · kind C\n" in out and "seed None" not in out
    assert main(["problem", "A-7", "--seed", "8"]) == 2
    assert "A-7 is a variant code, which holds its own seed" in capsys.readouterr().err
    assert main(["problem", "A-7", "--scores", "1,2"]) == 2
    assert "give the kind (A) with --scores/--input" in capsys.readouterr().err


def test_figures_are_readable_by_others_as_any_new_file(tmp_path, capsys):
    """--figures wrote its SVGs with mode 0600 (mkstemp's), which a web
    server running as another user cannot read."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        assert main(["problem", "A", "--seed", "7", "--figures", str(tmp_path)]) == 0
    finally:
        os.umask(old)
    svgs = list(tmp_path.glob("*.svg"))
    assert svgs and all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in svgs)


def test_an_empty_seed_says_where_it_came_from(capsys, tmp_path):
    """`make site` with an empty site-seed.txt passed --seed '' and the error
    did not say where the empty seed came from."""
    assert main(["site", "--seed", "", "--docs", str(tmp_path / "d")]) == 2
    assert "site-seed.txt is empty" in capsys.readouterr().err and not (tmp_path / "d").exists()


def test_a_tolerance_that_is_not_a_number_is_named(tmp_path, capsys):
    """A bad tolerance in answers.csv said "could not convert string to float: 'abc'"."""
    key = tmp_path / "answers.csv"
    key.write_text("student,variant,question,answer,tolerance,points\na,A-1,1,0.5000,abc,1\n", encoding="utf-8")
    responses = tmp_path / "r.csv"
    responses.write_text("student,question,response\na,1,0.5\n", encoding="utf-8")
    main(["grade", str(key), str(responses), "--out", str(tmp_path / "out.csv")])
    err = capsys.readouterr().err
    assert "tolerance 'abc' is not a number" in err and "could not convert" not in err


def test_every_code_of_a_drawn_seed_has_ten_characters_and_old_codes_still_regenerate(capsys):
    """Codes were 9 or 10 characters (a drawn seed below 2^45 lost its leading
    zero), 5 for a typed seed such as 20261130; a code written without the
    zeros still names the same problem."""
    from generator.seeding import child_seeds, derived_seed, encode, variant_code

    seeds = child_seeds(5, 400) + [derived_seed(5, f"student:s{i}") for i in range(400)]
    assert any(s < 2 ** 45 for s in seeds)  # the 9-character ones of before
    assert {len(encode(s)) for s in seeds} == {10}
    assert variant_code("A", 20261130) == "A-00000KAA8A"
    out = run(capsys, "problem", "A-00000KAA8A")[1]
    assert "Variant `A-00000KAA8A` · kind A · seed 20261130" in out
    assert run(capsys, "problem", "A-KAA8A")[1] == out  # as older pages printed it


# ---------------------------------------------------------------- hostile input (issue 32.7)

DEEP = 40_000


def _errors(capsys, argv) -> list[str]:
    """Run the command: it must refuse with exit 2 and one `error:` line."""
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "internal error" not in err[0], err
    return err[0]


def _commands(spec: Path, tmp_path: Path) -> list[list[str]]:
    return [["exam", str(spec), "--students", "2", "--seed", "1", "--out", str(tmp_path / "exam")],
            ["sheet", str(spec), "--seed", "1", "--out", str(tmp_path / "sheet")],
            ["site", "--spec", str(spec), "--seed", "1", "--docs", str(tmp_path / "docs")]]


@pytest.mark.parametrize("nested", ["[" * DEEP + "]" * DEEP, "{a: " * DEEP + "1" + "}" * DEEP])
def test_a_spec_nested_40000_deep_is_refused_with_its_line(tmp_path, capsys, nested):
    """It ended in "internal error (RecursionError …)", exit 70."""
    spec = tmp_path / "deep.yaml"
    spec.write_text(f"title: T\nitems: {nested}\n")
    for argv in _commands(spec, tmp_path):
        line = _errors(capsys, argv)
        assert line.startswith(f"error: {spec}: line 2, column ") and line.endswith("nested more than 32 deep")
    assert list(tmp_path.iterdir()) == [spec]  # nothing written, not even DOCS/assets


def test_input_nested_25000_deep_is_refused(capsys):
    deep = '{"scores": ' + "[" * 25_000 + "]" * 25_000 + "}"
    assert _errors(capsys, ["problem", "A", "--input", deep]).startswith("error: --input: nested more than 32 deep")
    fair = '{"scores": ' + "[" * 300 + "]" * 300 + "}"  # read by JSON, still nested past any input
    assert _errors(capsys, ["problem", "A", "--input", fair]) == "error: --input: scores: nested more than 32 deep"


def test_a_5000_digit_number_is_refused_naming_its_field(tmp_path, capsys):
    """Python converts at most 4300 digits: "Exceeds the limit (4300 digits)", exit 70."""
    huge = "9" * 5000
    spec = tmp_path / "huge.yaml"
    spec.write_text(f"title: T\nseed: {huge}\nitems:\n  - kind: A\n")
    for argv in _commands(spec, tmp_path):
        assert _errors(capsys, argv) == f"error: {spec}: seed: a whole number from 0 to 18446744073709551615"
    spec.write_text(f"title: T\nitems:\n  - kind: A\n    points: {huge}\n  - kind: C\n    inputs: {{scores: [{huge}, 1]}}\n")
    assert main(["sheet", str(spec), "--out", str(tmp_path / "sheet")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {spec}: 2 mistakes:",
        "  item 1 (line 3): points: a positive number of at most 1000",
        "  item 2 (line 5): inputs: scores[1]: 99999999999999999999... is longer than 30 characters"]
    spec.write_text("title: T\nitems:\n  - kind: A\n")
    for argv in (["problem", "A", "--seed", huge], ["exam", str(spec), "--students", "1", "--seed", huge, "--out",
                                                     str(tmp_path / "x")], ["site", "--seed", huge]):
        assert _errors(capsys, argv) == "error: --seed: a number of 5000 digits is larger than 18446744073709551615"
    for option in ("--students", "--variants", "--workers"):
        argv = ["exam", str(spec), "--out", str(tmp_path / "x"), option, huge] + \
            (["--students", "2"] if option == "--workers" else [])
        assert _errors(capsys, argv) == f"error: argument {option}: a number of 5000 characters is far too large"
    assert _errors(capsys, ["problem", "A", "--digits", huge]) == \
        "error: argument --digits: a number of 5000 characters is far too large"
    assert _errors(capsys, ["problem", "A", "--digits", "x"]) == "error: argument --digits: invalid int value: 'x'"
    assert _errors(capsys, ["problem", "A", "--input", f'{{"scores": [{huge}, 1]}}']) == \
        "error: scores[1]: 99999999999999999999... is longer than 30 characters"
    assert list(tmp_path.iterdir()) == [spec]


def test_a_lone_surrogate_is_refused_where_it_was_read(tmp_path, capsys):
    """`"\\ud800"` (half of a character, as JSON and YAML escapes can write it)
    reached Typst or a page's UTF-8 and ended as an internal error, after
    `site` had written DOCS/assets."""
    says = "holds \\ud800, half of a character (a lone surrogate)"
    spec = tmp_path / "s.yaml"
    spec.write_text('title: "Quiz \\ud800"\nitems:\n  - kind: A\n')
    for argv in _commands(spec, tmp_path):
        assert _errors(capsys, argv).startswith(f"error: {spec}: title: {says}")
    spec.write_text('title: T\nitems:\n  - kind: A\n  - kind: G\n    inputs: {source: ["\\ud800", b], target: [x, y],'
                    ' scores: [[1, 3], [3, 1]]}\n')
    for argv in _commands(spec, tmp_path):
        assert _errors(capsys, argv).startswith(f"error: {spec}: item 2 (line 4): inputs.source[1]: {says}")
    assert list(tmp_path.iterdir()) == [spec]  # site left no empty DOCS/assets
    given = '{"source": ["a", "b"], "target": ["x", "\\ud800"], "scores": [[1, 3], [3, 1]]}'
    assert _errors(capsys, ["problem", "G", "--input", given]).startswith(f"error: --input: target[2]: {says}")
    roster = tmp_path / "class.csv"  # a roster is strict UTF-8, where a surrogate's bytes are no character
    roster.write_bytes(b"id,name\na1,Ann \xed\xa0\x80\n")
    spec.write_text("title: T\nitems:\n  - kind: A\n")
    assert _errors(capsys, ["exam", str(spec), "--roster", str(roster), "--out", str(tmp_path / "e")]) == \
        f"error: {roster}: line 2: not UTF-8 text; save the roster as UTF-8 CSV"


def test_a_spec_file_name_in_no_encoding_is_recorded_as_escapes(tmp_path, capsys):
    """A spec named with a byte that is not UTF-8 (`sp\\xffec.yaml`): the
    exam's manifest.json could not hold its name (internal error)."""
    import os

    spec = os.fsdecode(bytes(tmp_path) + b"/sp\xffec.yaml")
    Path(spec).write_text("title: T\nitems:\n  - kind: A\n")
    assert main(["exam", spec, "--students", "2", "--seed", "1", "--out", str(tmp_path / "exam")]) == 0
    manifest = json.loads((tmp_path / "exam" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["spec"]["source"] == f"{tmp_path}/sp\\xffec.yaml"


def _litter(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".old-" in p.name or ".tmp-" in p.name)


def test_force_never_replaces_a_symlink_or_a_checkout(tmp_path, capsys):
    """`--force` onto a symlink renamed the link away (left as `.NAME.old-PID`,
    which rmtree cannot remove) and put a folder in its place; onto a folder
    holding `.git` it replaced the whole checkout."""
    spec = tmp_path / "t.yaml"
    spec.write_text("title: T\nitems:\n  - kind: A\n")
    real = tmp_path / "real"
    real.mkdir()
    (real / "notes.txt").write_text("mine\n")
    link = tmp_path / "link"
    link.symlink_to(real)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "generated").symlink_to(real)
    for argv in (["sheet", str(spec), "--seed", "1", "--out", str(link), "--force"],
                 ["sheet", str(spec), "--seed", "1", "--out", str(link)],
                 ["exam", str(spec), "--students", "2", "--seed", "1", "--out", str(link), "--force"],
                 ["site", "--seed", "1", "--sets", "1", "--docs", str(docs), "--force"]):
        assert _errors(capsys, argv).endswith(" is a symbolic link; give the folder it points to, or another path")
    assert link.is_symlink() and (docs / "generated").is_symlink()
    assert [p.name for p in real.iterdir()] == ["notes.txt"]
    assert _litter(tmp_path) == [] and _litter(docs) == []
    checkout = tmp_path / "course"
    (checkout / ".git").mkdir(parents=True)
    (checkout / "README.md").write_text("# course\n")
    for argv in (["sheet", str(spec), "--seed", "1", "--out", str(checkout), "--force"],
                 ["exam", str(spec), "--students", "2", "--seed", "1", "--out", str(checkout), "--force"]):
        assert _errors(capsys, argv) == (f"error: {checkout} holds a git checkout (.git), which replacing the folder "
                                         "would delete; write the output to a folder of its own")
    assert sorted(p.name for p in checkout.iterdir()) == [".git", "README.md"]
    assert _litter(tmp_path) == []


def _disk_full(*args, **kwargs):
    import errno

    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_failed_write_leaves_no_empty_folder(tmp_path, capsys, monkeypatch):
    """A full disk: `site` left an empty DOCS/assets (its MathJax copy failed),
    `problem --figures DIR` an empty DIR."""
    import tempfile

    from generator.writers import atomic, files

    real = tempfile.mkdtemp
    monkeypatch.setattr(files, "_write", _disk_full)
    assert _errors(capsys, ["problem", "G", "--seed", "4", "--figures", str(tmp_path / "figs" / "g")]) == \
        f"error: cannot write figures into {tmp_path / 'figs' / 'g'}: No space left on device"
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    monkeypatch.setattr(atomic.tempfile, "mkdtemp", _disk_full)
    docs = tmp_path / "new" / "docs"
    assert _errors(capsys, ["site", "--seed", "1", "--sets", "1", "--docs", str(docs)]) == \
        f"error: cannot write into {docs}: No space left on device"
    assert list(tmp_path.iterdir()) == []
    # the pages written, then the disk full when MathJax is copied: no empty DOCS/assets
    monkeypatch.setattr(atomic.tempfile, "mkdtemp",
                        lambda *a, **k: _disk_full() if "mathjax" in k.get("prefix", "") else real(*a, **k))
    assert _errors(capsys, ["site", "--seed", "1", "--sets", "1", "--docs", str(docs)]) == \
        f"error: cannot write into {docs / 'assets'}: No space left on device"
    assert sorted(p.name for p in docs.iterdir()) == ["generated"]


def test_a_byte_that_is_not_utf8_in_input_is_refused(capsys):
    """A command line in another encoding reaches Python as a lone surrogate
    (`\\xff` as `\\udcff`): a word of --input ended as an internal error when
    the page was written."""
    import os

    given = os.fsdecode(b'{"source": ["a", "b\xff"], "target": ["x", "y"], "scores": [[1, 3], [3, 1]]}')
    assert _errors(capsys, ["problem", "G", "--input", given]) == (
        "error: --input: source[2]: holds \\udcff, half of a character (a lone surrogate) or a byte that is not "
        "UTF-8, which no page, PDF or CSV can hold; write the whole character, or remove it")
