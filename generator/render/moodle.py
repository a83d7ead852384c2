"""Moodle XML for delivery as a randomized quiz, laid out like Moodle's own
export (every text in CDATA) and read back by Moodle's `qformat_xml`.

Under a category named after the exam, one category per exam question (the
spec's order) holds that question's variants; a quiz with one "random
question from category" slot per category gives each student one variant.
So each exam question is ONE Moodle question, whatever its parts:

- one numeric part → numerical (tolerance window centred on the printed key,
  each named mistake as a 0 % answer with its feedback);
- one choice / true-false / matching part → multichoice / truefalse /
  matching, the choices never repeated in the question text;
- several parts, or a vector → cloze, one line per part labelled by its
  letter (`(a)`, `(b)`: answers.csv's label after the question's number on
  the paper, a number Moodle's own quiz order need not follow), a NUMERICAL blank per component carrying each named
  mistake's value and feedback, menus for choices, true/false and matching.

Because all parts of a question are answered and graded together, the worked
solution can be the general feedback: Moodle shows it only once the question
is finished, in every behaviour, when every part has been answered.

A cloze question's mark is the sum of its blank weights (render.moodle_text),
not <defaultgrade>; the question text, its answer lines and blanks come from
render.moodle_text, the XML around them from templates/moodle/."""

from __future__ import annotations

import base64
import html
import re
from functools import lru_cache

import jinja2
from markupsafe import Markup

from ..exam.assembly import Question, points_text
from ..exam.misconceptions import describe
from ..exam.numbers import parse_number
from ..model import Answer
from ..templating import environment
from ..text import Sayer
from . import plain
from .html import inline, question_html, solution_html, symbols_html
from .moodle_text import (centre, named_mistakes, number, question_end, shown_elsewhere, unlettered, unnumbered,
                          words_html)

_XML_BAD = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# -- XML: templates/moodle/ --------------------------------------------------

def cdata(text: str) -> Markup:
    """Text as Moodle's export writes it: inside CDATA, which keeps every
    space (Moodle's XML reader drops one between an escaped tag and a
    non-ASCII character otherwise).  Characters XML cannot hold are dropped.
    The Moodle templates' `cdata` filter: every text they hold goes through
    it; their other values (numbers, names of settings, variant codes) are
    autoescaped."""
    text = _XML_BAD.sub("", text)
    return Markup("<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>" if text else "")


# Laid out by templates, measured against the f-strings they replace (dd01fb4,
# same bytes): the 2,700 questions of a 300-variant pool of
# examples/exam-midterm.yaml take 1.00 s of CPU to render against 0.87 s
# (medians of 7, alternating runs), ~50 µs a question; `attndrills exam
# examples/exam-midterm.yaml --variants 300` took 7.7-8.9 s of CPU against
# 7.8-8.6 s, within its noise.
@lru_cache(maxsize=None)
def _template(name: str) -> jinja2.Template:
    env = environment()
    env.filters["cdata"] = cdata  # only templates/moodle/ name it
    return env.get_template(f"moodle/{name}")


def category_name(name: str) -> str:
    """One level of a category path, escaped as Moodle's own
    `assemble_category_path` does: `/` doubled, a leading or trailing slash
    padded with a space so it is not read as a separator.  `<` and `>` become
    entities: the importer strips anything that looks like a tag from a
    category name (PARAM_TEXT), and Moodle shows names as HTML."""
    escaped = " ".join(name.split()).replace("<", "&lt;").replace(">", "&gt;").replace("/", "//")
    if escaped.startswith("/"):
        escaped = " " + escaped
    if escaped.endswith("/"):
        escaped += " "
    return escaped


def render_category(names: list[str], info: str = "") -> str:
    """A category switch: the questions that follow go into $course$/top/names…"""
    path = "/".join(["$course$", "top", *map(category_name, names)])
    return _template("category.xml.j2").render(path=path, info=info)


def item_category(item: int, points) -> str:
    """The name of exam question `item`'s category (its points in the name:
    the teacher sets the quiz slot's mark from it)."""
    return Sayer("ui").text("moodle.category_point" if points == 1 else "moodle.category_points", item=item,
                            points=points_text(points))


def render_quiz(fragments: list[str]) -> bytes:
    return _template("quiz.xml.j2").render(fragments=fragments).encode("utf-8")


# -- one exam question → one Moodle question ----------------------------------

