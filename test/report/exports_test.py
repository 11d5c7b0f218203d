#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""hroof report --csv and --json read back exactly: on the two-rank fixture,
every kernel's launches, time, FLOPs per precision and bytes per level equal
the numbers this script derives from the fixture profiles themselves (counts
summed over the ranks, divided by the launches they cover), and the CSV and
the JSON agree field by field. Ids K1..Kn follow decreasing total time.

  exports_test.py --hroof build/bin/hroof
Exit 0 pass, 1 fail.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = [os.path.join(HERE, "Inputs", "demo-rank%d.json" % r) for r in (0, 1)]
LEVELS = {"L1": "l1_bytes", "L2": "l2_bytes", "HBM": "dram_bytes"}

failures = []


def check(cond, what):
    print(("PASS " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def expected_kernels():
    """Per mangled name: launches, total time and per-launch FLOPs by
    precision and bytes by level. Bytes come from the fixtures' counters;
    FLOPs from the dynamic counts where a kernel has them and its counters
    cover no fewer launches (docs/report.md, "Data sources"), else from the
    counters."""
    sums = {}
    for path in INPUTS:
        for k in json.load(open(path))["kernels"]:
            e = sums.setdefault(k["mangled"], {"launches": 0, "time": 0, "ctr_launches": 0,
                                               "dyn_launches": 0, "flops": {}, "dyn_flops": {},
                                               "bytes": {}})
            e["launches"] += k["launches"]
            e["time"] += k["duration_ns"]["total"]
            c = k["counters"]
            e["ctr_launches"] += c["launches"]
            for group, prefix in (("flops", ""), ("tensor_flops", "tensor_")):
                for p, v in c["total"][group].items():
                    e["flops"][prefix + p] = e["flops"].get(prefix + p, 0) + v
                for p, v in ((k.get("dynamic") or {}).get("total") or {}).get(group, {}).items():
                    e["dyn_flops"][prefix + p] = e["dyn_flops"].get(prefix + p, 0) + v
            e["dyn_launches"] += (k.get("dynamic") or {}).get("launches", 0)
            for level, key in LEVELS.items():
                e["bytes"][level] = e["bytes"].get(level, 0) + c["total"][key]
    for e in sums.values():
        if e["dyn_launches"] and e["ctr_launches"] >= e["dyn_launches"]:
            e["flops"], e["flop_launches"] = e["dyn_flops"], e["dyn_launches"]
        else:
            e["flop_launches"] = e["ctr_launches"]
    return sums


def report_json(hroof, *args):
    r = subprocess.run([hroof, "report", *args, "--json", "-"], capture_output=True, text=True)
    check(r.returncode == 0, "hroof report %s --json - exits 0 %s"
          % (" ".join(os.path.basename(x) for x in args), r.stderr[-300:] if r.returncode else ""))
    return json.loads(r.stdout) if r.returncode == 0 else {"kernels": []}


def check_baseline(hroof):
    """--baseline OLD NEW: each kernel of both runs has its old and new time,
    GFLOP/s and AI per level as the two runs' own reports give them, and the
    change in percent; kernels of one run only are listed as new or gone."""
    old_path, new_path = (os.path.join(HERE, "Inputs", f) for f in ("demo-before.json", "demo-rank0.json"))
    old = {k["mangled"]: k for k in report_json(hroof, old_path)["kernels"]}
    new = {k["mangled"]: k for k in report_json(hroof, new_path)["kernels"]}
    base = report_json(hroof, "--baseline", old_path, new_path).get("baseline", {})
    pairs = {k["mangled"]: k for k in base.get("kernels", [])}
    check(set(pairs) == set(old) & set(new), "baseline: the kernels of both runs paired (%d)" % len(pairs))
    check(sorted(base.get("new", [])) == sorted(new[m]["name"] for m in set(new) - set(old)) and
          sorted(base.get("gone", [])) == sorted(old[m]["name"] for m in set(old) - set(new)),
          "baseline: new and gone kernels listed")
    for m, p in pairs.items():
        for key in ("time_ns_total", "gflops"):
            o, n = old[m][key], new[m][key]
            pct = 100.0 * (n - o) / o if o else 0.0
            check(p[key]["old"] == o and p[key]["new"] == n and p[key]["change_pct"] == pct,
                  "baseline %s: %s %s -> %s (%+.1f%%)" % (m, key, o, n, pct))
        for level in ("L1", "L2", "HBM"):
            ai = lambda k: ([x["ai"] for x in k["levels"] if x["level"] == level] or [None])[0]
            if ai(old[m]) or ai(new[m]):
                check(p["ai"][level]["old"] == ai(old[m]) and p["ai"][level]["new"] == ai(new[m]),
                      "baseline %s: AI %s" % (m, level))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hroof", required=True)
    a = ap.parse_args()
    out_csv = subprocess.run([a.hroof, "report", *INPUTS, "--csv", "-"], capture_output=True,
                             text=True)
    out_json = subprocess.run([a.hroof, "report", *INPUTS, "--json", "-"], capture_output=True,
                              text=True)
    check(out_csv.returncode == 0 and out_json.returncode == 0, "hroof report --csv - / --json - exit 0")
    rows = list(csv.DictReader(io.StringIO(out_csv.stdout)))
    report = json.loads(out_json.stdout)
    kernels = {k["mangled"]: k for k in report["kernels"]}
    want = expected_kernels()
    check(len(rows) == len(want) == len(kernels), "one CSV row and one JSON kernel per kernel (%d)" % len(want))
    for row in rows:
        m = row["mangled"]
        e, j = want[m], kernels[m]
        n = e["ctr_launches"]
        check(int(row["launches"]) == e["launches"] == j["launches"], "%s: launches" % m)
        check(row["time_ns_total"] == str(e["time"]) and j["time_ns_total"] == e["time"],
              "%s: total time %s ns, exact" % (m, row["time_ns_total"]))
        nf = e["flop_launches"]
        total = sum(e["flops"].values()) / nf
        check(float(row["flops_per_launch"]) == total == j["flops_per_launch"],
              "%s: FLOPs per launch %s" % (m, row["flops_per_launch"]))
        if total == int(total):
            check(row["flops_per_launch"] == str(int(total)), "%s: whole FLOPs written in full" % m)
        for p, v in e["flops"].items():
            col = "flops_%s_per_launch" % p
            if v:
                check(col in row and float(row[col]) == v / nf
                      and j["flops_per_launch_by_precision"][p] == v / nf, "%s: %s" % (m, col))
        for level, v in e["bytes"].items():
            col = "bytes_%s_per_launch" % level.lower()
            jl = [x for x in j["levels"] if x["level"] == level]
            check(float(row[col]) == v / n and jl and jl[0]["bytes_per_launch"] == v / n,
                  "%s: %s = %s" % (m, col, row[col]))
        # Every other number of the CSV is the JSON's, to the last bit.
        for col, key in (("gflops", "gflops"), ("ai_requested", "ai_requested"),
                         ("pct_of_ceiling", "pct_of_ceiling"), ("time_share_pct", "time_share_pct")):
            same = (row[col] == "" and j[key] is None) or (row[col] != "" and float(row[col]) == j[key])
            check(same, "%s: %s CSV == JSON" % (m, col))
        check(row["id"] == j["id"], "%s: same id %s in CSV and JSON" % (m, row["id"]))
    check_baseline(a.hroof)
    by_time = sorted(report["kernels"], key=lambda k: -k["time_ns_total"])
    check([k["id"] for k in by_time] == ["K%d" % (i + 1) for i in range(len(by_time))],
          "ids K1..Kn by decreasing time")
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
