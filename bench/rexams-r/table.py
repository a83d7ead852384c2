"""The table of measure.sh logs: python3 table.py LOG [LOG...] (their runs pooled)"""
import statistics
import sys

rows = {}
for line in (line for path in sys.argv[1:] for line in open(path)):
    utc, rnd, fig, value, unit, load, kb, *cpu = line.rstrip("\n").split("\t")
    rows.setdefault(fig, []).append((float(value), unit, float(load), kb, utc, cpu[0] if cpu else ""))
print(f"{'figure':27} {'median':>8} {'best':>8} unit  n  load1       peak MB (max)   CPU median")
for fig, rs in rows.items():
    v = [r[0] for r in rs]
    loads = [r[2] for r in rs]
    kbs = [int(r[3]) for r in rs if r[3]]
    cpus = [float(r[5]) for r in rs if r[5]]
    peak = f"{statistics.median(kbs) / 1024:6.1f} ({max(kbs) / 1024:.1f})" if kbs else ""
    cpu = f"{statistics.median(cpus):.1f}" if cpus else ""
    print(f"{fig:27} {statistics.median(v):8.1f} {min(v):8.1f} {rs[0][1]:4} {len(v):2}  "
          f"{min(loads):.2f}-{max(loads):.2f}  {peak:15} {cpu}")
utcs = [r[4] for rs in rows.values() for r in rs]
print(f"runs from {min(utcs)} to {max(utcs)} (UTC; each time is when a run ended)")
