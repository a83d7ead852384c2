"""make bench: every speed the issues ask for, measured in one run, and one
report (bench/REPORT.md, bench/results.json) that sets each figure beside the
cited figures of bench/references.yaml and computes every verdict from a
target there (bench/report.py).

Every row is the median of at least RUNS runs, taken in turns with the rows it
is compared with (_alternate: all in order, then all in reverse), so that the
slow spells of a machine shared with other work fall on a figure and its
reference alike; each row keeps its runs and the load average seen around
them, and the report judges a figure only as far as its runs allow
(report.judge).  What is measured, and how:
- worked problems per second per kind (sample + solve + render Markdown), one
  core, warm: each kind in its own process, forked from one that has done the
  imports, so that its peak memory is its own; a kind's runs are its turns
  with the BASELINE commit (below);
- figures per second per figure kind, one core, drawn directly (no cache);
- the R/exams-shaped workload (bench/rexams.yaml, 10 instances per student):
  Markdown warm per instance on 2 workers (and on 1: the second core's gain),
  PDF and Moodle warm per instance, PDF cold for 200 and 2,000 instances (a
  fresh process each, imports included; peak memory of any process and of the
  whole tree), and the HTML a user publishes — `attndrills site` over 20 and
  200 students, then `mkdocs build` and `zensical build` — cold.  Where
  R/exams is installed (bench/rexams-r/README.md), the warm rows and the cold
  200-instance rows alternate with R/exams' own (bench/rexams-r/rexams.R);
- the site of 5 and 50 default sets (generation and mkdocs build);
- the BASELINE commit (abdb93e, the last before issue 11's work), measured in
  the same run on the same machine from a `git archive` of it in a temporary
  folder, with the same venv: per kind the same workload and the same number
  of problems as main, the two alternating in turns of about 0.15 s (ABBA)
  so that the machine's changes of speed hit both alike; and the
  50-set site with abdb93e's own bench/run.py `_measure_site`, in turns with
  main's.  Its per-kind figures give the machine index, which scales R/exams'
  cited figures to this machine where R/exams is not installed.  Without git
  or that commit (a shallow clone, an sdist) the report falls back to the
  cited figures and says so;
- the 300-student exam, plain and with --solutions, and 30 students; and the
  first two again on a loaded machine: half the cores kept busy by CPU-bound
  processes for as long as the exam runs (issue 14.5);
- command-line start-up: `attndrills kinds` and `attndrills problem A`;
- the words (issue 35.5): per kind the same problems said in English at
  WORDS_BEFORE (the commit before the words moved into text files) and now,
  and in German now, in turns; each figure the kind's fastest turn
  (_measure_words).
Everything goes through public entry points (the CLI, write_site, sheet_pdfs,
draw_figures), so the helpers' faster versions are measured as they land.
bench/ab_kinds.py compares the per-kind figures of any two commits the same way.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import importlib.util
import io
import json
import multiprocessing as mp
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "results.json"
REPORT = HERE / "REPORT.md"

# Problems per kind are few so that `make bench` stays short on a 2-core
# machine; the report says how many.
N = {"H": 60, "5.2": 100}  # problems per kind (sympy limits: fewer), as at abdb93e
DEFAULT_N = 400
KIND_BUDGET_S = 1.5  # ... but no other kind runs longer than this at main (at least MIN_N problems)
MIN_N = 20
# ... and a faster kind goes on past DEFAULT_N until main has spent KIND_MIN_S (at
# most MAX_N problems): timed over 0.1 s, kind 3.2 (0.2 ms a problem) lost 28 %
# of its rate to one disturbance and missed 11.5's limit (`make bench`, 2026-12-03)
KIND_MIN_S = 0.5
MAX_N = 4000
CHUNK = 10  # problems in the first turn when the two commits alternate within a kind
TURN_S = 0.15  # ... and then as many as main does in this time
FIGURE_SPECS = 20
SITE_SETS = (5, 50)
REXAMS_STUDENTS = (20, 200)  # 200 and 2,000 instances
CLI_RUNS = 7
# Every other row is the median of RUNS runs, taken in turns with the rows it
# is compared with (_alternate): on a machine shared with other work, one run
# was 2-9x off the median of alternating runs (issue 34.9)
RUNS = 3
REXAMS_R = HERE / "rexams-r" / "rexams.R"
R_WARM_STUDENTS = 5  # R/exams' warm rows: 50 instances after 2 students (its per-instance cost is flat by then)
CORES = os.cpu_count() or 1
BASELINE = "abdb93e"  # the last commit before issue 11's work: measured in the same run (see _baseline_tree)
# Issue 35.5: English no more than 10 % slower per kind than before the words
# moved into text files, German within 10 % of English
WORDS_BEFORE = "19efa83"  # the last commit before issue 35's work
WORDS_LANGS = ("en", "de")
WORDS_TURNS = 10  # turns of each of the three
WORDS_TURN_N = {"H": 10, "5.2": 10}  # problems a turn (sympy limits: fewer); the others WORDS_TURN_DEFAULT
WORDS_TURN_DEFAULT = 100
REPETITIONS = (f"per kind up to {DEFAULT_N} problems or {KIND_BUDGET_S:g} s, a faster kind at least {KIND_MIN_S:g} s "
               f"(at most {MAX_N} problems; H {N['H']}, 5.2 {N['5.2']}), at "
               f"{BASELINE} the same problems, the two alternating in turns of about {TURN_S:g} s (at least "
               f"{RUNS} turns; a kind's runs are its turns); start-up: median of {CLI_RUNS} runs; every other row "
               f"(of {FIGURE_SPECS} figures per figure kind, too): the median of {RUNS} runs, alternating with "
               f"the rows of its table (ABBA) and, where R/exams is installed, with R/exams")


def _kind_child(kind: str, conn) -> None:
    """One kind in a process of its own (forked from a server that has done the
    imports): warm, then for each (first seed, count) received, that many
    problems, answering the seconds they took; None ends it with its peak RSS."""
    from generator.pipeline import sample_problem, solve_problem
    from generator.render.markdown import render_problem

    render_problem(solve_problem(sample_problem(kind, 10**6)))  # warm imports and caches
    for first, count in iter(conn.recv, None):
        start = time.perf_counter()
        for seed in range(first, first + count):
            render_problem(solve_problem(sample_problem(kind, seed)))
        conn.send(time.perf_counter() - start)
    conn.send(round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))


def _kind_server(tree: str | None, inbox, outbox, lang: str | None = None) -> None:
    """A process that has done the imports of one tree (main's, or the baseline's
    when `tree` is a folder); per kind it forks a _kind_child and passes it the
    turns it is sent: ("begin", kind), (first seed, count), ("end",) → peak MB;
    None ends the server.  With `lang`, the problems are said in that language
    (a tree that has generator.text)."""
    if tree:
        sys.path.insert(0, tree)
    import generator
    if lang:
        from generator import text

        text.choose(lang)  # the forked children inherit it
    from generator import kinds
    from generator.pipeline import sample_problem, solve_problem  # noqa: F401  (imported before the forks)
    from generator.render.markdown import render_problem  # noqa: F401

    where = str(Path(generator.__file__).resolve().parent.parent)
    if tree and where != str(Path(tree).resolve()):
        raise SystemExit(f"the baseline's tree was not imported: generator comes from {where}")
    outbox.put([k.id for k in kinds.all_kinds()])
    ctx = mp.get_context("fork")
    child = conn = None
    for msg in iter(inbox.get, None):
        if msg[0] == "begin":
            conn, theirs = ctx.Pipe()
            child = ctx.Process(target=_kind_child, args=(msg[1], theirs))
            child.start()
        elif msg[0] == "end":
            conn.send(None)
            outbox.put(conn.recv())
            child.join()
        else:
            conn.send(msg)
            outbox.put(conn.recv())


class _Kinds:
    """A _kind_server and its queues."""

    def __init__(self, tree: str | None = None, lang: str | None = None):
        ctx = mp.get_context("spawn")  # a clean process: memory is the measure's own
        self.inbox, self.outbox = ctx.Queue(), ctx.Queue()
        self.proc = ctx.Process(target=_kind_server, args=(tree, self.inbox, self.outbox, lang))
        self.proc.start()
        self.ids = self.outbox.get()

    def begin(self, kind: str) -> None:
        self.inbox.put(("begin", kind))

    def turn(self, first: int, count: int) -> float:
        self.inbox.put((first, count))
        return self.outbox.get()

    def end(self) -> float:
        self.inbox.put(("end",))
        return self.outbox.get()

    def close(self) -> None:
        self.inbox.put(None)
        self.proc.join()


def _alternate(measures: dict, runs: int = RUNS) -> dict[str, dict]:
    """Each measure (a name → a function returning a row of figures) `runs`
    times, in turns: all in order, then all in reverse (ABBA), so that the slow
    spells of a shared machine fall on every row of a table, and on the
    reference it is compared with, alike.  Each row: the median of its runs
    (_median_row), its runs, and the 1-minute load averages seen around them."""
    seen: dict[str, list] = {name: [] for name in measures}
    for turn in range(runs):
        for name in (list(measures) if turn % 2 == 0 else reversed(list(measures))):
            before = os.getloadavg()[0]
            row = measures[name]()
            seen[name].append({**row, "load": [round(before, 2), round(os.getloadavg()[0], 2)]})
    return {name: _median_row(rows) for name, rows in seen.items()}


def _median_row(rows: list[dict]) -> dict:
    """One row from several runs of it: each number the median of the runs'
    (a nested row likewise), anything else the first run's; with the runs
    (their numbers only) and the lowest load average before a run and the
    highest after one."""
    def median(values: list):
        if isinstance(values[0], dict):
            return {k: median([v[k] for v in values]) for k in values[0]}
        if isinstance(values[0], (int, float)) and not isinstance(values[0], bool):
            return round(statistics.median(values), 4)
        return values[0]

    figures = [{k: v for k, v in r.items() if k != "load"} for r in rows]
    out = median(figures)
    out["runs"] = [{k: v for k, v in f.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
                   for f in figures]
    out["load"] = [min(r["load"][0] for r in rows), max(r["load"][1] for r in rows)]
    return out


def _row(kind: str, done: int, seconds: float, peak: float) -> dict:
    return {"kind": kind, "problems": done, "seconds": round(seconds, 4), "per_second": round(done / seconds, 1),
            "ms_per_problem": round(1000 * seconds / done, 3), "peak_rss_mb": peak}


def _kind_runs(kind: str, commits: list) -> list[dict]:
    """One kind at each commit (main first), the same problems for all: turns of
    CHUNK problems, then of about TURN_S at main (seeds 0, 1, …), the commits
    alternating turn by turn in ABBA order, so that the machine's changes of
    speed (seconds long on a shared machine, and up to 1.7× here) fall on all
    alike.  H and 5.2 memoise
    their limits by gap pattern (a shorter run would cost more per problem), so
    they run their fixed count, as at abdb93e; the others stop once main has
    spent KIND_BUDGET_S (at least MIN_N problems), or at DEFAULT_N once main
    has spent KIND_MIN_S, or at MAX_N."""
    fixed = kind in N
    limit = N.get(kind, MAX_N)
    load = os.getloadavg()[0]
    for c in commits:
        c.begin(kind)
    spent = [0.0] * len(commits)
    turns: list[list[float]] = [[] for _ in commits]  # problems per second of each turn: the kind's runs
    done, turn, size = 0, 0, CHUNK

    def more() -> bool:
        if fixed or done < MIN_N or turn < RUNS:
            return done < limit
        return spent[0] < KIND_BUDGET_S and done < limit and (done < DEFAULT_N or spent[0] < KIND_MIN_S)

    while more():
        count = min(size, (DEFAULT_N if not fixed and done < DEFAULT_N else limit) - done)
        if turn < RUNS - 1:  # room for RUNS turns however few problems the kind runs
            count = min(count, max(1, (limit - done) // (RUNS - turn)))
        order = range(len(commits)) if turn % 2 == 0 else reversed(range(len(commits)))
        for i in order:
            seconds = commits[i].turn(done, count)
            spent[i] += seconds
            turns[i].append(round(count / seconds, 2))
        done += count
        turn += 1
        # later turns last about TURN_S at main: short enough to share the machine's
        # changes of speed, long enough that switching processes costs nothing
        size = max(CHUNK, round(TURN_S * done / spent[0]))
    load = [round(load, 2), round(os.getloadavg()[0], 2)]
    return [{**_row(kind, done, t, c.end()), "turns": runs, "load": load}
            for c, t, runs in zip(commits, spent, turns)]


def _measure_kinds(tree: str | None) -> tuple[list[dict], list[dict] | None]:
    """Every kind at main and, when `tree` holds the baseline, at the baseline
    too, the two alternating in turns (_kind_runs)."""
    ours = _Kinds()
    base = _Kinds(tree) if tree else None
    rows, base_rows = [], []
    try:
        for kind in ours.ids:
            if base is None or kind not in base.ids:
                rows += _kind_runs(kind, [ours])
            else:
                r, b = _kind_runs(kind, [ours, base])
                rows.append(r), base_rows.append(b)
    finally:
        ours.close()
        if base is not None:
            base.close()
    return rows, (base_rows if base is not None else None)


def _baseline_tree(root: Path, commit: str, into: Path) -> tuple[str | None, str]:
    """The baseline commit's files extracted into `into` (`git archive`): (the
    full hash, "") — or (None, why not) when there is no git, no repository or
    no such commit (a shallow clone, an sdist)."""
    try:
        full = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                              capture_output=True, text=True)
        if full.returncode:
            return None, f"commit {commit} is not in this checkout (a shallow clone, or not a git checkout)"
        archive = subprocess.run(["git", "-C", str(root), "archive", full.stdout.strip()], capture_output=True,
                                 check=True)
    except FileNotFoundError:
        return None, "git is not installed"
    except subprocess.CalledProcessError as err:
        return None, f"git archive {commit} failed: {err.stderr.decode(errors='replace').strip()}"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into)
    return full.stdout.strip(), ""


def _measure_baseline_site(tree: str, n_sets: int, queue) -> None:
    """The site of n sets as the baseline's own bench/run.py measured it
    (`_measure_site`: generation in-process into a copy of its docs/, then
    `mkdocs build` with its hooks), its package imported from its tree."""
    sys.path.insert(0, tree)
    os.environ["PYTHONPATH"] = tree + os.pathsep + os.environ.get("PYTHONPATH", "")  # its mkdocs build, too
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    spec = importlib.util.spec_from_file_location("baseline_run", Path(tree) / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module._measure_site(n_sets, queue)


def _measure_figure(fig_kind: str, cases: list, queue) -> None:
    from generator.figures import FIGURES

    FIGURES[fig_kind](*cases[0])  # warm: fonts, the reusable figure
    start = time.perf_counter()
    for case in cases:
        FIGURES[fig_kind](*case)  # directly: the run cache would hide the drawing cost
    elapsed = time.perf_counter() - start
    queue.put({"figure": fig_kind, "figures": len(cases), "per_second": round(len(cases) / elapsed, 1),
               "ms_per_figure": round(1000 * elapsed / len(cases), 2),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})


def _measure_figures(queue) -> None:
    """FIGURE_SPECS cases of each figure kind, from the kinds that draw it; each
    figure kind drawn in a process forked from this one, RUNS times, the figure
    kinds taking turns."""
    from generator import kinds
    from generator.figures import FIGURES
    from generator.pipeline import sample_problem, solve_problem

    drawers: dict[str, list[str]] = {f: [] for f in FIGURES}
    for k in kinds.all_kinds():
        for spec in solve_problem(sample_problem(k.id, 0)).figures:
            if k.id not in drawers[spec.kind]:
                drawers[spec.kind].append(k.id)
    measures = {}
    for fig_kind, ids in drawers.items():
        cases, seed = [], 0
        while ids and len(cases) < FIGURE_SPECS and seed < 400:
            for kind_id in ids:
                sol = solve_problem(sample_problem(kind_id, seed))
                cases += [(sol.problem, sol, spec) for spec in sol.figures if spec.kind == fig_kind]
            seed += 1
        if cases:
            measures[fig_kind] = functools.partial(_fresh, mp.get_context("fork"), _measure_figure, fig_kind,
                                                   cases[:FIGURE_SPECS])
    queue.put(list(_alternate(measures).values()))


def _measure_site(n_sets: int, queue) -> None:
    """Generate n sets into a copy of docs/ and build the site with mkdocs (a
    subprocess, as `make site` runs it); memory is this process's peak."""
    import yaml

    from generator.exam.spec import default_site_spec
    from generator.writers.mathjax import write_mathjax
    from generator.writers.site import write_site

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        shutil.copytree(ROOT / "docs", docs, ignore=shutil.ignore_patterns("generated", "mathjax"))
        start = time.perf_counter()
        write_site(docs, default_site_spec(n_sets), 12345)
        write_mathjax(docs)  # as `attndrills site` does (a fresh copy: the docs folder is new)
        generate = time.perf_counter() - start
        config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
        config.update(docs_dir=str(docs), site_dir=str(Path(tmp) / "site"))
        (Path(tmp) / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(Path(tmp) / "mkdocs.yml")],
                       check=True, env=_env())
        build = time.perf_counter() - start
    queue.put({"sets": n_sets, "generate_s": round(generate, 2), "mkdocs_build_s": round(build, 2),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})


