"""The benchmark report: what one `make bench` run measured, beside the cited
figures of bench/references.yaml, with every verdict computed from a target
there.  Pure functions of (results, references): tests/test_bench.py checks
them without running the benchmark."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

REFERENCES = Path(__file__).with_name("references.yaml")

MEETS, MISSES, UNMEASURED, NOISY, NOT_JUDGED = "meets", "MISSES", "not measured", "too noisy to judge", "not judged"
# A verdict is given when the runs of a figure (from 8 runs on, a 90 %
# interval of their median: band) fall on one side of its bound; when they
# straddle it, the median decides only if the runs spread less than NOISE of
# their median and the machine was not busier than its cores, else the row is
# too noisy to judge
NOISE = 0.10
# How far a bound scaled to this machine may be off.  R/exams run in this
# run at 200 instances scales its cited figures at 2,000 (the same program,
# a tenth of the work); without R/exams, the speed of abdb93e measured in this
# run does, and between the two machines R/exams here was measured on, R/exams
# changed speed by 1.05-1.8x while this project at abdb93e did by 1.35-2.0x
LIVE_TOLERANCE, INDEX_TOLERANCE = 0.10, 0.25
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


def _holder(results: dict, dotted: str, row: str | None, beside: str) -> Any:
    """What a run keeps about a figure besides its median: the row holding
    the figure has `beside` ("runs", "load"), or a table of figures has a
    table NAME_runs / NAME_load next to it (per kind, per figure kind)."""
    *parent, last = dotted.split(".") + ([row] if row is not None else [])
    holder = lookup(results, ".".join(parent)) if parent else None
    if isinstance(holder, dict) and beside in holder:
        return holder[beside], last
    table = lookup(results, ".".join(parent) + "_" + beside) if parent else None
    return (table or {}).get(last), None


def runs_of(results: dict, dotted: str | None, row: str | None = None) -> list[float] | None:
    """The runs behind a measured figure (a figure measured once: itself alone)."""
    value = lookup(results, dotted)
    value = value.get(row) if isinstance(value, dict) and row is not None else value
    if value is None:
        return None
    runs, field = _holder(results, dotted, row, "runs")
    if runs and field is not None:
        runs = [r[field] for r in runs if field in r]
    return list(runs) if runs else [value]


def load_of(results: dict, dotted: str | None, row: str | None = None) -> float | None:
    """The highest 1-minute load average seen around a figure's runs (None when unknown)."""
    load, _ = _holder(results, dotted, row, "load") if dotted else (None, None)
    return max(load) if load else None


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


def live_r(results: dict, refs: dict, measure: str) -> list[float] | None:
    """R/exams' runs of a measure of `here`, when this run ran R/exams itself."""
    dotted = (refs.get("live") or {}).get(measure)
    return runs_of(results, dotted) if dotted and lookup(results, dotted) is not None else None


def r_here(results: dict, refs: dict) -> dict:
    """Where this run's R/exams-here figures come from: {"source": the cited
    source (one per benchmark machine, refs["here"]) or None, "why": in words,
    "live": R/exams ran in this run, "index": this run's machine index}.
    Without R/exams in the run, the cited source is the one whose machine index
    is nearest this run's, and its figures are scaled by the two indexes."""
    ours = run_index(results)
    indexes = {name: source_index(refs, name) for name in refs.get("here") or {}}
    live = {m: live_r(results, refs, m) for m in refs.get("live") or {}}
    live = {m: statistics.median(v) for m, v in live.items() if v}
    if ours is not None:
        source = min((n for n in indexes if indexes[n]), key=lambda n: abs(math.log(indexes[n] / ours)), default=None)
    elif live:  # the source whose R/exams ran nearest this run's
        source = min(indexes, key=lambda n: abs(sum(math.log(v / _cited_here(refs, n, m)) for m, v in live.items())))
    else:
        source = None
    listed = ", ".join(f"{_index(i)} for {name}" for name, i in indexes.items())
    if live:
        why = f"R/exams ran in this run, in turns with this project ({', '.join(live)})"
    elif source is None:
        why = (f"neither R/exams ({(results.get('rexams_r') or {}).get('unavailable', 'not run')}) nor "
               f"{_baseline_word(results)} was measured in this run")
    else:
        why = (f"R/exams did not run ({(results.get('rexams_r') or {}).get('unavailable', 'not run')}): its figures "
               f"measured on another machine ({source}) are scaled to this one by the machine index, "
               f"{_index(indexes[source])} there and {_index(ours)} in this run ({listed}); such a bound is judged "
               f"only where the runs clear it by ±{INDEX_TOLERANCE:.0%}")
    return {"source": source, "why": why, "live": live, "index": ours}


