#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""compare_learned.py LEARNED_DIR FULL_DIR - learned tensor types vs every type.

Each DIR holds the hroof profile(s) of the same program run under
`hroof run --counters roofline` (learned tensor types: a kernel's first
profiled launch collects every Tensor Core type, later ones only the types it
used) and `--counters roofline-full` (every type at every launch). Launch
records are matched by kernel name and occurrence. Exact fields (FLOPs,
tensor FLOPs, requested bytes) must be equal; the script prints one line per
mismatch, a summary line, and exits 1 on any mismatch or if nothing was
compared. Cache-dependent fields (l1/l2/dram bytes, time) are not compared.
"""
import glob, json, sys
from collections import defaultdict


def launches(d):
    out = defaultdict(list)
    for f in sorted(glob.glob(d + "/*.json")):
        p = json.load(open(f))
        for L in p.get("launches", []):
            out[L.get("kernel", "?")].append(L)
    return out


def flat(obj, pre=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from flat(v, pre + "." + k if pre else k)
    elif isinstance(obj, (int, float)):
        yield pre, obj


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    A, B = launches(sys.argv[1]), launches(sys.argv[2])
    compared = mism = inferred = relearned = 0
    for name in sorted(set(A) | set(B)):
        for i, (la, lb) in enumerate(zip(A.get(name, []), B.get(name, []))):
            ca, cb = la.get("counters"), lb.get("counters")
            if not ca or not cb:
                continue
            if ca.get("tensor_flops_inferred"):
                inferred += 1
            if ca.get("tensor_flops_problem"):
                relearned += 1
            fa = dict(x for k in ("flops", "tensor_flops", "bytes") for x in flat(ca.get(k, {}), k))
            fb = dict(x for k in ("flops", "tensor_flops", "bytes") for x in flat(cb.get(k, {}), k))
            compared += 1
            for k in sorted(set(fa) | set(fb)):
                if fa.get(k) != fb.get(k):
                    mism += 1
                    print("MISMATCH %s #%d %s: learned %s full %s" % (name[:70], i, k, fa.get(k), fb.get(k)))
    print("compared %d launch pairs, %d with inferred zero types, %d relearned, %d mismatching fields"
          % (compared, inferred, relearned, mism))
    sys.exit(1 if mism or not compared else 0)


if __name__ == "__main__":
    main()
