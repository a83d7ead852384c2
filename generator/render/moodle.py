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

Moodle's cloze importer ignores <defaultgrade>: a cloze question's mark is
the sum of its blank weights, which must be whole numbers.  The weights share
the points as answers.csv does (equally per part, then per component or
pair); they sum to the points when whole numbers allow it, else to the
smallest whole multiple of them (see `cloze_weights`).  A random slot starts
with mark 1 in any case, so the README has the teacher set each slot to the
points its category name states."""

from __future__ import annotations

import html
import math
import re

import jinja2
from markupsafe import Markup

from ..exam import PART_LETTERS, Part, Question, points_text, unmarked_prompts
from ..kinds._base import option_lines
from ..marking import centre as _marking_centre
from ..marking import inside, parse_number
from ..mathlines import power_of_ten
from ..misconceptions import describe
from ..model import Answer, prose
from ..templating import environment
from . import plain
from .html import inline, question_html, solution_html, symbols_html

MAX_MULTIPLE = 1000  # weights never grow past 1000 × the points
_XML_BAD = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ENUMERATED = re.compile(r"\([a-z]\) ")


_CENTRES: dict[int, tuple[Answer, object]] = {}


def centre(a: Answer):
    """marking.centre, read once per answer: a vector part asks for it for
    its weights and again for its blanks (the answer is kept with its value,
    so its id is not reused while it is here)."""
    hit = _CENTRES.get(id(a))
    if hit is None or hit[0] is not a:
        if len(_CENTRES) >= 64:
            _CENTRES.clear()
        hit = _CENTRES[id(a)] = (a, _marking_centre(a))
    return hit[1]


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
    return f"Question {item} ({points_text(points)} {'point' if points == 1 else 'points'})"


def render_quiz(fragments: list[str]) -> bytes:
    return _template("quiz.xml.j2").render(fragments=fragments).encode("utf-8")


# -- one exam question → one Moodle question ----------------------------------

def render_question(q: Question, digits: int) -> str:
    """One Moodle question for one exam question (every part in it)."""
    if not q.parts:
        return ""  # nothing to grade (model answers only): nothing Moodle could mark
    return _template("question.xml.j2").render(q=question_view(q, digits))


_QTYPES = {"numeric": "numerical", "choice": "multichoice", "truefalse": "truefalse", "matching": "matching"}


def _qtype(parts) -> str:
    a = parts[0].answer
    # Moodle's matching type needs three choices at least; fewer pairs go into a cloze
    if len(parts) == 1 and (a.type in ("numeric", "choice", "truefalse") or a.type == "matching" and len(a.exact) >= 3):
        return _QTYPES[a.type]
    return "cloze"


def question_view(q: Question, digits: int) -> dict:
    """What templates/moodle/question.xml.j2 needs of one exam question: its
    Moodle type, texts (HTML) and answers."""
    sol, parts = q.solution, q.parts
    skip, claims = _shown_elsewhere(q)
    qtype = _qtype(parts)
    a = parts[0].answer
    v = {"type": qtype, "name": f"Q{q.item} {sol.problem.variant}",
         "text": question_html(sol, skip) + _question_end(qtype, q, claims, digits),
         "feedback": _unlettered(solution_html(sol), parts),
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
        v["subquestions"] = [(stems.get(left) or _label(left), _unnumbered(right)) for left, right in a.exact]
    return v


def _question_end(qtype: str, q: Question, claims: dict[str, str], digits: int) -> str:
    """What follows the question's paragraphs: the line a numerical or
    true/false answer is asked on, or a cloze question's parts."""
    parts, a = q.parts, q.parts[0].answer
    if qtype == "numerical":
        # as a cloze part's line reads; Moodle puts its own "Answer:" before the box
        return f"<p>{_label(parts[0].quantity)} ({_precision(a, digits)}):</p>"
    if qtype == "truefalse":
        return f"<p><b>True or false:</b> {_claim(a, claims)}</p>"
    if qtype != "cloze":
        return ""
    weights = cloze_weights(parts)
    # parts by letter alone: the letter answers.csv gives the part after the question's
    # number on the student's paper, which Moodle's quiz order need not follow
    labels = [f"({PART_LETTERS[n]})" if len(parts) > 1 else "" for n in range(len(parts))]
    stems = symbols_html(q.solution)
    return "".join(_cloze_part(p, label, w, claims, stems, digits) for p, label, w in zip(parts, labels, weights))


