"""Seeds: one master seed → per-set / per-student / per-problem seeds through
numpy SeedSequence spawning, so adding an item never changes the others;
and short variant codes from which one item is regenerated."""

from __future__ import annotations

import secrets

import numpy as np

from .errors import UserError

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
MAX_SEED = 2**64 - 1
CHILD_BITS = 48  # per-item seeds: short enough for a 10-character code
CODE_LENGTH = 10  # every code of a drawn seed: 48 bits in base 32, leading zeros kept


def rng_for(seed: int) -> np.random.Generator:
    """The generator one item draws from; nothing else touches it."""
    return np.random.default_rng(np.random.SeedSequence(seed))


def child_seeds(master: int, n: int) -> list[int]:
    """n independent item seeds spawned from a master seed."""
    children = np.random.SeedSequence(master).spawn(n)
    return [int(c.generate_state(1, np.uint64)[0]) >> (64 - CHILD_BITS) for c in children]


def fresh_seed() -> int:
    return secrets.randbits(CHILD_BITS)


def parse_seed(raw: str) -> int:
    """A seed typed by a user: a whole number from 0 to 2^64 − 1."""
    text = raw.strip().replace("_", "")
    if not text.isdigit():
        raise UserError(f"--seed: {raw!r} is not a whole number from 0 to {MAX_SEED}")
    if len(text.lstrip("0")) > len(str(MAX_SEED)):  # Python converts at most 4300 digits
        raise UserError(f"--seed: a number of {len(text)} digits is larger than {MAX_SEED}")
    try:
        value = int(text)
    except ValueError:  # digits Python's int() does not read (superscripts: "²".isdigit())
        raise UserError(f"--seed: {raw!r} is not a whole number from 0 to {MAX_SEED}") from None
    if value > MAX_SEED:
        raise UserError(f"--seed: {raw} is larger than {MAX_SEED}")
    return value


def encode(seed: int) -> str:
    """A seed in base 32, CODE_LENGTH characters (a seed typed past 2^50
    takes up to 13).  Codes were once written without leading zeros (9
    characters for one drawn seed in 8, 5 for seed 20261130): `decode` reads
    them as before, to the same seed."""
    digits = []
    while True:
        seed, r = divmod(seed, 32)
        digits.append(_ALPHABET[r])
        if seed == 0:
            break
    return "".join(reversed(digits)).rjust(CODE_LENGTH, "0")


def decode(text: str) -> int:
    value = 0
    for ch in text.upper():
        if ch not in _ALPHABET:
            raise UserError(f"variant code: {ch!r} is not one of {_ALPHABET}")
        value = value * 32 + _ALPHABET.index(ch)
    if value > MAX_SEED:
        raise UserError("variant code: the seed it holds is out of range")
    return value


def variant_code(kind_id: str, seed: int | None) -> str:
    """`A-7KQ2M9XD4R`: the kind and the seed; `A-given` for typed inputs."""
    return f"{kind_id}-{encode(seed)}" if seed is not None else f"{kind_id}-given"


def parse_variant(code: str) -> tuple[str, int] | None:
    """(kind id, seed) from a variant code, or None if it is not one."""
    kind, sep, tail = code.strip().rpartition("-")
    if not sep or not kind or not tail or tail.lower() == "given":
        return None
    if not all(ch.upper() in _ALPHABET for ch in tail):
        return None
    return kind, decode(tail)


def derived_seed(master: int, label: str) -> int:
    """A seed for a named part of a build (e.g. the examples page), independent
    of how many sets or students there are."""
    import zlib

    seq = np.random.SeedSequence([master, zlib.crc32(label.encode())])
    return int(seq.generate_state(1, np.uint64)[0]) >> (64 - CHILD_BITS)