def _cited_here(refs: dict, source: str, measure: str, use: str = "value") -> float:
    fig = refs["figures"][refs["here"][source][measure]]
    return fig.get(use, fig["value"])


def here_scale(results: dict, refs: dict, measure: str, here: dict | None = None) -> tuple[float, float, str] | None:
    """(factor, tolerance, how) that takes a cited R-here figure of `measure`
    to this machine: by R/exams' own runs in this run (the measure named in
    `scaled_by`, or all of them), else by the machine index; None when neither."""
    here = here or r_here(results, refs)
    source = here["source"]
    if source is None:
        return None
    if here["live"]:
        by = (refs.get("scaled_by") or {}).get(measure)
        by = [by] if by in here["live"] else list(here["live"])
        factor = statistics.median(here["live"][m] / _cited_here(refs, source, m) for m in by)
        return factor, LIVE_TOLERANCE, f"× {factor:.2f}, R/exams' {'/'.join(by)} in this run ÷ {source}'s"
    factor = source_index(refs, source) / here["index"]
    return factor, INDEX_TOLERANCE, f"× {factor:.2f}, machine index {source} ÷ this run's"


def _index(x: float | None) -> str:
    return "unknown" if x is None else f"{x:.0f}"


def _baseline_word(results: dict) -> str:
    return (results.get("baseline") or {}).get("label", BASELINE)


def resolve(results: dict, refs: dict, bound: Any, row: str | None = None) -> dict:
    """A target's bound: {"value": the limit or None, "basis": where it comes
    from, in words, "runs": the bound run by run where it was measured in this
    run (paired with the measured figure's runs), "tolerance": how far a
    scaled bound may be off}.
    A bound is a number, or {times: F, of: FIGURE} — F × a cited figure (its
    best where `use` says so; its value for `row` when the figure is a table, as
    per kind) — where `in_run: DOTTED` names the same figure measured in this run
    (at the baseline), used instead of the cited one when the run has it; or
    {times: F, here: MEASURE} — F × R/exams' MEASURE on this machine: run in
    this run where R/exams is installed (refs["live"]), else cited and scaled
    (here_scale)."""
    plain = {"value": bound, "basis": None, "runs": None, "tolerance": 0.0}
    if bound is None or isinstance(bound, (int, float)):
        return plain
    times = bound["times"]
    scale = "" if times == 1 else f"{times:g} × "
    if "here" in bound:
        return _resolve_here(results, refs, bound, scale)
    fig = refs["figures"][bound["of"]]
    use = bound.get("use", "value") if bound.get("use", "value") in fig else "value"
    value, shown, runs = fig[use], None, None
    measured = lookup(results, bound.get("in_run"))
    if measured is not None:
        value = measured
        runs = runs_of(results, bound["in_run"], row if isinstance(measured, dict) else None)
        shown = f"per kind ({_word_measured(results)}, run by run)" if isinstance(value, dict) else \
            f"{_num(value)} {fig['unit']} ({_word_measured(results)}, run by run)"
    if isinstance(value, dict):
        value = value.get(row)
    if shown is None:
        shown = "per kind" if isinstance(fig[use], dict) else f"{_num(fig[use])} {fig['unit']}"
        if use != "value":
            shown += f" ({use})"
        shown += f" (cited, {fig['source']}"
        if bound.get("in_run"):
            shown += f"; {_baseline_word(results)} not measured in this run"
        shown += ")"
    return {"value": None if value is None else times * value, "basis": f"{scale}{fig['what']}: {shown}",
            "runs": None if value is None or runs is None else [times * r for r in runs], "tolerance": 0.0}


