"""The item analysis as files: report.html (figures inline, with alt text),
items.csv (one row per exam question), kinds.csv and misconceptions.csv.
Formats what generator.exam.analysis computed; says only what its numbers
show."""

from __future__ import annotations

import csv
import html
import io

from .. import kinds
from ..exam.analysis import Analysis, ItemStats, distribution
from ..exam.grader import fmt
from ..figures.report import bar_chart
from ..spreadsheet import cell
from ..templating import environment
from .worked import MATHJAX, PAGE, card_link, card_text, step_link, step_title, worked_page

ITEM_COLUMNS = ["question", "kinds", "points", "students", "facility", "sd", "discrimination_index",
                "discriminative_efficiency", "upper_lower_27", "flags"]
MISTAKE_COLUMNS = ["misconception", "description", "responses", "response_share", "students", "student_share",
                   "questions", "kinds", "practice_pages"]
REMEDY_COLUMNS = ["question", "kind", "misconception", "responses", "students", "variant", "step", "step_title",
                  "worked_step", "recall_card", "recall_card_link", "note"]


def _f(x: float | None, places: int) -> str:
    return "" if x is None else f"{x:.{places}f}"


def item_row(it: ItemStats, label: str = "question") -> dict[str, str]:
    return {label: it.label, "kinds": " ".join(it.kinds), "points": fmt(it.points), "students": str(it.students),
            "facility": _f(it.facility, 4), "sd": _f(it.sd, 4), "discrimination_index": _f(it.discrimination, 2),
            "discriminative_efficiency": _f(it.efficiency, 2), "upper_lower_27": _f(it.upper_lower, 4),
            "flags": "; ".join(it.flags)}


