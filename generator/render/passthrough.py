"""A Python-Markdown extension for the generated site pages: blocks of HTML
that `attndrills site` has already converted from the problems' Markdown
(render.markdown.ready_html) go into the page as they are, without being
parsed again.

Python-Markdown reads a raw HTML block tag by tag to find where it ends; on a
set page that is most of the page, and MkDocs and Zensical convert every page
on one core.  Between the markers below this extension stores the block whole,
as Python-Markdown's own raw-HTML step would.  The blocks link to nothing the
builders would have to rewrite: their figures are in the page (data: URLs),
and the set pages' own links (decks, printable sheets) are Markdown outside
them.  mkdocs.yml lists it under markdown_extensions.  No MkDocs hook or
plugin: Zensical loads it too.

A block is written as an HTML comment: Zensical looks for the links of every
page in its Markdown source, byte by byte in Python, before converting it
(0.1 µs a byte inside a comment, far more inside HTML, where it parses every
tag), and a comment is the one form of a block it passes over quickly.  A
builder without this extension shows nothing of the blocks, so the extension
must stay listed in mkdocs.yml."""

from __future__ import annotations

from markdown import Extension
from markdown.preprocessors import Preprocessor

OPEN, CLOSE = "<!-- attndrills:html\n", "\nattndrills:html -->"


def wrap(block: str) -> str:
    """A block of ready HTML between the markers.  `-->` and `<!--` cannot
    occur in the HTML Python-Markdown writes (it writes `>` and `<` in text
    and attributes as references) but could in raw HTML of a template; written
    as references they mean the same in text and attributes and cannot end
    the comment."""
    return f"{OPEN}{block.replace('<!--', '&lt;!--').replace('-->', '--&gt;')}{CLOSE}\n"


class _ReadyHtml(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if OPEN not in text:
            return lines
        # str.find, not a regular expression: a set page is 50 kB, most of it in blocks
        out, pos = [], 0
        while (start := text.find(OPEN, pos)) != -1 and (end := text.find(CLOSE, start)) != -1:
            block = text[start + len(OPEN):end].strip("\n")
            # a placeholder paragraph of its own, as HtmlBlockPreprocessor leaves one
            out += [text[pos:start], "\n\n", self.md.htmlStash.store(block), "\n\n"]
            pos = end + len(CLOSE)
        out.append(text[pos:])
        return "".join(out).split("\n")


class ReadyHtmlExtension(Extension):
    def extendMarkdown(self, md) -> None:
        # after normalize_whitespace (30), before the raw-HTML step (20)
        md.preprocessors.register(_ReadyHtml(md), "attndrills_ready_html", 25)


def makeExtension(**kwargs) -> ReadyHtmlExtension:  # noqa: N802 - Python-Markdown's entry point
    return ReadyHtmlExtension(**kwargs)
