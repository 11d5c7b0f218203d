#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compare two runs' profiles field by field, leaving out what varies between
runs of the same binary: times, thread ids, host, pid, the cost notes, and
(with --counters-separately) the hardware counters, whose DRAM/L2 bytes and
clocks change with cache and clock state. Used to show that a change leaves
the profile bytes of the same run alone.
  scripts/gpu/profile_diff.py BEFORE_DIR AFTER_DIR [NAME ...]
Prints, per profile, the differing fields outside counters and times, then the
hardware-counter keys that differ with their counts. Exit status 1 when a
field outside the counters and times differs."""
import collections
import json
import os
import re
import sys

VOLATILE = ("_ns", "_ms", "time", "duration", "pid", "hash", "start", "end", "host",
            "command", "run_id", "created", "output", "type_cache", "thread")


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if k != "counters" and k != "notes" and not any(t in k for t in VOLATILE)}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def flat(x, p=""):
    if isinstance(x, dict):
        for k, v in x.items():
            yield from flat(v, f"{p}/{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from flat(v, f"{p}[{i}]")
    else:
        yield p, x


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a_dir, b_dir = sys.argv[1:3]
    names = sys.argv[3:] or sorted(f[:-len(".profile.json")] for f in os.listdir(a_dir)
                                   if f.endswith(".profile.json"))
    bad, counters, equal = 0, collections.Counter(), 0
    for n in names:
        a = json.load(open(os.path.join(a_dir, n + ".profile.json")))
        b = json.load(open(os.path.join(b_dir, n + ".profile.json")))
        fa, fb = dict(flat(strip(a))), dict(flat(strip(b)))
        diffs = [k for k in sorted(set(fa) | set(fb)) if fa.get(k, "<none>") != fb.get(k, "<none>")]
        bad += len(diffs)
        print(f"{n}: {len(diffs)} differing fields outside hardware counters and times")
        for k in diffs[:20]:
            print(f"  {k}: {fa.get(k, '<none>')!r} != {fb.get(k, '<none>')!r}")
        ca, cb = dict(flat(a)), dict(flat(b))
        for k, v in ca.items():
            if "/counters/" in k:
                key = re.sub(r"\[\d+\]", "[]", k.split("/counters/", 1)[1])
                if cb.get(k) != v:
                    counters[key] += 1
                else:
                    equal += 1
    print(f"hardware-counter fields equal: {equal}; differing, by key:")
    for k, c in sorted(counters.items()):
        print(f"  {c:4d}  {k}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
