"""The attention recipe for the kinds, one module per concern: worked steps,
Verify checks, answers and distractors, figure specs, wording, parsing.
The maths itself is generator.maths.attention."""
