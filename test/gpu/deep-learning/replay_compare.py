#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compares the data-independent counters (flops.*, tensor_flops.*, bytes.*:
SASS-patched counts, the same on every launch that does the same work) of
two profiles of the same program, launch shape by launch shape: typically
kernel replay (each record's own launch) against application replay (groups
gathered from other launches of the shape). Records with counters_incomplete
are skipped; each shape's first record is compared.

Usage: replay_compare.py KERNEL_PROFILE.json APPLICATION_PROFILE.json
Prints shapes in each and in both, counters equal and differing, and every
difference; exit 0 (it reports, the reader judges).
"""
import json
import sys


def records_by_shape(path):
    with open(path) as f:
        prof = json.load(f)
    out = {}
    for r in prof.get("launches", []):
        c = r.get("counters")
        if not c or r.get("counters_incomplete"):
            continue
        key = (r.get("kernel"), tuple(r.get("grid", [])), tuple(r.get("block", [])),
               r.get("shared_mem"))
        out.setdefault(key, c)
    return out


def flat(c, prefix=""):
    out = {}
    for k, v in c.items():
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "."))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[prefix + k] = v
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = records_by_shape(sys.argv[1]), records_by_shape(sys.argv[2])
    common = sorted(set(a) & set(b), key=str)
    equal, diffs = 0, []
    for key in common:
        x, y = flat(a[key]), flat(b[key])
        for m in sorted(x):
            if m.split(".")[0] not in ("flops", "tensor_flops", "bytes") or m not in y:
                continue
            if x[m] == y[m]:
                equal += 1
            else:
                diffs.append((key, m, x[m], y[m]))
    print(f"shapes: {len(a)} in {sys.argv[1]}, {len(b)} in {sys.argv[2]}, {len(common)} in both")
    print(f"data-independent counters: {equal} equal, {len(diffs)} differ")
    for (kernel, grid, block, smem), m, x, y in diffs:
        print(f"  {kernel[:60]} grid {grid} block {block} smem {smem}: {m} {x} vs {y}"
              f" ({y / x:.3f}x)" if x else f"  {kernel[:60]}: {m} {x} vs {y}")


if __name__ == "__main__":
    main()
