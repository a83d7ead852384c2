"""Build the same outputs at two commits and compare them byte for byte
(issue 34.10: a restructuring changes nothing a user gets).

    python bench/compare_outputs.py BEFORE AFTER [--seeds 50] [--quick] [--keep DIR] [--repo DIR]

BEFORE and AFTER are commits or refs of this repository (or of --repo).  Each is taken with
`git archive` into a temporary folder (no worktree is added, nothing in the
checkout changes) and run with this interpreter (the project's venv) and
PYTHONPATH=<that tree>, so `import generator` and its templates/ are the
commit's own.  Compiled templates go to a cache folder of each commit's own.

What is built at each commit, from the same inputs (BEFORE's examples/):
- every kind of `attndrills kinds --json` at BEFORE x seeds 0..N-1 x --digits
  2, 4 and 10: `problem KIND --seed S --digits D` as Markdown and JSON (in one
  process calling generator.cli.main), and at digits 4 also with
  `--figures DIR` (the SVGs and the Markdown that embeds them); a refusal is
  compared as its exit code and stderr;
- a sheet per kind and digits (Typst sources and PDFs of worked solutions of
  every kind), and `sheet examples/set-basics.yaml`;
- `exam examples/exam-midterm.yaml` for a three-student roster with
  --solutions (papers, key, solutions, answers.csv, manifest.json,
  moodle.xml) and a `--variants 3` Moodle pool;
- `site --sets 2 --seed 7 --pdf` (pages, decks, sheets, the MathJax copy).
Each command's exit code and stderr are compared too.  `problem` has no
Typst format: the Typst source of every PDF is captured where it is compiled
(a sitecustomize wrapping typst.Compiler, in every process of the build) and
compared as `typst/<build>/<pdf path>.typ`, which also shows what changed in
a PDF.  Typst PDFs are byte-deterministic (the same sheet built twice gives
the same bytes; the tests compare HEAD with HEAD), so PDFs are compared as
bytes; a differing PDF is reported with its page count and a diff of the text
pypdf extracts.

--quick (for tests): four kinds x 2 seeds x digits 4, one sheet, the exam
without --solutions and no pool, no site.

Exit code 0 when every file is identical, 1 when not, 2 on bad usage."""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIGITS = (2, 4, 10)
FIGURE_DIGITS = 4
QUICK_KINDS = ("A", "G", "H", "I")  # bars, heatmap, sharpening curves, hull and entropy figures
ROSTER = "id,name\nA1,Ada Lovelace\nA2,王小明\nA3,#read(\"x\") Ελένη\n"
SHOW = 5  # differing files shown
DIFF_LINES = 20  # lines of a diff shown

# Every process of a build imports this (PYTHONPATH): each Typst source that
# is compiled is kept under the SHA-256 of the PDF it gave.
SITECUSTOMIZE = '''
import os
_DIR = os.environ.get("ATTNDRILLS_COMPARE_TYPST")
if _DIR:
    import hashlib
    import typst

    def _keep(args, kwargs, pdf):
        src = kwargs.get("input", args[0] if args else None)
        if isinstance(src, (str, os.PathLike)) and os.path.isfile(src):
            with open(src, "rb") as f:
                src = f.read()
        if not isinstance(src, bytes) or not src or not isinstance(pdf, bytes):
            return
        path = os.path.join(_DIR, hashlib.sha256(pdf).hexdigest() + ".typ")
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(src)
        os.replace(tmp, path)

    _Compiler = typst.Compiler

    class Compiler:
        def __init__(self, *args, **kwargs):
            self._compiler = _Compiler(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(self._compiler, name)

        def compile(self, *args, **kwargs):
            pdf = self._compiler.compile(*args, **kwargs)
            _keep(args, kwargs, pdf)
            return pdf

        def compile_with_warnings(self, *args, **kwargs):
            pdf, warnings = self._compiler.compile_with_warnings(*args, **kwargs)
            _keep(args, kwargs, pdf)
            return pdf, warnings

    typst.Compiler = Compiler
    _compile = typst.compile

    def compile(*args, **kwargs):
        pdf = _compile(*args, **kwargs)
        _keep(args, kwargs, pdf)
        return pdf

    typst.compile = compile
'''

