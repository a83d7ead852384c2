"""What a student reads of a Moodle question (render.moodle lays out the
XML around it): the question's text as HTML, its maths as \\( … \\), the
line each answer is asked on, and a cloze question's blanks in Moodle's
cloze syntax, with the marking windows and named mistakes they carry.

Moodle's cloze importer ignores <defaultgrade>: a cloze question's mark is
the sum of its blank weights, which must be whole numbers.  The weights share
the points as answers.csv does (equally per part, then per component or
pair); they sum to the points when whole numbers allow it, else to the
smallest whole multiple of them (see `cloze_weights`).  A random slot starts
with mark 1 in any case, so guide/moodle.md has the teacher set each slot to the
points its category name states."""

from __future__ import annotations

import html
import math
import re

from ..exam.assembly import PART_LETTERS, Part, Question, unmarked_prompts
from ..exam.misconceptions import describe
from ..exam.numbers import parse_number
from ..exam.options import option_lines
from ..exam.window import centre as _marking_centre
from ..exam.window import inside
from ..mathlines import power_of_ten
from ..model import Answer, prose
from ..text import Sayer
from . import plain
from .html import inline, symbols_html

_SAY = Sayer("ui")  # the words around the question's own (text/<lang>/ui.yaml, moodle:)
MAX_MULTIPLE = 1000  # weights never grow past 1000 × the points
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


def question_end(qtype: str, q: Question, claims: dict[str, str], digits: int) -> str:
    """What follows the question's paragraphs: the line a numerical or
    true/false answer is asked on, or a cloze question's parts."""
    parts, a = q.parts, q.parts[0].answer
    if qtype == "numerical":
        # as a cloze part's line reads; Moodle puts its own "Answer:" before the box
        return f"<p>{_asks(parts[0], _precision(a, digits))}</p>"
    if qtype == "truefalse":
        return f"<p>{_SAY.text('moodle.true_or_false', claim=_claim(a, claims))}</p>"
    if qtype != "cloze":
        return ""
    weights = cloze_weights(parts)
    # parts by letter alone: the letter answers.csv gives the part after the question's
    # number on the student's paper, which Moodle's quiz order need not follow
    labels = [f"({PART_LETTERS[n]})" if len(parts) > 1 else "" for n in range(len(parts))]
    stems = symbols_html(q.solution)
    return "".join(_cloze_part(p, label, w, claims, stems, digits) for p, label, w in zip(parts, labels, weights))


def shown_elsewhere(q: Question) -> tuple[frozenset[int], dict[str, str]]:
    """Question paragraphs Moodle shows in another form — the choices of a
    choice answer (Moodle's own buttons), the numbered statements of a
    true/false answer (each beside its own menu), the enumerated meanings of
    a matching answer (Moodle's menus) — or does not ask: the prompts of
    text answers, which an exam does not mark (the worked solution, shown
    once the question is answered, argues them); and the statements by
    answer name."""
    skip = set(unmarked_prompts(q.solution))
    claims: dict[str, str] = {}
    paragraphs = ["".join(seg if isinstance(seg, str) else " " for seg in p) for p in q.solution.question]
    for part in q.parts:
        a = part.answer
        if a.type == "choice":
            choices = set(option_lines(a.options))  # its "(B) …" paragraphs
            skip.update(n for n, para in enumerate(q.solution.question) if para in choices)
        elif a.type == "truefalse" and a.name.startswith("statement_"):
            skip.update(_statements(a.name, q.solution.question, claims))
        elif a.type == "matching":
            rights = [r for _, r in a.exact]
            if rights and all(_ENUMERATED.match(r) for r in rights):
                skip.update(n for n, text in enumerate(paragraphs) if all(r in text for r in rights))
    return frozenset(skip), claims


def _statements(name: str, question, claims: dict[str, str]) -> list[int]:
    """The paragraphs that state true/false answer `name` ("(2) …"), its
    statement put into `claims` as HTML, its maths typeset."""
    prefix = f"({name[10:]}) "
    found = []
    for n, para in enumerate(question):
        if para and isinstance(para[0], str) and para[0].startswith(prefix):
            found.append(n)
            claims[name] = inline((para[0][len(prefix):].lstrip(),) + tuple(para[1:])).strip()
    return found


def words_html(words: str) -> str:
    """A part's label or a matching item as HTML: a symbol (c_t, α_t1,
    y_t-1) as maths, as the question sets it."""
    return inline(prose(words))


def unlettered(feedback: str, parts) -> str:
    """The worked solution without the paper's "(a) " before a matching
    meaning: Moodle's menus list the meanings unlettered ("e_ti → raw
    relevance number — …", not "→ (a) raw …")."""
    for p in parts:
        if p.answer.type == "matching":
            for _, right in p.answer.exact:
                lettered, plain_right = (html.escape(r, quote=False) for r in (right, unnumbered(right)))
                feedback = feedback.replace(lettered, plain_right)
    return feedback


def unnumbered(right: str) -> str:
    """A matching choice without its "(a) " enumeration: Moodle lists the
    choices in its own (shuffled or sorted) order, where the letters mislead."""
    return right[len(m.group(0)):] if (m := _ENUMERATED.match(right)) else right


