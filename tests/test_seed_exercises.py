"""The fifteen exercises of seeds/002, solved from the seed's own inputs:
every numeric answer of the seed is reproduced (against an independent
sympy reference and against what we print); where the seed's last digits
are a slip, the exact value wins and the comment says what the seed printed."""

import sympy as sp

from conftest import md, ref, solve_given


def test_1_1_symbol_matching():
    sol = solve_given("1.1", {"symbols": ["s_prev", "h", "alpha", "c", "e"], "meaning_order": [3, 4, 0, 1, 2]})
    # the seed's (a)…(e): summary, raw relevance, previous decoder memory, encoder memory, focus fraction
    assert sol.answer("matching").display == [
        "s_t-1 → (c) previous decoder memory", "h_i → (d) encoder memory at input position i",
        "α_ti → (e) normalised focus fraction", "c_t → (a) weighted summary fed to the decoder",
        "e_ti → (b) raw relevance number"]


def test_1_2_vanilla_statement_is_false():
    sol = solve_given("1.2", {"statements": [[0, False]]})
    a = sol.answer("statement_1")
    assert a.value is False and a.display == "false"
    assert [o.misconception for o in a.options] == ["reversed_bottleneck", None]
    assert "Vanilla seq2seq uses all encoder states" in md("1.2", {"statements": [[0, False]]})


def test_1_3_the_weights_sum_to_one():
    sol = solve_given("1.3", {"scores": ["1", "3", "1"], "distractors": [0, 1], "shuffle": 0})
    a = sol.answer("sums_to_one")
    assert a.exact == ["the weights α_ti"]
    assert {o.misconception for o in a.options if not o.correct} == {"scores_are_probabilities",
                                                                      "states_are_fractions"}


def test_2_1_weights():
    Z = "(2*exp(1)+exp(3))"
    assert (ref("exp(1)", 5), ref("exp(3)", 4), ref(Z, 4)) == ("2.71828", "20.0855", "25.5221")
    sol = solve_given("2.1", {"scores": ["1.0", "3.0", "1.0"], "step": 2})
    assert sol.answer("weights").display == ["0.1065", "0.7870", "0.1065"]
    assert sol.answer("denominator").display == "25.5221"
    page = md("2.1", {"scores": ["1.0", "3.0", "1.0"], "step": 2})
    assert r"\alpha_{22} = \frac{20.0855}{25.5221} = 0.7870" in page
    assert "0.1065 + 0.7870 + 0.1065 = 1.0000" in page


def test_2_2_context():
    inp = {"scores": ["1", "3", "1"], "states": [["2", "0"], ["0", "4"], ["-2", "0"]]}
    sol = solve_given("2.2", inp)
    # The seed prints the second component as 3.1480 (0.7870 × 4, from the
    # rounded weight); the exact 4e³/(2e + e³) = 3.14794… is 3.1479 to four
    # places — and 3.148 to three, the seed's final answer.
    assert ref("4*exp(3)/(2*exp(1)+exp(3))", 4) == "3.1479"
    assert sol.answer("context").display == ["0.0000", "3.1479"]
    assert solve_given("2.2", inp, 3).answer("context").display == ["0.000", "3.148"]
    assert sol.answer("context").exact[0].rat == 0 or sp.simplify(sol.answer("context").exact[0].sympy()) == 0
    assert "Differentiability" in md("2.2", inp)


def test_2_3_shift_by_five():
    sol = solve_given("2.3", {"scores": ["1", "3", "1"], "shift": "5"})
    assert sol.answer("weights").display == ["0.1065", "0.7870", "0.1065"]
    assert sol.answer("weights_change").value is False


def test_3_1_entropies():
    sol = solve_given("3.1", {"weights": ["0.97", "0.01", "0.01", "0.01"]})
    assert ref("log(4)", 5) == "1.38629"
    assert sol.answer("entropy_uniform").display == "1.3863"
    # The seed prints 0.167700; the exact −(0.97 ln 0.97 + 0.03 ln 0.01) =
    # 0.1677005… is 0.167701 to six places (0.1677 to four, as we print).
    H = -(sp.Rational(97, 100) * sp.log(sp.Rational(97, 100)) + sp.Rational(3, 100) * sp.log(sp.Rational(1, 100)))
    assert ref(H, 6) == "0.167701"
    assert sol.answer("entropy").display == "0.1677"
    assert solve_given("3.1", {"weights": ["0.97", "0.01", "0.01", "0.01"]}, 6).answer("entropy").display == "0.167701"
    assert {o.misconception for o in sol.answer("entropy").options if o.misconception} == {
        "log_base_2", "dropped_minus_sign", "entropy_reversed"}


