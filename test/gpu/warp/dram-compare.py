#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Sets hroof's DRAM read and write bytes per launch (hardware counters of
`hroof run --cache-control all`, modes roof and dram of
test/gpu/warp/dram-run.sh) beside Nsight Compute's (`--cache-control all`)
for the same launches.

    python3 test/gpu/warp/dram-compare.py DIR [--tolerance PCT] [--details FILE]

Launches are matched per kernel in launch order (corpus-compare.py). A pair
is "within" when |hroof - ncu| <= t * ncu (t = 2% by default), or when both
are below --floor bytes (default 64 KiB: a few dozen lines written back or
fetched by the tools themselves are not the kernel's traffic; such pairs are
counted apart as "tiny"). Prints one row per (program, kernel, mode) and the
totals; exit status 1 when a pair is off."""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

corpus = import_module("corpus-compare")

METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum")
MODES = ("roof", "dram")


def hroof_value(record, metric):
    raw = ((record or {}).get("counters") or {}).get("raw") or {}
    return raw.get(metric)


def compare(d, name, mode, o, details, totals):
    rows = {}
    for b, i, metrics, record in corpus.matched_launches(d, name, mode + ".profile.json"):
        row = rows.setdefault(b, defaultdict(int))
        for m in METRICS:
            want, got = metrics.get(m), hroof_value(record, m)
            if want is None or got is None:
                row["unmatched"] += 1
                continue
            if want < o.floor and got < o.floor:
                v = "tiny"
            else:
                v = "within" if abs(got - want) <= o.tolerance / 100.0 * want else "off"
            row[v] += 1
            totals[mode][v] += 1
            row["n"] += 1
            rel = (got - want) / want if want else float("inf") if got else 0.0
            row["worst"] = max(row["worst"], abs(rel)) if v != "tiny" else row["worst"]
            if details:
                details.write("%s %s %s #%d %s ncu=%d hroof=%d rel=%+.4f%% %s\n" % (
                    mode, name, b, i, m.split("__")[1].split(".")[0], want, got, 100 * rel, v))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--tolerance", type=float, default=2.0, help="percent (default 2)")
    ap.add_argument("--floor", type=float, default=64 * 1024, help="bytes (default 64 KiB)")
    ap.add_argument("--details")
    o = ap.parse_args()
    programs = sorted(f[: -len(".ncu.csv")] for f in os.listdir(o.dir) if f.endswith(".ncu.csv"))
    if not programs:
        print("dram-compare: no NAME.ncu.csv in %s" % o.dir, file=sys.stderr)
        return 2
    details = open(o.details, "w") if o.details else None
    totals = {m: defaultdict(int) for m in MODES}
    kernels = {m: set() for m in MODES}
    print("| mode | program | kernel | pairs | within 2% | tiny | off | worst rel. diff (non-tiny) |")
    print("|---|---|---|---|---|---|---|---|")
    for mode in MODES:
        for p in programs:
            for b, r in compare(o.dir, p, mode, o, details, totals).items():
                if r["n"]:
                    kernels[mode].add((p, b))
                print("| %s | %s | `%s` | %d | %d | %d | %d | %.2f%% |" % (
                    mode, p, b[:60], r["n"], r["within"], r["tiny"], r["off"], 100 * r["worst"]))
    print()
    for mode in MODES:
        t = totals[mode]
        print("%s: %d kernels, %d (launch, direction) pairs: within %d, tiny %d, off %d, "
              "unmatched %d" % (mode, len(kernels[mode]), t["within"] + t["tiny"] + t["off"],
                                t["within"], t["tiny"], t["off"], t["unmatched"]))
    return 1 if any(totals[m]["off"] for m in MODES) else 0


if __name__ == "__main__":
    sys.exit(main())
