"""Every number printed in the nine worked examples of seeds/000 is
reproduced from the example's own inputs, at the example's own precision.

Each expected string is checked twice: against an independent sympy
reference (`ref`), and against what our worked solution prints.  Where the
seed's last digit is a slip, the correctly rounded exact value wins and the
comment says what the seed printed.
"""

import pytest

from conftest import md, ref, solve_given


def shows(page: str, *fragments: str) -> None:
    for f in fragments:
        assert f in page, f"missing {f!r}"


def test_example_1_cell_a_sharp_peak():
    inp = {"scores": ["0.3", "2.1", "0.5"], "source": ["Je", "suis", "étudiant"],
           "target": ["I", "am", "a", "student"], "step": 2}
    page = md("A", inp, digits=3)
    for e, want in [("exp(3/10)", "1.350"), ("exp(21/10)", "8.166"), ("exp(1/2)", "1.649")]:
        assert ref(e, 3) == want
    assert ref("exp(3/10)+exp(21/10)+exp(1/2)", 3) == "11.165"
    Z = "(exp(3/10)+exp(21/10)+exp(1/2))"
    assert [ref(f"exp({x})/{Z}", 3) for x in ("3/10", "21/10", "1/2")] == ["0.121", "0.731", "0.148"]
    shows(page, r"\exp(0.3) = 1.350", r"\exp(2.1) = 8.166", r"\exp(0.5) = 1.649",
          "Z = 1.350 + 8.166 + 1.649 = 11.165",
          r"\alpha_{21} = \frac{1.350}{11.165} = 0.121", r"\alpha_{22} = \frac{8.166}{11.165} = 0.731",
          r"\alpha_{23} = \frac{1.649}{11.165} = 0.148", "0.121 + 0.731 + 0.148 = 1.000")
    # The seed's "≈ 4.95" is exp(1.6) to two places; we print it to the page's three.
    assert ref("exp(8/5)", 2) == "4.95"
    shows(page, r"\exp(1.6) = 4.953", "73.1% of the focus", "“suis”")
    sol = solve_given("A", inp, digits=3)
    assert sol.answer("weights").display == ["0.121", "0.731", "0.148"]
    assert sol.answer("amplification").display == "4.953"


def test_example_2_cell_b_equal_scores():
    page = md("B", {"scores": ["1.7"] * 4})
    assert ref("exp(17/10)", 4) == "5.4739"
    # Worked lines use the printed numbers, as the seed does: 4 × 5.4739 =
    # 21.8956 (the exact 4·e^1.7 = 21.89579… is the answer, 21.8958).
    shows(page, r"\exp(1.7) = 5.4739", r"\frac{5.4739}{21.8956} = 0.2500")
    assert ref("4*exp(17/10)", 4) == "21.8958"
    shows(page, r"Z = 4 \times 5.4739 = 21.8956", "1.0000")
    sol = solve_given("B", {"scores": ["1.7"] * 4})
    assert sol.answer("weights").exact[0].rat == 0.25
    assert sol.answer("denominator").display == "21.8958"


def test_example_3_cell_c_negative_scores():
    page = md("C", {"scores": ["-2.0", "1.0", "0.0"]})
    shows(page, r"\sum_{j} e_{tj} = -2 + 1 + 0 = -1", r"\alpha_{t1} = \frac{-2}{-1} = 2",
          r"\exp(-2) = 0.1353", r"\exp(1) = 2.7183", r"\exp(0) = 1.0000",
          "Z = 0.1353 + 2.7183 + 1.0000 = 3.8536",
          "= 0.0351", "= 0.7054", "= 0.2595", "0.0351 + 0.7054 + 0.2595 = 1.0000", "70.5%")
    Z = "(exp(-2)+exp(1)+1)"
    assert [ref(f"{x}/{Z}", 4) for x in ("exp(-2)", "exp(1)", "1")] == ["0.0351", "0.7054", "0.2595"]
    assert ref(Z, 4) == "3.8536"


