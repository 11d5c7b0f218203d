#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes Inputs/amp-rank{0,1}.json and Inputs/fp32-rank{0,1}.json, the fixture of
`hroof report --by range --baseline` (run once; the output is committed).

FIXTURE, NOT A MEASUREMENT: one training step of a one-layer model, run on two
ranks in FP32 (the baseline) and with automatic mixed precision (AMP), as the
runtime writes the profiles (per-range kernel aggregates; the whole-run kernel
aggregates are their sums). The ranks differ in the forward GEMM's time, so
that merging them is seen. The AMP run has a range of its own (step/scaler:
the gradient scaler), the FP32 run one too (step/forward/dropout). Round
numbers, derived by hand in test/lit/report/report-range-baseline.test.
"""
import copy

from make_fixtures import hw, kernel, profile, write

US = 1000  # ns

# (range path, kernel, launches per rank, counters per launch, ns per launch on rank 0, 1)
FP32 = [
    ("step/forward/linear1", "sgemm_fwd_f32", 2,
     hw({"f32": 4e9}, l1=400e6, l2=200e6, dram=100e6), (400 * US, 500 * US)),
    ("step/forward/dropout", "dropout_f32", 2, hw(l1=64e6, l2=64e6, dram=64e6), (50 * US, 50 * US)),
    ("step/backward/linear1", "sgemm_bwd_f32", 2,
     hw({"f32": 8e9}, l1=800e6, l2=400e6, dram=200e6), (800 * US, 800 * US)),
]
AMP = [
    ("step/forward/linear1", "hgemm_fwd_tc", 2,
     hw(tensor={"f16": 4e9}, l1=200e6, l2=100e6, dram=50e6), (100 * US, 150 * US)),
    ("step/forward/linear1", "bias_add_f32", 2,
     hw({"f32": 1e9}, l1=64e6, l2=64e6, dram=64e6), (25 * US, 25 * US)),
    ("step/backward/linear1", "hgemm_bwd_tc", 2,
     hw(tensor={"f16": 8e9}, l1=400e6, l2=200e6, dram=100e6), (200 * US, 200 * US)),
    ("step/scaler", "unscale_f32", 1, hw({"f32": 2e8}, l1=8e6, l2=8e6, dram=8e6), (40 * US, 40 * US)),
]


def rank_profile(entries, rank, pid, command):
    ranges, kernels = {}, []
    for path, name, n, ctr, ns in entries:
        c = copy.deepcopy(ctr)
        c["time_ns"] = ns[rank]
        a = kernel(name, name, n, ns[rank], ctr=c)
        ranges.setdefault(path, {"range": path, "kernels": [], "transfers": []})["kernels"].append(a)
        kernels.append(a)  # each kernel runs in one range: the aggregate is the range's
    p = profile(pid, str(rank), sorted(kernels, key=lambda k: k["kernel"]))
    p["command"] = command
    p["notes"] = ["fixture written by test/report/make_amp_fixture.py, not a measurement"]
    p["ranges"] = [ranges[k] for k in sorted(ranges)]
    p["ranges_dropped"] = 0
    return p


def main():
    for rank in (0, 1):
        write("fp32-rank%d.json" % rank,
              rank_profile(FP32, rank, 7100 + rank, "python3 train.py --precision fp32"))
        write("amp-rank%d.json" % rank,
              rank_profile(AMP, rank, 7200 + rank, "python3 train.py --precision amp"))


if __name__ == "__main__":
    main()