def test_3_2_bahdanau_uses_previous_state():
    sol = solve_given("3.2", {"ask": "bahdanau", "phrasing": 0, "shuffle": 1})
    a = sol.answer("state")
    assert a.exact == ["the previous decoder state s_{t-1}"]
    assert "sₜ₋₁" in sol.answer("explanation").value and "Luong" in sol.answer("explanation").value
    luong = solve_given("3.2", {"ask": "luong", "phrasing": 0, "shuffle": 1}).answer("state")
    assert luong.exact == ["the current decoder state s_t"]


def test_3_3_swap_keeps_context():
    sol = solve_given("3.3", {"scores": ["1", "3", "0.5"], "states": [["2", "0"], ["0", "4"], ["-2", "0"]],
                              "swap": [2, 3]})
    assert sol.answer("context_changes").value is False
    w, wp = sol.answer("weights").display, sol.answer("weights_permuted").display
    assert wp == [w[0], w[2], w[1]]


def test_4_1_count():
    sol = solve_given("4.1", {"tx": 60, "ty": 40})
    assert sol.answer("count").display == "2400" and sol.answer("count").tolerance == 0
    assert "100" in [o.text for o in sol.answer("count").options]  # 60 + 40, the added-lengths mistake


def test_4_2_reversal_heatmap():
    inp = {"source": ["neural", "machine", "translation"],
           "target": ["traduction", "automatique", "neuronale"], "alignment": [3, 2, 1]}
    sol = solve_given("4.2", inp)
    assert sol.answer("alignment").value == ["translation", "machine", "neural"]
    assert sol.answer("pattern").exact == ["down the anti-diagonal (top-right to bottom-left)"]
    swap = solve_given("4.2", {"source": ["the", "black", "cat"], "target": ["le", "chat", "noir"],
                               "alignment": [1, 3, 2]})
    assert swap.answer("pattern").exact == ["from top-left to bottom-right, except where neighbouring words swap: "
                                           "each row that steps back does so by one column"]


def test_4_3_one_hop():
    sol = solve_given("4.3", {"tx": 60, "position": 1, "step": 40, "gain": "0.9"})
    assert sol.answer("attention_hops").display == "1"
    assert sol.answer("chain_steps").display == "99"
    # 0.9^99 = 2.95…e-5 is below 10^-4, so it is shown in scientific notation
    assert ref("0.9**99 * 10**5", 2) == "2.95"
    assert sol.answer("surviving_fraction").display == "2.95 × 10⁻⁵"


def test_5_1_single_word():
    sol = solve_given("5.1", {"scores": [["4.2"], ["-1"]], "states": [["1", "2"]]})
    assert sol.answer("weights").display == [["1.0000"], ["1.0000"]]
    assert sol.answer("context").display == ["1.0000", "2.0000"]


def test_5_2_limits():
    sol = solve_given("5.2", {"scores": ["0"], "delta": "1"})
    assert [a.rat for a in sol.answer("limit_plus").exact] == [0, 1]
    assert [a.rat for a in sol.answer("limit_zero").exact] == [0.5, 0.5]
    assert [a.rat for a in sol.answer("limit_minus").exact] == [1, 0]
    assert sol.answer("weights").display == ["0.2689", "0.7311"]


def test_5_3_spike():
    inp = {"tx": 4, "base": "2.0", "jump": "4.0", "position": 4}
    Z = "(3*exp(2)+exp(6))"
    assert (ref("exp(2)", 5), ref("exp(6)", 4), ref(Z, 4)) == ("7.38906", "403.4288", "425.5960")
    # The seed prints α₁ = 0.017360 and α₄ = 0.947919, ln α = −4.05334 and
    # −0.053470, and H = 0.261794 (all from rounded intermediates); the exact
    # values are 0.017362, 0.947915, −4.05349, −0.053490 and H = 0.261830.
    assert (ref(f"exp(2)/{Z}", 6), ref(f"exp(6)/{Z}", 6)) == ("0.017362", "0.947915")
    sol = solve_given("5.3", inp, 6)
    assert sol.answer("weights").display == ["0.017362"] * 3 + ["0.947915"]
    assert sol.answer("entropy").display == "0.261830"
    assert sol.answer("entropy_uniform").display == "1.386294"
    sol4 = solve_given("5.3", inp)
    assert sol4.answer("entropy").display == "0.2618" and sol4.answer("entropy_uniform").display == "1.3863"
    assert sol4.answer("denominator").display == "425.5960"
