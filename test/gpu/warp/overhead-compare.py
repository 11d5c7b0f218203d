#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Instrumentation overhead from the output of test/gpu/warp/overhead-run.sh:
per kernel, the median CUPTI duration of its launches in the plain binary,
the instrumented one (thread-level counts, the default), the one built
with the opt-in warp-level counts (-mllvm -hroof-warp-counts) and any other
variant found (NAME.inst-X.ROUND.json, e.g. inst-base: an earlier plugin's build),
over every round, and the ratios to plain.

    python3 test/gpu/warp/overhead-compare.py DIR [--min-ns N] [--json FILE]

A kernel is compared only where all the binaries recorded the same number
of launches of it (the same work); kernels whose plain median is under
--min-ns (default 0) are listed but left out of the geomean and worst (a few
nanoseconds of noise on a 2 us kernel is a large ratio). Prints a markdown
table, then the geometric mean and the worst ratio of each variant."""
import argparse
import glob
import json
import math
import os
import re
import statistics
import sys
from collections import defaultdict

LABELS = {"inst": "instrumented (default)", "warp": "instrumented with warp-level counts"}


def read_profile(path):
    """{mangled: (demangled, [durations...])} of one profile; None if unreadable."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    out = {}
    for rec in doc.get("launches", []):
        d = rec.get("duration_ns")
        if not isinstance(d, (int, float)) or d <= 0 or rec.get("duration_source") == "counters":
            continue
        name = rec.get("mangled") or rec.get("kernel", "?")
        out.setdefault(name, [rec.get("kernel", name), []])[1].append(d)
    return out


def collect(directory):
    """{(program, mangled): {"name": str, variant: [durations per round...]}}."""
    runs = defaultdict(lambda: defaultdict(list))
    names = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        m = re.match(r"(.+?)\.(plain|inst|warp|inst-[a-z0-9]+)\.(\d+)\.json$",
                     os.path.basename(path))
        if not m:
            continue
        prog, variant, _ = m.groups()
        prof = read_profile(path)
        if prof is None:
            continue
        for mangled, (name, durs) in prof.items():
            names[(prog, mangled)] = name
            runs[(prog, mangled)][variant].append(durs)
    return runs, names


def short(name, width=48):
    name = re.sub(r"^void ", "", name)
    return name if len(name) <= width else name[: width - 3] + "..."


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--min-ns", type=float, default=0.0)
    ap.add_argument("--json", help="write the rows and summary here")
    a = ap.parse_args()
    runs, names = collect(a.dir)
    if not runs:
        print(f"overhead-compare: no NAME.VARIANT.ROUND.json profiles in {a.dir}", file=sys.stderr)
        return 2
    seen = {x for v in runs.values() for x in v}
    if "plain" not in seen:
        print(f"overhead-compare: no plain profiles in {a.dir}", file=sys.stderr)
        return 2
    others = sorted(seen - {"plain"}, key=lambda x: (x != "inst", x != "warp", x))
    VARIANTS = ["plain"] + others
    rows, skipped = [], []
    for key in sorted(runs):
        v = runs[key]
        counts = {x: {len(d) for d in v.get(x, [])} for x in VARIANTS}
        if any(len(c) != 1 for c in counts.values()) or len({next(iter(c)) for c in counts.values()}) != 1:
            skipped.append((key, {x: sorted(c) for x, c in counts.items()}))
            continue
        med = {x: statistics.median([d for r in v[x] for d in r]) for x in VARIANTS}
        row = {"program": key[0], "kernel": names[key], "launches": next(iter(counts["plain"])),
               "rounds": len(v["plain"]), "plain_ns": med["plain"], "counted": med["plain"] >= a.min_ns}
        for x in others:
            row[x + "_ns"] = med[x]
            row[x] = med[x] / med["plain"]
        rows.append(row)
    print("| program | kernel | launches x rounds | plain median (us) | "
          + " | ".join(f"{x} | ratio" for x in others) + " |")
    print("|---|---|---|---|" + "---|---|" * len(others))
    for r in rows:
        mark = "" if r["counted"] else " (short)"
        print(f"| {r['program']} | {short(r['kernel'])}{mark} | {r['launches']} x {r['rounds']} | "
              f"{r['plain_ns'] / 1e3:.2f} | "
              + " | ".join(f"{r[x + '_ns'] / 1e3:.2f} | {r[x]:.3f}" for x in others) + " |")
    counted = [r for r in rows if r["counted"]]
    summary = {"kernels": len(counted), "listed": len(rows), "skipped": len(skipped)}
    for x in others:
        if counted:
            summary[x + "_geomean"] = math.exp(sum(math.log(r[x]) for r in counted) / len(counted))
            worst = max(counted, key=lambda r: r[x])
            summary[x + "_worst"] = worst[x]
            summary[x + "_worst_kernel"] = f"{worst['program']}: {short(worst['kernel'], 80)}"
    print()
    print(f"{summary['kernels']} kernels counted ({len(rows) - len(counted)} under {a.min_ns:.0f} ns "
          f"listed only; {len(skipped)} without the same launches in every binary)")
    for x in others:
        label = LABELS.get(x, x)
        if counted:
            print(f"{label}: geomean {summary[x + '_geomean']:.3f}x, worst {summary[x + '_worst']:.3f}x "
                  f"({summary[x + '_worst_kernel']})")
    for key, c in skipped:
        print(f"skipped {key[0]}: {short(names[key], 60)}: launches {c}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "summary": summary}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