def test_example_4_cell_d_shift_invariance():
    page = md("D", {"scores": ["-2", "1", "0"], "shift": "5"}, digits=3)
    # The worked line adds the printed terms, as the seed does: Z = 571.928;
    # the exact e^3 + e^6 + e^5 = 571.92749… rounds to 571.927 (the answer).
    # The seed's Z; primed here (Z′), since the page also works the original scores' Z.
    assert ref("exp(3)+exp(6)+exp(5)", 3) == "571.927"
    shows(page, r"\exp(3) = 20.086", r"\exp(6) = 403.429", r"\exp(5) = 148.413",
          "Z' = 20.086 + 403.429 + 148.413 = 571.928", "= 0.035", "= 0.705", "= 0.259")
    assert solve_given("D", {"scores": ["-2", "1", "0"], "shift": "5"}, 3).answer("denominator").display == "571.927"
    # at the seed's four places for the weights:
    sol = solve_given("D", {"scores": ["-2", "1", "0"], "shift": "5"})
    assert sol.answer("weights").display == ["0.0351", "0.7054", "0.2595"]
    assert sol.answer("weights_original").display == ["0.0351", "0.7054", "0.2595"]


def test_example_5_cell_e_single_input():
    sol = solve_given("E", {"scores": ["4.2"], "states": [["1", "2"]]})
    page = md("E", {"scores": ["4.2"], "states": [["1", "2"]]})
    shows(page, r"\alpha_{t1} = \frac{\exp(4.2)}{\exp(4.2)} = 1", r"c_{t} = \alpha_{t1}\,h_{1}",
          r"\alpha_{t1} = 1.0000")
    assert sol.answer("weights").exact[0].rat == 1
    assert sol.answer("context").display == ["1.0000", "2.0000"]


def test_example_6_cell_f_near_tie():
    inp = {"scores": ["0.2", "2.5", "2.4", "0.1"]}
    page = md("F", inp)
    shows(page, r"\exp(0.2) = 1.2214", r"\exp(2.5) = 12.1825", r"\exp(2.4) = 11.0232",
          r"\exp(0.1) = 1.1052")
    Z = "(exp(1/5)+exp(5/2)+exp(12/5)+exp(1/10))"
    # The worked line adds the printed terms, as the seed does: Z = 25.5323;
    # the exact Z = 25.53224… rounds to 25.5322 (the answer).
    assert ref(Z, 4) == "25.5322"
    shows(page, "= 25.5323", "= 0.0478", "= 0.4771", "= 0.4317", "= 0.0433")
    # α2 + α3 from the printed weights is 0.9088, as the seed prints; the
    # exact 0.90887… → 0.9089 is the answer.
    assert ref(f"(exp(5/2)+exp(12/5))/{Z}", 4) == "0.9089"
    shows(page, "0.4771 + 0.4317 = 0.9088")
    assert solve_given("F", inp).answer("top_two_share").display == "0.9089"
    # The seed's ln terms are logs of the rounded weights (−3.041, −0.7401,
    # −0.8401, −3.139) and its products give −0.3627 and H = 0.9971; from the
    # exact weights: ln α = −3.0399, −0.7399, −0.8399, −3.1399, the third
    # product is −0.3626 and H = 0.99704… → 0.9970.
    assert ref(f"log(exp(1/5)/{Z})", 4) == "-3.0399"
    assert ref(f"log(exp(5/2)/{Z})", 4) == "-0.7399"
    H = f"-sum(exp(x)/{Z}*log(exp(x)/{Z}) for x in [1/5, 5/2, 12/5, 1/10])"
    import sympy as sp
    xs = [sp.Rational(1, 5), sp.Rational(5, 2), sp.Rational(12, 5), sp.Rational(1, 10)]
    Zs = sum(sp.exp(x) for x in xs)
    Hs = -sum(sp.exp(x) / Zs * sp.log(sp.exp(x) / Zs) for x in xs)
    assert ref(Hs, 4) == "0.9970"
    # The worked lines take logs of the printed weights, as the seed does
    # (ln 0.0478 = −3.0407), and end at 0.9969; the answer is the exact 0.9970.
    shows(page, r"0.0478 \cdot \left(-3.0407\right) = -0.1453", "= -0.3531", "= -0.3626", "= -0.1359",
          "H = 0.1453 + 0.3531 + 0.3626 + 0.1359 = 0.9969", "H = 0.9970", r"\ln(4) = 1.3863",
          r"0.0478 + 0.4771 + 0.4317 + 0.0433 = 0.9999 \approx 1")
    assert solve_given("F", inp).answer("entropy").display == "0.9970"
    del H


