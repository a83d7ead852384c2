"""Markdown renderer (MkDocs Material + pymdownx.arithmatex, admonition, details).

It only formats: prose text is escaped for Markdown, maths nodes go through
the LaTeX printer, and the Jinja templates lay the page out.
"""

from __future__ import annotations

import base64
import html
import json
import re

from ..exam.assembly import graded_answers
from ..exam.options import LETTERS, option_lines
from ..exam.answers import answer_text
from ..exam.numbers import parse_number, parse_vector
from ..exam.window import centre
from ..mathlines import Node
from ..exam.misconceptions import describe
from ..model import Prose, Solution, prose
from ..templating import environment
from . import plain
from .latex import joined_pieces, latex, latex_display, latex_pieces

# Characters that start inline markup anywhere ($ for arithmatex, | for
# tables, {} for attribute lists); HTML's own are turned into entities.
_INLINE_SPECIAL = "\\`*_{}[]|$"
_ESCAPES = str.maketrans({**{ch: "\\" + ch for ch in _INLINE_SPECIAL},
                          **{ch: html.escape(ch) for ch in "<>&"}, "\n": " "})
# Markers that only mean something at the start of a block.
_BLOCK_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


def escape_md(text: str, *, block_start: bool = False) -> str:
    """Escape user or generated text so Markdown and HTML show it literally."""
    escaped = text.translate(_ESCAPES)
    if block_start:
        escaped = _BLOCK_START.sub(_escape_marker, escaped)
    return escaped


def page_title(text: str) -> str | None:
    """The front matter's `title:` (a YAML string) for a page headed by
    user text holding "<" or ">", else None (the page's heading is its title).
    MkDocs and Zensical put a page's title into <title> through Jinja's
    `striptags`, which unescapes "&lt;": a spec titled "</title><script>…"
    ran as a script however the heading escaped it.  The title they read
    has look-alike angle brackets (＜ ＞) instead; the heading keeps the text."""
    if "<" not in text and ">" not in text:
        return None
    return json.dumps(text.replace("<", "\uff1c").replace(">", "\uff1e"), ensure_ascii=False)


def _escape_marker(m: re.Match) -> str:
    marker = m.group(2)
    if marker[0].isdigit():  # "1." → "1\." (a backslash before a digit is literal)
        return m.group(1) + marker[:-1] + "\\" + marker[-1]
    return m.group(1) + "\\" + marker


def inline(p: Prose, *, block_start: bool = True) -> str:
    """A paragraph: escaped text and $inline maths$.  `block_start=False` where
    the template puts words before it (no list or heading marker to escape)."""
    parts = []
    for i, seg in enumerate(p):
        if isinstance(seg, Node):
            # a list or a long formula as pieces a phone's line may wrap between
            parts.append(joined_pieces(latex_pieces(seg), lambda piece: "$" + piece + "$"))
        else:
            parts.append(escape_md(seg, block_start=block_start and i == 0))
    return "".join(parts)


LEVELS = {1: "recognition", 2: "application", 3: "analysis", 4: "synthesis", 5: "mastery"}


def course_place(kind: str, long: bool = False) -> str:
    """Where a kind sits in the course, in the course's words: "Cell F" or
    "Exercise 2.1" (long: "Cell F of the scenario matrix", "Exercise 2.1,
    level 2: application") — what a student reads instead of a kind id."""
    if kind.isalpha():
        return f"Cell {kind}" + (" of the scenario matrix" if long else "")
    level = kind.split(".")[0]
    name = LEVELS.get(int(level)) if level.isdigit() else None
    return f"Exercise {kind}" + (f", level {level}: {name}" if long and name else "")


def view(solution: Solution, figures=None, src_prefix: str = "") -> dict:
    """What the templates need, all already formatted.  `figures` are the drawn
    figures of the solution (in order), referenced as src_prefix + filename."""
    p = solution.problem
    figs = [{"src": src_prefix + f.filename, "alt": escape_md(f.alt),
             "caption": inline(spec.caption, block_start=False)}
            for spec, f in zip(solution.figures, figures or ())]
    return {
        "kind": p.kind,
        "seed": p.seed,
        "variant": p.variant,
        "place": course_place(p.kind),
        "title": escape_md(solution.title),
        "question": [inline(q) for q in solution.question],
        "forecast": inline(solution.forecast),
        "steps": [
            {
                "title": escape_md(s.title),
                "body": [inline(b) for b in s.body],
                "math": [latex_display(m) for m in s.math],
                "why": inline(s.why, block_start=False),
                "after": [inline(a) for a in s.after],
            }
            for s in solution.steps
        ],
        "figures": figs,
        "verify": [inline(c.line) for c in solution.checks],
        "recall": [(inline(q), inline(a)) for q, a in solution.recall],
    }


