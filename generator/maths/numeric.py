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


def log_softmax(scores) -> np.ndarray:
    """ln of the weights, accurate even when one weight is within 1e-9 of 1:
    ln Z is log1p of the sum of the exponentials other than the largest."""
    s = np.asarray(scores, dtype=np.float64)
    s = s - s.max()
    e = np.exp(s)
    top = int(np.argmax(s))
    # the largest term is exactly 1; sum the others directly (e.sum() - 1
    # would cancel away their digits when they are tiny)
    rest = np.delete(e, top).sum()
    return s - np.log1p(rest)


def entropy_of_scores(scores) -> float:
    """Entropy of softmax(scores) in nats, from the log-weights."""
    logw = log_softmax(scores)
    return float(-(np.exp(logw) * logw).sum())
