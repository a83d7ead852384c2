"""Moodle XML, structured like Moodle's own export: <quiz>, a category per
student, then one question per graded answer — numerical (with tolerance and
the distractors' feedback), cloze for vectors, multichoice, truefalse,
matching — with the worked solution as general feedback."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ..marking import graded_answers
from ..misconceptions import describe
from ..model import Answer, Solution
from .html import question_html, solution_html


def _text(parent: ET.Element, tag: str, value: str, fmt: str | None = "html") -> ET.Element:
    el = ET.SubElement(parent, tag, {"format": fmt} if fmt else {})
    ET.SubElement(el, "text").text = value
    return el


def category(quiz: ET.Element, path: str) -> None:
    q = ET.SubElement(quiz, "question", {"type": "category"})
    cat = ET.SubElement(q, "category")
    ET.SubElement(cat, "text").text = f"$course$/{path}"


def questions(quiz: ET.Element, solution: Solution, name: str, points: float) -> None:
    parts = graded_answers(solution)
    for n, a in enumerate(parts):
        label = name if len(parts) == 1 else f"{name}{'abcdefghij'[n]}"
        _question(quiz, solution, a, label, points / len(parts))


def _question(quiz, solution: Solution, a: Answer, label: str, points: float) -> None:
    qtype = {"numeric": "numerical", "vector": "cloze", "choice": "multichoice",
             "truefalse": "truefalse", "matching": "matching"}[a.type]
    q = ET.SubElement(quiz, "question", {"type": qtype})
    _text(q, "name", f"{label} {solution.problem.variant} {a.name}", fmt=None)
    body = question_html(solution) + f"<p><b>Answer:</b> {a.label}.</p>"
    if a.type == "vector":
        body += "<p>" + _cloze(a) + "</p>"
    _text(q, "questiontext", body)
    _text(q, "generalfeedback", solution_html(solution))
    ET.SubElement(q, "defaultgrade").text = f"{points:g}"
    ET.SubElement(q, "penalty").text = "0"
    ET.SubElement(q, "hidden").text = "0"
    ET.SubElement(q, "idnumber").text = f"{label}-{solution.problem.variant}-{a.name}"
    if a.type == "numeric":
        _answer(q, 100, a.display, "", tolerance=a.tolerance)
        for o in a.options:
            if not o.correct:
                _answer(q, 0, o.text, describe(o.misconception), tolerance=a.tolerance)
    elif a.type == "choice":
        ET.SubElement(q, "single").text = "true" if len(a.value) == 1 else "false"
        ET.SubElement(q, "shuffleanswers").text = "0"  # the variant's order is the key's order
        ET.SubElement(q, "answernumbering").text = "ABCD"
        share = 100 / max(1, len(a.value))
        for o in a.options:
            _answer(q, share if o.correct else 0, o.text, describe(o.misconception))
    elif a.type == "truefalse":
        for o in a.options:
            _answer(q, 100 if o.correct else 0, o.text, describe(o.misconception), fmt="moodle_auto_format")
    elif a.type == "matching":
        ET.SubElement(q, "shuffleanswers").text = "true"
        for left, right in a.exact:
            sub = _text(q, "subquestion", left)
            ET.SubElement(ET.SubElement(sub, "answer"), "text").text = right


def _answer(q, fraction: float, text: str, feedback: str, tolerance: float | None = None,
            fmt: str = "html") -> None:
    ans = ET.SubElement(q, "answer", {"fraction": f"{fraction:g}", "format": fmt})
    ET.SubElement(ans, "text").text = text.replace(" × 10", "e").translate(
        str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")) if tolerance is not None else text
    if tolerance is not None:
        ET.SubElement(ans, "tolerance").text = repr(float(tolerance))
    _text(ans, "feedback", feedback)


def _cloze(a: Answer) -> str:
    rows = a.value if a.value and isinstance(a.value[0], list) else [a.value]
    tols = a.tolerance if a.value and isinstance(a.value[0], list) else [a.tolerance]
    out = []
    for row, trow in zip(rows, tols):
        out.append(", ".join(f"{{1:NUMERICAL:={v!r}:{t!r}}}" for v, t in zip(row, trow)))
    return "<br/>".join(f"({r})" for r in out)


def serialise(elements) -> bytes:
    """Questions as indented XML, ready to go inside <quiz> (built per student,
    so no process holds the whole exam's element tree)."""
    out = []
    for el in elements:
        ET.indent(el, space="  ", level=1)
        out.append(b"  " + ET.tostring(el, encoding="utf-8") + b"\n")
    return b"".join(out)


def render_quiz(parts: list[bytes]) -> bytes:
    return b'<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + b"".join(parts) + b"</quiz>\n"
