"""The named catalogue of mistakes the seeds warn about.  Every wrong option
and every distractor carries one of these names, so the grader can say what
went wrong in words."""

from __future__ import annotations

CATALOGUE: dict[str, str] = {
    "divide_by_sum": "divided the raw scores by their sum instead of exponentiating first",
    "forgot_to_normalise": "exponentiated the scores but did not divide by their total",
    "forgot_to_exponentiate": "normalised the scores without exponentiating them",
    "double_softmax": "softmaxed weights that were already normalised",
    "hard_argmax": "took a hard argmax (all weight on the top score) instead of the soft blend",
    "uniform_weights": "gave every position the same weight, ignoring the scores",
    "log_base_2": "used log base 2 instead of the natural log (bits instead of nats)",
    "dropped_minus_sign": "dropped the minus sign in H = −Σ α ln α",
    "wrong_state_order": "mixed up which decoder state scores the inputs (Bahdanau sₜ₋₁ vs Luong sₜ)",
    "encoder_state_in_query": "used an encoder state where the decoder state belongs",
    "circular_context": "scored with the context vector, which is what the scores are used to build",
    "scores_are_probabilities": "treated the raw scores as if they were already probabilities",
    "states_are_fractions": "treated the state vectors as if they were fractions summing to 1",
    "context_sums_to_one": "expected the context vector to sum to 1",
    "reversed_bottleneck": "reversed the roles: vanilla seq2seq uses only the last state, attention uses all",
    "shift_changes_weights": "thought adding a constant to every score changes the weights",
    "focus_from_nothing": "expected softmax to invent focus when all scores are equal",
    "single_input_depends": "thought a lone input's weight depends on its score",
    "beta_limit_reversed": "swapped the two limits, β → ∞ and β → 0",
    "gap_limit_reversed": "swapped the two limits, Δ → +∞ and Δ → −∞",
    "context_outside_hull": "placed the context outside the range of the states it averages",
    "entropy_reversed": "swapped high and low entropy (uniform is the maximum)",
    "permutation_changes_context": "thought permuting content-only states changes the context",
    "weights_not_permuted": "kept the weights in place when the states were permuted",
    "added_lengths": "added Tx and Ty instead of multiplying them",
    "one_score_per_input": "counted one score per input word instead of one per (output, input) pair",
    "squared_input": "squared the input length instead of multiplying Tx by Ty",
    "one_score_per_output": "counted one score per output word only",
    "gradient_through_chain": "routed the gradient through the recurrent chain instead of the attention shortcut",
    "argmax_no_gradient": "thought the weighted sum blocks gradients like a hard argmax",
    "monotonic_assumed": "assumed word order is kept, so the hot cells run down the main diagonal",
    "reversal_assumed": "assumed every reordering is a full reversal (the anti-diagonal)",
    "local_swap_assumed": "assumed only neighbouring words swap places",
    "word_moved_assumed": "assumed one word moved to the end of the sentence",
    "single_column": "assumed every output word attends to the same input word",
    "rounded_working": "rounded the working to the answer's places; keep the places the worked lines keep "
                       "and round only the answer",
    "implicit_extra_score": "softmaxed a lone score against an implicit score of 0",
}


def describe(name: str | None) -> str:
    return CATALOGUE[name] if name else ""
