#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Sets the static warp-level model (evaluated by the runtime at each launch
with the real arguments) beside Nsight Compute's counters, for the output of
test/gpu/warp/corpus-run.sh.

    python3 test/gpu/warp/corpus-compare.py DIR [--details FILE]

Launches are matched per kernel in launch order (the profile's records vs
ncu's IDs, by the kernel's name without its parameter list). Prints one row
per kernel: launches compared; quantities equal where the model is exact,
inside the bounds where it is not, and mismatches; the model's reasons. With
--details, every (launch, quantity) pair goes to FILE. Exit status 1 on any
mismatch."""
import argparse
import gzip
import json
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import METRICS, read_ncu_csv, verdict  # noqa: E402


def base_name(name):
    """'void k<float>(float const*, int)' and 'void k<float>(const float *, int)'
    -> 'k<float>'."""
    name = re.sub(r"^void ", "", name.strip())
    depth = 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            name = name[:i]
            break
    return name.replace(" ", "")


def read_profile(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        text = f.read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        # A profile cut short: the header and the complete records.
        doc = json.loads(text[: text.rfind("}") + 1] + "]}")
    return [r for r in doc.get("launches", [])]


def matched_launches(d, name, profile="profile.json"):
    """(base kernel name, occurrence i, ncu metrics, launch record or None)
    for each of ncu's rows in launch order, matched per kernel with the
    records of NAME.PROFILE (or NAME.PROFILE.gz) in launch order; nothing when
    either file is missing."""
    ncu = os.path.join(d, name + ".ncu.csv")
    prof = os.path.join(d, name + "." + profile)
    if not os.path.exists(prof):
        prof += ".gz"
    if not (os.path.exists(ncu) and os.path.exists(prof)):
        return
    _, rows = read_ncu_csv(ncu)
    records = defaultdict(list)
    for r in read_profile(prof):
        records[base_name(r["kernel"])].append(r)
    seen = defaultdict(int)
    for kname, metrics in rows:
        b = base_name(kname)
        i = seen[b]
        seen[b] += 1
        yield b, i, metrics, records[b][i] if i < len(records[b]) else None


def flatten(obj, prefix=""):
    """{"warp_bytes": {"global": {"load": 5}}} -> {"warp_bytes.global.load": 5}."""
    out = {}
    for key, v in (obj or {}).items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + key + "."))
        elif isinstance(v, (int, float)):
            out[prefix + key] = v
    return out


def compare_dynamic(k, name, b, i, metrics, record, details):
    """The instrumented kernel's own warp-level counts (exact for every
    access) against the counters: equal, or a mismatch."""
    dyn = flatten(record.get("dynamic"))
    if not any(key in dyn for key in METRICS):
        k["no dynamic"] += 1
        return
    for key, metric in METRICS.items():
        got, have = metrics.get(metric, 0.0), dyn.get(key, 0)
        if have == 0 and got == 0:
            continue
        v = "dyn equal" if have == got else "DYN MISMATCH"
        k[v] += 1
        if details:
            details.write("%s %s #%d %s dynamic=%d ncu=%d %s\n" % (name, b, i, key, have, got, v))


def compare_program(d, name, details):
    kernels = {}
    for b, i, metrics, record in matched_launches(d, name):
        k = kernels.setdefault(b, {"launches": 0, "equal": 0, "in bounds": 0, "MISMATCH": 0,
                                   "unevaluated": 0, "reasons": set(), "exact": True,
                                   "dyn equal": 0, "DYN MISMATCH": 0, "no dynamic": 0})
        if record is None:
            k["unevaluated"] += 1
            k["reasons"].add("no launch record")
            continue
        compare_dynamic(k, name, b, i, metrics, record, details)
        w = record.get("static_warp")
        k["launches"] += 1
        if not w or "problem" in w:
            k["unevaluated"] += 1
            k["reasons"].add((w or {}).get("problem", record.get("static_problem")
                                             or "no static model"))
            continue
        k["exact"] &= w["exact"]
        k["reasons"].update(w.get("inexact", []))
        pred = {}
        for q, spaces in w["counts"].items():
            for s, dirs in spaces.items():
                for dd, v in dirs.items():
                    pred["%s.%s.%s" % (q, s, dd)] = v
        for key, metric in METRICS.items():
            got = metrics.get(metric, 0.0)
            p = pred.get(key, 0)
            if p == 0 and got == 0:
                continue
            v, shown = verdict(p, got)
            k[v] += 1
            if details:
                details.write("%s %s #%d %s static=%s ncu=%d %s\n" % (name, b, i, key, shown, got, v))
    return kernels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--details")
    o = ap.parse_args()
    programs = sorted(f[: -len(".ncu.csv")] for f in os.listdir(o.dir) if f.endswith(".ncu.csv"))
    details = open(o.details, "w") if o.details else None
    total = defaultdict(int)
    print("| program | kernel | launches | exact model | equal | in bounds | mismatch | not evaluated "
          "| dynamic equal | dynamic mismatch | launches without dynamic | reasons |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in programs:
        for b, k in compare_program(o.dir, p, details).items():
            total["kernels"] += 1
            total["kernels exact and all equal"] += int(k["exact"] and not k["MISMATCH"] and
                                                        not k["unevaluated"] and k["equal"] > 0)
            for f in ("launches", "equal", "in bounds", "MISMATCH", "unevaluated", "dyn equal",
                      "DYN MISMATCH", "no dynamic"):
                total[f] += k[f]
            total["kernels with every dynamic count equal"] += int(
                k["dyn equal"] > 0 and not k["DYN MISMATCH"] and not k["no dynamic"])
            reasons = "; ".join(sorted(str(r)[:90] for r in k["reasons"]))[:300]
            print("| %s | `%s` | %d | %s | %d | %d | %d | %d | %d | %d | %d | %s |" % (
                p, b[:60], k["launches"], "yes" if k["exact"] else "no", k["equal"],
                k["in bounds"], k["MISMATCH"], k["unevaluated"], k["dyn equal"],
                k["DYN MISMATCH"], k["no dynamic"], reasons))
    print()
    print("totals: " + ", ".join("%s %d" % kv for kv in total.items()))
    return 1 if total["MISMATCH"] or total["DYN MISMATCH"] else 0


if __name__ == "__main__":
    sys.exit(main())
