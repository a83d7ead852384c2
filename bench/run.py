"""make bench: every speed the issues ask for, measured in one run, and one
report (bench/REPORT.md, bench/results.json) that sets each figure beside the
cited figures of bench/references.yaml and computes every verdict from a
target there (bench/report.py).

What is measured, and how:
- worked problems per second per kind (sample + solve + render Markdown), one
  core, warm: each kind in its own process, forked from one that has done the
  imports, so that its peak memory is its own;
- figures per second per figure kind, one core, drawn directly (no cache);
- the R/exams-shaped workload (bench/rexams.yaml, 10 instances per student):
  Markdown warm per instance on 2 workers (and on 1: the second core's gain),
  PDF warm per instance, PDF cold for 200 and 2,000 instances (a fresh
  process each, imports included; peak memory of any process and of the
  whole tree), and the HTML a user publishes — `attndrills site` over 20 and
  200 students, then `mkdocs build` and `zensical build` — cold;
- the site of 5 and 50 default sets (generation and mkdocs build);
- the 300-student exam, plain and with --solutions, and 30 students;
- command-line start-up: `attndrills kinds` and `attndrills problem A`.
Everything goes through public entry points (the CLI, write_site, sheet_pdfs,
draw_figures), so the helpers' faster versions are measured as they land.
"""

from __future__ import annotations

import datetime
import json
import multiprocessing as mp
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "results.json"
REPORT = HERE / "REPORT.md"

# Repetitions are few so that `make bench` stays near 6 minutes on a 2-core
# machine; the report says so.
N = {"H": 60, "5.2": 100}  # problems per kind (sympy limits: fewer), as at abdb93e
DEFAULT_N = 400
KIND_BUDGET_S = 1.5  # ... but no other kind runs longer than this (at least MIN_N problems)
MIN_N = 20
FIGURE_SPECS = 20
SITE_SETS = (5, 50)
REXAMS_STUDENTS = (20, 200)  # 200 and 2,000 instances
CLI_RUNS = 7
REPETITIONS = (f"per kind up to {DEFAULT_N} problems or {KIND_BUDGET_S:g} s (H {N['H']}, 5.2 {N['5.2']}); {FIGURE_SPECS} figures of each kind; "
               f"start-up: median of {CLI_RUNS} runs; every other row: one run")


def _measure(kind: str, n: int, queue, budget: float | None = None) -> None:
    from generator.pipeline import sample_problem, solve_problem
    from generator.render.markdown import render_problem

    render_problem(solve_problem(sample_problem(kind, 10**6)))  # warm imports and caches
    start = time.perf_counter()
    done = 0
    for seed in range(n):
        render_problem(solve_problem(sample_problem(kind, seed)))
        done += 1
        if budget is not None and done >= MIN_N and time.perf_counter() - start > budget:
            break
    elapsed = time.perf_counter() - start
    queue.put({"kind": kind, "problems": done, "seconds": round(elapsed, 4),
               "per_second": round(done / elapsed, 1), "ms_per_problem": round(1000 * elapsed / done, 3),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})


def _measure_kinds(queue) -> None:
    """Every kind, each in a process forked from this one once the imports are done."""
    from generator import kinds
    from generator.pipeline import sample_problem, solve_problem  # noqa: F401  (imported before the forks)
    from generator.render.markdown import render_problem  # noqa: F401

    ids = [k.id for k in kinds.all_kinds()]
    # H and 5.2 memoise their limits by gap pattern: a shorter run would cost more per problem, so
    # they run their fixed count, as at abdb93e; the others stop early at the budget
    queue.put([_fresh(mp.get_context("fork"), _measure, k, N.get(k, DEFAULT_N),
                      budget=None if k in N else KIND_BUDGET_S) for k in ids])


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
    figure kind drawn in a process forked from this one."""
    from generator import kinds
    from generator.figures import FIGURES
    from generator.pipeline import sample_problem, solve_problem

    drawers: dict[str, list[str]] = {f: [] for f in FIGURES}
    for k in kinds.all_kinds():
        for spec in solve_problem(sample_problem(k.id, 0)).figures:
            if k.id not in drawers[spec.kind]:
                drawers[spec.kind].append(k.id)
    rows = []
    for fig_kind, ids in drawers.items():
        cases, seed = [], 0
        while ids and len(cases) < FIGURE_SPECS and seed < 400:
            for kind_id in ids:
                sol = solve_problem(sample_problem(kind_id, seed))
                cases += [(sol.problem, sol, spec) for spec in sol.figures if spec.kind == fig_kind]
            seed += 1
        if cases:
            rows.append(_fresh(mp.get_context("fork"), _measure_figure, fig_kind, cases[:FIGURE_SPECS]))
    queue.put(rows)


def _measure_site(n_sets: int, queue) -> None:
    """Generate n sets into a copy of docs/ and build the site with mkdocs (a
    subprocess, as `make site` runs it); memory is this process's peak."""
    import yaml

    from generator.spec import default_site_spec
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


