"""QTI 1.2 for Canvas Classic Quizzes: one item per variant of an exam
question, laid out as Canvas's own QTI export writes it (the item's Canvas
type and points in `itemmetadata`), the XML from templates/qti/.

Canvas's importer first runs Instructure's QTIMigrationTool, then reads the
QTI 2 items and test it writes (canvas-lms, gems/plugins/qti_exporter).  What
each exam question becomes, and why:

- one numeric part → `numerical_question`, one range answer (`vargte` …
  `varlte`): the marking window, key ± tolerance (exam.window).  Canvas gives
  every numerical answer full marks (numeric_interaction.rb sets weight 100
  on each), so a named mistake cannot be a 0 % answer as in Moodle: the
  mistakes, each with its value, are the feedback for a wrong answer;
- one choice part → `multiple_choice_question` (one right choice) or
  `multiple_answers_question` (several), each wrong choice's feedback naming
  its mistake;
- one true/false part → `true_false_question`, likewise;
- one matching part → `matching_question`, the points shared by the pairs;
- several parts, or a vector → `fill_in_multiple_blanks_question`, one
  blank per component, pair or choice.  Canvas marks a blank by its text
  (case aside), so a blank accepts the key as the paper prints it and no
  window: Canvas shares the points equally among the blanks.

Maths stays LaTeX between \\( … \\) and \\[ … \\], which Canvas typesets with
MathJax (R/exams' exams2canvas writes its maths so, `pandoc-mathjax`)."""

from __future__ import annotations

import hashlib
import html
import math
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

import jinja2

from ..exam.assembly import PART_LETTERS, Question, points_text, unmarked_prompts
from ..exam.misconceptions import describe
from ..exam.window import inside, tolerance_rows
from ..mathlines import power_of_ten
from ..exam.numbers import parse_number
from ..exam.options import LETTERS
from ..model import Answer
from ..templating import environment
from ..text import Sayer
from . import plain
from .html import inline, question_html, solution_html, symbols_html
from .moodle import _XML_BAD
from .moodle_text import _flat, centre, named_mistakes, number, question_end, shown_elsewhere, unlettered, unnumbered, \
    words_html


@lru_cache(maxsize=None)
def _template(name: str) -> jinja2.Template:
    env = environment()
    env.filters["xmltext"] = xml_text  # only templates/qti/ name it
    return env.get_template(f"qti/{name}")


def xml_text(text: str) -> str:
    """Text XML can hold (the characters it cannot are dropped); the
    templates' autoescape then escapes it, HTML included, as Canvas's export does."""
    return _XML_BAD.sub("", str(text))


def ident(*parts) -> str:
    """A stable identifier from what names a thing (no colon: the migration
    tool turns colons into dashes)."""
    return "g" + hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()[:24]


def points(x: Fraction) -> str:
    return repr(float(x))


def group_title(item: int, pts: Fraction) -> str:
    return _SAY.text("qti.group_point" if pts == 1 else "qti.group_points", item=item, points=points_text(pts))


# -- one exam question → one Canvas question ----------------------------------

_SAY = Sayer("ui")  # the words around the question's own (text/<lang>/ui.yaml, qti:)
FIGURES = "figures"  # the figures' folder, beside the assessment file in the package


def render_item(q: Question, digits: int, exam_id: str, figures=()) -> str:
    """One QTI item for one variant of one exam question ("" if nothing is
    graded); `figures`: the worked solution's (figures.draw_figures), shown
    in its feedback from files the package holds (FIGURES/filename)."""
    if not q.parts:
        return ""
    v = item_view(q, digits, exam_id)
    if figures:
        v["feedback"] = with_figures(v["feedback"], q.solution, figures)
    return _template("item.xml.j2").render(q=v).strip("\n") + "\n"


def with_figures(feedback: str, solution, figures) -> str:
    """The worked solution with its figures before its checks, as the printed
    solutions place them after the steps: each an <img> of the package's file,
    its alt text the figure's own, its caption below it."""
    shown = "".join(f'<p><img src="{FIGURES}/{html.escape(f.filename)}" alt="{html.escape(f.alt)}" /></p>'
                    f"<p><i>{inline(spec.caption)}</i></p>" for spec, f in zip(solution.figures, figures))
    verify = f"<p><b>{html.escape(_SAY.text('problem.verify'))}</b></p>"  # as render.html words it
    return feedback.replace(verify, shown + verify, 1) if verify in feedback else feedback + shown