def heading_md(solution: Solution, heading: str, number: int | None = None, anchor: str | None = None) -> str:
    """A problem's heading line, as render_problem writes it."""
    return environment().get_template("markdown/partials/heading.md.j2").render(
        p={"title": escape_md(solution.title)}, heading=heading, number=number, anchor=anchor).removesuffix("\n")


def data_uri(figure) -> str:
    """A drawn SVG figure as the source of an image inside the page, in base64:
    no character that Markdown or HTML would read as anything but the URL."""
    return "data:image/svg+xml;base64," + base64.b64encode(figure.data).decode("ascii")


def render_problem(solution: Solution, *, heading: str = "#", number: int | None = None,
                   figures=None, src_prefix: str = "", recall: bool = True, anchor: str | None = None,
                   answer_fields: bool = False) -> str:
    """One problem with its collapsed worked solution, as Markdown; figures
    (drawn by generator.figures) are embedded with alt text and caption.
    `recall=False` leaves the recall card to the end of a set page;
    `answer_fields=True` adds the site's answer fields and Forecast guess
    (docs/javascripts/practice.js checks them); heading=None prints the
    title as a bold line (a practice page's variants share one heading)."""
    tpl = environment().get_template("markdown/problem.md.j2")
    return tpl.render(p=view(solution, figures, src_prefix), heading=heading, number=number,
                      recall=recall, anchor=anchor, check=answer_fields,
                      v=answer_view(solution) if answer_fields else None)


# ---------------------------------------------------------------- answer fields
# The site's answer fields (docs/javascripts/practice.js) mark a response by
# the rule of `attndrills grade` (generator.grading.mark): the window is the
# printed key ± the answer's tolerance.  Everything the page needs is read
# here from the solution and embedded as JSON; the script only compares.

# What each kind's Forecast asks the student to commit to: a number (an
# answer, and which component of it) or, where the Forecast asks for words,
# a free-text guess followed by the answers named here.
_FORECAST: dict[str, tuple] = {
    "A": ("number", "weights", "top", "the winner’s weight"),
    "B": ("number", "weights", "first", "the weight of each position"),
    "C": ("number", "weights", "top", "the real winner’s weight"),
    "D": ("words", ("weights",)),
    "E": ("number", "weights", "first", "the weight of the single input"),
    "F": ("number", "entropy", None, "the entropy H (nats)"),
    "G": ("words", ("alignment",)),
    "H": ("words", ("limit_infinity", "limit_zero")),
    "I": ("words", ("double_softmax",)),
    "1.1": ("words", ("matching",)),
    "1.2": ("words", ("statement_1", "statement_2", "statement_3")),
    "1.3": ("words", ("sums_to_one",)),
    "2.1": ("number", "weights", "top", "the largest weight"),
    "2.2": ("words", ("context",)),
    "2.3": ("words", ("weights_change",)),
    "3.1": ("words", ("entropy_uniform", "entropy")),
    "3.2": ("words", ("state",)),
    "3.3": ("words", ("context_changes",)),
    "4.1": ("number", "count", None, "the number of alignment scores"),
    "4.2": ("words", ("pattern",)),
    "4.3": ("number", "surviving_fraction", None, "the fraction of the gradient kept"),
    "5.1": ("number", "weights", "first", "α_t1"),
    "5.2": ("words", ("limit_plus", "limit_zero", "limit_minus")),
    "5.3": ("number", "entropy_drop", None, "the drop in entropy (nats)"),
}

_ARROW = " → "


def _rows(x) -> list:
    return x if x and isinstance(x[0], list) else [x]


def _tol_rows(tol, key: list[list]) -> list[list[float]]:
    """The half-widths shaped like the key: one per component (as grading._close reads them)."""
    if not isinstance(tol, list):
        return [[float(tol)] * len(row) for row in key]
    rows = tol if tol and isinstance(tol[0], list) else [tol]
    return [[float(t) for t in r] if isinstance(r, list) else [float(r)] * len(k) for r, k in zip(rows, key)]


def _shown(a) -> str:
    """An answer as the student reads it in the key (the script's messages:
    plain text, a matching answer's symbols in Unicode, cₜ → (d) …)."""
    if a.type == "choice":
        return "; ".join(plain.text(line) for o, line in zip(a.options, option_lines(a.options)) if o.correct)
    if a.type == "vector":
        return " | ".join("(" + ", ".join(row) + ")" for row in _rows(a.display))
    if a.type == "matching":
        return plain.label(answer_text(a))
    return answer_text(a)


