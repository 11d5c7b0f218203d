#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Sets Nsight Compute's warp-level counters beside `hroof static`'s warp-level
model and the instrumented build's dynamic counts, launch by launch, for the
output of test/gpu/warp/run.sh.

    python3 test/gpu/warp/compare.py DIR [--hroof build/bin/hroof] [--source warp_traffic.cu]

DIR holds ncu.csv (whose captured program output has one LAUNCH line per
launch, with the pointer values of that run) and, from the instrumented run,
inst.stdout (one EXPECT line per launch: the warp-level counts hand-derived
by the program from that run's pointers and index arrays) and dynamic.json
(the hroof profile with each launch's dynamic counts). For every launch and
quantity it prints static vs counter and a verdict: `equal` (exact model,
same number), `in bounds` (inexact model whose [lo, hi] contains the
counter), or `MISMATCH`; and the dynamic count against the hand-derived one
(`dyn ok` or `DYN MISMATCH`), and against the counter (shown, not judged:
the instrumented build is another binary). Exit status 1 when any exact
prediction differs, any counter lies outside the bounds, or any dynamic count
differs from the hand-derived one (or is missing)."""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

METRICS = {
    "warp_bytes.global.load": "sm__sass_data_bytes_mem_global_op_ld.sum",
    "warp_bytes.global.store": "sm__sass_data_bytes_mem_global_op_st.sum",
    "warp_bytes.shared.load": "sm__sass_data_bytes_mem_shared_op_ld.sum",
    "warp_bytes.shared.store": "sm__sass_data_bytes_mem_shared_op_st.sum",
    "sectors.global.load": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "sectors.global.store": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "wavefronts.shared.load": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "wavefronts.shared.store": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
}


def read_ncu_csv(path):
    """The program's output lines before ncu's table, and per profiled launch
    (in order) its kernel name and metric values."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), len(lines))
    by_id, names = {}, {}
    for r in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        v = r["Metric Value"].replace(",", "")
        i = int(r["ID"])
        names[i] = r["Kernel Name"]
        by_id.setdefault(i, {})[r["Metric Name"]] = float(v) if v else 0.0
    return lines[:start], [(names[i], by_id[i]) for i in sorted(by_id)]


def read_ncu(path):
    """LAUNCH lines and per-launch metric values (warp_traffic's output)."""
    head, rows = read_ncu_csv(path)
    launches = [l.split()[1:] for l in head if l.startswith("LAUNCH ")]
    return launches, [m for _, m in rows]


def verdict(pred, got):
    """(verdict, shown prediction) for one quantity: pred is a number or
    {"lo", "hi"}; got is the counter."""
    if isinstance(pred, dict):
        ok = pred["lo"] <= got <= pred["hi"]
        return ("in bounds" if ok else "MISMATCH"), "%d..%d" % (pred["lo"], pred["hi"])
    return ("equal" if pred == got else "MISMATCH"), str(pred)


def static_warp(hroof, source, launch):
    kernel, grid, block, *args = launch
    cmd = [hroof, "static", source, "--kernel", "^" + kernel + r"\(", "--grid",
           grid.split("=")[1], "--block", block.split("=")[1], "--json"]
    for a in args:
        cmd += ["--arg", a]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        sys.exit("compare.py: %s failed: %s" % (" ".join(cmd), out.stderr.strip()))
    return json.loads(out.stdout)["kernels"][0]["warp"]


def flat(counts):
    out = {}
    for q, spaces in counts.items():
        for s, dirs in spaces.items():
            for d, v in dirs.items():
                out["%s.%s.%s" % (q, s, d)] = v
    return out


def dotted(counts, prefix=""):
    """Nested counts ({"flops": {"f32": 1}, "sectors": {"global": {...}}}) as
    dotted keys."""
    out = {}
    for k, v in counts.items():
        if isinstance(v, dict):
            out.update(dotted(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def read_dynamic(d):
    """Per launch of the instrumented run (in launch order): the hand-derived
    counts (EXPECT lines) and the dynamic counts of the profile; None when
    the run is missing."""
    out, prof = os.path.join(d, "inst.stdout"), os.path.join(d, "dynamic.json")
    if not (os.path.exists(out) and os.path.exists(prof)):
        return None
    names, expects = [], []
    for l in open(out, errors="replace").read().splitlines():
        if l.startswith("LAUNCH "):
            names.append(l.split()[1])
        elif l.startswith("EXPECT "):
            expects.append({k: int(v) for k, v in (kv.split("=") for kv in l.split()[1:])})
    doc = json.load(open(prof))
    launches = sorted(doc.get("launches", []), key=lambda r: r["index"])
    dyn = [dotted(r["dynamic"]) if r.get("dynamic") else {} for r in launches]
    if len(expects) != len(names) or len(dyn) != len(names):
        sys.exit("compare.py: %d LAUNCH, %d EXPECT lines, %d profiled launches in %s" %
                 (len(names), len(expects), len(dyn), d))
    for n, r in zip(names, launches):
        if not r["kernel"].startswith(n + "("):
            sys.exit("compare.py: launch order differs: %s vs %s" % (n, r["kernel"]))
    return list(zip(expects, dyn))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--hroof", default=os.path.join(here, "../../../build/bin/hroof"))
    ap.add_argument("--source", default=os.path.join(here, "warp_traffic.cu"))
    ap.add_argument("--static-only", action="store_true",
                    help="accept a run without the instrumented program's dynamic counts")
    o = ap.parse_args()
    launches, metrics = read_ncu(os.path.join(o.dir, "ncu.csv"))
    if len(launches) != len(metrics):
        sys.exit("compare.py: %d LAUNCH lines but %d profiled launches" %
                 (len(launches), len(metrics)))
    dynamic = read_dynamic(o.dir)
    if dynamic is None and not o.static_only:
        sys.exit("compare.py: no dynamic counts (inst.stdout / dynamic.json missing); "
                 "--static-only compares the static model with ncu alone")
    if dynamic is None:
        print("--static-only: static vs ncu only")
    elif len(dynamic) != len(launches):
        sys.exit("compare.py: %d instrumented launches, %d plain" % (len(dynamic), len(launches)))
    tally = {"equal": 0, "in bounds": 0, "MISMATCH": 0, "dyn ok": 0, "DYN MISMATCH": 0}
    print("%-3s %-13s %-24s %12s %12s %12s %12s  %s" %
          ("#", "kernel", "quantity", "static", "dynamic", "expected", "ncu", "verdict"))
    for i, (launch, m) in enumerate(zip(launches, metrics)):
        exp, dyn = dynamic[i] if dynamic else ({}, {})
        w = static_warp(o.hroof, o.source, launch)
        if "problem" in w:
            print("%-3d %-10s not evaluated: %s" % (i, launch[0], w["problem"]))
            tally["MISMATCH"] += 1
            continue
        pred = flat(w["counts"])
        for key, metric in METRICS.items():
            got = m.get(metric, 0.0)
            p = pred.get(key, 0)
            e, d = exp.get(key), dyn.get(key)
            if p == 0 and got == 0 and not e and not d:
                continue
            v, shown = verdict(p, got)
            tally[v] += 1
            if dynamic:
                dv = "dyn ok" if e is not None and d == e else "DYN MISMATCH"
                tally[dv] += 1
                v += ", " + dv
            print("%-3d %-13s %-24s %12s %12s %12s %12d  %s" %
                  (i, launch[0], key, shown, "-" if d is None else d,
                   "-" if e is None else e, got, v))
    print("summary: " + ", ".join("%s %d" % kv for kv in tally.items()))
    return 1 if tally["MISMATCH"] or tally["DYN MISMATCH"] else 0


if __name__ == "__main__":
    sys.exit(main())
