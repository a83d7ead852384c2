"""The site's answer fields (docs/javascripts/practice.js) and Forecast
guess: what each needs, read from the solution and embedded in the page as
JSON.  They mark a response by the rule of `attndrills grade`
(generator.grading.mark): the window is the printed key ± the answer's
tolerance; the script only compares."""

from __future__ import annotations

import html
import json
import re

from ..exam.answers import answer_text, read_text
from ..exam.assembly import graded_answers
from ..exam.misconceptions import describe
from ..exam.numbers import parse_number, parse_vector
from ..exam.options import LETTERS, option_lines
from ..exam.window import centre
from ..mathlines import Node
from ..model import Solution, prose
from ..text import Sayer, builtin, convention, lookup, number
from . import plain
from .latex import latex

# What each kind's Forecast asks the student to commit to: a number (an
# answer, which component of it, and the key of its label in
# text/<lang>/ui.yaml) or, where the Forecast asks
# for words, a free-text guess followed by the answers named here.
_FORECAST: dict[str, tuple] = {
    "A": ("number", "weights", "top", "practice.forecast_labels.winner_weight"),
    "B": ("number", "weights", "first", "practice.forecast_labels.each_weight"),
    "C": ("number", "weights", "top", "practice.forecast_labels.real_winner_weight"),
    "D": ("words", ("weights",)),
    "E": ("number", "weights", "first", "practice.forecast_labels.single_input_weight"),
    "F": ("number", "entropy", None, "practice.forecast_labels.entropy"),
    "G": ("words", ("alignment",)),
    "H": ("words", ("limit_infinity", "limit_zero")),
    "I": ("words", ("double_softmax",)),
    "1.1": ("words", ("matching",)),
    "1.2": ("words", ("statement_1", "statement_2", "statement_3")),
    "1.3": ("words", ("sums_to_one",)),
    "2.1": ("number", "weights", "top", "practice.forecast_labels.largest_weight"),
    "2.2": ("words", ("context",)),
    "2.3": ("words", ("weights_change",)),
    "3.1": ("words", ("entropy_uniform", "entropy")),
    "3.2": ("words", ("state",)),
    "3.3": ("words", ("context_changes",)),
    "4.1": ("number", "count", None, "practice.forecast_labels.score_count"),
    "4.2": ("words", ("pattern",)),
    "4.3": ("number", "surviving_fraction", None, "practice.forecast_labels.gradient_kept"),
    "5.1": ("number", "weights", "first", "practice.forecast_labels.first_weight"),
    "5.2": ("words", ("limit_plus", "limit_zero", "limit_minus")),
    "5.3": ("number", "entropy_drop", None, "practice.forecast_labels.entropy_drop"),
}
say = Sayer("ui")  # the fields' words: practice.* in text/<lang>/ui.yaml

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
        sep = convention("list_separator") + " "
        return number(" | ".join("(" + sep.join(row) + ")" for row in _rows(a.display)))
    if a.type == "matching":
        return plain.label(answer_text(a))
    return read_text(a)


def _wrong(name: str | None) -> str:
    return say.text("practice.looks_like", mistake=describe(name)) if name else ""


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
    fill = _FIELDS.get(a.type)
    if fill:
        d.update(fill(a))
    return d


def _number_field(a) -> dict:
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
    return dict(key=key, tol=tol, printed=[[str(x) for x in row] for row in rows],
                matrix=a.type == "vector" and isinstance(a.display[0], list), distractors=distractors)


def _choice_field(a) -> dict:
    return dict(multi=sum(o.correct for o in a.options) > 1,
                options=[{"letter": LETTERS[i], "text": plain.label(o.text), "correct": o.correct,
                          "sentence": _wrong(o.misconception)} for i, o in enumerate(a.options)],
                options_html=[label_html(o.text) for o in a.options])


def _truefalse_field(a) -> dict:
    wrong = next((o for o in a.options if not o.correct), None)
    return dict(key=bool(a.value), sentence=_wrong(wrong.misconception if wrong else None))


def _matching_field(a) -> dict:
    pairs = [p.split(_ARROW, 1) for p in a.display]
    right = sorted({r for _, r in pairs})
    return dict(left=[left for left, _ in pairs], left_html=[label_html(left) for left, _ in pairs], right=right,
                key=[right.index(r) for _, r in pairs],
                arrow=_ARROW)