# -- fresh processes: wall, CPU and memory of the whole tree ------------------

def _env() -> dict:
    # bytecode is cached as it is for a user (an environment that turns the
    # cache off would charge every run with compiling the package)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _sampled(cmd: list[str], cwd: str | None = None) -> dict:
    """Run a command; its wall time, CPU %, peak memory of the whole process
    tree (PSS, sampled from /proc), the peak RSS of its largest process, and its stdout."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=_env(), cwd=cwd)
        peak, cpu, largest = 0, 0.0, 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            mem, ticks, hwm = _tree_usage(proc.pid)  # the command, a forkserver and its workers
            peak, cpu, largest = max(peak, mem), max(cpu, ticks), max(largest, hwm)
            time.sleep(0.2)  # reading smaps costs CPU that the command itself needs
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"benchmark command failed: {' '.join(cmd)}")
        cpu = max(cpu, usage.ru_utime + usage.ru_stime)
        largest = max(largest, usage.ru_maxrss * 1024)  # the largest process among those reaped
        out.seek(0)
        text = out.read().decode()
    return {"wall_s": round(wall, 2), "cpu_percent": round(100 * cpu / wall), "peak_pss_mb": round(peak / 2**20, 1),
            "peak_process_mb": round(largest / 2**20, 1), "stdout": text}


def _proc_kb(pid: int, path: str, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _tree_usage(root_pid: int) -> tuple[int, float, int]:
    """Summed memory (PSS: pages shared after a fork count once), CPU seconds,
    and the largest peak RSS (VmHWM) of a process and all its descendants."""
    parent, stats = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2:].split()
        parent[int(entry)] = int(fields[1])
        stats[int(entry)] = fields
    tree, frontier = {root_pid}, [root_pid]
    while frontier:
        pid = frontier.pop()
        for child, ppid in parent.items():
            if ppid == pid and child not in tree:
                tree.add(child)
                frontier.append(child)
    hz = os.sysconf("SC_CLK_TCK")
    live = [p for p in tree if p in stats]
    pss = sum(_proc_kb(p, "smaps_rollup", "Pss:") for p in live)
    cpu = sum(sum(int(stats[p][i]) for i in (11, 12, 13, 14)) / hz for p in live)
    hwm = max((_proc_kb(p, "status", "VmHWM:") for p in live), default=0)
    return pss, cpu, hwm


def _fresh(ctx, target, *args, **kwargs):
    """Run one measurement in a new process, so its peak memory is its own."""
    q = ctx.Queue()
    p = ctx.Process(target=target, args=(*args, q), kwargs=kwargs)
    p.start()
    result = q.get()
    p.join()
    return result


# -- the measures that run commands -------------------------------------------

def _rexams(fmt: str, students: int, *flags: str) -> dict:
    row = _sampled([sys.executable, str(HERE / "rexams.py"), fmt, str(students), *flags])
    data = json.loads(row.pop("stdout"))
    if "--warm" in flags:
        return {**data, "peak_pss_mb": row["peak_pss_mb"], "peak_process_mb": row["peak_process_mb"]}
    # cold: the whole process's wall, imports included
    return {**data, **row, "ms_per_instance": round(1000 * row["wall_s"] / data["instances"], 2)}


def _rexams_r_missing() -> str | None:
    """Why R/exams cannot run beside this project on this machine (None when it
    can: bench/rexams-r/README.md says how to install it)."""
    if shutil.which("Rscript") is None:
        return "R is not installed"
    probe = subprocess.run(["Rscript", "-e", "library(exams); library(tth)"], capture_output=True, env=_env())
    return None if probe.returncode == 0 else "R is installed, but not the R packages exams and tth (R_LIBS?)"


def _rexams_r(fmt: str, students: int, warm: bool) -> dict:
    """R/exams on the same workload (bench/rexams-r/rexams.R): warm, its own
    timing after two students; cold, the whole Rscript process."""
    row = _sampled(["Rscript", str(REXAMS_R), "html" if fmt == "md" else fmt, str(students),
                    "warm" if warm else "cold"])
    data = json.loads([line for line in row.pop("stdout").splitlines() if line.startswith("{")][-1])
    if warm:
        return {"instances": data["instances"], "seconds": data["seconds"], "ms_per_instance": data["ms_per_instance"]}
    return {"instances": data["instances"], "wall_s": row["wall_s"], "peak_process_mb": row["peak_process_mb"],
            "ms_per_instance": round(1000 * row["wall_s"] / data["instances"], 2)}


def _html(students: int) -> dict:
    """The HTML a user publishes, cold: `attndrills site` for bench/rexams.yaml over
    `students` students (one set each), then `mkdocs build`, then `zensical build`."""
    import yaml

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "docs", work / "docs", ignore=shutil.ignore_patterns("generated", "mathjax"))
        config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
        config.update(docs_dir="docs")
        (work / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True))
        site = _sampled([*_attndrills(), "site", "--spec", str(HERE / "rexams.yaml"), "--sets", str(students),
                         "--seed", "1", "--docs", str(work / "docs")], cwd=tmp)
        mk = _sampled([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", "mkdocs.yml", "-d", "site-mkdocs"],
                      cwd=tmp)
        zs = _sampled([str(Path(sys.executable).with_name("zensical")), "build", "--clean", "-f", "mkdocs.yml"],
                      cwd=tmp)
    n = students * _per_student()
    return {"instances": n, "site_s": site["wall_s"], "mkdocs_s": round(site["wall_s"] + mk["wall_s"], 2),
            "zensical_s": round(site["wall_s"] + zs["wall_s"], 2),
            "mkdocs_ms_per_instance": round(1000 * (site["wall_s"] + mk["wall_s"]) / n, 2),
            "zensical_ms_per_instance": round(1000 * (site["wall_s"] + zs["wall_s"]) / n, 2),
            "build_only_s": {"mkdocs": mk["wall_s"], "zensical": zs["wall_s"]},
            "peak_process_mb": max(site["peak_process_mb"], mk["peak_process_mb"], zs["peak_process_mb"])}


def _per_student() -> int:
    import yaml

    return sum(int(i.get("count", 1)) for i in yaml.safe_load((HERE / "rexams.yaml").read_text())["items"])


def _attndrills() -> list[str]:
    script = Path(sys.executable).with_name("attndrills")
    return [str(script)] if script.exists() else [sys.executable, "-m", "generator"]


def _measure_exam(extra: list[str]) -> dict:
    """The 300-student exam as a user runs it: a fresh process, imports included."""
    with tempfile.TemporaryDirectory() as tmp:
        students = ["--students", "300"] if "--students" not in extra else []
        row = _sampled([*_attndrills(), "exam", str(HERE / "exam-300.yaml"), *students,
                        "--out", str(Path(tmp) / "out"), *extra])
    row.pop("stdout")
    label = " ".join(extra) or "(papers, key, answers.csv, manifest, moodle.xml)"
    if "--solutions" in extra:
        label += " (with figures: each student's worked solutions, 13 figures)"
    return {"options": label, **row}


_BUSY = """import os
parent = os.getppid()
while os.getppid() == parent:
    for _ in range(10**6):
        pass
