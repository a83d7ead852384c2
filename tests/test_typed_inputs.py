"""Typed inputs (`--scores`, `--input`) within the documented limits get a
true page or a refusal that says what to change (issue 32, points 1–3):
never an internal error, never a message naming an internal check, and
never a cell's words (“position 1 wins big”) on numbers that contradict them."""

import contextlib
import io
import json

import pytest

from generator import cli, kinds
from generator.pipeline import MAX_DIGITS, sample_problem

S = lambda *xs: [str(x) for x in xs]  # noqa: E731
SCORES = {  # ties, one score, all equal, one huge gap, near the limits, tiny jumps
    "tied top": S(2, 2, 0, 1, 0), "one": S(2), "two tied": S(1, 1), "all equal": S(1.5, 1.5, 1.5, 1.5),
    "three tied": S(0, 3, 3, 3), "huge gap": S(0, 9999), "wide": S(-5000, 0, 5000),
    "near 10^6": S(1000000, 999999.5, 999990), "near -10^6": S(-1000000, -999999, "-999999.99999"),
    "tiny jump": S(1, "1.00001", 0), "tinier jump": S(0, "1e-9", 0),
    "a hair": S(1, "1.00000000000000000001"), "negative": S(-3, -2, -1), "zeros": S(0, 0, 0),
    "twelve": S(*range(12)), "large": S(21, 20, 19), "mixed": S("-0.5", "0.5", "0"),
}
WEIGHTS = {"one-hot": S(1, 0, 0), "uniform": S("1/3", "1/3", "1/3"), "halves": S(0.5, 0.5), "one": S(1),
           "tiny": S("0.999999", "0.000001"), "not normalised": S(0.2, 0.9, 0.2)}
BETAS = {"increasing": S(2, 3, 20), "unsorted": S(20, 2, 3), "twice": S(2, 2, 5), "wide": S("0.001", "1000")}


def _states(n):
    return [[str(i), str((i * 3) % 5 - 2)] for i in range(n)]


def typed_cases():
    """(kind, case name, inputs) for every kind that takes numbers."""
    for kind in kinds.listing():
        base = sample_problem(kind.id, 1).inputs
        if kind.id == "G":
            for name, s in SCORES.items():
                if len(s) <= 8:
                    yield kind.id, name, {"source": [f"w{i}" for i in range(len(s))],
                                          "target": ["a", "b"], "scores": [s, s[::-1]]}
        elif kind.id == "5.1":
            for name, s in SCORES.items():
                yield kind.id, name, {"scores": [[x] for x in s[:8]], "states": [["1", "2"]]}
        elif kind.id == "5.2":
            for d in ("0", "1e-9", "-1e-9", "709", "710", "9999", "-9999"):
                yield kind.id, f"delta {d}", {"scores": ["0"], "delta": d}
        elif kind.id == "5.3":
            for tx, b, j, pos in ((4, "1.5", "1e-9", 4), (4, "1.5", "0.0001", 4), (2, "0", "9999", 1),
                                  (12, "-1000000", "0.00001", 12), (3, "1000000", "0.5", 2), (3, "40", "1", 2)):
                yield kind.id, f"jump {j} over {b}", {"tx": tx, "base": b, "jump": j, "position": pos}
        elif "weights" in base:
            for name, wts in WEIGHTS.items():
                yield kind.id, name, {"weights": wts, **({"states": _states(len(wts))} if "states" in base else {})}
        elif "scores" in base:
            for name, s in SCORES.items():
                inputs = {**base, "scores": s}
                if "states" in base:
                    inputs["states"] = _states(len(s)) if kind.id != "E" else [["3", "5"]] * len(s)
                if "source" in base:
                    inputs.update(source=[f"w{i}" for i in range(len(s))], target=["a", "b", "c"], step=1)
                if "swap" in base:
                    inputs["swap"] = [1, min(2, len(s))] if len(s) > 1 else [1, 2]
                if "betas" in base:
                    for bname, betas in BETAS.items():
                        yield kind.id, f"{name}, β {bname}", {**inputs, "betas": betas}
                else:
                    yield kind.id, name, inputs


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return code, out.getvalue(), err.getvalue()


INTERNAL = ("internal error", "exact and numeric", "check '", "Traceback", "Error:", "limit_infinity", "()")