def _resolve_here(results: dict, refs: dict, bound: dict, scale: str) -> dict:
    here = r_here(results, refs)
    measure, times = bound["here"], bound["times"]
    runs = live_r(results, refs, measure)
    if runs:
        value = statistics.median(runs)
        return {"value": times * value, "runs": [times * r for r in runs], "tolerance": 0.0,
                "basis": f"{scale}R/exams here, {measure}: {_num(value)} (measured in this run, run by run)"}
    how = here_scale(results, refs, measure, here)
    if how is None:
        return {"value": None, "runs": None, "tolerance": 0.0, "basis": f"R/exams here: {here['why']}"}
    factor, tolerance, words = how
    fig = refs["figures"][refs["here"][here["source"]][measure]]
    use = bound.get("use", "value") if bound.get("use", "value") in fig else "value"
    return {"value": times * factor * fig[use], "runs": None, "tolerance": tolerance,
            "basis": f"{scale}{fig['what']}: {_num(fig[use])} {fig['unit']}{f' ({use})' if use != 'value' else ''} "
                     f"(cited, {fig['source']}) {words} (±{tolerance:.0%})"}


def _word_measured(results: dict) -> str:
    return f"measured in this run at {_baseline_word(results)}"


def band(values: list[float]) -> tuple[float, float]:
    """Where the median of the runs lies, without assuming how the noise is
    shaped: the order statistics x(k) and x(n+1-k) with the largest k whose
    tail, P(Binomial(n, 1/2) < k), is at most 5 % (a 90 % interval: from 8
    runs it leaves out the lowest and highest); the lowest and highest run
    when the runs are too few for that."""
    xs = sorted(values)
    n, k = len(xs), 1
    while k + 1 <= (n + 1) // 2 and sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n <= 0.05:
        k += 1
    return xs[k - 1], xs[n - k]


def judge(runs: list[float], bound: list[float] | float, at_most: bool, tolerance: float = 0.0,
          load: float | None = None, cores: int | None = None) -> tuple[str, str]:
    """A verdict on runs of a figure against a bound (a number, or the bound's
    own runs, paired with them): (verdict, why).  Each run is divided by its
    bound; meets or MISSES when the interval of their median (band) falls on
    one side of 1 by more than the bound's tolerance — except a miss of a
    fixed bound on a machine busier than its cores, where other work slowed
    every run; else the median decides when the runs spread by at most NOISE
    and the load stayed within the cores; else too noisy to judge, and why.
    `load` is None where the figure does not depend on it (memory)."""
    paired = isinstance(bound, list)
    bounds = bound if paired else [bound] * len(runs)
    if len(bounds) != len(runs):
        bounds, paired = [statistics.median(bounds)] * len(runs), False
    ratios = [r / b for r, b in zip(runs, bounds)]
    low, high = band(ratios)
    mid = statistics.median(ratios)
    busy = load is not None and cores is not None and load > cores
    good, bad = (high <= 1 - tolerance, low >= 1 + tolerance) if at_most else \
        (low >= 1 + tolerance, high <= 1 - tolerance)
    if bad and busy and not paired:
        return NOISY, (f"every run misses the bound, but load {load:.1f} on {cores} cores slowed them all: a fixed "
                       "limit can be missed only on a machine no busier than its cores")
    if good or bad:
        return (MEETS if good else MISSES), ""
    if tolerance:
        return NOISY, (f"within ±{tolerance:.0%} of a bound scaled to this machine "
                       f"({low:.2f}–{high:.2f} of it)")
    spread = (high - low) / mid if mid else 0.0
    if spread <= NOISE and not busy:
        return (MEETS if (mid <= 1 if at_most else mid >= 1) else MISSES), ""
    reasons = [f"runs at {low:.2f}–{high:.2f} of the bound straddle it"]
    if spread > NOISE:
        reasons.append(f"spread {spread:.0%} > {NOISE:.0%}")
    if busy:
        reasons.append(f"load {load:.1f} on {cores} cores")
    return NOISY, ", ".join(reasons)


