"""Progress of a long run, on a terminal only: `label k/n` rewritten in
place on stderr, then a newline; nothing at all when stderr is a file or a
pipe (logs and CI stay clean)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def shown(items: Iterable[T], label: str, n: int) -> Iterator[T]:
    """`items`, passed through, counted on a terminal as they come."""
    show = sys.stderr.isatty()
    for k, item in enumerate(items, start=1):
        if show:
            sys.stderr.write(f"\r{label} {k}/{n}")
            sys.stderr.flush()
        yield item
    if show:
        sys.stderr.write("\n")


def say(text: str) -> None:
    """One line of what a long run does next, on a terminal only."""
    if sys.stderr.isatty():
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
