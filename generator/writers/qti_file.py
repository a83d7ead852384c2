"""The exam's canvas-qti.zip: a QTI 1.2 package Canvas Classic Quizzes
import (Settings → Import course content → QTI .zip file), one question
group per exam question holding every distinct variant of it.  The zip is
the same bytes for the same seed: entries sorted, fixed timestamps."""

from __future__ import annotations

import io
import zipfile

from ..exam.assembly import item_points
from ..exam.spec import Spec
from ..render import qti

_EPOCH = (1980, 1, 1, 0, 0, 0)


def exam_ident(spec: Spec, master: int) -> str:
    return qti.ident("exam", spec.title, master)


def qti_items(spec: Spec, master: int, questions) -> list[tuple]:
    """A paper's questions as QTI items: (item, variant, XML, the figures of
    its worked solution as files of the package)."""
    from ..figures import draw_figures

    eid, out = exam_ident(spec, master), []
    for q in questions:
        figures = draw_figures(q.solution) if q.parts else []
        out.append((q.item, q.solution.problem.variant, qti.render_item(q, spec.digits, eid, figures),
                    {f"{qti.FIGURES}/{f.filename}": f.data for f in figures}))
    return out


def qti_groups(spec: Spec, master: int, papers: list[dict]) -> list[dict]:
    """One group per exam question (spec order): its variants' items, in
    roster order, each variant once, and the figures they show (name → bytes)."""
    eid = exam_ident(spec, master)
    groups = []
    for item, pts in enumerate(item_points(spec), start=1):
        seen, items, files = set(), [], {}
        for p in papers:
            for i, variant, xml, figures in p["qti"]:
                if i == item and variant not in seen and xml:
                    seen.add(variant)
                    items.append(xml)
                    files.update(figures)
        if items:
            groups.append({"ident": qti.ident(eid, "group", item), "title": qti.group_title(item, pts),
                           "items": items, "files": files})
    return groups


def qti_zip(spec: Spec, master: int, papers: list[dict]) -> bytes:
    """imsmanifest.xml, the assessment and the figures its items show (beside
    it, where their relative src finds them; listed in the manifest, so
    Canvas imports them as the quiz's files), in a zip of fixed bytes."""
    eid = exam_ident(spec, master)
    assessment = f"{eid}/{eid}.xml"
    groups = qti_groups(spec, master, papers)
    figures = {f"{eid}/{name}": data for g in groups for name, data in g["files"].items()}
    files = {assessment: qti.render_assessment(eid, spec.title, groups), **figures,
             "imsmanifest.xml": qti.render_manifest(eid, spec.title, [assessment, *sorted(figures)])}
    return deterministic_zip(files)


def deterministic_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, files[name], compresslevel=9)
    return buf.getvalue()