def _shown_elsewhere(q: Question) -> tuple[frozenset[int], dict[str, str]]:
    """Question paragraphs Moodle shows in another form — the choices of a
    choice answer (Moodle's own buttons), the numbered statements of a
    true/false answer (each beside its own menu), the enumerated meanings of
    a matching answer (Moodle's menus) — or does not ask: the prompts of
    text answers, which an exam does not mark (the worked solution, shown
    once the question is answered, argues them); and the statements by
    answer name."""
    skip = set(unmarked_prompts(q.solution))
    claims = {}
    paragraphs = ["".join(seg if isinstance(seg, str) else " " for seg in p) for p in q.solution.question]
    for part in q.parts:
        a = part.answer
        choices = set(option_lines(a.options)) if a.type == "choice" else set()  # its "(B) …" paragraphs
        for n, text in enumerate(paragraphs):
            if a.type == "choice":
                if q.solution.question[n] in choices:
                    skip.add(n)
            elif a.type == "truefalse" and a.name.startswith("statement_"):
                prefix = f"({a.name[10:]}) "
                para = q.solution.question[n]
                if para and isinstance(para[0], str) and para[0].startswith(prefix):
                    skip.add(n)  # the statement as HTML, its maths typeset
                    claims[a.name] = inline((para[0][len(prefix):].lstrip(),) + tuple(para[1:])).strip()
            elif a.type == "matching":
                rights = [r for _, r in a.exact]
                if rights and all(_ENUMERATED.match(r) for r in rights) and all(r in text for r in rights):
                    skip.add(n)
    return frozenset(skip), claims


def _label(words: str) -> str:
    """A part's label or a matching item as HTML: a symbol (c_t, α_t1,
    y_t-1) as maths, as the question sets it."""
    return inline(prose(words))


def _unlettered(feedback: str, parts) -> str:
    """The worked solution without the paper's "(a) " before a matching
    meaning: Moodle's menus list the meanings unlettered ("e_ti → raw
    relevance number — …", not "→ (a) raw …")."""
    for p in parts:
        if p.answer.type == "matching":
            for _, right in p.answer.exact:
                lettered, plain_right = (html.escape(r, quote=False) for r in (right, _unnumbered(right)))
                feedback = feedback.replace(lettered, plain_right)
    return feedback


def _unnumbered(right: str) -> str:
    """A matching choice without its "(a) " enumeration: Moodle lists the
    choices in its own (shuffled or sorted) order, where the letters mislead."""
    return right[len(m.group(0)):] if (m := _ENUMERATED.match(right)) else right


def _claim(a: Answer, claims: dict[str, str]) -> str:
    """A true/false statement as a claim, with no answer in it (HTML)."""
    claim = claims.get(a.name) or _label(a.label)
    claim = claim[:1].upper() + claim[1:]
    return claim if claim.endswith((".", "?", "!")) else claim + "."


def _precision(a: Answer, digits: int) -> str:
    """How to type a number, as the paper's instructions say it: a key below
    10^-digits counts only to three significant digits (its window is that
    narrow), so every part says so, also where its key is not that small (or
    the rule would tell which keys are); Moodle reads 1.23e-5, not 1.23 × 10⁻⁵."""
    if a.type in ("numeric", "vector") and not any(_flat(a.tolerance)):
        return "a whole number"
    # 10⁻⁴ in Unicode, not <sup>: Moodle's plain-text summaries of a question drop the tag ("10−4")
    return f"to {digits} decimal places; below {power_of_ten(-digits)}, three significant digits typed as 1.23e-5"


def _flat(x) -> list:
    return [v for item in x for v in _flat(item)] if isinstance(x, list) else [x]


def _feedback(misconception: str | None) -> str:
    return html.escape(describe(misconception)) if misconception else ""


