#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Per-range ratios of two `hroof report --by range --range-json` outputs of the
same program: a cheaper recipe against the exact one (kernel replay of every
launch). For each range in both: FLOPs, tensor FLOPs, L1/L2/HBM bytes and time,
recipe over exact, and the recipe's estimated launches.

Usage: range_compare.py EXACT.json RECIPE.json [--markdown]
Prints one row per range and a last line with the worst FLOP ratio; exit 0
(it reports, the reader judges).
"""
import json
import sys


def load(path):
    with open(path) as f:
        return {r["range"]: r for r in json.load(f)["ranges"]}


def tensor(r):
    return sum(v for k, v in r.get("flops_by_precision", {}).items() if k.startswith("tensor"))


def ratio(a, b):
    if a == 0 and b == 0:
        return "="
    if a == 0:
        return "inf"
    return "%.3f" % (b / a)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ex, rc = load(sys.argv[1]), load(sys.argv[2])
    md = "--markdown" in sys.argv
    cols = ["range", "FLOPs", "tensor", "L1", "L2", "HBM", "time", "est. launches"]
    print(("| " + " | ".join(cols) + " |") if md else "\t".join(cols))
    if md:
        print("|" + "---|" * len(cols))
    worst = None
    for name in sorted(set(ex) & set(rc)):
        e, r = ex[name], rc[name]
        be, br = e.get("bytes_by_level", {}), r.get("bytes_by_level", {})
        f = ratio(e.get("flops", 0), r.get("flops", 0))
        if f not in ("=", "inf"):
            d = abs(float(f) - 1)
            worst = max(worst or (0, ""), (d, name))
        row = [name or "(outside any range)", f, ratio(tensor(e), tensor(r)),
               ratio(be.get("L1", 0), br.get("L1", 0)), ratio(be.get("L2", 0), br.get("L2", 0)),
               ratio(be.get("HBM", 0), br.get("HBM", 0)), ratio(e.get("time_ns", 0), r.get("time_ns", 0)),
               str(r.get("estimated_launches", 0))]
        print(("| " + " | ".join(row) + " |") if md else "\t".join(row))
    only = sorted(set(ex) ^ set(rc))
    if only:
        print("ranges in one profile only: " + ", ".join(only))
    if worst:
        print("worst FLOP ratio: %.3f off at %s" % worst)


if __name__ == "__main__":
    main()
