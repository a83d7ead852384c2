"""The numeric path: float64 numpy, max-subtracted (stable) softmax."""

from __future__ import annotations

import numpy as np


def softmax(scores) -> np.ndarray:
    """Weights of a score vector (or of each row of a matrix)."""
    s = np.asarray(scores, dtype=np.float64)
    z = np.exp(s - s.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


def entropy(weights) -> float:
    """Shannon entropy in nats; 0 · ln 0 counts as 0."""
    w = np.asarray(weights, dtype=np.float64)
    nz = w[w > 0]
    return float(-(nz * np.log(nz)).sum())


def context(weights, states) -> np.ndarray:
    """c = Σ_i α_i h_i."""
    return np.asarray(weights, dtype=np.float64) @ np.asarray(states, dtype=np.float64)