def canvas_type(parts) -> str:
    a = parts[0].answer
    if len(parts) > 1 or a.type not in ("numeric", "choice", "truefalse", "matching"):
        return "fill_in_multiple_blanks_question"
    if a.type == "choice":
        return "multiple_choice_question" if sum(o.correct for o in a.options) == 1 else "multiple_answers_question"
    return {"numeric": "numerical_question", "truefalse": "true_false_question",
            "matching": "matching_question"}[a.type]


def item_view(q: Question, digits: int, exam_id: str) -> dict:
    """What templates/qti/item.xml.j2 needs: the Canvas type, texts (HTML),
    choices or blanks, and the conditions that mark them."""
    sol, parts = q.solution, q.parts
    skip, claims = shown_elsewhere(q)
    qtype = canvas_type(parts)
    a = parts[0].answer
    end = {"numerical_question": "numerical", "true_false_question": "truefalse"}.get(qtype, "")
    v = {"type": qtype, "ident": ident(exam_id, q.item, sol.problem.variant),
         "title": _SAY.text("qti.title", item=q.item, variant=sol.problem.variant), "points": points(q.points),
         "text": question_html(sol, skip) + (question_end(end, q, claims, digits) if end else ""),
         "feedback": unlettered(solution_html(sol), parts), "wrong": "", "choices": [], "blanks": [],
         "range": None}
    if qtype == "numerical_question":
        c, t = centre(a), float(a.tolerance)
        v["range"] = (number(c - t * (1 + 1e-9)), number(c + t * (1 + 1e-9)))
        v["wrong"] = _mistakes_html(named_mistakes(c, t, [(parse_number(o.text), o) for o in a.options
                                                          if not o.correct]))
    elif qtype in ("multiple_choice_question", "multiple_answers_question", "true_false_question"):
        v["choices"] = _choices(a)
    elif qtype == "matching_question":
        v["blanks"] = _matching(a, symbols_html(sol))
    else:
        # typed blanks: the question keeps its choices, statements and meanings
        text, v["blanks"] = _blanks(q, digits)
        v["text"] = question_html(sol, unmarked_prompts(sol)) + text
    return v


def _feedback(misconception: str | None) -> str:
    return html.escape(describe(misconception)) if misconception else ""


def _mistakes_html(mistakes) -> str:
    if not mistakes:
        return ""
    rows = "".join("<li>" + _SAY.text("qti.mistake", answer=html.escape(o.text), mistake=_feedback(o.misconception))
                   + "</li>" for v, o in mistakes if o.misconception)
    return f"<p>{_SAY.text('qti.mistakes')}</p><ul>{rows}</ul>" if rows else ""


def _choices(a: Answer) -> list[dict]:
    if a.type == "truefalse":
        options = sorted(a.options, key=lambda o: o.text != "true")
        said = {"true": _SAY.text("qti.true"), "false": _SAY.text("qti.false")}
        texts = [html.escape(said[o.text]) for o in options]
    else:
        options = list(a.options)
        texts = [html.escape(plain.label(o.text)) for o in options]
    return [{"ident": str(n), "text": t, "correct": o.correct, "feedback": _feedback(o.misconception)}
            for n, (o, t) in enumerate(zip(options, texts), start=1)]


def _matching(a: Answer, stems: dict[str, str]) -> list[dict]:
    """One menu per left item, the distinct right items its choices."""
    rights = sorted({unnumbered(r) for _, r in a.exact})
    ids = {r: str(n) for n, r in enumerate(rights, start=1)}
    share = 100 / len(a.exact)
    return [{"ident": f"response_{n}", "name": "", "text": stems.get(left) or words_html(left),
             "choices": [{"ident": ids[r], "text": html.escape(r)} for r in rights],
             "right": ids[unnumbered(right)], "score": f"{share:.4f}"}
            for n, (left, right) in enumerate(a.exact, start=1)]


MAX_FORMS = 40  # typed forms a blank accepts, at most