"""


@contextlib.contextmanager
def _busy_cores():
    """Issue 14.5's loaded machine, the same in every run: half the cores
    (at least one) each kept busy by a CPU-bound process of its own, a busy
    loop that neither reads nor writes, until the block ends (or the benchmark
    itself ends, however: each loop stops once its parent is gone)."""
    hogs = [subprocess.Popen([sys.executable, "-c", _BUSY]) for _ in range(max(1, CORES // 2))]
    try:
        time.sleep(0.1)  # every loop has started
        yield len(hogs)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def _measure_exam_loaded(extra: list[str]) -> dict:
    """The 300-student exam beside `_busy_cores`."""
    with _busy_cores() as n:
        row = _measure_exam(extra)
    row["options"] += f", beside {n} CPU-bound process{'es' if n > 1 else ''} (of {CORES} cores)"
    return row


def _measure_cli() -> dict:
    """Start-up as a user meets it: `attndrills kinds` and `attndrills problem A
    --seed 1`, fresh processes, from a neutral folder; one unmeasured run of
    each first (it writes the bytecode cache), then CLI_RUNS of each, the two
    commands taking turns; `wall_s` is the median."""
    commands = {"kinds": ["kinds"], "problem_a": ["problem", "A", "--seed", "1"]}
    with tempfile.TemporaryDirectory() as tmp:
        def timed(args: list[str]) -> dict:
            start = time.perf_counter()
            subprocess.run([*_attndrills(), *args], stdout=subprocess.DEVNULL, env=_env(), cwd=tmp, check=True)
            return {"wall_s": round(time.perf_counter() - start, 3)}

        for args in commands.values():
            timed(args)
        rows = _alternate({name: functools.partial(timed, args) for name, args in commands.items()}, CLI_RUNS)
    return {name: {"command": "attndrills " + " ".join(commands[name]), **row} for name, row in rows.items()}


def _step(title: str, results: dict) -> None:
    """Say what runs next; what is measured so far is kept in results.json (an
    interrupted run leaves its figures)."""
    OUT.write_text(json.dumps({**results, "partial": True}, indent=2, ensure_ascii=False) + "\n")
    print(f"[{time.strftime('%H:%M:%S')}] {title}", flush=True)


def measure() -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:  # the baseline's tree, if git has it
        return _measure_all(tmp)


def _measure_all(tmp: str) -> dict:
    spawn = mp.get_context("spawn")  # clean processes: memory is the measure's own
    results: dict = {"machine": platform.platform(), "python": platform.python_version(), "cores": CORES,
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     "load_before": [round(x, 2) for x in os.getloadavg()], "repetitions": REPETITIONS}
    _step("command-line start-up", results)
    results["cli"] = _measure_cli()
    commit, why = _baseline_tree(ROOT, BASELINE, Path(tmp))
    tree = tmp if commit else None
    results["baseline"] = ({"label": BASELINE, "commit": commit, "turn_s": TURN_S} if tree
                           else {"label": BASELINE, "unavailable": why})
    _step(f"worked problems per kind{f', interleaved with {BASELINE}' if tree else ''}", results)
    rows, base_rows = _measure_kinds(tree)
    results["worked_problems"] = rows
    results["per_second"] = {r["kind"]: r["per_second"] for r in rows}
    results["per_second_runs"] = {r["kind"]: r["turns"] for r in rows}
    results["per_second_load"] = {r["kind"]: r["load"] for r in rows}
    results["slowest_a_to_f"] = min(r["per_second"] for r in rows if r["kind"] in "ABCDEF")
    if tree:
        results["baseline"].update(worked_problems=base_rows, per_second={r["kind"]: r["per_second"] for r in base_rows},
                                   per_second_runs={r["kind"]: r["turns"] for r in base_rows})
    _step("figures", results)
    results["figures"] = _fresh(spawn, _measure_figures)
    results["figure_ms"] = {r["figure"]: r["ms_per_figure"] for r in results["figures"]}
    results["figure_ms_runs"] = {r["figure"]: [x["ms_per_figure"] for x in r["runs"]] for r in results["figures"]}
    results["figure_ms_load"] = {r["figure"]: r["load"] for r in results["figures"]}
    results["rexams"] = _measure_rexams(results)
    _step(f"site, 5 and 50 sets{f' (and 50 at {BASELINE}, in turns with them)' if tree else ''}", results)
    _measure_sites(results, tree)
    _step("300-student exam: plain, --solutions, and 30 students", results)
    results["exam"] = _alternate({"plain": functools.partial(_measure_exam, []),
                                  "solutions": functools.partial(_measure_exam, ["--solutions"]),
                                  "students_30": functools.partial(_measure_exam, ["--students", "30"])})
    _step("300-student exam on a loaded machine: plain and --solutions", results)
    results["exam_loaded"] = _alternate({"plain": functools.partial(_measure_exam_loaded, []),
                                         "solutions": functools.partial(_measure_exam_loaded, ["--solutions"])})
    _growth(results)
    _step(f"the words (issue 35): English at {WORDS_BEFORE}, English and German now, in turns", results)
    results["words"] = _measure_words()
    return results


def _measure_words() -> dict:
    """Issue 35.5, per kind: the same problems (sample + solve + render
    Markdown) said in English at WORDS_BEFORE and now, and in German now, the
    three taking WORDS_TURNS turns in rotating order (ABC, CBA …).  A figure
    is a kind's fastest turn: other work on a shared machine only ever adds
    time to a turn, so the fastest is the nearest to the code's own cost (the
    rule of Python's timeit); the quartile turn is kept beside it to show
    whether the turns agree."""
    with tempfile.TemporaryDirectory(prefix="bench-words-") as tmp:
        commit, why = _baseline_tree(ROOT, WORDS_BEFORE, Path(tmp))
        servers = {"en": _Kinds(None, "en"), "de": _Kinds(None, "de")}
        if commit:
            servers["before"] = _Kinds(tmp)
        try:
            names = list(servers)
            rows = []
            for kind in servers["en"].ids:
                count = WORDS_TURN_N.get(kind, WORDS_TURN_DEFAULT)
                load = os.getloadavg()[0]
                for srv in servers.values():
                    srv.begin(kind)
                ms: dict[str, list[float]] = {name: [] for name in names}
                for turn in range(WORDS_TURNS):
                    for name in (names if turn % 2 == 0 else reversed(names)):
                        ms[name].append(1000 * servers[name].turn(turn * count, count) / count)
                for srv in servers.values():
                    srv.end()
                row = {"kind": kind, "problems_a_turn": count, "turns": WORDS_TURNS,
                       "load": [round(load, 2), round(os.getloadavg()[0], 2)]}
                for name, times in ms.items():
                    times.sort()
                    row[f"{name}_ms"] = round(times[0], 4)
                    row[f"{name}_ms_quartile"] = round(times[len(times) // 4], 4)
                rows.append(row)
        finally:
            for srv in servers.values():
                srv.close()
    return {"before": {"label": WORDS_BEFORE, "commit": commit} if commit else
            {"label": WORDS_BEFORE, "unavailable": why}, "rows": rows}


def _measure_rexams(results: dict) -> dict:
    """The R/exams-shaped rows, and R/exams' own beside them where it is
    installed (results["rexams_r"]: its rows, or why it did not run)."""
    missing = _rexams_r_missing()
    results["rexams_r"] = {"unavailable": missing} if missing else {}
    beside = "" if missing else ", alternating with R/exams"
    _step(f"R/exams-shaped workload: Markdown, PDF and Moodle, warm{beside}", results)
    warm = {"md_warm": functools.partial(_rexams, "md", REXAMS_STUDENTS[0], "--warm", "--workers", "2"),
            "r:md_warm": functools.partial(_rexams_r, "md", R_WARM_STUDENTS, True),
            "pdf_warm": functools.partial(_rexams, "pdf", REXAMS_STUDENTS[0], "--warm", "--workers", "2"),
            "r:pdf_warm": functools.partial(_rexams_r, "pdf", R_WARM_STUDENTS, True),
            "moodle_warm": functools.partial(_rexams, "moodle", REXAMS_STUDENTS[0], "--warm", "--workers", "1"),
            "r:moodle_warm": functools.partial(_rexams_r, "moodle", R_WARM_STUDENTS, True),
            "md_warm_1_worker": functools.partial(_rexams, "md", REXAMS_STUDENTS[0], "--warm", "--workers", "1")}
    rex = _rexams_group(warm, results, missing)
    results["second_core"] = round(rex["md_warm_1_worker"]["seconds"] / rex["md_warm"]["seconds"], 2)
    _step(f"R/exams-shaped workload: PDF and HTML cold, 200 instances{beside}", results)
    rex.update(_rexams_group({"pdf_200": functools.partial(_rexams, "pdf", REXAMS_STUDENTS[0], "--workers", "2"),
                              "r:pdf_200": functools.partial(_rexams_r, "pdf", REXAMS_STUDENTS[0], False),
                              "html_200": functools.partial(_html, REXAMS_STUDENTS[0]),
                              "r:html_200": functools.partial(_rexams_r, "html", REXAMS_STUDENTS[0], False)},
                             results, missing))
    # R/exams takes 2-4 minutes a run at 2,000 instances: its figure there is the
    # cited one, scaled by its 200-instance runs above (bench/report.py)
    _step("R/exams-shaped workload: PDF and HTML cold, 2,000 instances", results)
    rex.update(_alternate({"pdf_2000": functools.partial(_rexams, "pdf", REXAMS_STUDENTS[1], "--workers", "2"),
                           "html_2000": functools.partial(_html, REXAMS_STUDENTS[1])}))
    return rex


def _measure_sites(results: dict, tree: str | None) -> None:
    """The site of 5 and 50 sets, and of 50 at the baseline (`tree`) in turns with them."""
    spawn = mp.get_context("spawn")  # clean processes: memory is the measure's own
    site = {"5": functools.partial(_fresh, spawn, _measure_site, SITE_SETS[0]),
            "50": functools.partial(_fresh, spawn, _measure_site, SITE_SETS[-1])}
    if tree:
        site["base"] = functools.partial(_fresh, spawn, _measure_baseline_site, tree, SITE_SETS[-1])
    site = _alternate(site)
    if tree:
        results["baseline"]["site_50"] = site.pop("base")
    results["site"] = list(site.values())
    results["site_50"] = results["site"][-1]


def _growth(results: dict) -> None:
    """From 1× to 10× the work, from the medians."""
    rex = results["rexams"]
    small, big = results["site"][0], results["site"][-1]
    results["growth"] = {
        "site_generate": round(big["generate_s"] / small["generate_s"], 1),
        "site_build": round(big["mkdocs_build_s"] / small["mkdocs_build_s"], 1),
        "html_site": round(rex["html_2000"]["site_s"] / rex["html_200"]["site_s"], 1),
        "pdf_cold": round(rex["pdf_2000"]["wall_s"] / rex["pdf_200"]["wall_s"], 1),
        "exam": round(results["exam"]["plain"]["wall_s"] / results["exam"]["students_30"]["wall_s"], 1),
    }
    results["growth_labels"] = {
        f"site generation ({SITE_SETS[0]} → {SITE_SETS[1]} sets)": results["growth"]["site_generate"],
        f"site mkdocs build ({SITE_SETS[0]} → {SITE_SETS[1]} sets)": results["growth"]["site_build"],
        "attndrills site, R/exams-shaped (200 → 2,000 instances), fresh process": results["growth"]["html_site"],
        "PDF, R/exams-shaped (200 → 2,000 instances), fresh process": results["growth"]["pdf_cold"],
        "exam, fresh process (30 → 300 students)": results["growth"]["exam"],
    }


def _rexams_group(measures: dict, results: dict, missing: str | None) -> dict:
    """A group of the R/exams-shaped rows, alternating (_alternate) with R/exams'
    (the "r:" ones) where it is installed; R/exams' rows go to results["rexams_r"]."""
    rows = _alternate({k: f for k, f in measures.items() if not (missing and k.startswith("r:"))})
    results["rexams_r"].update({k[2:]: rows.pop(k) for k in list(rows) if k.startswith("r:")})
    return rows


def main() -> int:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    import report

    refs = report.load_references()
    if "--words" in sys.argv:  # only issue 35.5's table (a few minutes), printed; results.json is left as it is
        print("\n".join(report._words_table({"words": _measure_words()}, refs)))
        return 0
    if "--report-only" in sys.argv:  # the report of the last run's results, again (after editing references.yaml)
        results = json.loads(OUT.read_text())
    else:
        start = time.perf_counter()
        results = measure()
        results["bench_s"] = round(time.perf_counter() - start, 1)
        results["load_after"] = [round(x, 2) for x in os.getloadavg()]
        OUT.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    took = f"`make bench` took {results['bench_s']} s." if "bench_s" in results else \
        "This run was interrupted: the figures above are those it measured."
    text = report.render(results, refs) + "\n" + took + "\n"
    REPORT.write_text(text)
    print("\n" + text)
    print(f"wrote {OUT} and {REPORT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
