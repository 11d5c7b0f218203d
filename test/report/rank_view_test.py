#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctest report.ranks: `hroof report --by rank` against numbers this test derives itself.

Writes fake distributed runs (3 to 6 ranks; some processes drive two GPUs with
"by_device" splits; NCCL kernels among compute kernels; NVTX ranges), runs
`hroof report --by rank --rank-json`, and checks every row's kernel and
communication time, the merged report's communication share, and every
kernel's and range's per-row times, mean, max and max/mean, computed here from
the profiles' own fields. Seeded: the same cases on every run.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import checked, hw, kernel, profile, scale  # noqa: E402

COMM = ["ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"]
COMPUTE = ["conv_fwd", "conv_bwd", "lstm_fwd", "lstm_bwd", "adam_step"]
RANGES = ["step 1/forward", "step 1/backward", "step 2/forward", "step 2/backward", ""]


def fake_process(rng, rank, pid, devices):
    """One process: per device and kernel, launches and ns per range."""
    plan = []  # (range, kernel, device, launches, ns per launch)
    for dev in devices:
        for name in COMPUTE + COMM:
            if rng.random() < 0.2:
                continue  # not every kernel on every rank
            for rg in rng.sample(RANGES, rng.randint(1, 3)):
                plan.append((rg, name, dev, rng.randint(1, 20), rng.randint(5, 900) * 1000))
    whole, ranges = {}, {}

    def agg(name, entries):
        launches = sum(e[3] for e in entries)
        total = sum(e[3] * e[4] for e in entries)
        ctr = None if name in COMM else hw({"f32": 1e6}, l1=4e6, l2=2e6, dram=1e6, t=0)
        a = kernel(name, name, launches, 0, ctr=ctr)
        a["duration_ns"] = {"timed_launches": launches, "total": total}
        if ctr is not None:
            a["counters"]["total"]["time_ns"] = total
        devs = sorted({e[2] for e in entries})
        if len(devs) == 1:
            a["device"] = devs[0]
        else:
            a["by_device"] = []
            for d in devs:
                part = [e for e in entries if e[2] == d]
                n = sum(e[3] for e in part)
                t = sum(e[3] * e[4] for e in part)
                e = {"device": d, "launches": n, "duration_ns": {"timed_launches": n, "total": t}}
                if ctr is not None:  # the device's share: its launches' counters
                    e["counters"] = {"launches": n, "total": dict(scale(ctr, n), time_ns=t)}
                a["by_device"].append(e)
        return a

    for name in COMPUTE + COMM:
        entries = [e for e in plan if e[1] == name]
        if entries:
            whole[name] = agg(name, entries)
    for rg in RANGES:
        ks = []
        for name in COMPUTE + COMM:
            entries = [e for e in plan if e[1] == name and e[0] == rg]
            if entries:
                ks.append(agg(name, entries))
        if ks:
            ranges[rg] = {"range": rg, "kernels": ks, "transfers": []}
    p = profile(pid, rank, list(whole.values()))
    p["devices"] = [{"ordinal": d, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
                     "sms": 132} for d in devices]
    p["ranges"] = list(ranges.values())
    return p, plan


def expected(procs):
    """Rows (rank, device) in rank then device order, with their times."""
    rows = []
    for rank, plan in sorted(procs, key=lambda p: int(p[0])):
        for dev in sorted({e[2] for e in plan}):
            mine = [e for e in plan if e[2] == dev]
            kern, rng = {}, {}
            for rg, name, _, n, ns in mine:
                kern[name] = kern.get(name, 0) + n * ns
                rng[rg] = rng.get(rg, 0) + n * ns
            rows.append({"rank": rank, "device": dev, "kernels": kern, "ranges": rng,
                         "time": sum(kern.values()),
                         "comm": sum(v for k, v in kern.items() if k in COMM),
                         # 1e6 f32 FLOPs per compute launch (fake_process)
                         "flops": sum(n * 1e6 for _, name, _, n, _ in mine if name not in COMM)})
    return rows


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def check_imbalance(got, rows, key, fail):
    names = sorted({n for r in rows for n in r[key]})
    by_name = {g["name"]: g for g in got}
    if sorted(by_name) != names:
        fail("%s: names %s, expected %s" % (key, sorted(by_name), names))
        return
    for n in names:
        per = [r[key].get(n, 0) for r in rows]
        mean = sum(per) / len(per)
        g = by_name[n]
        got_per = [x["time_ns"] for x in g["per_row"]]
        if len(got_per) != len(per) or not all(close(a, b) for a, b in zip(got_per, per)):
            fail("%s %r: per row %s, expected %s" % (key, n, got_per, per))
        if not (close(g["total_ns"], sum(per)) and close(g["mean_ns"], mean) and
                close(g["max_ns"], max(per)) and close(g["max_over_mean"], max(per) / mean)):
            fail("%s %r: total/mean/max/ratio %s" % (key, n, g))
        if key == "kernels" and (g["communication"] != "") != (n in COMM):
            fail("kernel %r: communication %r" % (n, g["communication"]))


