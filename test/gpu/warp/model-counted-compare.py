#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compares the launches of NAME.inst.json (exact kernels counted by their
static model, "dynamic_source": "model") with NAME.inst-all.json (every
kernel instrumented) from model-counted-run.sh: launches are paired per
kernel in order; for every launch the model counted, its counts must equal
the instrumented launch's, counter by counter. Prints one line per kernel
(launches, how many the model counted, equal, differing) and the totals;
exit status 1 if any count differs or nothing was compared.

  model-counted-compare.py DIR
"""
import collections
import glob
import json
import os
import sys


def launches(path):
    with open(path) as f:
        doc = json.load(f)
    by_kernel = collections.defaultdict(list)
    for r in doc.get("launches", []):
        by_kernel[r.get("mangled") or r.get("name")].append(r)
    return by_kernel


def main():
    d = sys.argv[1]
    total = model = equal = differ = 0
    for path in sorted(glob.glob(os.path.join(d, "*.inst.json"))):
        other = path[: -len(".inst.json")] + ".inst-all.json"
        if not os.path.exists(other):
            print(f"{os.path.basename(path)}: no inst-all profile")
            continue
        a, b = launches(path), launches(other)
        for k, recs in sorted(a.items()):
            n = m = e = x = 0
            for ra, rb in zip(recs, b.get(k, [])):
                n += 1
                if ra.get("dynamic_source") != "model":
                    continue
                m += 1
                if ra.get("dynamic") is not None and ra.get("dynamic") == rb.get("dynamic"):
                    e += 1
                else:
                    x += 1
                    print(f"  differs: {k} grid {ra.get('grid')} block {ra.get('block')}")
            if m:
                print(f"{os.path.basename(path)[:-10]:24} {k[:60]:60} launches {n} model {m} "
                      f"equal {e} differ {x}")
            total += n
            model += m
            equal += e
            differ += x
    print(f"launches paired {total}, counted by the model {model}: equal {equal}, differ {differ}")
    return 0 if model and not differ else 1


if __name__ == "__main__":
    sys.exit(main())
