"""Sentence pairs with known word alignments, for cells A and G (and the
exercise bank).  `align[j]` is the source position (0-based) that target
word j is aligned with; `function` lists target words (articles, particles)
that translate no source word of their own, though they are aligned with
one.  Several pairs reorder only part of the sentence."""

from __future__ import annotations

PAIRS = (
    {"source": ["neural", "machine", "translation"],
     "target": ["traduction", "automatique", "neuronale"], "align": [2, 1, 0],
     "languages": "English → French"},
    {"source": ["Je", "suis", "étudiant"],
     "target": ["I", "am", "a", "student"], "align": [0, 1, 2, 2], "function": [2],
     "languages": "French → English"},
    {"source": ["the", "black", "cat"],
     "target": ["le", "chat", "noir"], "align": [0, 2, 1],
     "languages": "English → French"},
    {"source": ["the", "red", "car"],
     "target": ["la", "voiture", "rouge"], "align": [0, 2, 1],
     "languages": "English → French"},
    {"source": ["European", "Economic", "Area"],
     "target": ["zone", "économique", "européenne"], "align": [2, 1, 0],
     "languages": "English → French"},
    {"source": ["I", "have", "seen", "him"],
     "target": ["ich", "habe", "ihn", "gesehen"], "align": [0, 1, 3, 2],
     "languages": "English → German"},
    {"source": ["she", "drinks", "green", "tea"],
     "target": ["elle", "boit", "du", "thé", "vert"], "align": [0, 1, 3, 3, 2], "function": [2],
     "languages": "English → French"},
    {"source": ["a", "white", "house"],
     "target": ["une", "maison", "blanche"], "align": [0, 2, 1],
     "languages": "English → French"},
    {"source": ["I", "saw", "the", "film"],
     "target": ["watashi", "wa", "eiga", "o", "mita"], "align": [0, 0, 3, 3, 1], "function": [1, 3],
     "languages": "English → Japanese"},
    {"source": ["he", "has", "read", "the", "book"],
     "target": ["er", "hat", "das", "Buch", "gelesen"], "align": [0, 1, 3, 4, 2],
     "languages": "English → German"},
)


def is_reordering(align: list[int]) -> bool:
    """True when the alignment is not monotonic (some target word looks back)."""
    return any(b < a for a, b in zip(align, align[1:]))