def run_case(hroof, seed, tmp, fail):
    rng = random.Random(seed)
    nranks = rng.randint(3, 6)
    procs, paths = [], []
    for r in range(nranks):
        devices = [0, 1] if rng.random() < 0.3 else [r % 8]
        p, plan = fake_process(rng, str(r), 8000 + r, devices)
        if not plan:
            continue
        path = os.path.join(tmp, "case%d-rank%d.json" % (seed, r))
        with open(path, "w") as f:
            json.dump(checked(p), f)
        procs.append((str(r), plan))
        paths.append(path)
    out = os.path.join(tmp, "case%d-ranks.json" % seed)
    report = os.path.join(tmp, "case%d-report.json" % seed)
    res = subprocess.run([hroof, "report", *paths, "--by", "rank", "--rank-json", out,
                          "--json", report], capture_output=True, text=True)
    if res.returncode != 0:
        fail("seed %d: exit %d: %s" % (seed, res.returncode, res.stderr))
        return
    got = json.load(open(out))
    rows = expected(procs)
    if len(got["rows"]) != len(rows):
        fail("seed %d: %d rows, expected %d" % (seed, len(got["rows"]), len(rows)))
        return
    for g, e in zip(got["rows"], rows):
        if (g["rank"], g["device"]) != (e["rank"], e["device"]):
            fail("seed %d: row %s/%s, expected %s/%s" % (seed, g["rank"], g["device"], e["rank"],
                                                         e["device"]))
        if not close(g["kernel_time_ns"], e["time"]) or not close(g["communication_time_ns"],
                                                                   e["comm"]):
            fail("seed %d: row %s: time %s comm %s, expected %s %s" % (
                seed, g["label"], g["kernel_time_ns"], g["communication_time_ns"], e["time"],
                e["comm"]))
        compute_ns = e["time"] - e["comm"]
        want = e["flops"] / compute_ns if compute_ns > 0 and e["flops"] > 0 else 0
        if not close(g["flops"], e["flops"]) or not close(g["gflops"], want):
            fail("seed %d: row %s: flops %s gflops %s, expected %s %s (over the compute time)" % (
                seed, g["label"], g["flops"], g["gflops"], e["flops"], want))
    total = sum(r["time"] for r in rows)
    comm = sum(r["comm"] for r in rows)
    if not close(got["kernel_time_ns"], total) or not close(got["communication_time_ns"], comm):
        fail("seed %d: totals %s %s, expected %s %s" % (seed, got["kernel_time_ns"],
                                                        got["communication_time_ns"], total, comm))
    check_imbalance(got["kernels"], rows, "kernels", lambda m: fail("seed %d: %s" % (seed, m)))
    check_imbalance(got["ranges"], rows, "ranges", lambda m: fail("seed %d: %s" % (seed, m)))
    # The merged report: communication kernels carry no FLOPs.
    merged = json.load(open(report))
    for k in merged["kernels"]:
        if k["name"] in COMM and (k["flops_per_launch"] or not k["bound"].startswith("communication")):
            fail("seed %d: communication kernel %s: FLOPs %s, bound %r" % (
                seed, k["name"], k["flops_per_launch"], k["bound"]))
        if k["name"] not in COMM and k["bound"].startswith("communication"):
            fail("seed %d: compute kernel %s marked communication" % (seed, k["name"]))
    return len(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hroof", required=True)
    ap.add_argument("--cases", type=int, default=8)
    args = ap.parse_args()
    failures = []
    rows = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.cases):
            rows += run_case(args.hroof, seed, tmp, failures.append) or 0
    for f in failures:
        print("FAIL:", f)
    print("%d cases, %d rank/GPU rows checked: %d passed, %d failed" %
          (args.cases, rows, args.cases - len({f.split(':')[0] for f in failures}),
           len({f.split(':')[0] for f in failures})))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
