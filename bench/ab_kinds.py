"""Per-kind generation time at two commits, in turns (issue 34.10: "no kind
more than 5 % slower" after a restructuring):

    python bench/ab_kinds.py BEFORE AFTER [--kinds A,G,5.2] [--limit 1.05] [--before-lang en] [--after-lang de]

Each commit is taken with `git archive` into a temporary folder (nothing in
the checkout changes) and imported from there, with this interpreter.  Per
kind both commits run the same problems (sample + solve + render Markdown,
one core, warm) in alternating turns of about 0.15 s, ABBA, as `make bench`
runs main beside abdb93e (bench/run.py `_kind_runs`); a turn is one run.
Printed per kind: the median ms per problem at each commit, AFTER ÷ BEFORE
(the median of the turns' ratios, and a 90 % interval of it), the load seen,
and the verdict against --limit with `make bench`'s noise rule
(bench/report.py `judge`): slower or not where the turns agree, else the
median where they are tight on a quiet machine, else too noisy to judge.
About two minutes on two cores.  `--before-lang`/`--after-lang` say the
problems in a language (`ab_kinds.py HEAD HEAD --before-lang en --after-lang de`;
issue 35.5's own table, by the fastest turns, is `bench/run.py --words`).

Exit code 0 when no kind is judged slower, 1 when one is, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

import report  # noqa: E402
import run  # noqa: E402


def compare(before: "run._Kinds", after: "run._Kinds", kinds: list[str]) -> list[dict]:
    """Per kind: both commits' turns (AFTER first: its time sets the turns'
    length) and their time ratio, turn by turn."""
    rows = []
    for kind in kinds:
        a, b = run._kind_runs(kind, [after, before])
        ratios = [tb / ta for ta, tb in zip(a["turns"], b["turns"])]  # problems/s: BEFORE's ÷ AFTER's = time ratio
        rows.append({"kind": kind, "problems": a["problems"], "before_ms": b["ms_per_problem"],
                     "after_ms": a["ms_per_problem"], "ratios": ratios, "load": max(a["load"])})
    return rows


def verdict(row: dict, limit: float, cores: int) -> tuple[str, str]:
    # each ratio is of two runs in the same turn: a bound run by run, which the load slows alike
    return report.judge(row["ratios"], [limit] * len(row["ratios"]), True, load=row["load"], cores=cores)


def table(rows: list[dict], limit: float, cores: int) -> list[str]:
    lines = [f"| kind | problems | turns | before ms | after ms | after ÷ before | median within | load | "
             f"≤ {limit:g}? |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        low, high = report.band(r["ratios"])
        v, why = verdict(r, limit, cores)
        lines.append(f"| {r['kind']} | {r['problems']} | {len(r['ratios'])} | {r['before_ms']} | {r['after_ms']} | "
                     f"{statistics.median(r['ratios']):.3f} | {low:.3f}–{high:.3f} | {r['load']:.1f} | "
                     f"{v}{': ' + why if why else ''} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--kinds", help="comma-separated kind ids (default: every kind both commits have)")
    parser.add_argument("--limit", type=float, default=1.05, help="AFTER ÷ BEFORE time per kind at most (1.05)")
    parser.add_argument("--before-lang", help="say BEFORE's problems in this language (a commit with generator.text)")
    parser.add_argument("--after-lang", help="say AFTER's problems in this language")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ab-kinds-") as tmp:
        trees = {}
        for name in (args.before, args.after):
            tree = Path(tmp) / name.replace("/", "_")
            commit, why = run._baseline_tree(run.ROOT, name, tree)
            if commit is None:
                print(why, file=sys.stderr)
                return 2
            trees[name] = (commit, str(tree))
        before = run._Kinds(trees[args.before][1], args.before_lang)
        after = run._Kinds(trees[args.after][1], args.after_lang)
        try:
            kinds = [k for k in after.ids if k in before.ids]
            if args.kinds:
                kinds = [k for k in args.kinds.split(",") if k in kinds]
            load_before = [round(x, 2) for x in run.os.getloadavg()]
            rows = compare(before, after, kinds)
        finally:
            before.close()
            after.close()
    cores = run.CORES
    verdicts = [verdict(r, args.limit, cores)[0] for r in rows]
    peak = max((r["load"] for r in rows), default=0.0)
    said = lambda lang: f" in {lang}" if lang else ""
    print(f"BEFORE {args.before} = {trees[args.before][0][:12]}{said(args.before_lang)}, AFTER {args.after} = "
          f"{trees[args.after][0][:12]}{said(args.after_lang)}; "
          f"per kind the same problems at both, in turns (ABBA); a turn is a run.")
    print("\n".join(table(rows, args.limit, cores)))
    print(f"\nLoad (1-minute average) before {load_before}, highest around a kind {peak:.1f}, on {cores} cores."
          + (" The machine was busier than its cores: figures are noisy." if peak > cores else ""))
    slower = [r["kind"] for r, v in zip(rows, verdicts) if v == report.MISSES]
    noisy = [r["kind"] for r, v in zip(rows, verdicts) if v == report.NOISY]
    print(f"slower than {args.limit:g}×: {', '.join(slower) or 'none'}; too noisy to judge: {', '.join(noisy) or 'none'}"
          f" ({len(rows)} kinds, {time.perf_counter() - start:.0f} s)")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
