"""The exam's moodle.xml: one Moodle question bank of every variant, filed
so that a quiz hands each student one variant per exam question."""

from __future__ import annotations

import html

from ..exam.assembly import item_points, points_text
from ..exam.spec import Spec
from ..render import moodle
from ..text import Sayer


def moodle_xml(spec: Spec, master: int, papers: list[dict]) -> bytes:
    """Under a category named after the exam, one category per exam question
    (spec order) holding every distinct variant of it, in roster order."""
    points = item_points(spec)
    say = Sayer("ui").text
    total = points_text(sum(points))
    info = say("moodle.info", title=spec.title, seed=master,
               questions=say("moodle.questions.one" if len(points) == 1 else "moodle.questions.many", n=len(points)),
               points=say("moodle.points.one" if total == "1" else "moodle.points.many", n=total))
    out = [moodle.render_category([spec.title], html.escape(info, quote=False))]
    for item, pts in enumerate(points, start=1):
        out.append(moodle.render_category([spec.title, moodle.item_category(item, pts)]))
        seen = set()
        for p in papers:
            for i, variant, xml in p["moodle"]:
                if i == item and variant not in seen:
                    seen.add(variant)
                    out.append(xml)
    return moodle.render_quiz(out)