def _csv(columns: list[str], rows: list[dict[str, str]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, columns, lineterminator="\n")
    w.writeheader()
    for row in rows:
        w.writerow({k: cell(v) for k, v in row.items()})
    return buf.getvalue()


def practice_links(kind_ids: list[str], site: str) -> list[tuple[str, str]]:
    """(kind id, address) of each kind's practice page: variants of it to
    work, with answer fields (docs/generated/practice/<slug>.md on the course site)."""
    out = []
    for k in kind_ids:
        try:
            out.append((k, f"{site}generated/practice/{kinds.get(k).slug}/"))
        except Exception:  # an unknown kind ("?") has no page
            continue
    return out


def mistake_rows(a: Analysis, site: str) -> list[dict[str, str]]:
    n = len(a.students)
    return [{"misconception": m.name, "description": m.description, "responses": str(m.responses),
             "response_share": _f(m.responses / a.responses, 4), "students": str(m.students),
             "student_share": _f(m.students / n, 4), "questions": " ".join(m.questions), "kinds": " ".join(m.kinds),
             "practice_pages": " ".join(url for _, url in practice_links(m.kinds, site))} for m in a.mistakes]


def remedy_rows(a: Analysis) -> list[dict[str, str]]:
    """misconceptions_by_question.csv: each mistake on each question part, the
    worked step that addresses it (worked.html's anchor) and the recall card."""
    return [{"question": r.question, "kind": r.kind, "misconception": r.misconception,
             "responses": str(r.responses), "students": str(r.students), "variant": r.variant,
             "step": str(r.step or ""), "step_title": step_title(r), "worked_step": step_link(r),
             "recall_card": card_text(r, False), "recall_card_link": card_link(r), "note": r.why}
            for r in a.remedies]


def _remedies_html(a: Analysis) -> list[dict]:
    e = html.escape
    return [{"question": e(r.question), "kind": e(r.kind), "name": e(r.misconception), "responses": r.responses,
             "students": r.students, "variant": e(r.variant), "step": e(step_title(r)), "step_link": e(step_link(r)),
             "card": card_text(r, True), "card_link": e(card_link(r)), "why": e(r.why)} for r in a.remedies]


def figures(a: Analysis) -> dict[str, object]:
    counts = distribution(a.totals, a.maximum)
    top = max(counts) or 1
    bins = [f"{10 * k}–{10 * (k + 1)}" for k in range(10)]
    dist = bar_chart("scores", "students by total, per cent of the maximum", bins, [c / top for c in counts],
                     [str(c) for c in counts], set(),
                     "Bar chart of the students' totals in tenths of the maximum — "
                     + "; ".join(f"{b} %: {c}" for b, c in zip(bins, counts)) + ".")
    shown = [it for it in a.items if it.facility is not None]
    flagged = {i for i, it in enumerate(shown) if it.flags}
    facility = bar_chart("facility", "facility per question (hatched: flagged)", [it.label for it in shown],
                         [it.facility for it in shown], [f"{it.facility:.2f}" for it in shown], flagged,
                         "Bar chart of each question's facility — "
                         + "; ".join(f"question {it.label}: {it.facility:.2f}" + (f" ({', '.join(it.flags)})"
                                                                                 if it.flags else "")
                                     for it in shown) + ".")
    out = {"scores": dist, "facility": facility}
    if a.mistakes:
        top_m = a.mistakes[:8]
        n = len(a.students)
        out["mistakes"] = bar_chart("mistakes", "share of students per named mistake", [m.name for m in top_m],
                                    [m.students / n for m in top_m], [f"{m.students / n:.2f}" for m in top_m], set(),
                                    "Bar chart of the share of students who made each named mistake — "
                                    + "; ".join(f"{m.name}: {m.students} of {n}" for m in top_m) + ".")
    return out


def _svg_inline(fig) -> str:
    """The figure as an <img> of a data: URL, its alt text escaped."""
    import base64
    return (f'<img src="data:image/svg+xml;base64,{base64.b64encode(fig.data).decode("ascii")}" '
            f'alt="{html.escape(fig.alt)}">')


def report_files(a: Analysis, source: str, site: str) -> dict[str, str]:
    figs = figures(a)
    e = html.escape
    items = [{**{k: e(v) for k, v in item_row(it).items()}, "flagged": bool(it.flags)} for it in a.items]
    kind_rows = [{**{k: e(v) for k, v in item_row(it, "kind").items()},
                  "title": e(_title(it.label)), "flagged": bool(it.flags)} for it in a.kinds]
    mistakes = [{"name": e(m.name), "description": e(m.description), "responses": m.responses,
                 "response_share": f"{m.responses / a.responses:.1%}", "students": m.students,
                 "student_share": f"{m.students / len(a.students):.1%}", "questions": e(", ".join(m.questions)),
                 "links": [(e(k), e(url)) for k, url in practice_links(m.kinds, site)]} for m in a.mistakes]
    flagged = [(e(it.label), e("; ".join(it.flags))) for it in a.items if it.flags]
    page = environment().get_template("html/analysis.html.j2").render(
        source=e(source), students=len(a.students), responses=a.responses, maximum=fmt(a.maximum),
        mean=fmt(sum(a.totals) / len(a.totals)), alpha=_f(a.alpha, 4),
        cic=_f(None if a.alpha is None else 100 * a.alpha, 2), items=items, kinds=kind_rows, mistakes=mistakes,
        flagged=flagged, figures={k: _svg_inline(f) for k, f in figs.items()}, remedies=_remedies_html(a),
        mathjax=e(site + MATHJAX))
    kind_csv = [item_row(it, "kind") for it in a.kinds]
    return {"report.html": page, PAGE: worked_page(a.remedies, site),
            "misconceptions_by_question.csv": _csv(REMEDY_COLUMNS, remedy_rows(a)),
            "items.csv": _csv(ITEM_COLUMNS, [item_row(it) for it in a.items]),
            "kinds.csv": _csv(["kind"] + ITEM_COLUMNS[2:], [{k: v for k, v in r.items() if k != "kinds"}
                                                           for r in kind_csv]),
            "misconceptions.csv": _csv(MISTAKE_COLUMNS, mistake_rows(a, site))}


def _title(kind_id: str) -> str:
    try:
        return kinds.get(kind_id).title
    except Exception:
        return "a variant code of no known kind"
