#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Sets each launch's static footprint (footprint.global.{load,store} of the
warp-level model, evaluated by the runtime with the launch's real arguments)
beside Nsight Compute's dram__bytes_read.sum / dram__bytes_write.sum with
caches flushed before the launch, for the output of test/gpu/warp/corpus-run.sh.

    python3 test/gpu/warp/footprint-compare.py DIR [--tolerance PCT] [--details FILE]

Launches are matched per kernel in launch order, as corpus-compare.py does.
A pair is "within" when the counter lies in [lo * (1 - t), hi * (1 + t)]
(t = 2% by default; lo == hi where the model is exact). Pairs whose
footprint is below --min-bytes (default 64 MiB, beyond the L2) are listed
apart: DRAM traffic of small launches depends on what stays in L2. Prints one
row per kernel and the totals; exit status 1 when a large exact pair is off."""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

corpus = import_module("corpus-compare")

PAIRS = (("load", "dram__bytes_read.sum"), ("store", "dram__bytes_write.sum"))


def bounds(v):
    return (v["lo"], v["hi"]) if isinstance(v, dict) else (v, v)


def compare_program(d, name, o, details):
    kernels = {}
    for b, i, metrics, record in corpus.matched_launches(d, name):
        k = kernels.setdefault(b, defaultdict(int))
        w = (record or {}).get("static_warp")
        fp = ((w or {}).get("counts") or {}).get("footprint", {}).get("global", {})
        if not fp:
            k["no footprint"] += 1
            k.setdefault("why", (w or {}).get("footprint_note") or (w or {}).get("problem")
                         or "no launch record")
            continue
        for direction, metric in PAIRS:
            if direction not in fp or metric not in metrics:
                continue
            lo, hi = bounds(fp[direction])
            got = metrics[metric]
            t = o.tolerance / 100.0
            inside = lo * (1 - t) <= got <= hi * (1 + t)
            exact = lo == hi
            small = hi < o.min_bytes
            v = ("small " if small else "") + ("within" if inside else "off") + \
                ("" if exact else " (bounds)")
            k[v] += 1
            if details:
                ratio = got / lo if lo else float("inf")
                details.write("%s %s #%d %s footprint=%s dram=%d dram/footprint=%.4f %s\n" % (
                    name, b, i, direction, lo if exact else "%d..%d" % (lo, hi), got, ratio, v))
    return kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--tolerance", type=float, default=2.0, help="percent (default 2)")
    ap.add_argument("--min-bytes", type=float, default=64 * 2**20)
    ap.add_argument("--details")
    o = ap.parse_args()
    programs = sorted(f[: -len(".ncu.csv")] for f in os.listdir(o.dir) if f.endswith(".ncu.csv"))
    details = open(o.details, "w") if o.details else None
    cols = ["within", "off", "within (bounds)", "off (bounds)", "small within", "small off",
            "small within (bounds)", "small off (bounds)", "no footprint"]
    total = defaultdict(int)
    print("| program | kernel | " + " | ".join(cols) + " | why no footprint |")
    print("|---|---|" + "---|" * len(cols) + "---|")
    for p in programs:
        for b, k in compare_program(o.dir, p, o, details).items():
            for c in cols:
                total[c] += k[c]
            print("| %s | `%s` | %s | %s |" % (p, b[:60], " | ".join(str(k[c]) for c in cols),
                                                str(k.get("why", ""))[:120]))
    print()
    print("totals (launch, direction) pairs: " + ", ".join("%s %d" % (c, total[c]) for c in cols))
    return 1 if total["off"] else 0


if __name__ == "__main__":
    sys.exit(main())
