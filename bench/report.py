"""The benchmark report: what one `make bench` run measured, beside the cited
figures of bench/references.yaml, with every verdict computed from a target
there.  Pure functions of (results, references): tests/test_bench.py checks
them without running the benchmark."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

REFERENCES = Path(__file__).with_name("references.yaml")

MEETS, MISSES, UNMEASURED, NOT_COMPARABLE = "meets", "MISSES", "not measured", "not comparable"
INDEX_TOLERANCE = 0.25  # an R-here source counts where its machine index is within ±25% of this run's
BASELINE = "abdb93e"  # the commit bench/run.py measures beside main (its BASELINE)
INDEX_NAME = "Machine index ({label}'s worked problems per second, geometric mean over the {n} kinds)"


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


def machine_index(per_second: dict | None) -> float | None:
    """One number for a machine: the geometric mean over the kinds of the
    baseline's worked problems per second measured on it."""
    values = [v for v in (per_second or {}).values() if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def baseline(results: dict) -> dict | None:
    """The baseline commit as this run measured it (None when it could not)."""
    b = results.get("baseline") or {}
    return b if b.get("per_second") else None


def run_index(results: dict) -> float | None:
    """This run's machine index (None when the run did not measure the baseline)."""
    b = baseline(results)
    return machine_index(b["per_second"]) if b else None


def source_index(refs: dict, name: str) -> float | None:
    """A source's machine index: a number, or {geomean_of: FIGURE}, the index
    computed from a cited per-kind figure measured on that machine."""
    index = refs["sources"][name].get("machine_index")
    if isinstance(index, dict):
        return machine_index(refs["figures"][index["geomean_of"]]["value"])
    return index


def here_source(results: dict, refs: dict) -> tuple[str | None, str]:
    """The R-here source (refs["here"]: R/exams measured on a benchmark machine,
    one source per machine) whose machine index is within ±25% of this run's,
    the nearest if several; or None, and why, in words with the indexes."""
    ours = run_index(results)
    indexes = {name: source_index(refs, name) for name in refs.get("here") or {}}
    listed = ", ".join(f"{_index(i)} for {name}" for name, i in indexes.items())
    if ours is None:
        return None, (f"machine index unknown in this run ({_baseline_word(results)} not measured), {listed}")
    near = {n: abs(i / ours - 1) for n, i in indexes.items() if i and abs(i / ours - 1) <= INDEX_TOLERANCE}
    if not near:
        return None, f"machine index {_index(ours)} in this run, {listed}: none within ±{INDEX_TOLERANCE:.0%}"
    name = min(near, key=near.get)
    return name, f"machine index {_index(indexes[name])} for {name}, {_index(ours)} in this run: within " \
                 f"±{INDEX_TOLERANCE:.0%}"


def _index(x: float | None) -> str:
    return "unknown" if x is None else f"{x:.0f}"


def _baseline_word(results: dict) -> str:
    return (results.get("baseline") or {}).get("label", BASELINE)


def resolve(results: dict, refs: dict, bound: Any, row: str | None = None) -> dict:
    """A target's bound: {"value": the limit or None, "basis": where it comes
    from, in words, "comparable": False when no R-here source matches}.
    A bound is a number, or {times: F, of: FIGURE} — F × a cited figure (its
    best where `use` says so; its value for `row` when the figure is a table, as
    per kind) — where `in_run: DOTTED` names the same figure measured in this run
    (at the baseline), used instead of the cited one when the run has it; or
    {times: F, here: MEASURE} — F × R/exams' MEASURE on the machine whose index
    matches this run's (refs["here"])."""
    if bound is None or isinstance(bound, (int, float)):
        return {"value": bound, "basis": None, "comparable": True}
    scale = "" if bound["times"] == 1 else f"{bound['times']:g} × "
    if "here" in bound:
        source, why = here_source(results, refs)
        if source is None:
            return {"value": None, "basis": f"R/exams here: not comparable, {why}", "comparable": False}
        name = refs["here"][source][bound["here"]]
    else:
        name = bound["of"]
    fig = refs["figures"][name]
    use = bound.get("use", "value") if bound.get("use", "value") in fig else "value"
    value, shown = fig[use], None
    measured = lookup(results, bound.get("in_run"))
    if measured is not None:
        value = measured
        shown = f"per kind ({_word_measured(results)})" if isinstance(value, dict) else \
            f"{_num(value)} {fig['unit']} ({_word_measured(results)})"
    if isinstance(value, dict):
        value = value.get(row)
    if shown is None:
        shown = "per kind" if isinstance(fig[use], dict) else f"{_num(fig[use])} {fig['unit']}"
        if use != "value":
            shown += f" ({use})"
        shown += f" (cited, {fig['source']}"
        if "here" in bound:
            shown += f"; {why}"
        elif bound.get("in_run"):
            shown += f"; {_baseline_word(results)} not measured in this run"
        shown += ")"
    return {"value": None if value is None else bound["times"] * value, "basis": f"{scale}{fig['what']}: {shown}",
            "comparable": True}


def _word_measured(results: dict) -> str:
    return f"measured in this run at {_baseline_word(results)}"


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
            most = resolve(results, refs, t.get("at_most"), row)
            least = resolve(results, refs, t.get("at_least"), row)
            comparable = most["comparable"] and least["comparable"]
            out.append({"issue": t["issue"], "what": t["what"] + (f" — {row}" if row else ""), "unit": t["unit"],
                        "measured": value, "at_most": most["value"], "at_least": least["value"],
                        "basis": most["basis"] or least["basis"] or f"issue {t['issue']}",
                        "verdict": _check(value, most["value"], least["value"]) if comparable else NOT_COMPARABLE})
    return out


def _row_order(name: str) -> tuple:
    return (0, name) if name[:1].isalpha() else (1, tuple(int(p) for p in name.split(".") if p.isdigit()))


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
    """The table against R/exams: ours (measured), each cited figure, cited / ours;
    R/exams here only from the source whose machine matches this run's (see here_source)."""
    source, _ = here_source(results, refs)
    out = []
    for c in refs["compare"]:
        ours = lookup(results, c.get("ours"))
        cited = [refs["figures"][k] for k in c["cited"]]
        then = refs["figures"][c["then"]] if c.get("then") else None
        name = refs["here"][source].get(c["here"]) if source and c.get("here") else None
        here = refs["figures"][name] if name else None
        out.append({"what": c["what"], "ours": ours, "cited": cited, "then": then, "here": here,
                    "ratios": [None if not ours else round(f["value"] / ours, 1) for f in cited],
                    "here_ratio": None if not ours or here is None else round(here["value"] / ours, 1)})
    return out


def index_lines(results: dict, refs: dict) -> list[str]:
    """The report's lines on the machine index and the baseline measured in this run."""
    b, ours = baseline(results), run_index(results)
    label = _baseline_word(results)
    where = "; ".join(f"{_index(source_index(refs, n))} on the machine where R/exams here was measured ({n}: "
                      f"{' '.join(str(refs['sources'][n].get('machine', '?')).split())})" for n in refs.get("here") or {})
    if b is None:
        why = (results.get("baseline") or {}).get("unavailable", "these results hold no such measurement")
        return [f"**{label} was not measured in this run** ({why}): 11.5 and 13.9 (same machine) are held against "
                f"the cited figures, measured on another machine, and this run's machine index is unknown "
                f"(it is {where}).", ""]
    source, why = here_source(results, refs)
    return [f"**{INDEX_NAME.format(label=label, n=len(b['per_second']))}: {_index(ours)}** in this run "
            f"({label} = {str(b.get('commit', '?'))[:12]}, measured in this run, interleaved with main on the same "
            f"machine); {where}. 11.5 and 13.9 (same machine) are computed against {label} measured in this run; "
            + (f"the R/exams-here rows use {source} ({why})." if source else
               f"the R/exams-here rows are not comparable ({why})."), ""]


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
    lines += index_lines(results, refs)
    source, why = here_source(results, refs)
    if source:
        here = refs["sources"][source]
        said = (f"R/exams here ({source}, {why}): " + " ".join(here["what"].split()) + "; "
                + " ".join(here["method"].split()) + ", " + here["date"] + ".")
    else:
        said = f"R/exams here: not comparable ({why}); its figures are not shown and its targets not judged."
    lines += ["## Against R/exams", "", "R/exams (issue 14's table): " + refs["sources"]["rexams"]["what"] + "; "
              + refs["sources"]["rexams"]["method"] + ", " + refs["sources"]["rexams"]["date"] + ".", "", said, "",
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
        target = "–" if v["verdict"] == NOT_COMPARABLE else f"{_bound(v)} {v['unit']}"
        lines.append(f"| {v['issue']} | {v['what']} | {_num(v['measured'])} {v['unit']} | {target} "
                     f"| {v['basis']} | {v['verdict']} |")
    ours = run_index(results)
    lines += ["", f"This run's machine index is {_index(ours)}"
              + ("" if ours is not None else f" ({_baseline_word(results)} not measured in this run)")
              + ". The limits of the rows 14.1–14.5 and 12.8 without \"(R here)\" are absolute times and sizes "
              "from issue 14's (and 12's) own machine, whose index was not measured; they are not scaled to this "
              "machine."]
    lines += _tables(results, refs)
    return "\n".join(lines) + "\n"


def _tables(results: dict, refs: dict) -> list[str]:
    out = []
    rows = results.get("worked_problems") or []
    if rows:
        before = refs["figures"]["abdb93e_per_second"]["value"]
        b = baseline(results)
        now = (b or {}).get("per_second", {})
        head = ("| kind | problems | per second | ms each | peak MB | at abdb93e (measured in this run) "
                "| now ÷ abdb93e | at abdb93e (cited, another machine) |") if b else \
            "| kind | problems | per second | ms each | peak MB | at abdb93e (cited) | now ÷ abdb93e |"
        out += ["", "## Worked problems (sample + solve + render Markdown), one core", "",
                (f"The column at abdb93e is measured in this run ({str(b.get('commit', '?'))[:12]}: the same problems "
                 f"per kind as main, the two taking turns of about {b.get('turn_s', '?')} s, ABBA); the last column is history, cited: "
                 if b else "abdb93e not measured in this run; cited: ") + f"{refs['sources']['abdb93e']['cited_from']}.",
                "", head, "|---|---|---|---|---|---|---|" + ("---|" if b else "")]
        for r in rows:
            then = before.get(r["kind"])
            base = now.get(r["kind"]) if b else then
            ratio = f"{r['per_second'] / base:.2f}" if base else "–"
            shown = _num(base) if b else (_num(then) + " (cited)" if then else "–")
            out.append(f"| {r['kind']} | {r['problems']} | {r['per_second']} | {r['ms_per_problem']} | "
                       f"{r['peak_rss_mb']} | {shown if base else '–'} | {ratio} |"
                       + (f" {_num(then) if then else '–'} |" if b else ""))
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
        site_b = (results.get("baseline") or {}).get("site_50")
        if site_b:
            out.append(f"| {site_b['sets']} at {_baseline_word(results)} (its own bench/run.py, measured in this run) | "
                       f"{site_b['generate_s']} | {site_b['mkdocs_build_s']} | {site_b['peak_rss_mb']} |")
    if results.get("exam"):
        out += ["", "## 300-student exam, 10 problems (fresh process; whole process tree)", "",
                "| options | wall s | CPU % | peak MB (PSS) |", "|---|---|---|---|"]
        out += [f"| {r['options']} | {r['wall_s']} | {r['cpu_percent']} | {r['peak_pss_mb']} |"
                for r in [*results["exam"].values(), *(results.get("exam_loaded") or {}).values()]]
    if results.get("cli"):
        out += ["", "## Command-line start-up (fresh process, wall)", "", "| command | runs | median s | fastest s |",
                "|---|---|---|---|"]
        out += [f"| {r['command']} | {r['runs']} | {r['median_s']} | {r['min_s']} |" for r in results["cli"].values()]
    if results.get("growth"):
        out += ["", "## Growth from 1× to 10× the work (10 is linear)", "", "| workload | ratio |", "|---|---|"]
        out += [f"| {k} | ×{v} |" for k, v in results["growth_labels"].items()] if results.get("growth_labels") else []
    return out