def typed_forms(key: float, tol: float, digits: int) -> list[str]:
    """Every number the marking window (key ± tol, exam.window.inside) holds
    at the precision the paper asks — `digits` decimal places, or below
    10^-digits three significant digits typed as 1.23e-5 — written as a
    student types it (also without trailing zeros): Canvas marks a blank by
    its text, so these are its accepted answers.  A count (tol 0) is itself."""
    if tol == 0:
        return [str(round(key))]
    slack = tol * (1 + 1e-9)
    if key == 0 or abs(key) >= 10 ** -digits:
        step, fmt = Decimal(1).scaleb(-digits), (lambda d: f"{d:.{digits}f}")
    else:
        exp = math.floor(math.log10(abs(key))) if key else -digits - 1
        step = Decimal(1).scaleb(exp - 2)
        fmt = (lambda d: f"{d.scaleb(-exp):.2f}e{exp}")
    lo = math.ceil(Decimal(repr(key - slack)) / step)
    hi = math.floor(Decimal(repr(key + slack)) / step)
    forms: list[str] = []
    for k in range(lo, min(hi, lo + MAX_FORMS) + 1):
        text = fmt(Decimal(k) * step)
        for f in (text, _trimmed(text)):
            if f not in forms and inside(float(f), key, tol):
                forms.append(f)
    return forms or [repr(key)]


def _trimmed(text: str) -> str:
    mantissa, e, exp = text.partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return mantissa + e + exp if mantissa not in ("", "-", "-0") else "0"


def _accepted(a: Answer, digits: int) -> list[list[str]]:
    """Per blank of an answer, the texts Canvas accepts for it."""
    if a.type == "numeric":
        return [typed_forms(centre(a), float(a.tolerance), digits)]
    if a.type == "vector":
        key = centre(a)
        return [typed_forms(k, float(t), digits) for krow, trow in zip(key, tolerance_rows(a, key))
                for k, t in zip(krow, trow)]
    if a.type == "truefalse":
        right = _SAY.text("qti.typed_true" if next(o.text for o in a.options if o.correct) == "true"
                          else "qti.typed_false")
        return [[right, right[0]]]  # the word, or its first letter
    if a.type == "choice":
        letters = "".join(LETTERS[n] for n, o in enumerate(a.options) if o.correct)
        return [[letters] + ([", ".join(letters)] if len(letters) > 1 else [])]
    return [([r[1]] if r != unnumbered(r) else []) + [unnumbered(r)] for _, r in a.exact]


def _blanks(q: Question, digits: int) -> tuple[str, list[dict]]:
    """A multi-part question's lines, one [blank] per component, pair or
    choice, and the blanks with their accepted texts."""
    lines, blanks = [], []
    for n, p in enumerate(q.parts):
        accepted = _accepted(p.answer, digits)
        names = [f"b{n + 1}_{k + 1}" if len(accepted) > 1 else f"b{n + 1}" for k in range(len(accepted))]
        label = f"({PART_LETTERS[n]}) " if len(q.parts) > 1 else ""
        line = _SAY.text("qti.line", quantity=words_html(p.quantity), how=_how(p.answer, digits),
                         blanks=", ".join(f"[{b}]" for b in names))
        lines.append(f"<p><b>{label}</b>{line}</p>")
        blanks += [{"ident": f"response_{b}", "name": b, "text": "", "right": "", "choices": [{"ident": f"{b}_{k}", "text": t}
                                                                  for k, t in enumerate(texts, start=1)]}
                   for b, texts in zip(names, accepted)]
    share = 100 / len(blanks)
    for b in blanks:
        b["score"] = f"{share:.4f}"
    return "".join(lines), blanks


def _how(a: Answer, digits: int) -> str:
    """How to type a part's answer into its blanks (HTML)."""
    if a.type in ("numeric", "vector"):
        if not any(_flat(a.tolerance)):
            return _SAY.text("qti.how_whole")
        return _SAY.text("qti.how_decimals", digits=digits, small=power_of_ten(-digits))
    if a.type == "truefalse":
        return _SAY.text("qti.how_true_or_false")
    if a.type == "choice":
        return _SAY.text("qti.how_letters" if sum(o.correct for o in a.options) > 1 else "qti.how_letter")
    return _SAY.text("qti.how_meanings")


# -- the package's files -----------------------------------------------------

def render_assessment(exam_id: str, title: str, groups: list[dict]) -> bytes:
    return _template("assessment.xml.j2").render(ident=exam_id, title=title, groups=groups).lstrip().encode("utf-8")


def render_manifest(exam_id: str, title: str, files: list[str]) -> bytes:
    return _template("manifest.xml.j2").render(ident=exam_id, title=title, files=files).lstrip().encode("utf-8")
