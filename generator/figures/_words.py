"""The words a figure draws and says in its alt text: group `figures.<kind>`
of text/<lang>/ui.yaml, handed to the figure as a mapping (its full key,
`figures.bars.title`, → the sentence as written, with its {placeholders}),
so that a figure stays a function of its spec and its words and never reads
the run's settings.

`run_words` is what draw() hands over: the sentences of the run's language
and edits.  A figure drawn without them (a test calling fig_bars directly)
uses `english`, the built-in English file's."""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from ..text import Capitals

Words = Mapping[str, str]


def say(words: Words, key: str, **values) -> str:
    """Sentence `key` of `words` with its values put in (text)."""
    return words[key].format_map(Capitals({k: str(v) for k, v in values.items()}))


def _group(kind: str) -> list[str]:
    from ..text import builtin

    prefix = f"figures.{kind}."
    return [key for key in builtin("en", "ui") if key.startswith(prefix)]


@lru_cache(maxsize=None)
def english(kind: str) -> Words:
    from ..text import builtin

    sentences = builtin("en", "ui")
    return {key: sentences[key].source for key in _group(kind)}


def run_words(kind: str) -> Words:
    """Figure `kind`'s words in the run's language, with the run's edits."""
    from ..text import settings

    return _run_words(settings(), kind)


@lru_cache(maxsize=64)
def _run_words(settings, kind: str) -> Words:
    from ..text import lookup

    return {key: lookup("ui", key).source for key in _group(kind)}


def given(text: str, words: Words, key: str, **values) -> str:
    """A word the spec gives (the kinds' figure specs write some in English):
    where it is sentence `key` of the built-in English, the sentence of
    `words` instead, else the spec's own."""
    if text == say(english(key.split(".")[1]), key, **values):
        return say(words, key, **values)
    return text


def title(d: dict, words: Words, key: str) -> str:
    """The figure's title: the problem's (`given`), else the figure's own (`key`)."""
    return given(d["title"], words, key) if "title" in d else say(words, key)
