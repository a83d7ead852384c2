"""The named catalogue of mistakes the seeds warn about.  Every wrong option
and every distractor carries one of these names, so the grader can say what
went wrong in words."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..text import Sayer

say = Sayer("grade")
# the names, in the order the catalogue lists them; each one's words are
# mistakes.<name> in text/<lang>/grade.yaml
NAMES: tuple[str, ...] = (
    "divide_by_sum", "forgot_to_normalise", "forgot_to_exponentiate", "double_softmax", "hard_argmax",
    "uniform_weights", "log_base_2", "dropped_minus_sign", "wrong_state_order", "encoder_state_in_query",
    "circular_context", "scores_are_probabilities", "states_are_fractions", "context_sums_to_one",
    "reversed_bottleneck", "shift_changes_weights", "focus_from_nothing", "single_input_depends",
    "beta_limit_reversed", "gap_limit_reversed", "context_outside_hull", "entropy_reversed",
    "permutation_changes_context", "weights_not_permuted", "added_lengths", "one_score_per_input", "squared_input",
    "one_score_per_output", "gradient_through_chain", "argmax_no_gradient", "monotonic_assumed", "reversal_assumed",
    "local_swap_assumed", "word_moved_assumed", "single_column", "rounded_working", "implicit_extra_score",
)


class Catalogue(Mapping[str, str]):
    """Each mistake's name to what it says, in the run's language: looked up
    when read, not at import, since the language is chosen per run."""

    def __getitem__(self, name: str) -> str:
        if name not in _KNOWN:
            raise KeyError(name)
        return say.text(f"mistakes.{name}")

    def __contains__(self, name: object) -> bool:
        return name in _KNOWN

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


_KNOWN = frozenset(NAMES)
CATALOGUE = Catalogue()


def describe(name: str | None) -> str:
    return CATALOGUE[name] if name else ""
