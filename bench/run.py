"""make bench: worked problems per second per kind (sample + solve + render
Markdown) on one core, and the peak memory of each kind's run.

Each kind runs in its own fresh process so peak memory (ru_maxrss) belongs
to that kind alone.  Prints a table and writes bench/results.json.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import platform
import resource
import sys
import time
from pathlib import Path

OUT = Path(__file__).with_name("results.json")
REPORT = Path(__file__).with_name("REPORT.md")
N = {"H": 60}  # H computes sympy limits: fewer problems, same per-problem measure
DEFAULT_N = 400
TARGET = 300  # problems per second for kinds A–F (R/exams ≈ 16 ms per instance ≈ 62/s)


def _measure(kind: str, n: int, queue) -> None:
    from generator.pipeline import sample_problem, solve_problem
    from generator.render.markdown import render_problem

    render_problem(solve_problem(sample_problem(kind, 10**6)))  # warm imports and caches
    start = time.perf_counter()
    for seed in range(n):
        render_problem(solve_problem(sample_problem(kind, seed)))
    elapsed = time.perf_counter() - start
    queue.put({"kind": kind, "problems": n, "seconds": round(elapsed, 4),
               "per_second": round(n / elapsed, 1), "ms_per_problem": round(1000 * elapsed / n, 3),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})


FIGURE_TARGET_MS = {"bars": 8.0}  # R/exams' base-R bar chart ≈ 8 ms
FIGURE_SPECS = 60


def _measure_figure(fig_kind: str, queue) -> None:
    from generator import kinds
    from generator.figures import FIGURES
    from generator.pipeline import sample_problem, solve_problem

    cases = []
    seed = 0
    while len(cases) < FIGURE_SPECS and seed < 400:
        for k in kinds.all_kinds():
            sol = solve_problem(sample_problem(k.id, seed))
            cases += [(sol.problem, sol, spec) for spec in sol.figures if spec.kind == fig_kind]
        seed += 1
    cases = cases[:FIGURE_SPECS]
    FIGURES[fig_kind](*cases[0])  # warm: fonts, the reusable figure
    start = time.perf_counter()
    for case in cases:
        FIGURES[fig_kind](*case)  # directly: the run cache would hide the drawing cost
    elapsed = time.perf_counter() - start
    queue.put({"figure": fig_kind, "figures": len(cases), "per_second": round(len(cases) / elapsed, 1),
               "ms_per_figure": round(1000 * elapsed / len(cases), 2),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})


SITE_SETS = (5, 50)


def _measure_site(n_sets: int, queue) -> None:
    """Generate n sets into a copy of docs/ and build the site with mkdocs (a
    subprocess, as `make site` runs it); memory is this process's peak."""
    import os
    import shutil
    import subprocess
    import tempfile

    import yaml

    from generator.spec import default_site_spec
    from generator.writers.mathjax import write_mathjax
    from generator.writers.site import write_site

    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        shutil.copytree(root / "docs", docs, ignore=shutil.ignore_patterns("generated", "mathjax"))
        start = time.perf_counter()
        write_site(docs, default_site_spec(n_sets), 12345)
        write_mathjax(docs)  # as `attndrills site` does (a fresh copy: the docs folder is new)
        generate = time.perf_counter() - start
        config = yaml.safe_load((root / "mkdocs.yml").read_text())
        config.update(docs_dir=str(docs), site_dir=str(Path(tmp) / "site"))
        (Path(tmp) / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "-f", str(Path(tmp) / "mkdocs.yml")],
                       check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
        build = time.perf_counter() - start
    queue.put({"sets": n_sets, "generate_s": round(generate, 2), "mkdocs_build_s": round(build, 2),
               "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})


EXAM_TARGET_S, EXAM_TARGET_MB = 30.0, 500.0  # R/exams ≈ 52 ms per PDF exercise instance: ≈ 160 s


def _verdict(r: dict) -> str:
    return "meets" if r["wall_s"] <= EXAM_TARGET_S and r["peak_pss_mb"] <= EXAM_TARGET_MB else "MISSES"


def _sampled(cmd: list[str]) -> tuple[float, int, float, str]:
    """Run a command; return its wall time, CPU %, peak memory of the whole
    process tree (PSS, MB, sampled from /proc) and its stdout."""
    import subprocess
    import tempfile

    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        peak, cpu = 0, 0.0
        while proc.poll() is None:  # the command, a forkserver and its workers
            mem, ticks = _tree_usage(proc.pid)
            peak, cpu = max(peak, mem), max(cpu, ticks)
            time.sleep(0.2)  # reading smaps costs CPU that the command itself needs
        wall = time.perf_counter() - start
        if proc.returncode:
            raise SystemExit(f"benchmark command failed: {' '.join(cmd)}")
        out.seek(0)
        text = out.read().decode()
    return wall, round(100 * cpu / wall), round(peak / 2**20, 1), text


def _measure_exam(extra: list[str]) -> dict:
    """The 300-student exam as a user runs it: a fresh process, imports included."""
    import tempfile

    root = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        students = ["--students", "300"] if "--students" not in extra else []
        wall, cpu, peak, _ = _sampled([sys.executable, "-m", "generator", "exam", str(root / "exam-300.yaml"),
                                       *students, "--out", str(Path(tmp) / "out"), *extra])
    label = " ".join(extra) or "(papers, key, answers.csv, manifest, moodle.xml)"
    if "--solutions" in extra:
        label += " (with figures: each student's worked solutions, 13 figures)"
    return {"options": label,
            "wall_s": round(wall, 2), "cpu_percent": cpu, "peak_pss_mb": peak}


def _pss(pid: int) -> int:
    """Proportional set size in bytes: pages shared after a fork count once in the
    sum over the tree, not once per process as RSS would."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _tree_usage(root_pid: int) -> tuple[int, float]:
    """Summed memory (PSS, bytes) and CPU seconds of a process and all its descendants, from /proc."""
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
    rss = sum(_pss(p) for p in tree if p in stats)
    cpu = sum((int(stats[p][11]) + int(stats[p][12]) + int(stats[p][13]) + int(stats[p][14])) / hz
              for p in tree if p in stats)
    return rss, cpu


def _fresh(ctx, target, *args) -> dict:
    """Run one measurement in a fresh process, so its peak memory is its own."""
    q = ctx.Queue()
    p = ctx.Process(target=target, args=(*args, q))
    p.start()
    result = q.get()
    p.join()
    return result


def _measure_rexams(fmt: str, students: int) -> dict:
    """Cold: a fresh process doing the work once (imports included); warm: the
    second run inside one process."""
    script = str(Path(__file__).with_name("rexams.py"))
    cold, _, peak, _ = _sampled([sys.executable, script, fmt, str(students), "1"])
    _, _, _, text = _sampled([sys.executable, script, fmt, str(students), "2"])
    warm = json.loads(text)["warm_s"]
    n = students * 10
    return {"format": fmt, "instances": n, "cold_s": round(cold, 2), "warm_s": warm,
            "warm_ms_per_instance": round(1000 * warm / n, 1), "peak_pss_mb": peak}


def report(data: dict) -> str:
    """The Markdown report of one `make bench` run."""
    lines = ["# Benchmark report\n", f"Machine: {data['machine']}, Python {data['python']}. One run of "
             "`make bench`; ratios compare numbers from this run only.\n",
             "## Worked problems (sample + solve + render Markdown), one core\n",
             "| kind | per second | ms each | peak MB |", "|---|---|---|---|"]
    lines += [f"| {r['kind']} | {r['per_second']} | {r['ms_per_problem']} | {r['peak_rss_mb']} |"
              for r in data["worked_problems"]]
    lines += ["", "## Figures, one core\n", "| figure | per second | ms each | peak MB |", "|---|---|---|---|"]
    lines += [f"| {r['figure']} | {r['per_second']} | {r['ms_per_figure']} | {r['peak_rss_mb']} |"
              for r in data["figures"]]
    lines += ["", "## R/exams-shaped workload (10 × weights of 4 scores + worked solution + bar chart, per "
              "student)\n", "| output | instances | cold s (fresh process) | warm s | warm ms per instance | peak MB |",
              "|---|---|---|---|---|---|"]
    lines += [f"| {r['format']} | {r['instances']} | {r['cold_s']} | {r['warm_s']} | {r['warm_ms_per_instance']} "
              f"| {r['peak_pss_mb']} |" for r in data["rexams"]]
    lines += ["", "R/exams' own benchmark: about 16 ms per HTML instance without a figure and 52 ms per PDF "
              "instance.", "", "## Site\n", "| sets | generate s | mkdocs build s | peak MB |", "|---|---|---|---|"]
    lines += [f"| {r['sets']} | {r['generate_s']} | {r['mkdocs_build_s']} | {r['peak_rss_mb']} |" for r in data["site"]]
    lines += ["", "## 300-student exam, 10 problems (whole process tree: wall, CPU, peak PSS)\n",
              f"| options | wall s | CPU % | peak MB | under {EXAM_TARGET_S:g} s and {EXAM_TARGET_MB:g} MB |",
              "|---|---|---|---|---|"]
    lines += [f"| {r['options']} | {r['wall_s']} | {r['cpu_percent']} | {r['peak_pss_mb']} | {_verdict(r)} |"
              for r in data["exam_300"]]
    lines += ["", "## Growth from 1× to 10× the work (10 is linear)\n", "| workload | ratio |", "|---|---|"]
    lines += [f"| {k} | ×{v} |" for k, v in data["growth"].items()]
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from generator import kinds

    ctx = mp.get_context("spawn")  # a clean process per kind: memory is that kind's own
    rows = [_fresh(ctx, _measure, k.id, N.get(k.id, DEFAULT_N)) for k in kinds.all_kinds()]
    print(f"{'kind':<5}{'problems':>9}{'per second':>12}{'ms each':>10}{'peak MB':>10}")
    for r in rows:
        print(f"{r['kind']:<5}{r['problems']:>9}{r['per_second']:>12}{r['ms_per_problem']:>10}{r['peak_rss_mb']:>10}")
    a_to_f = [r for r in rows if r["kind"] in "ABCDEF"]
    slowest = min(r["per_second"] for r in a_to_f)
    verdict = "meets" if slowest >= TARGET else "MISSES"
    print(f"\nkinds A–F: slowest {slowest}/s on one core — {verdict} the target of {TARGET}/s")
    from generator.figures import FIGURES

    figs = [_fresh(ctx, _measure_figure, fig_kind) for fig_kind in FIGURES]
    print(f"\n{'figure':<12}{'drawn':>7}{'per second':>12}{'ms each':>10}{'peak MB':>10}")
    for r in figs:
        print(f"{r['figure']:<12}{r['figures']:>7}{r['per_second']:>12}{r['ms_per_figure']:>10}{r['peak_rss_mb']:>10}")
    for name, target in FIGURE_TARGET_MS.items():
        got = next(r["ms_per_figure"] for r in figs if r["figure"] == name)
        print(f"{name}: {got} ms per figure — {'meets' if got <= target else 'MISSES'} the target of {target} ms")
    sites = [_fresh(ctx, _measure_site, n) for n in SITE_SETS]
    print(f"\n{'sets':>5}{'generate s':>12}{'mkdocs s':>10}{'peak MB':>10}")
    for r in sites:
        print(f"{r['sets']:>5}{r['generate_s']:>12}{r['mkdocs_build_s']:>10}{r['peak_rss_mb']:>10}")
    small, big = sites[0], sites[-1]
    scale = big["sets"] / small["sets"]
    growth = {k: round(big[k] / small[k], 1) for k in ("generate_s", "mkdocs_build_s")}
    print(f"growth from {small['sets']} to {big['sets']} sets (×{scale:g} the work): generate ×{growth['generate_s']}, "
          f"mkdocs ×{growth['mkdocs_build_s']} (linear would be ×{scale:g}; both have a fixed start-up cost)")
    per_set = (big["generate_s"] - small["generate_s"]) / (big["sets"] - small["sets"])
    linear = all(g <= 1.2 * scale for g in growth.values())
    print(f"marginal cost {per_set:.2f} s per set to generate — "
          f"{'grows at most linearly' if linear else 'GROWS FASTER THAN LINEAR'}")
    rexams = [_measure_rexams(fmt, n) for fmt in ("md", "pdf") for n in (2, 20)]
    print("\nR/exams-shaped workload (10 instances per student):")
    for r in rexams:
        print(f"  {r['format']:<4}{r['instances']:>5} instances  cold {r['cold_s']:>6} s  warm {r['warm_s']:>6} s "
              f"({r['warm_ms_per_instance']} ms each)  {r['peak_pss_mb']} MB")
    exams = [_measure_exam([]), _measure_exam(["--workers", "1"]), _measure_exam(["--solutions"])]
    small_exam = _measure_exam(["--students", "30"])
    print(f"\n300-student exam, 10 problems each (target {EXAM_TARGET_S:g} s, {EXAM_TARGET_MB:g} MB):")
    for r in exams:
        print(f"  {r['options']:<55} {r['wall_s']:>7} s {r['cpu_percent']:>5}% CPU {r['peak_pss_mb']:>7} MB"
              f"  {_verdict(r)}")
    print(f"  the second core: ×{exams[1]['wall_s'] / exams[0]['wall_s']:.2f} faster")
    small_a = _fresh(ctx, _measure, "A", N.get("A", DEFAULT_N) // 10)
    big_a = next(r for r in rows if r["kind"] == "A")
    ratios = {
        "worked problems, kind A (40 → 400)": round(big_a["seconds"] / small_a["seconds"], 1),
        "site generation (5 → 50 sets)": growth["generate_s"],
        "site mkdocs build (5 → 50 sets)": growth["mkdocs_build_s"],
        "R/exams-shaped to Markdown, warm (20 → 200)": round(rexams[1]["warm_s"] / rexams[0]["warm_s"], 1),
        "R/exams-shaped to PDF, warm (20 → 200)": round(rexams[3]["warm_s"] / rexams[2]["warm_s"], 1),
        "exam, fresh process (30 → 300 students)": round(exams[0]["wall_s"] / small_exam["wall_s"], 1),
    }
    data = {"machine": platform.platform(), "python": platform.python_version(),
            "worked_problems": rows, "target_per_second_A_to_F": TARGET,
            "figures": figs, "figure_target_ms": FIGURE_TARGET_MS, "rexams": rexams,
            "site": sites, "site_growth": growth, "exam_300": exams, "exam_30": small_exam,
            "growth": ratios}
    OUT.write_text(json.dumps(data, indent=2) + "\n")
    text = report(data)
    REPORT.write_text(text)
    print("\n" + text)
    print(f"wrote {OUT} and {REPORT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