CLI = "import sys; from generator.cli import main; sys.exit(main(sys.argv[1:]))"


class Usage(Exception):
    pass


# -- comparing two folders ------------------------------------------------------

@dataclass
class Comparison:
    identical: int = 0
    differing: list[str] = field(default_factory=list)
    only_before: list[str] = field(default_factory=list)
    only_after: list[str] = field(default_factory=list)

    @property
    def compared(self) -> int:
        return self.identical + len(self.differing) + len(self.only_before) + len(self.only_after)

    @property
    def same(self) -> bool:
        return not (self.differing or self.only_before or self.only_after)


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def compare_trees(before: Path, after: Path) -> Comparison:
    """Every file under either folder, by relative path, compared byte for byte
    (PDFs too: Typst writes the same bytes for the same source and fonts)."""
    a, b = files_under(before), files_under(after)
    result = Comparison(only_before=sorted(a - b), only_after=sorted(b - a))
    for name in sorted(a & b):
        if _same_bytes(before / name, after / name):
            result.identical += 1
        else:
            result.differing.append(name)
    return result


def _same_bytes(x: Path, y: Path) -> bool:
    if x.stat().st_size != y.stat().st_size:
        return False
    with open(x, "rb") as f, open(y, "rb") as g:
        while True:
            p, q = f.read(1 << 20), g.read(1 << 20)
            if p != q:
                return False
            if not p:
                return True


def _text(path: Path) -> str | None:
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _pdf_text(path: Path) -> tuple[int, str]:
    from pypdf import PdfReader

    reader = PdfReader(path)
    return len(reader.pages), "\n".join(page.extract_text() or "" for page in reader.pages)


def describe(before: Path, after: Path, name: str, lines: int = DIFF_LINES) -> str:
    """A short account of how one file differs: a unified diff of text, of a
    PDF's extracted text (with page counts), else the sizes."""
    x, y = before / name, after / name
    head = f"  {name}"
    if name.endswith(".pdf"):
        try:
            (pa, ta), (pb, tb) = _pdf_text(x), _pdf_text(y)
        except Exception as exc:  # noqa: BLE001 - pypdf missing or an unreadable PDF
            return f"{head}: {x.stat().st_size} → {y.stat().st_size} bytes (no text: {exc})"
        head += f": {x.stat().st_size} → {y.stat().st_size} bytes, {pa} → {pb} pages"
        if ta == tb:
            return head + ", same extracted text (see its .typ under typst/)"
        ta, tb = ta + "\n", tb + "\n"
    else:
        ta, tb = _text(x), _text(y)
        if ta is None or tb is None:
            return f"{head}: binary, {x.stat().st_size} → {y.stat().st_size} bytes"
    diff = list(difflib.unified_diff(ta.splitlines(), tb.splitlines(), "before/" + name, "after/" + name,
                                     n=1, lineterm=""))
    shown = [line if len(line) <= 160 else line[:157] + "..." for line in diff[:lines]]
    more = f"\n    … {len(diff) - lines} more diff lines" if len(diff) > lines else ""
    return head + "\n" + "\n".join("    " + line for line in shown) + more


# -- building one commit's outputs ----------------------------------------------

REPO = [ROOT]  # the repository whose commits are compared (--repo)


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(REPO[0]), *args], capture_output=True)


def resolve(rev: str) -> str:
    if not rev.strip() or rev.startswith("-"):
        raise Usage(f"{rev!r} is not a commit")
    try:
        done = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except FileNotFoundError:
        raise Usage("git is not installed") from None
    if done.returncode:
        raise Usage(f"{rev} is not a commit of {REPO[0]}")
    return done.stdout.decode().strip()


def extract(commit: str, into: Path) -> None:
    archive = _git("archive", "--format=tar", commit)
    if archive.returncode:
        raise RuntimeError(f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()}")
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into)