def verdicts(results: dict, refs: dict) -> list[dict]:
    """One row per target (per table row for `each` targets): the measured value,
    its runs, the bound it is held to, and the verdict computed from them (judge)."""
    out = []
    for t in refs["targets"]:
        got = lookup(results, t["measured"])
        rows = sorted(got.items(), key=lambda kv: _row_order(kv[0])) if t.get("each") and isinstance(got, dict) \
            else [(None, None if isinstance(got, dict) else got)]
        out += [_verdict(results, refs, t, row, value) for row, value in rows]
    return out


def _verdict(results: dict, refs: dict, t: dict, row: str | None, value: Any) -> dict:
    most = resolve(results, refs, t.get("at_most"), row)
    least = resolve(results, refs, t.get("at_least"), row)
    bound = most if most["value"] is not None else least
    runs = runs_of(results, t["measured"], row) if value is not None else None
    load = None if t["unit"] == "MB" else load_of(results, t["measured"], row)  # memory does not wait for a core
    verdict, why = UNMEASURED, ""
    if value is not None and bound["value"] is not None:
        verdict, why = judge(runs, bound["runs"] or bound["value"], bound is most, bound["tolerance"], load,
                             results.get("cores"))
    elif value is not None and (t.get("at_most") or t.get("at_least")):
        verdict, why = NOT_JUDGED, most["basis"] or least["basis"] or ""
    return {"issue": t["issue"], "what": t["what"] + (f" — {row}" if row else ""), "unit": t["unit"],
            "measured": value, "runs": runs, "load": load, "at_most": most["value"], "at_least": least["value"],
            "basis": most["basis"] or least["basis"] or f"issue {t['issue']}", "verdict": verdict, "why": why}


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
    R/exams here as this run ran it, or cited and scaled to this machine (r_here)."""
    here = r_here(results, refs)
    out = []
    for c in refs["compare"]:
        ours = lookup(results, c.get("ours"))
        cited = [refs["figures"][k] for k in c["cited"]]
        then = refs["figures"][c["then"]] if c.get("then") else None
        out.append({"what": c["what"], "ours": ours, "cited": cited, "then": then,
                    "ratios": [None if not ours else round(f["value"] / ours, 1) for f in cited],
                    **_here_cell(results, refs, c.get("here"), here, ours)})
    return out


def _here_cell(results: dict, refs: dict, measure: str | None, here: dict, ours: float | None) -> dict:
    """R/exams here for one row of the table: its figure, in words, and ÷ ours."""
    if measure is None or here["source"] is None and measure not in here["live"]:
        return {"here": None, "here_ratio": None}
    fig = refs["figures"][refs["here"][here["source"]][measure]] if here["source"] else None
    if measure in here["live"]:
        value = here["live"][measure]
        unit = fig["unit"] if fig else ""
        shown = f"{_num(value)} {unit} (this run, median)"
    elif fig["unit"] in ("ms", "s"):  # times move with the machine, memory does not
        factor, tolerance, _ = here_scale(results, refs, measure, here)
        value = factor * fig["value"]
        shown = f"{_num(value)} {fig['unit']} (cited {_num(fig['value'])} × {factor:.2f}, ±{tolerance:.0%})"
    else:
        value = fig["value"]
        shown = f"{_num(value)} {fig['unit']} (cited, {here['source']})"
    return {"here": shown, "here_ratio": None if not ours else round(value / ours, 1)}


def index_lines(results: dict, refs: dict) -> list[str]:
    """The report's lines on the baseline measured in this run and on where
    R/exams here comes from."""
    b, ours = baseline(results), run_index(results)
    label = _baseline_word(results)
    if b is None:
        why = (results.get("baseline") or {}).get("unavailable", "these results hold no such measurement")
        lines = [f"**{label} was not measured in this run** ({why}): 11.5 and 13.9 (same machine) are held against "
                 f"the cited figures, measured on another machine, and this run's machine index is unknown."]
    else:
        lines = [f"**{INDEX_NAME.format(label=label, n=len(b['per_second']))}: {_index(ours)}** in this run "
                 f"({label} = {str(b.get('commit', '?'))[:12]}, measured in this run, in turns with main on the same "
                 f"machine). 11.5 and 13.9 (same machine) are judged run by run against {label} measured in the "
                 f"same turns."]
    return lines + ["", f"R/exams here: {r_here(results, refs)['why']}.", ""]


def noise_lines(results: dict, judged: list[dict]) -> list[str]:
    """What the report says about the machine: the load it saw, and how many
    verdicts it could not give."""
    cores = results.get("cores")
    loads = [x for x in (*(results.get("load_before") or [])[:1], *(results.get("load_after") or [])[:1]) if x]
    loads += [v["load"] for v in judged if v.get("load") is not None]
    noisy = [v for v in judged if v["verdict"] == NOISY]
    peak = max(loads, default=None)
    lines = [f"Load (1-minute average) before the run {results.get('load_before', '?')}, after it "
             f"{results.get('load_after', '?')}, highest seen around a row {_num(peak)}, on {cores} cores."]
    if peak is not None and cores and peak > cores:
        lines.append(f"**The machine was busier than its {cores} cores during this run: its figures are noisy.** "
                     "A verdict below is given where the runs of a figure (from 8 runs on, a 90 % interval of "
                     "their median) fall on one side of its bound, and a fixed limit is not said to be missed; "
                     "otherwise the row says it is too noisy to judge, and why.")
    if noisy:
        lines.append(f"**{len(noisy)} of {len(judged)} verdicts are too noisy to judge** (their rows say why); "
                     "run `make bench` again on a quieter machine to decide them.")
    return [" ".join(lines), ""]


def _cited(fig: dict) -> str:
    low = f"{_num(fig['low'])}–" if "low" in fig else ""
    best = f"{_num(fig['best'])} / " if "best" in fig else ""
    return f"{best}{low}{_num(fig['value'])} {fig['unit']} (cited)"


def _measured(v: dict) -> str:
    """A measured figure with the range of its runs."""
    text = f"{_num(v['measured'])} {v['unit']}"
    runs = v.get("runs") or []
    if len(runs) > 1:
        low, high = band(runs)
        text += f" ({len(runs)} runs, {'median within ' if len(runs) >= 8 else ''}{_num(low)}–{_num(high)})"
    return text


def render(results: dict, refs: dict) -> str:
    """The Markdown report of one run."""
    judged = verdicts(results, refs)
    lines = ["# Benchmark report", "",
             f"Machine: {results.get('machine', '?')}, Python {results.get('python', '?')}, "
             f"{results.get('cores', '?')} cores; run of {results.get('date', '?')}. Figures marked **cited** were "
             "not measured by this run: bench/references.yaml says who measured them, what was run, where and when. "
             "Every verdict below is computed from a target in that file. Each figure is the median of its runs, "
             "taken in turns with the figures it is compared with "
             f"({results.get('repetitions', 'see bench/run.py')}).", ""]
    lines += noise_lines(results, judged)
    lines += index_lines(results, refs)
    lines += ["## Against R/exams", "", "R/exams (issue 14's table): " + refs["sources"]["rexams"]["what"] + "; "
              + refs["sources"]["rexams"]["method"] + ", " + refs["sources"]["rexams"]["date"] + ".", "",
              "| output | ours (this run) | R/exams (cited) | R/exams ÷ ours | R/exams here | ÷ ours "
              "| ours when issue 14 was filed |",
              "|---|---|---|---|---|---|---|"]
    for c in comparisons(results, refs):
        unit = c["cited"][0]["unit"]
        ours = f"{_num(c['ours'])} {unit}" if c["ours"] is not None else "not measured by this bench"
        lines.append(f"| {c['what']} | {ours} | {' / '.join(_cited(f) for f in c['cited'])} | "
                     f"{' / '.join('–' if r is None else f'{r:g}×' for r in c['ratios'])} | "
                     f"{c['here'] or '–'} | "
                     f"{'–' if c['here_ratio'] is None else format(c['here_ratio'], 'g') + '×'} | "
                     f"{_cited(c['then']) if c['then'] else '–'} |")
    lines += ["", "## Targets", "", "| issue | what | measured | target | from | verdict |", "|---|---|---|---|---|---|"]
    for v in judged:
        target = "–" if v["at_most"] is None and v["at_least"] is None else f"{_bound(v)} {v['unit']}"
        verdict = f"{v['verdict']}: {v['why']}" if v["why"] else v["verdict"]
        lines.append(f"| {v['issue']} | {v['what']} | {_measured(v)} | {target} | {v['basis']} | {verdict} |")
    lines += ["", "The limits of the rows 14.1–14.5 and 12.8 without \"(R here)\" are absolute times and sizes "
              "from issue 14's (and 12's) own machine; they are not scaled to this machine."]
    lines += _tables(results, refs)
    return "\n".join(lines) + "\n"


def _tables(results: dict, refs: dict) -> list[str]:
    """The tables of every figure measured, one per kind of measure."""
    return [line for table in (_kinds_table, _words_table, _figures_table, _rexams_table, _site_table, _exam_table,
                               _cli_table, _growth_table) for line in table(results, refs)]


WORDS_LIMIT = 1.10  # issue 35.5: no more than 10 % slower


def words_verdicts(results: dict) -> list[tuple[str, str, float, str]]:
    """Issue 35.5 per kind: (kind, what, ratio of the fastest turns, verdict)
    for English now ÷ English before the words moved, and German ÷ English."""
    out = []
    for r in (results.get("words") or {}).get("rows", []):
        pairs = [("English now ÷ before", "en_ms", "before_ms"), ("German ÷ English", "de_ms", "en_ms")]
        for what, now, then in pairs:
            if r.get(now) and r.get(then):
                ratio = r[now] / r[then]
                out.append((r["kind"], what, ratio, MEETS if ratio <= WORDS_LIMIT else MISSES))
    return out


def _words_table(results: dict, refs: dict) -> list[str]:
    words = results.get("words")
    if not words:
        return []
    before = words["before"]
    label = before["label"]
    out = ["", "## The words (issue 35.5): English before and after they moved into text files, and German", "",
           f"Per kind the same problems (sample + solve + render Markdown) in English at {label} "
           + (f"({before['commit'][:12]}, the commit before issue 35)" if before.get("commit") else
              f"(not measured: {before.get('unavailable')})")
           + ", in English now and in German now, the three taking turns. Each figure is the kind's fastest turn "
           "(ms a problem): other work on a shared machine only adds time to a turn, so the fastest is the nearest "
           "to the code's own cost; the quartile turns' ratio beside it shows whether the turns agree. Target: "
           f"each ratio at most {WORDS_LIMIT:.2f}.", "",
           f"| kind | problems a turn | turns | load | {label} en | now en | now de | en now ÷ {label} "
           f"(quartile) | de ÷ en (quartile) | ≤ {WORDS_LIMIT:.2f}? |", "|---|---|---|---|---|---|---|---|---|---|"]
    judged = {}
    for kind, what, ratio, verdict in words_verdicts(results):
        judged.setdefault(kind, []).append(verdict)
    for r in words["rows"]:
        def ratio(now: str, then: str) -> str:
            if not (r.get(f"{now}_ms") and r.get(f"{then}_ms")):
                return "–"
            return (f"{r[f'{now}_ms'] / r[f'{then}_ms']:.3f} "
                    f"({r[f'{now}_ms_quartile'] / r[f'{then}_ms_quartile']:.3f})")
        verdicts_ = judged.get(r["kind"], [])
        verdict = MISSES if MISSES in verdicts_ else MEETS if verdicts_ else UNMEASURED
        out.append(f"| {r['kind']} | {r['problems_a_turn']} | {r['turns']} | {r['load'][0]}–{r['load'][1]} | "
                   f"{r.get('before_ms', '–')} | {r['en_ms']} | {r['de_ms']} | {ratio('en', 'before')} | "
                   f"{ratio('de', 'en')} | {verdict} |")
    missed = sorted({k for k, _, _, v in words_verdicts(results) if v == MISSES})
    out += ["", "Every kind meets issue 35.5's target." if judged and not missed else
            f"Slower than {WORDS_LIMIT:.2f}×: {', '.join(missed)}." if missed else "Not measured."]
    return out


def _kinds_table(results: dict, refs: dict) -> list[str]:
    rows = results.get("worked_problems") or []
    if not rows:
        return []
    before = refs["figures"]["abdb93e_per_second"]["value"]
    b = baseline(results)
    now = (b or {}).get("per_second", {})
    head = ("| kind | problems | turns | load | per second | ms each | peak MB | at abdb93e (measured in this run) "
            "| now ÷ abdb93e | at abdb93e (cited, another machine) |") if b else \
        "| kind | problems | turns | load | per second | ms each | peak MB | at abdb93e (cited) | now ÷ abdb93e |"
    out = ["", "## Worked problems (sample + solve + render Markdown), one core", "",
           (f"The column at abdb93e is measured in this run ({str(b.get('commit', '?'))[:12]}: the same problems "
            f"per kind as main, the two taking turns of about {b.get('turn_s', '?')} s, ABBA); the last column is "
            "history, cited: " if b else "abdb93e not measured in this run; cited: ")
           + f"{refs['sources']['abdb93e']['cited_from']}.",
           "", head, "|---|---|---|---|---|---|---|---|---|" + ("---|" if b else "")]
    for r in rows:
        then = before.get(r["kind"])
        base = now.get(r["kind"]) if b else then
        ratio = f"{r['per_second'] / base:.2f}" if base else "–"
        shown = _num(base) if b else (_num(then) + " (cited)" if then else "–")
        out.append(f"| {r['kind']} | {r['problems']} | {len(r.get('turns') or [1])} | {_load(r)} | "
                   f"{r['per_second']} | {r['ms_per_problem']} | "
                   f"{r['peak_rss_mb']} | {shown if base else '–'} | {ratio} |"
                   + (f" {_num(then) if then else '–'} |" if b else ""))
    return out


def _figures_table(results: dict, refs: dict) -> list[str]:
    if not results.get("figures"):
        return []
    return ["", "## Figures, one core (drawn directly, no cache)", "",
            "| figure | drawn | runs | load | per second | ms each | peak MB |", "|---|---|---|---|---|---|---|",
            *(f"| {r['figure']} | {r['figures']} | {_runs(r)} | {_load(r)} | {r['per_second']} | {r['ms_per_figure']} "
              f"| {r['peak_rss_mb']} |" for r in results["figures"])]


def _rexams_table(results: dict, refs: dict) -> list[str]:
    rex = results.get("rexams") or {}
    if not rex:
        return []
    out = ["", "## The R/exams-shaped workload (bench/rexams.yaml)", "",
           "| run | instances | workers | runs | load | wall s | ms per instance | peak MB, any process "
           "| peak MB, tree |", "|---|---|---|---|---|---|---|---|---|"]
    theirs = {f"R/exams {n}": r for n, r in (results.get("rexams_r") or {}).items() if isinstance(r, dict)}
    out += [f"| {name} | {r['instances']} | {r.get('workers', 1)} | {_runs(r)} | {_load(r)} | "
            f"{r.get('wall_s', r.get('seconds'))} | {r['ms_per_instance']} | "
            f"{r.get('peak_process_mb', '–')} | {r.get('peak_pss_mb', '–')} |"
            for name, r in {**rex, **theirs}.items() if "wall_s" in r or "seconds" in r]
    html = [(n, r) for n, r in rex.items() if "site_s" in r]
    if html:
        out += ["", "| HTML a user publishes, cold | instances | site s | + mkdocs build s | + zensical build s |",
                "|---|---|---|---|---|"]
        out += [f"| {n} | {r['instances']} | {r['site_s']} | {r['mkdocs_s']} | {r['zensical_s']} |" for n, r in html]
    if "second_core" in results:
        out.append(f"\nThe second core: Markdown path ×{results['second_core']} faster with 2 workers than with 1.")
    return out


def _site_table(results: dict, refs: dict) -> list[str]:
    if not results.get("site"):
        return []
    out = ["", "## Site (default sets), generation in-process and mkdocs build", "",
           "| sets | runs | load | generate s | mkdocs build s | peak MB |", "|---|---|---|---|---|---|"]
    out += [f"| {r['sets']} | {_runs(r)} | {_load(r)} | {r['generate_s']} | {r['mkdocs_build_s']} | {r['peak_rss_mb']} |"
            for r in results["site"]]
    site_b = (results.get("baseline") or {}).get("site_50")
    if site_b:
        out.append(f"| {site_b['sets']} at {_baseline_word(results)} (its own bench/run.py, measured in this run) | "
                   f"{_runs(site_b)} | {_load(site_b)} | {site_b['generate_s']} | {site_b['mkdocs_build_s']} | "
                   f"{site_b['peak_rss_mb']} |")
    return out


def _exam_table(results: dict, refs: dict) -> list[str]:
    if not results.get("exam"):
        return []
    return ["", "## 300-student exam, 10 problems (fresh process; whole process tree)", "",
            "| options | runs | load | wall s | CPU % | peak MB (PSS) |", "|---|---|---|---|---|---|",
            *(f"| {r['options']} | {_runs(r)} | {_load(r)} | {r['wall_s']} | {r['cpu_percent']} | {r['peak_pss_mb']} |"
              for r in [*results["exam"].values(), *(results.get("exam_loaded") or {}).values()])]


def _cli_table(results: dict, refs: dict) -> list[str]:
    if not results.get("cli"):
        return []
    return ["", "## Command-line start-up (fresh process, wall)", "", "| command | runs | load | median s | fastest s |",
            "|---|---|---|---|---|",
            *(f"| {r['command']} | {_runs(r)} | {_load(r)} | {r['wall_s']} | "
              f"{min(x['wall_s'] for x in r.get('runs') or [r])} |" for r in results["cli"].values())]


def _growth_table(results: dict, refs: dict) -> list[str]:
    if not results.get("growth"):
        return []
    return ["", "## Growth from 1× to 10× the work (10 is linear)", "", "| workload | ratio |", "|---|---|",
            *(f"| {k} | ×{v} |" for k, v in (results.get("growth_labels") or {}).items())]


def _runs(row: dict) -> int:
    return len(row.get("runs") or [row])


def _load(row: dict) -> str:
    """The 1-minute load averages seen around a row's runs (lowest before, highest after)."""
    load = row.get("load")
    return f"{load[0]:.1f}–{load[1]:.1f}" if load else "–"