def _wrong(name: str | None) -> str:
    return f"It looks like you {describe(name)}." if name else ""


def label_html(words: str) -> str:
    """An answer's label or a matching item inside the answer fields' raw
    HTML: the words escaped, a symbol (c_t, α_t1, y_t-1) as arithmatex writes
    inline maths, so it reads as the question typesets it.  Each symbol is
    hidden from screen readers and followed by its spoken form, visually
    hidden ("c sub t"): Chromium names a control after its label's text and
    gives MathJax's MathML no name, so a matching question's menus, labelled
    by a symbol alone, had none."""
    return "".join('<span class="arithmatex" aria-hidden="true">\\(' + html.escape(latex(seg), quote=False)
                   + '\\)</span><span class="ad-sr">' + html.escape(plain.spoken_node(seg), quote=False) + "</span>"
                   if isinstance(seg, Node) else html.escape(seg, quote=False) for seg in prose(words))


def answer_field(a) -> dict:
    """One graded answer as the data its answer field needs: the centre and
    half-width of the marking window, the key as printed, the distractors and
    the sentence of the mistake each one stands for.  The script's messages
    are plain text (`label`, `shown`: symbols in Unicode, cₜ); the fields'
    own labels (`*_html`, not in the script's data) typeset them."""
    d: dict = {"name": a.name, "type": a.type, "label": plain.label(a.label), "label_html": label_html(a.label),
               "shown": _shown(a)}
    if a.type in ("numeric", "vector"):
        rows = [[str(a.display)]] if a.type == "numeric" else _rows(a.display)
        key = [[centre(a)]] if a.type == "numeric" else centre(a)
        tol = _tol_rows(a.tolerance, key)
        distractors = []
        for o in a.options:
            if o.correct:
                continue
            if a.type == "numeric":
                v = parse_number(o.text)
                wrong = None if v is None else [[v]]
            else:  # read as grading.mark reads it
                wrong = parse_vector(o.text.replace("), (", " | ").strip("()"))
            if wrong and all(x is not None for row in wrong for x in row):
                distractors.append({"value": wrong, "sentence": _wrong(o.misconception)})
        # the key as printed: the script reads its places and digits as grade does
        d.update(key=key, tol=tol, printed=[[str(x) for x in row] for row in rows],
                 matrix=a.type == "vector" and isinstance(a.display[0], list), distractors=distractors)
    elif a.type == "choice":
        d.update(multi=sum(o.correct for o in a.options) > 1,
                 options=[{"letter": LETTERS[i], "text": plain.label(o.text), "correct": o.correct,
                           "sentence": _wrong(o.misconception)} for i, o in enumerate(a.options)],
                 options_html=[label_html(o.text) for o in a.options])
    elif a.type == "truefalse":
        wrong = next((o for o in a.options if not o.correct), None)
        d.update(key=bool(a.value), sentence=_wrong(wrong.misconception if wrong else None))
    elif a.type == "matching":
        pairs = [p.split(_ARROW, 1) for p in a.display]
        right = sorted({r for _, r in pairs})
        d.update(left=[left for left, _ in pairs], left_html=[label_html(left) for left, _ in pairs], right=right,
                 key=[right.index(r) for _, r in pairs],
                 arrow=_ARROW)
    return d


def forecast_field(solution: Solution) -> dict | None:
    """What the Forecast asks the student to commit to (see _FORECAST)."""
    plan = _FORECAST.get(solution.problem.kind)
    named = {a.name: a for a in solution.answers}
    if plan and plan[0] == "number" and plan[1] in named:
        a = named[plan[1]]
        if a.type == "numeric":
            return {"mode": "number", "label": plain.label(plan[3]), "label_html": label_html(plan[3]),
                    "key": centre(a), "shown": str(a.display), "tol": float(a.tolerance)}
        rows, shown = centre(a), _rows(a.display)
        tols = _tol_rows(a.tolerance, rows)
        r, c = 0, 0
        if plan[2] == "top":  # the winner: the largest printed weight of the first row
            c = max(range(len(rows[0])), key=lambda i: rows[0][i])
        label = plan[3] + (f" (position {c + 1})" if plan[2] == "top" else "")
        return {"mode": "number", "label": plain.label(label), "label_html": label_html(label), "key": rows[r][c],
                "shown": shown[r][c], "tol": tols[r][c]}
    chosen = [named[n] for n in plan[1] if n in named] if plan and plan[0] == "words" else []
    chosen = chosen or graded_answers(solution)
    if not chosen:
        return None
    return {"mode": "words", "answers": [{"label": plain.label(a.label),
                                         "shown": _shown(a)}
                                        for a in chosen]}