def _env(tree: Path, hook: Path, cache: Path, typst_dir: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTNDRILLS_")}
    env.update(PYTHONPATH=os.pathsep.join([str(tree), str(hook)]), XDG_CACHE_HOME=str(cache),
               PYTHONHASHSEED="0", NO_MKDOCS_2_WARNING="1")
    if typst_dir is not None:
        env["ATTNDRILLS_COMPARE_TYPST"] = str(typst_dir)
    return env


def kinds_at(tree: Path, hook: Path, cache: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", CLI, "kinds", "--json"], capture_output=True, text=True,
                          env=_env(tree, hook, cache), cwd=tree)
    if done.returncode:
        raise RuntimeError(f"`attndrills kinds --json` failed at BEFORE: {done.stderr.strip()[-500:]}")
    return [row["id"] for row in json.loads(done.stdout)]


def plan(kinds: list[str], seeds: int, quick: bool) -> dict:
    if quick:
        kinds = [k for k in QUICK_KINDS if k in kinds] or kinds[:4]
        return {"kinds": kinds, "seeds": list(range(min(seeds, 2))), "digits": [FIGURE_DIGITS],
                "sheets": [{"kinds": kinds, "digits": FIGURE_DIGITS}], "solutions": False, "pool": False,
                "site": False}
    return {"kinds": kinds, "seeds": list(range(seeds)), "digits": list(DIGITS),
            "sheets": [{"kinds": [k], "digits": d} for k in kinds for d in DIGITS],
            "solutions": True, "pool": True, "site": True}


def build_problems(p: dict, out: Path) -> None:
    """Run inside a process whose PYTHONPATH is the commit's tree: every
    problem of the plan through generator.cli.main, stdout into a file."""
    import contextlib

    import generator
    from generator import cli

    print(f"  generator from {Path(generator.__file__).parent}", file=sys.stderr)

    def run(args: list[str], target: Path) -> None:
        o, e = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
            code = cli.main(args)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(o.getvalue(), encoding="utf-8")
        if code or e.getvalue():
            target.with_name(target.name + ".status").write_text(f"exit {code}\n{e.getvalue()}", encoding="utf-8")

    for kind in p["kinds"]:
        folder = out / "problems" / kind
        folder.mkdir(parents=True)
        for seed in p["seeds"]:
            for digits in p["digits"]:
                base = ["problem", kind, "--seed", str(seed), "--digits", str(digits)]
                stem = f"s{seed}-d{digits}"
                run(base, folder / f"{stem}.md")
                run(base + ["--format", "json"], folder / f"{stem}.json")
                if digits == FIGURE_DIGITS:
                    figures = folder / f"{stem}-figures"
                    # relative, as a user types it: the page names the files, not the folder
                    run(base + ["--figures", os.path.relpath(figures)], figures / "problem.md")


def _sheet_spec(kinds: list[str], digits: int, count: int) -> str:
    items = "".join(f"  - kind: {json.dumps(k)}\n    count: {count}\n" for k in kinds)
    return f"title: Every kind\nseed: 11\ndigits: {digits}\nitems:\n{items}"


def build_sheets(p: dict, out: Path) -> None:
    """Run inside a process whose PYTHONPATH is the commit's tree: a sheet and
    key per entry of the plan's sheets (each kind at each digits), in this
    process (`sheet` compiles here and forks nothing)."""
    import contextlib

    from generator import cli

    for sheet in p["sheets"]:
        name = f"{'-'.join(sheet['kinds']) if len(sheet['kinds']) == 1 else 'kinds'}-d{sheet['digits']}"
        spec = Path("inputs") / f"sheet-{name}.yaml"
        spec.write_text(_sheet_spec(sheet["kinds"], sheet["digits"], 1 if len(sheet["kinds"]) > 1 else 2),
                        encoding="utf-8")
        e = io.StringIO()
        with contextlib.redirect_stderr(e):
            code = cli.main(["sheet", str(spec), "--out", str(out / "sheets" / name)])
        (out / "status" / f"sheet-{name}.txt").write_text(f"exit {code}\n{e.getvalue()}", encoding="utf-8")


def build(label: str, commit: str, tree: Path, p: dict, inputs: Path, work: Path, hook: Path,
          log) -> float:
    """All of the plan's outputs of one commit into work/out; returns seconds."""
    start = time.perf_counter()
    out, cache, typst_dir = work / "out", work / "cache", work / "typst-sources"
    shutil.copytree(inputs, work / "inputs")
    for folder in (out / "status", typst_dir):
        folder.mkdir(parents=True)
    env = _env(tree, hook, cache, typst_dir)

    def cli(name: str, *args: str) -> None:
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True, env=env,
                              cwd=work)
        (out / "status" / f"{name}.txt").write_text(f"exit {done.returncode}\n{done.stderr}", encoding="utf-8")
        log(f"  {label}: {name} {time.perf_counter() - t:.1f} s" + (f" (exit {done.returncode})"
                                                                    if done.returncode else ""))

    t = time.perf_counter()
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--build-problems", json.dumps(p),
                           "out"], capture_output=True, text=True, env=env, cwd=work)
    if done.returncode:
        raise RuntimeError(f"building the problems of {label} failed:\n{done.stderr.strip()[-2000:]}")
    if str(tree) not in done.stderr:
        raise RuntimeError(f"the problems of {label} were not built from {tree}: {done.stderr.strip()}")
    log(f"  {label}: {len(p['kinds'])} kinds x {len(p['seeds'])} seeds x digits "
        f"{','.join(map(str, p['digits']))}: {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--build-sheets", json.dumps(p),
                           "out"], capture_output=True, text=True, env=env, cwd=work)
    if done.returncode:
        raise RuntimeError(f"building the sheets of {label} failed:\n{done.stderr.strip()[-2000:]}")
    log(f"  {label}: {len(p['sheets'])} sheets of the kinds: {time.perf_counter() - t:.1f} s")
    cli("sheet", "sheet", "inputs/set-basics.yaml", "--out", "out/sheet")
    exam = ["exam", "inputs/exam-midterm.yaml", "--roster", "inputs/class.csv", "--out", "out/exam"]
    cli("exam", *exam, *(["--solutions"] if p["solutions"] else []))
    if p["pool"]:
        cli("exam-pool", "exam", "inputs/exam-midterm.yaml", "--variants", "3", "--out", "out/exam-pool")
    if p["site"]:
        cli("site", "site", "--sets", "2", "--seed", "7", "--docs", "out/site", "--pdf")
    # each PDF's Typst source beside the outputs, named after the PDF
    for pdf in sorted(out.rglob("*.pdf")):
        source = typst_dir / (hashlib.sha256(pdf.read_bytes()).hexdigest() + ".typ")
        rel = pdf.relative_to(out).as_posix()
        target = out / "typst" / (rel[: -len(".pdf")] + ".typ")
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_file():
            shutil.copyfile(source, target)
        else:
            target.write_text("(no Typst source was captured for this PDF)\n", encoding="utf-8")
    return time.perf_counter() - start