def render_question(q: Question, digits: int, figures=()) -> str:
    """One Moodle question for one exam question (every part in it);
    `figures`: its worked solution's, drawn (figures.draw_figures)."""
    if not q.parts:
        return ""  # nothing to grade (model answers only): nothing Moodle could mark
    return _template("question.xml.j2").render(q=question_view(q, digits, figures))


_QTYPES = {"numeric": "numerical", "choice": "multichoice", "truefalse": "truefalse", "matching": "matching"}


def _qtype(parts) -> str:
    a = parts[0].answer
    # Moodle's matching type needs three choices at least; fewer pairs go into a cloze
    if len(parts) == 1 and (a.type in ("numeric", "choice", "truefalse") or a.type == "matching" and len(a.exact) >= 3):
        return _QTYPES[a.type]
    return "cloze"


def figure_files(solution, figures) -> tuple[str, list[dict]]:
    """The worked solution's figures as Moodle stores a text's files: the
    HTML that shows them (`@@PLUGINFILE@@/name`, the alt text, the caption as
    the printed key words it) and the files themselves, base64, for the
    `<file>` elements of the text that names them (Moodle's own export)."""
    shown, files = [], []
    what = Sayer("ui").text("problem.figure")  # as the printed solution words it
    for spec, f in zip(solution.figures, figures):
        shown.append(f'<p><img src="@@PLUGINFILE@@/{html.escape(f.filename)}" alt="{html.escape(f.alt)}" '
                     f'class="img-fluid"></p><p><b>{html.escape(what)}</b> {inline(spec.caption)}</p>')
        if all(x["name"] != f.filename for x in files):
            files.append({"name": f.filename, "data": base64.b64encode(f.data).decode("ascii")})
    return "".join(shown), files


def question_view(q: Question, digits: int, figures=()) -> dict:
    """What templates/moodle/question.xml.j2 needs of one exam question: its
    Moodle type, texts (HTML), answers and the worked solution's figures."""
    sol, parts = q.solution, q.parts
    skip, claims = shown_elsewhere(q)
    qtype = _qtype(parts)
    a = parts[0].answer
    shown, files = figure_files(sol, figures)
    v = {"type": qtype, "name": Sayer("ui").text("moodle.name", item=q.item, variant=sol.problem.variant),
         "text": question_html(sol, skip) + question_end(qtype, q, claims, digits),
         "feedback": unlettered(solution_html(sol, shown), parts), "feedback_files": files,
         # the cloze importer ignores it: the blank weights are the mark
         "grade": None if qtype == "cloze" else points_text(q.points),
         "variant": sol.problem.variant, "answers": [], "subquestions": []}
    if qtype == "numerical":
        v["answers"] = _numerical(a)
    elif qtype == "multichoice":
        v["single"], v["answers"] = _multichoice(a)
    elif qtype == "truefalse":
        v["answers"] = [_answer(100 if o.correct else 0, o.text, _feedback(o.misconception), "moodle_auto_format")
                        for o in a.options]
    elif qtype == "matching":
        stems = symbols_html(sol)
        v["subquestions"] = [(stems.get(left) or words_html(left), unnumbered(right)) for left, right in a.exact]
    return v


def _feedback(misconception: str | None) -> str:
    return html.escape(describe(misconception)) if misconception else ""


def _answer(fraction: float, text: str, feedback: str, fmt: str = "html", tolerance: str | None = None) -> dict:
    return {"fraction": f"{fraction:g}", "format": fmt, "text": text, "feedback": feedback, "tolerance": tolerance}


def _numerical(a: Answer) -> list[dict]:
    """The key's window (centre ± tolerance) first — Moodle takes the first
    answer whose window holds the response — then each named mistake."""
    c, t = centre(a), float(a.tolerance)
    out = [_answer(100, number(c), "", "moodle_auto_format", number(t))]
    for d, o in named_mistakes(c, t, [(parse_number(o.text), o) for o in a.options if not o.correct]):
        out.append(_answer(0, number(d), _feedback(o.misconception), "moodle_auto_format", number(t)))
    return out


def _multichoice(a: Answer) -> tuple[bool, list[dict]]:
    """Whether one choice is right, and the choices: the right ones share the mark."""
    correct = sum(o.correct for o in a.options)
    share = 100 / max(1, correct)
    return correct == 1, [_answer(float(f"{share:.5f}") if o.correct else 0, html.escape(plain.label(o.text)),
                                  _feedback(o.misconception)) for o in a.options]
