#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fabricates a GPU run's outputs from the build-time listing in
.gpu-inputs/gpu/static/*.json, to test compare.py without a GPU:
  OUT/P.inst.stdout   HROOF_EXPECT lines (= analytic) + "all checks passed"
  OUT/P.profile.json  a fake runtime profile (nested counts; one program as
                      JSON lines with dotted keys), dynamic = analytic except
                      one planted error (kernel branchy: flops.f32 + 1)
  OUT/P.ncu.csv       a fake `ncu --csv --page raw` (units row, thousands
                      separators, app output lines mixed in), metrics derived
                      from the analytic counts with the documented rules
  OUT/P.time.*.txt    fake medians
Usage: fake_inputs.py INPUTS OUT   (INPUTS: the suite's GPU test inputs, .gpu-inputs/gpu)"""
import json
import os
import sys

inputs, out = sys.argv[1:3]
os.makedirs(out, exist_ok=True)
sd = os.path.join(inputs, "static")
for fn in sorted(os.listdir(sd)):
    if not fn.endswith(".json") or fn.endswith(".model.json"):
        continue
    prog = fn[:-5]
    rows = json.load(open(os.path.join(sd, fn)))
    with open(os.path.join(out, prog + ".inst.stdout"), "w") as f:
        for r in rows:
            e = {"kernel": r["kernel"], "launch": r["launch"], "grid": r["grid"],
                 "block": r["block"], "counts": r["analytic"]}
            for k in ("ncu_half_lanes", "note"):
                if k in r:
                    e[k] = r[k]
            f.write("HROOF_EXPECT " + json.dumps(e) + "\n")
        f.write("%s: all checks passed\n" % prog)
    recs = []
    for r in rows:
        dyn = dict(r["analytic"])
        if r["kernel"] == "branchy":
            dyn["flops.f32"] += 1
        nested = {}
        for k, v in dyn.items():
            d = nested
            parts = k.split(".")
            for p in parts[:-1]:
                d = d.setdefault(p, {})
            d[parts[-1]] = v
        recs.append({"kernel": r["kernel"] + "(int)", "mangled": r.get("mangled") or r["kernel"],
                     "index": 7 + len(recs),
                     "grid": r["grid"], "block": r["block"], "duration_ns": 1000,
                     "dynamic": nested if prog != "memory" else dyn,
                     "static": r["static"]})
    with open(os.path.join(out, prog + ".profile.json"), "w") as f:
        if prog == "memory":  # JSON-lines variant
            for x in recs:
                f.write(json.dumps(x) + "\n")
        else:
            json.dump({"hroof_profile": 1, "pid": 4242, "launches": recs,
                       "kernels": [{"kernel": x["kernel"], "mangled": x["mangled"],
                                    "dynamic": {"launches": 1, "total": x["dynamic"]}}
                                   for x in recs]}, f)
    # ncu
    mets = ["dadd", "dmul", "dfma", "fadd", "fmul", "ffma", "hadd", "hmul", "hfma"]
    cols = ["sm__sass_thread_inst_executed_op_%s_pred_on.sum" % m for m in mets]
    bcols = ["sm__sass_data_bytes_mem_%s.sum" % m for m in
             ["global_op_ld", "global_op_st", "global_op_atom", "global_op_red",
              "shared_op_ld", "shared_op_st", "shared_op_atom", "local_op_ld", "local_op_st"]]
    head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
            "Stream", "Block Size", "Grid Size", "Device", "CC"] + cols + bcols + \
        ["sm__inst_executed_pipe_tensor_op_hmma.sum"]
    lines = ["==PROF== Connected to process 4242", "some application output",
             ",".join('"%s"' % h for h in head),
             ",".join('"%s"' % u for u in [""] * 11 + ["inst"] * 9 + ["byte"] * 9 + ["inst"])]
    for i, r in enumerate(rows):
        a = r["analytic"]
        lanes = 2 if r["kernel"] in ("ew_h2", "ew_bf162") else 1
        v = {c: 0 for c in cols + bcols}
        v[cols[2]] = a.get("flops.f64", 0) // 2  # all as dfma
        f32 = a.get("flops.f32", 0)
        v[cols[5]] = f32 // 2
        v[cols[4]] = f32 % 2
        h = a.get("flops.f16", 0) + a.get("flops.bf16", 0)
        v[cols[8]] = h // (2 * lanes)
        for key, col in [("bytes.global.load", 0), ("bytes.global.store", 1),
                         ("bytes.global.atomic", 3), ("bytes.shared.load", 4),
                         ("bytes.shared.store", 5), ("bytes.shared.atomic", 6),
                         ("bytes.local.load", 7), ("bytes.local.store", 8)]:
            v[bcols[col]] = a.get(key, 0)
        if r["kernel"] == "wmma_gemm":
            v[bcols[0]] *= 2  # planted: fragment loads fetched twice
        hm = a.get("tensor_flops.f16", 0) // 4096
        name = {"poly_noinline": "poly_noinline(int, const float *, float *)",
                "wmma_gemm": "wmma_gemm"}.get(r["kernel"], r["kernel"])
        vals = [str(i), "4242", "prog", "host", name, "1", "7", "(256, 1, 1)", "(9, 1, 1)", "0", "9.0"] + \
            ["{:,}".format(v[c]) for c in cols + bcols] + ["{:,}".format(hm)]
        lines.append(",".join('"%s"' % x for x in vals))
    lines.append("%s: all checks passed" % prog)
    open(os.path.join(out, prog + ".ncu.csv"), "w").write("\n".join(lines) + "\n")
    for kind, ms in (("plain", 0.100), ("inst", 0.103)):
        with open(os.path.join(out, "%s.time.%s.txt" % (prog, kind)), "w") as f:
            for r in rows:
                f.write('HROOF_TIME {"kernel": "%s", "median_ms": %.6f, "min_ms": 0.09, "runs": 50}\n'
                        % (r["kernel"], ms * (1.3 if r["kernel"] == "local_array" and kind == "inst" else 1)))
            f.write("%s: all checks passed\n" % prog)