@pytest.mark.parametrize("kind, name, inputs", list(typed_cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_typed_input_gets_a_page_or_a_refusal_in_the_users_terms(kind, name, inputs):
    for digits in (2, 4, MAX_DIGITS):
        code, out, err = run("problem", kind, "--input", json.dumps(inputs), "--digits", str(digits))
        assert code in (0, 2), (digits, err)
        if code == 2:
            assert out == "" and err.startswith("error: ") and err.count("\n") == 1, err
            assert not any(word in err for word in INTERNAL), err
        else:
            assert err == "" and "Verify" in out, err


def refusal(*args):
    code, out, err = run("problem", *args)
    assert code == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    assert not any(word in err for word in INTERNAL), err
    return err


def page(*args):
    code, out, err = run("problem", *args)
    assert code == 0 and err == "", err
    return out


@pytest.mark.parametrize("args", [
    ("F", "--scores", "2", "--digits", "10"),
    ("3.1", "--input", '{"weights":["1","0","0"]}', "--digits", "10"),
    ("I", "--input", '{"weights":["1","0","0"],"states":[[1,0],[0,1],[1,1]]}', "--digits", "10"),
    ("5.2", "--input", '{"scores":["0"],"delta":"9999"}'),
])
def test_no_internal_error_where_4f2372f_crashed(args):
    code, _, err = run("problem", *args)
    assert code in (0, 2) and "internal error" not in err, err


def test_h_near_tie_is_decided_exactly_and_checked_numerically():
    data = json.loads(page("H", "--input", '{"scores":["1","1.00001","0"],"betas":["2","3","20"]}',
                           "--format", "json"))
    assert data["answers"]["limit_infinity"]["display"] == ["0.0000", "1.0000", "0.0000"]
    data = json.loads(page("H", "--input", '{"scores":["1","1.00000000000000000001"],"betas":["2","3"]}',
                           "--format", "json"))
    assert data["answers"]["limit_infinity"]["display"] == ["0.0000", "1.0000"]


def test_5_3_drop_too_small_to_print_is_refused_in_the_users_terms():
    err = refusal("5.3", "--input", '{"tx":4,"base":"1.5","jump":"1e-9","position":4}')
    assert "jump" in err and "9.38 × 10⁻²⁰" in err and "larger jump" in err


def test_5_3_drop_the_float_path_cannot_resolve_is_shown_from_the_exact_path_and_says_so():
    args = ("5.3", "--input", '{"tx":4,"base":"1.5","jump":"0.0001","position":4}', "--digits", "10")
    data = json.loads(page(*args, "--format", "json"))
    assert len(data["warnings"]) == 1 and "skipped" in data["warnings"][0]
    assert "numeric cross-check of “how much the entropy fell (nats)” was skipped" in page(*args)
    # a drop the floats resolve says nothing of the kind
    assert json.loads(page("5.3", "--seed", "1", "--format", "json"))["warnings"] == []


@pytest.mark.parametrize("args, says", [
    (("A", "--scores=2,2,0,1,0"), ["positions 1 and 2", "cell F", "2.1"]),
    (("F", "--scores=0,3,3,3"), ["2.1"]),
    (("F", "--scores=2"), ["cell E"]),
    (("C", "--scores=1.5,1.5,1.5,1.5"), ["no score is negative", "2.1"]),
    (("G", "--input", json.dumps({"source": ["a", "b"], "target": ["x", "y"],
                                  "scores": [["1", "1"], ["2", "0"]]})), ["row 1", "tied"]),
    (("3.1", "--input", '{"weights":["0.5","0.5"]}'), ["positions 1 and 2", "spike"]),
    (("H", "--input", '{"scores":["1","2"],"betas":["20","2","3"]}'), ["increasing order", "2, 3, 20"]),
    (("H", "--input", '{"scores":["1","2"],"betas":["2","2","3"]}'), ["more than once"]),
])
def test_inputs_a_kind_cannot_teach_truly_are_refused_naming_what_fits(args, says):
    err = refusal(*args)
    assert all(s in err for s in says), err


def test_shifted_exponentials_say_so_in_words_and_labels():
    out = page("2.1", "--scores=21,20,19")
    assert "overflows a calculator" not in out and "larger than 10⁸" in out
    data = json.loads(page("2.1", "--scores=21,20,19", "--format", "json"))
    assert data["answers"]["exponentials"]["label"] == "exp(score − 21), the largest score subtracted"
    assert data["answers"]["denominator"]["label"] == "Z, the sum of the exponentials of the scores minus 21"
    assert json.loads(page("2.1", "--scores=1,2,3", "--format", "json"))["answers"]["exponentials"]["label"] == \
        "exp of each score"
    data = json.loads(page("5.3", "--input", '{"tx":3,"base":"40","jump":"1","position":2}', "--format", "json"))
    assert "score − 41" in data["answers"]["denominator"]["label"]
