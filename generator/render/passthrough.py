"""A Python-Markdown extension for the generated site pages: blocks of HTML
that `attndrills site` has already converted from the problems' Markdown
(render.markdown.ready_html) go into the page as they are, without being
parsed again.

Python-Markdown reads a raw HTML block tag by tag to find where it ends; on a
set page that is most of the page, and MkDocs and Zensical convert every page
on one core.  Between the markers below this extension stores the block whole
and as written, as Python-Markdown's own raw-HTML step would store it (but
before whitespace is normalised, which reads the whole text).  The blocks
link to nothing the builders would have to rewrite: their figures are in the
page (data: URLs), and the set pages' own links (decks, printable sheets) are
Markdown outside them.  mkdocs.yml lists it under markdown_extensions.  No MkDocs hook or
plugin: Zensical loads it too.

A block is written as an HTML comment: Zensical looks for the links of every
page in its Markdown source, byte by byte in Python, before converting it
(0.1 µs a byte inside a comment, far more inside HTML, where it parses every
tag), and a comment is the one form of a block it passes over quickly.  A
builder without this extension shows nothing of the blocks, so the extension
must stay listed in mkdocs.yml."""

from __future__ import annotations

from xml.etree import ElementTree as etree

from markdown import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

OPEN, CLOSE = "<!-- attndrills:html\n", "\nattndrills:html -->"
_MARKER = "\x01attndrills:html %d\x04"  # control characters normalize_whitespace leaves


def wrap(block: str) -> str:
    """A block of ready HTML between the markers.  `-->` and `<!--` cannot
    occur in the HTML Python-Markdown writes (it writes `>` and `<` in text
    and attributes as references) but could in raw HTML of a template; written
    as references they mean the same in text and attributes and cannot end
    the comment."""
    return f"{OPEN}{block.replace('<!--', '&lt;!--').replace('-->', '--&gt;')}{CLOSE}\n"


class _ReadyHtml(Preprocessor):
    """Stores every block and leaves a marker line of its own in its place.
    It runs before normalize_whitespace, which would otherwise read every
    block through (with superfences' search for fences, about a fifth of
    Python-Markdown's time on a set page) and which strips the control
    characters of Python-Markdown's own placeholders."""

    def __init__(self, md) -> None:
        super().__init__(md)
        self.stored: dict[str, str] = {}  # marker line -> Python-Markdown's placeholder

    def run(self, lines: list[str]) -> list[str]:
        self.stored = {}
        text = "\n".join(lines)
        if OPEN not in text:
            return lines
        # str.find, not a regular expression: a set page is 50 kB, most of it in blocks
        out, pos = [], 0
        while (start := text.find(OPEN, pos)) != -1 and (end := text.find(CLOSE, start)) != -1:
            marker = _MARKER % len(self.stored)
            self.stored[marker] = self.md.htmlStash.store(text[start + len(OPEN):end].strip("\n"))
            # a paragraph of its own, as HtmlBlockPreprocessor leaves a placeholder
            out += [text[pos:start], "\n\n", marker, "\n\n"]
            pos = end + len(CLOSE)
        out.append(text[pos:])
        return "".join(out).split("\n")


class _Placeholders(Preprocessor):
    """After normalize_whitespace: each marker line becomes its block's placeholder."""

    def __init__(self, md, ready: _ReadyHtml) -> None:
        super().__init__(md)
        self.ready = ready

    def run(self, lines: list[str]) -> list[str]:
        stored = self.ready.stored
        return [stored.get(line, line) for line in lines] if stored else lines


class _SearchText(Treeprocessor):
    """The maths of a page's own Markdown (the recipe's) as the search reads
    it: each formula left out, followed by a hidden twin in plain text
    (render.search_text; the ready blocks carry theirs already)."""

    def run(self, root) -> None:
        from .search_text import twin_element

        for parent in list(root.iter()):
            for i, el in reversed(list(enumerate(parent))):
                if "arithmatex" in (el.get("class") or "").split() and el.get("data-search-exclude") is None:
                    twin = twin_element(el, etree.Element)
                    if twin is not None:
                        twin.tail, el.tail = el.tail, None
                        parent.insert(i + 1, twin)


class ReadyHtmlExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # before normalize_whitespace (30); the placeholders right after it,
        # before every other preprocessor (superfences' fences at 25 would read the blocks too)
        ready = _ReadyHtml(md)
        md.preprocessors.register(ready, "attndrills_ready_html", 31)
        md.preprocessors.register(_Placeholders(md, ready), "attndrills_ready_placeholders", 29.95)
        # after the inline patterns (arithmatex's maths, at 20), before prettify (10)
        md.treeprocessors.register(_SearchText(md), "attndrills_search_text", 15)


def makeExtension(**kwargs) -> ReadyHtmlExtension:  # noqa: N802 - Python-Markdown's entry point
    return ReadyHtmlExtension(**kwargs)