def _inputs(before_tree: Path, into: Path) -> None:
    into.mkdir(parents=True)
    for name in ("exam-midterm.yaml", "set-basics.yaml"):
        source = before_tree / "examples" / name
        if not source.is_file():
            raise Usage(f"BEFORE has no examples/{name}")
        shutil.copyfile(source, into / name)
    (into / "class.csv").write_text(ROSTER, encoding="utf-8")


def report(names: tuple[str, str], seconds: tuple[float, float], before: Path, after: Path, c: Comparison,
           show: int = SHOW) -> str:
    lines = [f"built {names[0]} in {seconds[0]:.1f} s, {names[1]} in {seconds[1]:.1f} s",
             f"files compared: {c.compared}; identical {c.identical}, differing {len(c.differing)}, "
             f"only in {names[0]} {len(c.only_before)}, only in {names[1]} {len(c.only_after)}"]
    if not c.same:
        areas: dict[str, list[int]] = {}
        for i, group in enumerate((c.differing, c.only_before, c.only_after)):
            for name in group:
                parts = name.split("/")
                area = "/".join(parts[:2]) if parts[0] == "typst" and len(parts) > 2 else parts[0]
                areas.setdefault(area, [0, 0, 0])[i] += 1
        lines.append("by folder (differing / only before / only after): " + "; ".join(
            f"{area} {d}/{b}/{a}" for area, (d, b, a) in sorted(areas.items())))
    if c.differing:
        lines.append(f"first differing files ({min(show, len(c.differing))} of {len(c.differing)}):")
        lines += [describe(before, after, name) for name in c.differing[:show]]
    for side, missing in ((names[0], c.only_before), (names[1], c.only_after)):
        if missing:
            lines.append(f"only in {side}: " + ", ".join(missing[:show]) + (" …" if len(missing) > show else ""))
    lines.append("identical" if c.same else "DIFFERENT")
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise Usage(message)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--build-problems"]:  # the inner processes of one commit
        build_problems(json.loads(argv[1]), Path(argv[2]))
        return 0
    if argv[:1] == ["--build-sheets"]:
        build_sheets(json.loads(argv[1]), Path(argv[2]))
        return 0
    parser = _Parser(prog="compare_outputs.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("before", metavar="BEFORE")
    parser.add_argument("after", metavar="AFTER")
    parser.add_argument("--seeds", type=int, default=50, help="seeds 0..N-1 per kind (default 50)")
    parser.add_argument("--quick", action="store_true", help="a few kinds, 2 seeds, digits 4, no site")
    parser.add_argument("--keep", metavar="DIR", help="build into DIR (new or empty) and keep it")
    parser.add_argument("--repo", metavar="DIR", help="the repository of the commits (default: this script's)")
    try:
        args = parser.parse_args(argv)
        if args.repo is not None:
            if not Path(args.repo).is_dir():
                raise Usage(f"--repo {args.repo}: not a folder")
            REPO[0] = Path(args.repo).resolve()
        if not 1 <= args.seeds <= 1000:
            raise Usage("--seeds: use 1 to 1000")
        commits = resolve(args.before), resolve(args.after)
        if args.keep:
            top = Path(args.keep).resolve()  # the builds run in folders of their own
            if top.exists() and (not top.is_dir() or any(top.iterdir())):
                raise Usage(f"--keep {args.keep}: give a new or empty folder")
            top.mkdir(parents=True, exist_ok=True)
        else:
            top = Path(tempfile.mkdtemp(prefix="compare-outputs-"))
    except Usage as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    names = (args.before, args.after)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    begun = time.perf_counter()
    try:
        hook = top / "hook"
        hook.mkdir()
        (hook / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        trees = [top / "before" / "tree", top / "after" / "tree"]
        for commit, tree in zip(commits, trees):
            extract(commit, tree)
        try:
            _inputs(trees[0], top / "inputs")
        except Usage as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        p = plan(kinds_at(trees[0], hook, top / "before" / "cache"), args.seeds, args.quick)
        log(f"comparing {names[0]} ({commits[0][:10]}) with {names[1]} ({commits[1][:10]}): "
            f"{len(p['kinds'])} kinds x {len(p['seeds'])} seeds x digits {','.join(map(str, p['digits']))}"
            + ("" if p["site"] else " (quick)"))
        seconds = tuple(build(name, commit, tree, p, top / "inputs", tree.parent / "work", hook, log)
                        for name, commit, tree in zip(names, commits, trees))
        outs = [tree.parent / "work" / "out" for tree in trees]
        t = time.perf_counter()
        comparison = compare_trees(*outs)
        print(report(names, seconds, *outs, comparison))
        print(f"compared in {time.perf_counter() - t:.1f} s; {time.perf_counter() - begun:.0f} s in all")
        if args.keep:
            print(f"outputs kept in {outs[0]} and {outs[1]}")
        return 0 if comparison.same else 1
    finally:
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