# What a field of each answer type adds to the common data (text answers: nothing)
_FIELDS = {"numeric": _number_field, "vector": _number_field, "choice": _choice_field,
           "truefalse": _truefalse_field, "matching": _matching_field}


def forecast_field(solution: Solution) -> dict | None:
    """What the Forecast asks the student to commit to (see _FORECAST)."""
    plan = _FORECAST.get(solution.problem.kind)
    named = {a.name: a for a in solution.answers}
    if plan and plan[0] == "number" and plan[1] in named:
        a = named[plan[1]]
        if a.type == "numeric":
            label = say.text(plan[3])
            return {"mode": "number", "label": plain.label(label), "label_html": label_html(label),
                    "key": centre(a), "shown": str(a.display), "tol": float(a.tolerance)}
        rows, shown = centre(a), _rows(a.display)
        tols = _tol_rows(a.tolerance, rows)
        r, c = 0, 0
        if plan[2] == "top":  # the winner: the largest printed weight of the first row
            c = max(range(len(rows[0])), key=lambda i: rows[0][i])
        label = say.text(plan[3])
        if plan[2] == "top":
            label = say.text("practice.forecast_labels.at_position", label=label, n=c + 1)
        return {"mode": "number", "label": plain.label(label), "label_html": label_html(label), "key": rows[r][c],
                "shown": shown[r][c], "tol": tols[r][c]}
    chosen = [named[n] for n in plan[1] if n in named] if plan and plan[0] == "words" else []
    chosen = chosen or graded_answers(solution)
    if not chosen:
        return None
    return {"mode": "words", "answers": [{"label": plain.label(a.label),
                                         "shown": _shown(a)}
                                        for a in chosen]}


def attribute_json(data) -> str:
    """JSON for a single-quoted HTML attribute, written as is: ' and & (only
    ever inside its strings) become \\u0027 and \\u0026, so the attribute holds
    no character reference.  Both builders parse every attribute of every
    page twice (raw HTML, then the search index) and decode each reference
    one by one: entity-escaped, the practice pools alone held 800 000 of them."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True).replace("&", "\\u0026").replace("'", "\\u0027")


SCRIPT = "practice.script."  # practice.js's messages in text/<lang>/ui.yaml


def script_text() -> dict[str, str]:
    """What practice.js says, in the run's language and with its edits: each
    message by its key, as written (the script fills the {placeholders}),
    and the language's decimal mark, which numbers put into them take."""
    said = {key.removeprefix(SCRIPT): lookup("ui", key).source for key in builtin("en", "ui") if key.startswith(SCRIPT)}
    return {**said, "decimal_mark": convention("decimal_mark")}


def script_text_html() -> str:
    """The element a page with answer fields carries practice.js's messages
    on (raw HTML at column 0), or nothing where they are the script's own
    English (text/en/ui.yaml unedited; tests/test_site.py holds the two equal)."""
    said = script_text()
    english = {key.removeprefix(SCRIPT): s.source for key, s in builtin("en", "ui").items() if key.startswith(SCRIPT)}
    if said == {**english, "decimal_mark": "."}:
        return ""
    return f"<div class=\"ad-text\" data-ad-text='{attribute_json(said)}' hidden></div>"


def answer_view(solution: Solution) -> dict:
    """The answer fields and the Forecast guess of one problem, for the template."""
    uid = "ad-" + re.sub(r"[^A-Za-z0-9]+", "-", solution.problem.variant).strip("-").lower()
    fields = [answer_field(a) for a in graded_answers(solution) if a.type != "text"]
    forecast = forecast_field(solution)
    for f in fields:
        f["id"] = f"{uid}-{re.sub(r'[^A-Za-z0-9]+', '-', f['name'])}"
    data = {"variant": solution.problem.variant, "forecast": _script_data(forecast),
            "answers": [_script_data(f) for f in fields]}
    return {"uid": uid, "json": attribute_json(data), "forecast": forecast, "answers": fields}


def _script_data(field: dict | None) -> dict | None:
    """What the script reads of a field: all but the typeset labels."""
    return field and {k: v for k, v in field.items() if not k.endswith("_html")}