def _answer(fraction: float, text: str, feedback: str, fmt: str = "html", tolerance: str | None = None) -> dict:
    return {"fraction": f"{fraction:g}", "format": fmt, "text": text, "feedback": feedback, "tolerance": tolerance}


def _num(x: float) -> str:
    return repr(float(x))


def _named(key: float, tol: float, mistakes) -> list[tuple[float, object]]:
    """The named mistakes a numerical answer can tell apart: (value, what),
    leaving out a value the key's window holds, a value already listed, and
    two values within one tolerance of each other.  Moodle shows the first
    answer whose window holds the response, so of two such mistakes a
    response at the later one got the earlier one's feedback (2.3: "took a
    hard argmax", 0, beside "did not divide by their total", 0.0001)."""
    values: list[tuple[float, object]] = []
    for value, what in mistakes:
        if value is None or inside(value, key, tol) or any(value == v for v, _ in values):
            continue
        values.append((value, what))
    return [(v, w) for v, w in values if not any(u != v and inside(u, v, tol) for u, _ in values)]


def _numerical(a: Answer) -> list[dict]:
    """The key's window (centre ± tolerance) first — Moodle takes the first
    answer whose window holds the response — then each named mistake."""
    c, t = centre(a), float(a.tolerance)
    out = [_answer(100, _num(c), "", "moodle_auto_format", _num(t))]
    for d, o in _named(c, t, [(parse_number(o.text), o) for o in a.options if not o.correct]):
        out.append(_answer(0, _num(d), _feedback(o.misconception), "moodle_auto_format", _num(t)))
    return out


def _multichoice(a: Answer) -> tuple[bool, list[dict]]:
    """Whether one choice is right, and the choices: the right ones share the mark."""
    correct = sum(o.correct for o in a.options)
    share = 100 / max(1, correct)
    return correct == 1, [_answer(float(f"{share:.5f}") if o.correct else 0, html.escape(plain.label(o.text)),
                                  _feedback(o.misconception)) for o in a.options]


# -- cloze --------------------------------------------------------------------

def _blanks(p: Part) -> int:
    a = p.answer
    if a.type == "vector":
        return len(_flat(centre(a)))
    if a.type == "matching":
        return len(a.exact)
    return 1


def cloze_weights(parts) -> list[list[int]]:
    """Whole-number blank weights per part: each part's points shared equally
    by its blanks (components, pairs), times the smallest whole multiple m
    that makes every weight whole — so the weights sum to the points when
    m = 1, and always share the mark as answers.csv does."""
    shares = [[p.points / _blanks(p)] * _blanks(p) for p in parts]
    m = 1
    for row in shares:
        for s in row:
            m = m * s.denominator // math.gcd(m, s.denominator)
    m = min(m, MAX_MULTIPLE)
    return [[max(1, round(s * m)) for s in row] for row in shares]


def _esc(text: str) -> str:
    """Text inside a cloze answer or feedback.  The importer splits at an
    unescaped `~`, `#` or `}` and then decodes HTML entities, so the text is
    HTML-escaped twice (it is stored as HTML), `}` and `#` get the backslash
    the importer removes, and `~` (which it never unescapes) and `{` are entities."""
    t = html.escape(text, quote=False).replace("&", "&amp;")
    return t.replace("}", "\\}").replace("#", "\\#").replace("~", "&#126;").replace("{", "&#123;")


# A part's letter, bold by style: Moodle's plain-text summary of a question
# (quiz response reports, statistics) writes <b> and <strong> in capitals,
# where part (a) would read as choice (A)
_PART_LABEL = '<span style="font-weight: bold">{}</span>'


