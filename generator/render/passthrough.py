"""A Python-Markdown extension for the generated site pages: blocks of HTML
that `attndrills site` has already converted from the problems' Markdown
(render.markdown.ready_html) go into the page as they are, without being
parsed again.

Python-Markdown reads a raw HTML block tag by tag to find where it ends; on a
set page that is most of the page, and MkDocs and Zensical convert every page
on one core.  Between the markers below this extension stores the block whole,
as Python-Markdown's own raw-HTML step would, except each figure's paragraph
(`<p><img alt=… src=…></p>`): that goes back into the page's element tree, so
the builder links it from the published page as it links a Markdown image
(MkDocs rewrites links only in the tree; Zensical rewrites them in the HTML).
mkdocs.yml lists it under markdown_extensions.  No MkDocs hook or plugin:
Zensical loads it too.

The block is written as an HTML comment, each figure's paragraph between two
comments: Zensical looks for the links of every page in its Markdown source,
byte by byte in Python, before converting it (0.1 µs a byte inside a comment,
far more inside HTML, where it parses every tag), so a comment is the one form
of a block it passes over quickly, and the figures stay in sight of it.  A
builder without this extension shows the figures and hides the rest of the
block, so the extension must stay listed in mkdocs.yml."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree

from markdown import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

OPEN, CLOSE = "<!-- attndrills:html", "attndrills:html -->"
_BLOCK = re.compile("^" + re.escape(OPEN) + r"\n(.*?)\n" + re.escape(CLOSE) + "$", re.M | re.S)
# a figure as Python-Markdown writes `![alt](src)` standing alone, between two comments
_FIGURE = re.compile(r'^-->\n<p><img alt="([^"]*)" src="([^"]*)" /></p>\n<!--$', re.M)
_FIGURE_HTML = re.compile(r'^<p><img alt="[^"]*" src="[^"]*" /></p>$', re.M)
_TOKEN = "attndrills-figure-"


def wrap(block: str) -> str:
    """A block of ready HTML between the markers, each figure's paragraph out
    of the comment.  `--` ending in `>` and `<!--` cannot occur in the HTML
    Python-Markdown writes (it writes `>` and `<` in text and attributes as
    references), but could in raw HTML of a template; written as references
    they mean the same in text and attributes and cannot end the comment."""
    block = block.replace("<!--", "&lt;!--").replace("-->", "--&gt;")
    block = _FIGURE_HTML.sub(lambda f: "-->\n" + f.group(0) + "\n<!--", block)
    return f"{OPEN}\n{block}\n{CLOSE}\n"


class _ReadyHtml(Preprocessor):
    def __init__(self, md, figures: list):
        super().__init__(md)
        self.figures = figures

    def _block(self, m: re.Match) -> str:
        pieces, pos = [], 0
        for f in _FIGURE.finditer(m.group(1)):
            pieces.append(m.group(1)[pos:f.start()].strip("\n"))
            # a plain paragraph the treeprocessor below turns into the image
            pieces.append(f"{_TOKEN}{len(self.figures)}")
            self.figures.append((html.unescape(f.group(1)), html.unescape(f.group(2))))
            pos = f.end()
        pieces.append(m.group(1)[pos:].strip("\n"))
        # each run of HTML a placeholder paragraph of its own, as HtmlBlockPreprocessor leaves one
        return "\n\n" + "\n\n".join(p if p.startswith(_TOKEN) else self.md.htmlStash.store(p)
                                      for p in pieces if p) + "\n\n"

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if OPEN not in text:
            return lines
        self.figures.clear()
        return _BLOCK.sub(self._block, text).split("\n")


class _Figures(Treeprocessor):
    def __init__(self, md, figures: list):
        super().__init__(md)
        self.figures = figures

    def run(self, root) -> None:
        if not self.figures:
            return
        for p in root.iter("p"):
            if len(p) == 0 and p.text and p.text.startswith(_TOKEN):
                alt, src = self.figures[int(p.text[len(_TOKEN):])]
                p.text = None
                etree.SubElement(p, "img", {"alt": alt, "src": src})


class ReadyHtmlExtension(Extension):
    def extendMarkdown(self, md) -> None:
        figures: list[tuple[str, str]] = []
        # after normalize_whitespace (30), before the raw-HTML step (20)
        md.preprocessors.register(_ReadyHtml(md, figures), "attndrills_ready_html", 25)
        # after the inline patterns (20), before MkDocs rewrites links (0)
        md.treeprocessors.register(_Figures(md, figures), "attndrills_figures", 5)


def makeExtension(**kwargs) -> ReadyHtmlExtension:  # noqa: N802 - Python-Markdown's entry point
    return ReadyHtmlExtension(**kwargs)
