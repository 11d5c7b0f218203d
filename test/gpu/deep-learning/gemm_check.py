#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Tensor FLOPs per GEMM launch against 2*M*N*K (gemm_sampling.py's ranges).

For every range "step S/gemm DTYPE MxNxK" of a hroof profile: the launches
recorded there, each launch's tensor FLOPs (sum of counters.tensor_flops),
where its counters came from (its own launch, or `counters_from`), and the
verdict against 2*M*N*K. Launches of the range that have no record (their
counters were sampled away) are listed from the profile's per-range kernel
counts when present.

  gemm_check.py PROFILE.json [--markdown]   # exit 1 if a recorded launch is off
"""
import json
import re
import sys

RANGE = re.compile(r"gemm (\w+) (\d+)x(\d+)x(\d+)$")


def tensor_flops(rec):
    c = rec.get("counters") or {}
    return sum(v for v in (c.get("tensor_flops") or {}).values() if isinstance(v, (int, float)))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    md = "--markdown" in sys.argv
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0]) as fh:
        prof = json.load(fh)
    rows, bad = [], 0
    for i, rec in enumerate(prof.get("launches", [])):
        m = RANGE.search(rec.get("range", ""))
        if not m or "counters" not in rec:
            continue
        dt, M, N, K = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        want = 2 * M * N * K
        got = tensor_flops(rec)
        src = rec.get("counters_from", "own")
        ok = got == want
        bad += not ok
        rows.append((rec.get("range"), dt, f"{M}x{N}x{K}", want, got, src,
                     "equal" if ok else f"{got / want:.3f}x", rec.get("name", "")[:60],
                     "x".join(str(g) for g in rec.get("grid", []))))
    hdr = ("range", "type", "MxNxK", "2MNK", "tensor FLOPs", "counters from", "verdict",
           "kernel", "grid")
    if md:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        for r in rows:
            print("\t".join(str(x) for x in r))
    print(f"gemm_check: {len(rows)} launches with counters, {len(rows) - bad} equal to 2*M*N*K,"
          f" {bad} not", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
