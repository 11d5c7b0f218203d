#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Expansion of special operations in executed FLOPs, from one probe run.

usage: derive.py STATIC.json NCU.csv > expansion.json

For each probe kernel (one special operation per thread): executed FLOPs
(Nsight Compute: add + mul + 2*fma, f32 and f64 apart) minus the FLOPs of the
IR (hroof static at the same launch), divided by the operation count.
"""
import csv
import json
import sys

static = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
rows = list(csv.reader(lines[start:]))
hdr = rows[0]
ncu = {}
for r in rows[2:]:
    d = dict(zip(hdr, r))
    v = lambda m: float(d.get(f"sm__sass_thread_inst_executed_op_{m}_pred_on.sum", "0").replace(",", "") or 0)
    name = d["Kernel Name"].split("(")[0]
    ncu[name] = {"f64": v("dadd") + v("dmul") + 2 * v("dfma"),
                 "f32": v("fadd") + v("fmul") + 2 * v("ffma")}
out = {"method": "probe kernels in test/gpu/expansion/expansion.cu; "
       "(ncu executed FLOPs - IR FLOPs) / operations", "probes": {}}
for k in static["kernels"]:
    name = k["name"].split("(")[0]
    if name not in ncu:
        continue
    t = k["total"]
    for prec in ("f32", "f64"):
        for op, cnt in t["special"][prec].items():
            if cnt:
                ir = t["flops"][prec]
                executed = ncu[name][prec]
                # One entry per probe kernel (rcp_f64 is an fdiv in the IR too).
                out["probes"][name] = {
                    "op": f"{prec}.{op}", "count": cnt, "ir_flops": ir,
                    "executed_flops": executed,
                    "flops_per_op": (executed - ir) / cnt}
# The model: per operation, the probe named after it (div_f32 for f32.div ...).
out["flops_per_op"] = {}
for name, p in out["probes"].items():
    prec = p["op"].split(".")[0]
    base = name.split("_")[0]
    if name.startswith(("div_", "sqrt_", "rcp_", "rsqrt_", "ex2_")):
        out["flops_per_op"][p["op"]] = p["flops_per_op"]
json.dump(out, sys.stdout, indent=2)
print()
