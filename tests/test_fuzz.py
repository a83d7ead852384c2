"""Fuzzing: random malformed input to the CLI and the spec loader must end
with exit code 2 and one `error:` line — no traceback, no internal error,
and an output folder left exactly as it was."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.cli import main

FLOAT_EDGES = ["0", "-0", "0.0", "5e-324", "2.2250738585072014e-308", "1e308", "-1e308", "1.7976931348623157e308",
               "nan", "NaN", "inf", "-inf", "Infinity", "1e-400", "1e400", "0x10", "1_000", "", " ", "1/0",
               "--1", "+-1", "1e", ".", "-.", "１", "٣", "1,5"]
score_text = st.one_of(st.sampled_from(FLOAT_EDGES), st.text(max_size=8),
                       st.floats(allow_nan=True, allow_infinity=True).map(repr))
json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(), st.text(max_size=6)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def run(capsys, args):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean_failure_or_success(code, out, err):
    assert "Traceback" not in err and "internal error" not in err, err
    if code != 0:
        assert code == 2, (code, err)
        lines = err.rstrip("\n").splitlines()
        # one error line; a spec's several mistakes follow it, one indented line each (guide/specs.md)
        assert lines[0].startswith("error:") and all(line.startswith("  ") for line in lines[1:]), err


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["A", "B", "C", "F", "I", "2.1", "5.3", "Z", "", "a-given", "A-ZZZZZZZZZZZZZZZZ"]),
       scores=st.lists(score_text, max_size=5))
def test_fuzz_scores(capsys, kind, scores):
    code, out, err = run(capsys, ["problem", kind, "--scores", ",".join(scores)])
    assert_clean_failure_or_success(code, out, err)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["A", "C", "D", "E", "G", "H", "I", "1.1", "1.2", "3.3", "4.1", "4.3", "5.1"]),
       payload=json_value)
def test_fuzz_input_json(capsys, kind, payload):
    code, out, err = run(capsys, ["problem", kind, "--input", json.dumps(payload)])
    assert_clean_failure_or_success(code, out, err)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(st.one_of(st.sampled_from(["--seed", "--digits", "--format", "--sets", "-2", "99", "md",
                                                  "json", "x", "--", "-", "A"]), st.text(max_size=5)),
                     max_size=5))
def test_fuzz_arguments(capsys, args):
    code, out, err = run(capsys, ["problem", *args])
    assert_clean_failure_or_success(code, out, err)


spec_value = st.one_of(
    json_value,
    st.fixed_dictionaries({"title": json_value, "items": json_value}),
    st.fixed_dictionaries({"items": st.lists(st.dictionaries(
        st.sampled_from(["kind", "level", "count", "params", "inputs", "points", "extra"]),
        st.one_of(json_value, st.sampled_from(["A", "2.1", 2.1, 5, -1, 10**9, "Q", {"gap_min": "x"}])),
        max_size=4), max_size=3)}),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=spec_value, raw=st.one_of(st.none(), st.binary(max_size=40)))
def test_fuzz_spec_files(capsys, tmp_path_factory, data, raw):
    folder = tmp_path_factory.mktemp("fuzz")
    spec = folder / "spec.yaml"
    spec.write_bytes(raw if raw is not None else yaml.safe_dump(data, allow_unicode=True).encode())
    out = folder / "out"
    out.mkdir()
    (out / "keep.txt").write_text("previous output")
    before = sorted(p.name for p in out.iterdir())
    for command in (["sheet", str(spec), "--out", str(out)], ["site", "--spec", str(spec), "--docs", str(out)]):
        code, _, err = run(capsys, command)
        assert_clean_failure_or_success(code, "", err)
        if code != 0:
            assert sorted(p.name for p in out.iterdir()) == before
            assert (out / "keep.txt").read_text() == "previous output"


def test_huge_counts_and_negative_sizes(capsys, tmp_path):
    cases = [
        {"items": [{"kind": "A", "count": 10**12}]},
        {"items": [{"kind": "A", "count": -3}]},
        {"items": [{"kind": "A", "count": 50}, {"kind": "B", "count": 50}, {"kind": "C", "count": 50}]},
        {"sets": 10**6, "items": [{"kind": "A"}]},
    ]
    for n, data in enumerate(cases):
        spec = tmp_path / f"s{n}.yaml"
        spec.write_text(yaml.safe_dump(data))
        code, _, err = run(capsys, ["site", "--spec", str(spec), "--docs", str(tmp_path / "docs")])
        assert code == 2 and err.startswith("error:"), err
    code, _, err = run(capsys, ["exam", "examples/exam-midterm.yaml", "--students", "-1",
                                "--out", str(tmp_path / "e")])
    assert code == 2 and "--students" in err
    code, _, err = run(capsys, ["exam", "examples/exam-midterm.yaml", "--students", "100000",
                                "--out", str(tmp_path / "e")])
    assert code == 2 and "--students" in err


def test_non_utf8_and_binary_inputs(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\xff\xfe\x00title: x")
    code, _, err = run(capsys, ["sheet", str(bad), "--out", str(tmp_path / "o")])
    assert code == 2 and "UTF-8" in err
    roster = tmp_path / "r.csv"
    roster.write_bytes(b"id,name\n\x00\x01\x02,\xff\n")
    code, _, err = run(capsys, ["exam", str(Path("examples/exam-midterm.yaml")), "--roster", str(roster),
                                "--out", str(tmp_path / "e")])
    assert code == 2 and err.startswith("error:")
