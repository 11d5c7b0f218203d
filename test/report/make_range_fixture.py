#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes Inputs/ranges-train.json, the fixture of `hroof report --by range` and
`--tuning` (run once; the output is committed).

FIXTURE, NOT A MEASUREMENT: a profile as the runtime writes it for a training
loop annotated with NVTX (docs/deep-learning.md): two steps, each with
"step N/forward/MODULE" and "step N/backward/MODULE" ranges, a batch copy in
"step N", a launch and a copy outside every range. Per-launch numbers are
round so that the lit tests' expectations can be checked by hand (comments in
test/lit/report/report-by-range.test); the per-kernel aggregates are the sums
of the per-range ones, as the runtime writes them.
"""
import copy

from make_fixtures import hw, kernel, profile, scale, write

US = 1000  # ns

# name -> (mangled, per-launch counters, per-launch ns)
KERNELS = {
    # Forward convolution on Tensor Cores: 2 GFLOP in 100 us.
    "conv_fwd_implicit_gemm": hw(tensor={"f16": 2e9}, l1=80e6, l2=40e6, dram=20e6, t=100 * US),
    # Backward convolution without Tensor Cores: 4 GFLOP f32 in 400 us.
    "conv_bwd_data_f32": hw({"f32": 4e9}, l1=160e6, l2=80e6, dram=40e6, t=400 * US),
    "bn_fwd": hw({"f32": 8e6}, l1=32e6, l2=32e6, dram=32e6, t=15 * US),
    "bn_bwd": hw({"f32": 16e6}, l1=48e6, l2=48e6, dram=48e6, t=25 * US),
    # ReLU: no FLOPs (a max), memory only.
    "relu_fwd": hw(l1=16e6, l2=16e6, dram=16e6, t=10 * US),
    "relu_bwd": hw(l1=24e6, l2=24e6, dram=24e6, t=12 * US),
    "lstm_gemm": hw(tensor={"f16": 1e9}, l1=20e6, l2=10e6, dram=5e6, t=60 * US),
    "fill_zero": hw(l1=64e6, l2=64e6, dram=64e6, t=30 * US),
}

# (range path, kernel, launches, has counters)
ENTRIES = []
for step in (1, 2):
    s = "step %d" % step
    # Step 2's ReLU forward launches are past the launch limit: no counters.
    ENTRIES += [(s + "/forward/conv1", "conv_fwd_implicit_gemm", 2, True),
                (s + "/forward/bn1", "bn_fwd", 2, True),
                (s + "/forward/relu1", "relu_fwd", 2, step == 1),
                (s + "/forward/lstm", "lstm_gemm", 4, True),
                (s + "/backward/lstm", "lstm_gemm", 8, True),
                (s + "/backward/relu1", "relu_bwd", 2, True),
                (s + "/backward/bn1", "bn_bwd", 2, True),
                (s + "/backward/conv1", "conv_bwd_data_f32", 2, True)]
ENTRIES.append(("", "fill_zero", 1, True))

# (range path, kind, count, bytes, ns)
TRANSFERS = [("step 1", "HtoD", 1, 64e6, 2500 * US // 100),
             ("step 2", "HtoD", 1, 64e6, 2500 * US // 100),
             ("", "DtoH", 1, 4e6, 2 * US)]


def aggregate(name, launches, with_counters):
    c = KERNELS[name]
    a = kernel(name, name, launches, c["time_ns"], ctr=c if with_counters else None)
    a["recorded_launches"] = launches
    return a


def merge(a, b):
    """The kernel aggregate over two sets of launches (counts add)."""
    out = copy.deepcopy(a)
    for k in ("launches", "recorded_launches"):
        out[k] += b[k]
    out["duration_ns"]["timed_launches"] += b["duration_ns"]["timed_launches"]
    out["duration_ns"]["total"] += b["duration_ns"]["total"]
    if "counters" in b:
        if "counters" not in out:
            out["counters"] = copy.deepcopy(b["counters"])
        else:
            n = out["counters"]["launches"] + b["counters"]["launches"]
            per = KERNELS[a["kernel"]]
            out["counters"] = {"launches": n, "total": scale(per, n)}
    return out


def main():
    ranges, kernels = {}, {}
    for path, name, n, ctr in ENTRIES:
        a = aggregate(name, n, ctr)
        r = ranges.setdefault(path, {"range": path, "kernels": [], "transfers": []})
        r["kernels"].append(a)
        kernels[name] = merge(kernels[name], a) if name in kernels else a
    by_kind = {}
    for path, kind, n, b, ns in TRANSFERS:
        t = {"kind": kind, "count": n, "bytes": int(b), "duration_ns": int(ns),
             "gbytes_per_s": b / ns}
        ranges.setdefault(path, {"range": path, "kernels": [], "transfers": []})["transfers"].append(t)
        k = by_kind.setdefault(kind, {"kind": kind, "count": 0, "bytes": 0, "duration_ns": 0})
        k["count"] += n
        k["bytes"] += int(b)
        k["duration_ns"] += int(ns)
    for k in by_kind.values():
        k["gbytes_per_s"] = k["bytes"] / k["duration_ns"]
    p = profile(6100, None, [kernels[k] for k in sorted(kernels)])
    p["command"] = "python3 examples/pytorch_nvtx.py --steps 2"
    p["notes"] = ["fixture written by test/report/make_range_fixture.py, not a measurement"]
    p["ranges"] = [ranges[k] for k in sorted(ranges)]
    p["ranges_dropped"] = 0
    p["transfers"] = {"by_kind": [by_kind[k] for k in sorted(by_kind)], "records": []}
    write("ranges-train.json", p)


if __name__ == "__main__":
    main()
