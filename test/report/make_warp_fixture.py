#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes Inputs/warp-compare.json: Inputs/demo-rank0.json (a fixture, not a
measurement) with the warp-level fields of docs/profile-format.md added by
hand: a per-kernel "static_warp" aggregate, the counters' sectors and the
dynamic (instrumented) warp-level counts, so that `hroof compare` can be
tested on them (test/lit/report/compare-warp.test). saxpy: exact and equal to
its counters and its dynamic counts; spmv_csr: bounds that contain them (its
dynamic sectors 1.25 x the counters', to show a disagreement), and static
totals given as bounds (its model is not exact)."""
import json
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs")
doc = json.load(open(os.path.join(HERE, "demo-rank0.json")))
for k in doc["kernels"]:
    c = k.get("counters", {}).get("total")
    if not c:
        continue
    ld, st = c["bytes"]["global"]["load"], c["bytes"]["global"]["store"]
    c["sectors"] = {"global": {"load": ld // 32, "store": st // 32}}
    n = k["counters"]["launches"]
    if k["kernel"].startswith("saxpy"):
        warp = {"warp_bytes": {"global": {"load": ld, "store": st}},
                "sectors": {"global": {"load": ld // 32, "store": st // 32}}}
        k["static_warp"] = {"launches": n, "exact": True, "lo": warp, "hi": warp}
        k["dynamic"]["total"].update(json.loads(json.dumps(warp)))
    if k["kernel"].startswith("spmv_csr"):
        k["dynamic"]["total"].update(
            {"warp_bytes": {"global": {"load": ld, "store": st}},
             "sectors": {"global": {"load": ld // 32 * 5 // 4, "store": st // 32}}})
    if k["kernel"].startswith("spmv_csr"):
        k["static_warp"] = {
            "launches": n, "exact": False,
            "lo": {"warp_bytes": {"global": {"load": ld // 2, "store": st}},
                   "sectors": {"global": {"load": ld // 64, "store": st // 32}}},
            "hi": {"warp_bytes": {"global": {"load": ld * 2, "store": st}},
                   "sectors": {"global": {"load": ld // 16, "store": st // 32}}}}
    if k["kernel"].startswith("spmv_csr") and not k["static"]["exact"]:
        # A model that is not exact gives bounds (docs/profile-format.md,
        # "static.bounds"): here lo = half the total, hi = twice the total
        # for the FLOPs (the dynamic count lies between), lo = a quarter and
        # no upper bound for the loads.
        t = k["static"]["total"]
        lo = json.loads(json.dumps(t))
        hi = json.loads(json.dumps(t))
        lo["flops"]["f64"] = t["flops"]["f64"] // 2
        lo["bytes"]["global"]["load"] = t["bytes"]["global"]["load"] // 4
        hi["flops"]["f64"] = t["flops"]["f64"] * 2
        hi["bytes"]["global"]["load"] = None
        k["static"]["bounds"] = {"lo": lo, "hi": hi,
                                 "no_upper_bound": "a loop at spmv:%for.body has no trip count"}
with open(os.path.join(HERE, "warp-compare.json"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