def _json(data) -> str:
    """JSON for a single-quoted HTML attribute, written as is: ' and & (only
    ever inside its strings) become \\u0027 and \\u0026, so the attribute holds
    no character reference.  Both builders parse every attribute of every
    page twice (raw HTML, then the search index) and decode each reference
    one by one: entity-escaped, the practice pools alone held 800 000 of them."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("&", "\\u0026").replace("'", "\\u0027")


def answer_view(solution: Solution) -> dict:
    """The answer fields and the Forecast guess of one problem, for the template."""
    uid = "ad-" + re.sub(r"[^A-Za-z0-9]+", "-", solution.problem.variant).strip("-").lower()
    fields = [answer_field(a) for a in graded_answers(solution) if a.type != "text"]
    forecast = forecast_field(solution)
    for f in fields:
        f["id"] = f"{uid}-{re.sub(r'[^A-Za-z0-9]+', '-', f['name'])}"
    data = {"variant": solution.problem.variant, "forecast": _script_data(forecast),
            "answers": [_script_data(f) for f in fields]}
    return {"uid": uid, "json": _json(data), "forecast": forecast, "answers": fields}


def _script_data(field: dict | None) -> dict | None:
    """What the script reads of a field: all but the typeset labels."""
    return field and {k: v for k, v in field.items() if not k.endswith("_html")}


# The Markdown extensions of the site (mkdocs.yml) that a problem's Markdown
# uses.  Practice variants beyond the first are converted to HTML here and
# embedded as data, so the site builder does not convert twenty worked
# solutions per page (issue 13: the build stays within its time budget).
SITE_EXTENSIONS = {
    "admonition": {},
    "attr_list": {},
    "pymdownx.details": {},
    "pymdownx.superfences": {},
    "pymdownx.arithmatex": {"generic": True},
}
_CONVERTER = None


def to_html(md: str) -> str | None:
    """Markdown → HTML as the site converts it; None when Python-Markdown and
    pymdown-extensions (the `site` extra) are not installed."""
    global _CONVERTER
    if _CONVERTER is None:
        try:
            import markdown
        except ImportError:
            return None
        _CONVERTER = markdown.Markdown(extensions=list(SITE_EXTENSIONS),
                                       extension_configs={k: v for k, v in SITE_EXTENSIONS.items() if v})
    try:
        return _CONVERTER.reset().convert(md)
    except ImportError:  # an extension is missing
        return None


# What MkDocs converts a page with: the site's extensions and the three MkDocs
# always adds.  A set page's problems are converted here, in the workers of
# `attndrills site`, and handed to the builders as ready HTML (see ready_html).
_MKDOCS_DEFAULTS = ("toc", "tables", "fenced_code")
_PAGE_CONVERTER = None


def ready_html(md: str, figures=(), src_prefix: str = "") -> str:
    """A block of page Markdown (a problem below its heading) as the HTML MkDocs
    would make of it, between the markers of render.passthrough, which hands
    it to the page unparsed; the block as it was when Python-Markdown or
    pymdown-extensions is missing.  `figures`, named in `md` as src_prefix +
    file name, are put into the page (data_uri), once it is converted: a URL
    is 3 kB that Python-Markdown would read through and leave as it is."""
    html = page_html(md)
    if html is None:
        for f in figures:
            md = md.replace(f"]({src_prefix}{f.filename})", f"]({data_uri(f)})")
        return md
    for f in figures:
        html = html.replace(f' src="{src_prefix}{f.filename}" ', f' src="{data_uri(f)}" ')
    return ready_block(html)


def page_html(md: str) -> str | None:
    """A block of page Markdown as the HTML MkDocs would make of it (no
    markers); None when Python-Markdown or pymdown-extensions is missing."""
    global _PAGE_CONVERTER
    if _PAGE_CONVERTER is None:
        try:
            import markdown

            _PAGE_CONVERTER = markdown.Markdown(
                extensions=[*_MKDOCS_DEFAULTS, *SITE_EXTENSIONS],
                extension_configs={k: v for k, v in SITE_EXTENSIONS.items() if v})
        except ImportError:
            return None
    return _PAGE_CONVERTER.reset().convert(md)


def ready_block(html: str) -> str:
    """HTML (converted here, or written by a template) as a block the
    builders take unparsed, between the markers of render.passthrough; as it
    is without Python-Markdown (the builders then read it as raw HTML)."""
    try:
        from .passthrough import wrap
    except ImportError:
        return html
    return wrap(html)


def pool_json(variants: list[dict]) -> str:
    """A practice pool's embedded variants ({code, html}), for a single-quoted HTML attribute."""
    return _json(variants)
