"""The benchmark report: what one `make bench` run measured, beside the cited
figures of bench/references.yaml, with every verdict computed from a target
there.  Pure functions of (results, references): tests/test_bench.py checks
them without running the benchmark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

REFERENCES = Path(__file__).with_name("references.yaml")

MEETS, MISSES, UNMEASURED = "meets", "MISSES", "not measured"


def load_references(path: Path = REFERENCES) -> dict:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


def lookup(results: dict, dotted: str | None) -> Any:
    """A measured figure by its dotted name in the results (None when the run lacks it)."""
    if dotted is None:
        return None
    node: Any = results
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def limit(refs: dict, bound: Any, row: str | None = None) -> float | None:
    """A target's bound: a number, or {times: F, of: FIGURE[, use: best]} — F × a
    cited figure (its best where `use` says so; its value for `row` when the
    figure is a table, as per kind)."""
    if bound is None or isinstance(bound, (int, float)):
        return bound
    value = refs["figures"][bound["of"]][bound.get("use", "value")]
    if isinstance(value, dict):
        value = value.get(row)
        if value is None:
            return None
    return bound["times"] * value


def _check(got: float | None, at_most: float | None, at_least: float | None) -> str:
    if got is None or (at_most is None and at_least is None):
        return UNMEASURED
    ok = (at_most is None or got <= at_most) and (at_least is None or got >= at_least)
    return MEETS if ok else MISSES


def verdicts(results: dict, refs: dict) -> list[dict]:
    """One row per target (per table row for `each` targets): the measured value,
    the bound it is held to, and the verdict computed from them."""
    out = []
    for t in refs["targets"]:
        got = lookup(results, t["measured"])
        rows = sorted(got.items(), key=lambda kv: _row_order(kv[0])) if t.get("each") and isinstance(got, dict) \
            else [(None, None if isinstance(got, dict) else got)]
        for row, value in rows:
            most = limit(refs, t.get("at_most"), row)
            least = limit(refs, t.get("at_least"), row)
            out.append({"issue": t["issue"], "what": t["what"] + (f" — {row}" if row else ""), "unit": t["unit"],
                        "measured": value, "at_most": most, "at_least": least,
                        "basis": _basis(refs, t), "verdict": _check(value, most, least)})
    return out


def _row_order(name: str) -> tuple:
    return (0, name) if name[:1].isalpha() else (1, tuple(int(p) for p in name.split(".") if p.isdigit()))


def _basis(refs: dict, t: dict) -> str:
    """Where a bound comes from, in words (a cited figure is marked so)."""
    for key in ("at_most", "at_least"):
        bound = t.get(key)
        if isinstance(bound, dict):
            fig = refs["figures"][bound["of"]]
            scale = "" if bound["times"] == 1 else f"{bound['times']:g} × "
            value = fig[bound.get("use", "value")]
            shown = "per kind" if isinstance(value, dict) else f"{_num(value)} {fig['unit']}"
            if bound.get("use"):
                shown += f" ({bound['use']})"
            return f"{scale}{fig['what']}: {shown} (cited, {fig['source']})"
    return f"issue {t['issue']}"


def _num(x: Any) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.3g}" if abs(x) < 10 else f"{x:.1f}"
    return str(x)


def _bound(v: dict) -> str:
    if v["at_most"] is not None:
        return f"≤ {_num(v['at_most'])}"
    if v["at_least"] is not None:
        return f"≥ {_num(v['at_least'])}"
    return "–"


def comparisons(results: dict, refs: dict) -> list[dict]:
    """The table against R/exams: ours (measured), each cited figure, cited / ours."""
    out = []
    for c in refs["compare"]:
        ours = lookup(results, c.get("ours"))
        cited = [refs["figures"][k] for k in c["cited"]]
        then = refs["figures"][c["then"]] if c.get("then") else None
        here = refs["figures"][c["here"]] if c.get("here") else None
        out.append({"what": c["what"], "ours": ours, "cited": cited, "then": then, "here": here,
                    "ratios": [None if not ours else round(f["value"] / ours, 1) for f in cited],
                    "here_ratio": None if not ours or here is None else round(here["value"] / ours, 1)})
    return out


def _cited(fig: dict) -> str:
    low = f"{_num(fig['low'])}–" if "low" in fig else ""
    best = f"{_num(fig['best'])} / " if "best" in fig else ""
    return f"{best}{low}{_num(fig['value'])} {fig['unit']} (cited)"


def render(results: dict, refs: dict) -> str:
    """The Markdown report of one run."""
    lines = ["# Benchmark report", "",
             f"Machine: {results.get('machine', '?')}, Python {results.get('python', '?')}, "
             f"{results.get('cores', '?')} cores; run of {results.get('date', '?')}; load average before the run "
             f"{results.get('load_before', '?')}. Figures marked **cited** were not measured by this run: "
             "bench/references.yaml says who measured them, what was run, where and when. Every verdict "
             "below is computed from a target in that file. Wall times on a shared machine vary by 2× and "
             "more between runs; repetitions are few to keep `make bench` short "
             f"({results.get('repetitions', 'see bench/run.py')}).", ""]
    here = refs["sources"]["rexams_here"]
    lines += ["## Against R/exams", "", "R/exams (issue 14's table): " + refs["sources"]["rexams"]["what"] + "; "
              + refs["sources"]["rexams"]["method"] + ", " + refs["sources"]["rexams"]["date"] + ".", "",
              "R/exams here: " + " ".join(here["what"].split()) + "; " + " ".join(here["method"].split()) + ", "
              + here["date"] + ".", "",
              "| output | ours (this run) | R/exams (cited) | R/exams ÷ ours | R/exams here (cited) | ÷ ours "
              "| ours when issue 14 was filed |",
              "|---|---|---|---|---|---|---|"]
    for c in comparisons(results, refs):
        unit = c["cited"][0]["unit"]
        ours = f"{_num(c['ours'])} {unit}" if c["ours"] is not None else "not measured by this bench"
        lines.append(f"| {c['what']} | {ours} | {' / '.join(_cited(f) for f in c['cited'])} | "
                     f"{' / '.join('–' if r is None else f'{r:g}×' for r in c['ratios'])} | "
                     f"{_cited(c['here']) if c['here'] else '–'} | "
                     f"{'–' if c['here_ratio'] is None else format(c['here_ratio'], 'g') + '×'} | "
                     f"{_cited(c['then']) if c['then'] else '–'} |")
    lines += ["", "## Targets", "", "| issue | what | measured | target | from | verdict |", "|---|---|---|---|---|---|"]
    for v in verdicts(results, refs):
        lines.append(f"| {v['issue']} | {v['what']} | {_num(v['measured'])} {v['unit']} | {_bound(v)} {v['unit']} "
                     f"| {v['basis']} | {v['verdict']} |")
    lines += _tables(results, refs)
    return "\n".join(lines) + "\n"


def _tables(results: dict, refs: dict) -> list[str]:
    out = []
    rows = results.get("worked_problems") or []
    if rows:
        before = refs["figures"]["abdb93e_per_second"]["value"]
        out += ["", "## Worked problems (sample + solve + render Markdown), one core", "",
                f"Cited: {refs['sources']['abdb93e']['cited_from']}.", "",
                "| kind | problems | per second | ms each | peak MB | at abdb93e (cited) | now ÷ abdb93e |",
                "|---|---|---|---|---|---|---|"]
        for r in rows:
            then = before.get(r["kind"])
            ratio = f"{r['per_second'] / then:.2f}" if then else "–"
            out.append(f"| {r['kind']} | {r['problems']} | {r['per_second']} | {r['ms_per_problem']} | "
                       f"{r['peak_rss_mb']} | {_num(then) + ' (cited)' if then else '–'} | {ratio} |")
    if results.get("figures"):
        out += ["", "## Figures, one core (drawn directly, no cache)", "", "| figure | drawn | per second | ms each | peak MB |",
                "|---|---|---|---|---|"]
        out += [f"| {r['figure']} | {r['figures']} | {r['per_second']} | {r['ms_per_figure']} | {r['peak_rss_mb']} |"
                for r in results["figures"]]
    rex = results.get("rexams") or {}
    if rex:
        out += ["", "## The R/exams-shaped workload (bench/rexams.yaml)", "",
                "| run | instances | workers | wall s | ms per instance | peak MB, any process | peak MB, tree |",
                "|---|---|---|---|---|---|---|"]
        for name, r in rex.items():
            if "wall_s" in r or "seconds" in r:
                out.append(f"| {name} | {r['instances']} | {r.get('workers', 1)} | {r.get('wall_s', r.get('seconds'))} | "
                           f"{r['ms_per_instance']} | {r.get('peak_process_mb', '–')} | {r.get('peak_pss_mb', '–')} |")
        html = [(n, r) for n, r in rex.items() if "site_s" in r]
        if html:
            out += ["", "| HTML a user publishes, cold | instances | site s | + mkdocs build s | + zensical build s |",
                    "|---|---|---|---|---|"]
            out += [f"| {n} | {r['instances']} | {r['site_s']} | {r['mkdocs_s']} | {r['zensical_s']} |" for n, r in html]
        if "second_core" in results:
            out.append(f"\nThe second core: Markdown path ×{results['second_core']} faster with 2 workers than with 1.")
    if results.get("site"):
        out += ["", "## Site (default sets), generation in-process and mkdocs build", "",
                "| sets | generate s | mkdocs build s | peak MB |", "|---|---|---|---|"]
        out += [f"| {r['sets']} | {r['generate_s']} | {r['mkdocs_build_s']} | {r['peak_rss_mb']} |" for r in results["site"]]
    if results.get("exam"):
        out += ["", "## 300-student exam, 10 problems (fresh process; whole process tree)", "",
                "| options | wall s | CPU % | peak MB (PSS) |", "|---|---|---|---|"]
        out += [f"| {r['options']} | {r['wall_s']} | {r['cpu_percent']} | {r['peak_pss_mb']} |"
                for r in results["exam"].values()]
    if results.get("cli"):
        out += ["", "## Command-line start-up (fresh process, wall)", "", "| command | runs | median s | fastest s |",
                "|---|---|---|---|"]
        out += [f"| {r['command']} | {r['runs']} | {r['median_s']} | {r['min_s']} |" for r in results["cli"].values()]
    if results.get("growth"):
        out += ["", "## Growth from 1× to 10× the work (10 is linear)", "", "| workload | ratio |", "|---|---|"]
        out += [f"| {k} | ×{v} |" for k, v in results["growth_labels"].items()] if results.get("growth_labels") else []
    return out