def test_example_7_cell_g_reordering_first_row():
    inp = {"source": ["neural", "machine", "translation"],
           "target": ["traduction", "automatique", "neuronale"],
           "scores": [["0.1", "0.4", "3.0"], ["0", "2", "0.5"], ["2.5", "0.3", "0"]]}
    page = md("G", inp)
    shows(page, r"\exp(0.1) = 1.1052", r"\exp(0.4) = 1.4918", r"\exp(3) = 20.0855",
          "Z = 1.1052 + 1.4918 + 20.0855 = 22.6825", "= 0.0487", "= 0.0658", "= 0.8855",
          "88.6%", "“traduction” (row 1) → “translation” (column 3)")
    assert ref("exp(3)/(exp(1/10)+exp(2/5)+exp(3))", 4) == "0.8855"
    assert solve_given("G", inp).answer("alignment").display == ["3", "2", "1"]


def test_example_8_cell_h_sharpness():
    page = md("H", {"scores": ["0", "1"], "betas": ["1", "5", "20"]})
    shows(page, r"\alpha = \left(0.2689, 0.7311\right)", r"\alpha = \left(0.0067, 0.9933\right)",
          r"2.06 \times 10^{-9}", r"\lim_{\beta \to +\infty} \alpha = \left(0, 1\right)",
          r"\lim_{\beta \to 0} \alpha = \left(0.5, 0.5\right)")
    assert ref("1/(1+E)", 4) == "0.2689" and ref("1/(1+exp(5))", 4) == "0.0067"
    sol = solve_given("H", {"scores": ["0", "1"], "betas": ["1", "5", "20"]})
    assert sol.answer("weights").display[2][0] == "2.06 × 10⁻⁹"
    assert [a.rat for a in sol.answer("limit_infinity").exact] == [0, 1]
    assert [a.rat for a in sol.answer("limit_zero").exact] == [0.5, 0.5]


def test_example_9_cell_i_already_normalised():
    inp = {"weights": ["0.1", "0.7", "0.2"], "states": [["1", "0"], ["0", "2"], ["3", "3"]]}
    page3 = md("I", inp, digits=3)
    shows(page3, r"\exp(0.1) = 1.105", r"\exp(0.7) = 2.014", r"\exp(0.2) = 1.221", "sum $4.340$")
    page = md("I", inp)
    shows(page, r"\left(0.2546, 0.4640, 0.2814\right)", r"c_{t} = \left[0.7000, 2.0000\right]",
          r"\left(-2.3026\right) = -0.2303", r"\left(-0.3567\right) = -0.2497",
          r"\left(-1.6094\right) = -0.3219", "H = 0.2303 + 0.2497 + 0.3219 = 0.8019",
          # the printed terms add to 0.8019; the exact entropy 0.80182… is the answer
          "H = 0.8018",
          r"\ln(3) = 1.0986")
    assert ref("-(0.1*log(0.1)+0.7*log(0.7)+0.2*log(0.2))", 4) == "0.8018"
    sol = solve_given("I", inp)
    assert sol.answer("context").display == ["0.7000", "2.0000"]
    assert sol.answer("entropy").display == "0.8018"
    assert sol.answer("double_softmax").display == ["0.2546", "0.4640", "0.2814"]


@pytest.mark.parametrize("digits", [2, 3, 6, 10])
def test_digits_changes_precision_not_values(digits):
    sol = solve_given("C", {"scores": ["-2", "1", "0"]}, digits)
    Z = "(exp(-2)+exp(1)+1)"
    assert sol.answer("weights").display == [ref(f"{x}/{Z}", digits) for x in ("exp(-2)", "exp(1)", "1")]
    # the window: at least half a unit of the last place, and it holds the
    # worked result (e/Z from printed e and Z) as well as the exact value
    unit = 10.0**-digits
    for tol, shown, exact in zip(sol.answer("weights").tolerance, sol.answer("weights").display,
                                 sol.answer("weights").value):
        assert 0.6 * unit - 1e-18 <= tol <= 2.6 * unit
        assert abs(float(shown) - exact) <= tol
