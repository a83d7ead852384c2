"""An exam's manifest.json: the tool and its dependencies' versions, the
spec, the master seed and paper size, each student's seed and paper code,
and the SHA-256 of every file written; and, for --only, the check that the
folder holds the exam a paper is added to."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

from .. import __version__
from ..errors import UserError
from ..exam.spec import Spec

_DEPENDENCIES = ("sympy", "mpmath", "numpy", "matplotlib", "typst", "jinja2", "manimgx-fonts", "manimgx-fonts-cjk")


def manifest_json(spec: Spec, master: int, paper: str, papers: list[dict], hashes: dict[str, str],
                  with_papers: bool = True) -> str:
    """The manifest of the exam whose `papers` (the jobs' results) and shared
    files (`hashes`, name → SHA-256) are written."""
    return json.dumps({
        "tool": f"attndrills {__version__}",
        "dependencies": {d: _version(d) for d in _DEPENDENCIES},
        "spec": {"title": spec.title, "source": spec.source, "digits": spec.digits,
                 "items": _manifest_items(spec)},
        "master_seed": master, "paper": paper,
        "students": [{"id": p["student"].id, "name": p["student"].name, "seed": p["seed"], "paper_code": p["code"],
                      **({"paper": f"papers/{p['student'].filename}.pdf"} if with_papers else {})}
                     for p in papers],
        "sha256": dict(sorted({**hashes, **{name: h for p in papers for name, h in p["sha256"].items()}}.items())),
    }, indent=2, ensure_ascii=False) + "\n"


def check_same_exam(out: Path, spec: Spec, master: int, paper: str, only: str) -> None:
    """--only writes one paper beside the key, answers.csv and Moodle export
    already in `out`: they must be of the same exam (seed, questions, paper
    size), and list that student."""
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # no exam there yet: --only writes that one paper
    if manifest.get("master_seed") != master:
        raise UserError(f"--only: {out} holds the exam of seed {manifest.get('master_seed')}, not {master}; "
                        f"add --seed {manifest.get('master_seed')}")
    if manifest.get("spec", {}).get("items") != _manifest_items(spec) or manifest.get("paper") != paper:
        raise UserError(f"--only: {out} holds an exam of other questions or paper size than this spec's; "
                        "write the whole exam, or give the spec and --paper it was written with")
    if only not in {s.get("id") for s in manifest.get("students", [])}:
        raise UserError(f"--only: {out} holds no paper of {only!r}; write the whole exam to add a student")


def _manifest_items(spec: Spec) -> list[dict]:
    """The spec's items as manifest.json records them (and --only compares them)."""
    return [{"kind": i.kind, "level": i.level, "count": i.count, "points": i.points} for i in spec.items]

def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"