def _measure_cli() -> dict:
    """Start-up as a user meets it: `attndrills kinds` and `attndrills problem A
    --seed 1`, fresh processes, from a neutral folder; one unmeasured run first
    (it writes the bytecode cache), then the median of CLI_RUNS."""
    out = {}
    for name, args in (("kinds", ["kinds"]), ("problem_a", ["problem", "A", "--seed", "1"])):
        cmd = [*_attndrills(), *args]
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(cmd, stdout=subprocess.DEVNULL, env=_env(), cwd=tmp, check=True)
            times = []
            for _ in range(CLI_RUNS):
                start = time.perf_counter()
                subprocess.run(cmd, stdout=subprocess.DEVNULL, env=_env(), cwd=tmp, check=True)
                times.append(time.perf_counter() - start)
        out[name] = {"command": "attndrills " + " ".join(args), "runs": CLI_RUNS,
                     "median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3)}
    return out


def _step(title: str, results: dict) -> None:
    """Say what runs next; what is measured so far is kept in results.json (an
    interrupted run leaves its figures)."""
    OUT.write_text(json.dumps({**results, "partial": True}, indent=2, ensure_ascii=False) + "\n")
    print(f"[{time.strftime('%H:%M:%S')}] {title}", flush=True)


def measure() -> dict:
    spawn = mp.get_context("spawn")  # clean processes: memory is the measure's own
    results: dict = {"machine": platform.platform(), "python": platform.python_version(), "cores": os.cpu_count(),
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     "load_before": [round(x, 1) for x in os.getloadavg()], "repetitions": REPETITIONS}
    _step("command-line start-up", results)
    results["cli"] = _measure_cli()
    _step("worked problems per kind", results)
    rows = _fresh(spawn, _measure_kinds)
    results["worked_problems"] = rows
    results["per_second"] = {r["kind"]: r["per_second"] for r in rows}
    results["slowest_a_to_f"] = min(r["per_second"] for r in rows if r["kind"] in "ABCDEF")
    _step("figures", results)
    results["figures"] = _fresh(spawn, _measure_figures)
    results["figure_ms"] = {r["figure"]: r["ms_per_figure"] for r in results["figures"]}
    _step("R/exams-shaped workload: Markdown and PDF, warm", results)
    rex = {"md_warm": _rexams("md", REXAMS_STUDENTS[0], "--warm", "--workers", "2"),
           "md_warm_1_worker": _rexams("md", REXAMS_STUDENTS[0], "--warm", "--workers", "1"),
           "pdf_warm": _rexams("pdf", REXAMS_STUDENTS[0], "--warm", "--workers", "2"),
           "moodle_warm": _rexams("moodle", REXAMS_STUDENTS[0], "--warm", "--workers", "1")}
    results["second_core"] = round(rex["md_warm_1_worker"]["seconds"] / rex["md_warm"]["seconds"], 2)
    _step("R/exams-shaped workload: PDF cold, 200 and 2,000 instances", results)
    rex["pdf_200"], rex["pdf_2000"] = (_rexams("pdf", n, "--workers", "2") for n in REXAMS_STUDENTS)
    _step("R/exams-shaped workload: the HTML a user publishes, 200 and 2,000 instances", results)
    rex["html_200"], rex["html_2000"] = (_html(n) for n in REXAMS_STUDENTS)
    results["rexams"] = rex
    _step("site, 5 and 50 sets", results)
    results["site"] = [_fresh(spawn, _measure_site, n) for n in SITE_SETS]
    results["site_50"] = results["site"][-1]
    _step("300-student exam: plain, --solutions, and 30 students", results)
    results["exam"] = {"plain": _measure_exam([]), "solutions": _measure_exam(["--solutions"]),
                       "students_30": _measure_exam(["--students", "30"])}
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
    return results


def main() -> int:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    import report

    refs = report.load_references()
    if "--report-only" in sys.argv:  # the report of the last run's results, again (after editing references.yaml)
        results = json.loads(OUT.read_text())
    else:
        start = time.perf_counter()
        results = measure()
        results["bench_s"] = round(time.perf_counter() - start, 1)
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