def _asks(p: Part, how: str = "") -> str:
    """The line a part is asked on, before its blank or menu: what it asks
    for, and how to type it where that is said (HTML)."""
    if how:
        return _SAY.text("moodle.asks_how", quantity=words_html(p.quantity), how=how)
    return _SAY.text("moodle.asks", quantity=words_html(p.quantity))


def _claim(a: Answer, claims: dict[str, str]) -> str:
    """A true/false statement as a claim, with no answer in it (HTML)."""
    claim = claims.get(a.name) or words_html(a.label)
    claim = claim[:1].upper() + claim[1:]
    return claim if claim.endswith((".", "?", "!")) else claim + "."


def _precision(a: Answer, digits: int) -> str:
    """How to type a number, as the paper's instructions say it: a key below
    10^-digits counts only to three significant digits (its window is that
    narrow), so every part says so, also where its key is not that small (or
    the rule would tell which keys are); Moodle reads 1.23e-5, not 1.23 × 10⁻⁵."""
    if a.type in ("numeric", "vector") and not any(_flat(a.tolerance)):
        return _SAY.text("moodle.how_whole")
    # 10⁻⁴ in Unicode, not <sup>: Moodle's plain-text summaries of a question drop the tag ("10−4")
    return _SAY.text("moodle.how_decimals", digits=digits, small=power_of_ten(-digits))


def _flat(x) -> list:
    return [v for item in x for v in _flat(item)] if isinstance(x, list) else [x]


def number(x: float) -> str:
    return repr(float(x))


def named_mistakes(key: float, tol: float, mistakes) -> list[tuple[float, object]]:
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
    head = f"{_PART_LABEL.format(html.escape(label))} " if label else ""
    write = {"truefalse": _cloze_truefalse, "choice": _cloze_choice, "matching": _cloze_matching,
             "numeric": _cloze_numeric}.get(p.answer.type, _cloze_vector)
    return write(p, head, weights, claims=claims, stems=stems, digits=digits)


def _menu(options) -> str:
    """A menu's choices, (right, text) each: the right one(s) marked =, the
    others 0 % with the sentence of the mistake each stands for."""
    return "~".join(f"{'=' if o.correct else '%0%'}{text}" + (f"#{_esc(describe(o.misconception))}"
                                                               if o.misconception else "")
                    for o, text in options)


def _cloze_truefalse(p: Part, head: str, weights: list[int], *, claims: dict[str, str], **_) -> str:
    a = p.answer
    said = {"true": _SAY.text("moodle.true"), "false": _SAY.text("moodle.false")}
    menu = _menu((o, _esc(said[o.text])) for o in sorted(a.options, key=lambda o: o.text != "true"))
    return f"<p>{head}{_claim(a, claims)} {{{weights[0]}:MULTICHOICE:{menu}}}</p>"


def _cloze_choice(p: Part, head: str, weights: list[int], **_) -> str:
    a = p.answer
    single = sum(o.correct for o in a.options) == 1
    kind = "MULTICHOICE_V" if single else "MULTIRESPONSE"
    # the paper's "(C) …" lines, which the worked solution's "Answer: (C) …" names
    menu = _menu((o, _esc(plain.text(line))) for o, line in zip(a.options, option_lines(a.options)))
    # a vertical menu is a <fieldset> in Moodle's page, which a <p> cannot hold
    return f"<p>{head}{_asks(p)}</p><div>{{{weights[0]}:{kind}:{menu}}}</div>"


def _cloze_matching(p: Part, head: str, weights: list[int], *, stems: dict[str, str], **_) -> str:
    a = p.answer
    rights = sorted({r for _, r in a.exact})
    items = []
    for (left, right), w in zip(a.exact, weights):
        if len(rights) > 1:
            blank = (f"{{{w}:MULTICHOICE:" + "~".join(f"{'=' if r == right else '%0%'}{_esc(unnumbered(r))}"
                                                      for r in rights) + "}")
        else:  # a menu needs two choices: a lone answer is typed
            blank = f"{{{w}:SHORTANSWER:={_esc(right)}}}"
        items.append(f"<li>{stems.get(left) or words_html(left)} → {blank}</li>")
    return f"<p>{head}{_asks(p)}</p><ul>{''.join(items)}</ul>"


def _cloze_numeric(p: Part, head: str, weights: list[int], *, digits: int, **_) -> str:
    a = p.answer
    return (f"<p>{head}{_asks(p, _precision(a, digits))} "
            f"{_numeric_blank(weights[0], centre(a), float(a.tolerance), _mistakes_numeric(a))}</p>")


def _cloze_vector(p: Part, head: str, weights: list[int], *, digits: int, **_) -> str:
    """A vector, or rows of them: one blank per component, each named
    mistake's component as a 0 % answer."""
    a = p.answer
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
    return f"<p>{head}{_asks(p, _precision(a, digits))}<br />" + "<br />".join(rows) + "</p>"


def _numeric_blank(weight: int, key: float, tol: float, mistakes) -> str:
    alts = [f"={number(key)}:{number(tol)}"]
    for value, feedback in named_mistakes(key, tol, mistakes):
        alts.append(f"%0%{number(value)}:{number(tol)}#{_esc(feedback)}")
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