def _cloze_part(p: Part, label: str, weights: list[int], claims: dict[str, str], stems: dict[str, str],
                digits: int) -> str:
    a = p.answer
    head = f"{_PART_LABEL.format(html.escape(label))} " if label else ""
    if a.type == "truefalse":
        menu = "~".join(f"{'=' if o.correct else '%0%'}{o.text.capitalize()}"
                        + (f"#{_esc(describe(o.misconception))}" if o.misconception else "")
                        for o in sorted(a.options, key=lambda o: o.text != "true"))
        return f"<p>{head}{_claim(a, claims)} {{{weights[0]}:MULTICHOICE:{menu}}}</p>"
    if a.type == "choice":
        single = sum(o.correct for o in a.options) == 1
        kind = "MULTICHOICE_V" if single else "MULTIRESPONSE"
        # the paper's "(C) …" lines, which the worked solution's "Answer: (C) …" names
        menu = "~".join(f"{'=' if o.correct else '%0%'}{_esc(plain.text(line))}"
                        + (f"#{_esc(describe(o.misconception))}" if o.misconception else "")
                        for o, line in zip(a.options, option_lines(a.options)))
        # a vertical menu is a <fieldset> in Moodle's page, which a <p> cannot hold
        return f"<p>{head}{_label(p.quantity)}:</p><div>{{{weights[0]}:{kind}:{menu}}}</div>"
    if a.type == "matching":
        rights = sorted({r for _, r in a.exact})
        items = []
        for (left, right), w in zip(a.exact, weights):
            if len(rights) > 1:
                blank = (f"{{{w}:MULTICHOICE:" + "~".join(f"{'=' if r == right else '%0%'}{_esc(_unnumbered(r))}"
                                                          for r in rights) + "}")
            else:  # a menu needs two choices: a lone answer is typed
                blank = f"{{{w}:SHORTANSWER:={_esc(right)}}}"
            items.append(f"<li>{stems.get(left) or _label(left)} → {blank}</li>")
        return f"<p>{head}{_label(p.quantity)}:</p><ul>{''.join(items)}</ul>"
    if a.type == "numeric":
        return (f"<p>{head}{_label(p.quantity)} ({_precision(a, digits)}): "
                f"{_numeric_blank(weights[0], centre(a), float(a.tolerance), _mistakes_numeric(a))}</p>")
    # a vector, or rows of them: one blank per component, each named mistake's component as a 0 % answer
    key = centre(a)
    tol = a.tolerance if a.value and isinstance(a.value[0], list) else [a.tolerance]
    mistakes = _mistakes_vector(a, key)
    w = iter(weights)
    rows = []
    for i, (krow, trow) in enumerate(zip(key, tol)):
        trow = trow if isinstance(trow, list) else [trow] * len(krow)
        blanks = [_numeric_blank(next(w), k, float(t), [(m[i][j], f) for m, f in mistakes])
                  for j, (k, t) in enumerate(zip(krow, trow))]
        rows.append("(" + ", ".join(blanks) + ")")
    return f"<p>{head}{_label(p.quantity)} ({_precision(a, digits)}):<br />" + "<br />".join(rows) + "</p>"


def _numeric_blank(weight: int, key: float, tol: float, mistakes) -> str:
    alts = [f"={_num(key)}:{_num(tol)}"]
    for value, feedback in _named(key, tol, mistakes):
        alts.append(f"%0%{_num(value)}:{_num(tol)}#{_esc(feedback)}")
    return f"{{{weight}:NUMERICAL:{'~'.join(alts)}}}"


def _mistakes_numeric(a: Answer) -> list[tuple[float | None, str]]:
    return [(parse_number(o.text), describe(o.misconception)) for o in a.options if not o.correct]


def _mistakes_vector(a: Answer, key) -> list[tuple[list[list[float | None]], str]]:
    """Each named mistake's vector, shaped like the key (rows of components)."""
    out = []
    for o in a.options:
        if o.correct:
            continue
        rows = _nested(o.text)
        if rows and not isinstance(rows[0], list):
            rows = [rows]
        if [len(r) for r in rows] == [len(r) for r in key]:
            out.append(([[parse_number(x) for x in r] for r in rows], describe(o.misconception)))
    return out


def _nested(text: str):
    """`(0.1, 0.2)` or `((0.1, 0.9), (0.5, 0.5))` → nested lists of strings."""
    stack: list[list] = [[]]
    token = ""
    for ch in text:
        if ch == "(":
            stack.append([])
        elif ch in ",)":
            if token.strip():
                stack[-1].append(token.strip())
            token = ""
            if ch == ")" and len(stack) > 1:
                done = stack.pop()
                stack[-1].append(done)
        else:
            token += ch
    top = stack[0]
    return top[0] if len(top) == 1 and isinstance(top[0], list) else top
