#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the fixtures of `hroof report --by rank` (run once; the outputs are committed):

- Inputs/ddp-rank0.json, Inputs/ddp-rank1.json: the two processes of a
  DistributedDataParallel job under torchrun, rank 0 on GPU 0 and rank 1 on
  GPU 1, with NCCL all-reduce and broadcast kernels (no counters: the runtime
  does not replay communication kernels), NVTX ranges "step 1/forward",
  "step 1/backward" and a launch outside every range. Rank 1's LSTM backward
  is slower; rank 0 waits longer in the all-reduce.
- Inputs/multi-gpu-process.json: one process (no rank) that drives two GPUs:
  kernel aggregates split "by_device", and peer-to-peer copies.

FIXTURES, NOT MEASUREMENTS: round per-launch times so that the expectations
of test/lit/report/report-by-rank.test can be checked by hand; the layout
follows docs/profile-format.md (kernel aggregates with "device" or
"by_device", "ranges", "transfers").
"""
import copy

from make_fixtures import hw, kernel, profile, scale, write

US = 1000  # ns
NCCL_AR = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
NCCL_BC = "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

# name -> per-launch counters (None: a communication kernel, activity time only)
COUNTERS = {
    "conv2d_fwd": hw({"f32": 4e9}, l1=160e6, l2=80e6, dram=40e6, t=200 * US),
    "lstm_bwd": hw(tensor={"f16": 2e9}, l1=40e6, l2=20e6, dram=10e6, t=500 * US),
    NCCL_AR: None,
    NCCL_BC: None,
}

# rank -> [(range path, kernel, launches, per-launch us)]
PLAN = {
    "0": [("step 1/forward", "conv2d_fwd", 10, 200),
          ("step 1/backward", "lstm_bwd", 10, 500),
          ("step 1/backward", NCCL_AR, 10, 300),
          ("", NCCL_BC, 1, 100)],
    "1": [("step 1/forward", "conv2d_fwd", 10, 200),
          ("step 1/backward", "lstm_bwd", 10, 600),
          ("step 1/backward", NCCL_AR, 10, 250),
          ("", NCCL_BC, 1, 100)],
}


def aggregate(name, launches, us, device):
    ctr = COUNTERS[name]
    if ctr is not None:
        ctr = dict(ctr, time_ns=us * US)
    a = kernel(name, name, launches, us * US, ctr=ctr)
    a["device"] = device
    return a


def ddp_rank(rank, pid):
    device = int(rank)
    ranges, whole = {}, {}
    for path, name, launches, us in PLAN[rank]:
        ranges.setdefault(path, {"range": path, "kernels": [], "transfers": []})
        ranges[path]["kernels"].append(aggregate(name, launches, us, device))
        if name in whole:
            raise SystemExit("each kernel once per rank in this fixture")
        whole[name] = aggregate(name, launches, us, device)
    p = profile(pid, rank, list(whole.values()))
    p["command"] = "python3 train_ddp.py --steps 1"
    p["rank_from"] = "RANK"
    p["local_rank"] = rank
    p["world_size"] = "2"
    p["devices"] = [{"ordinal": device, "name": "NVIDIA H100 80GB HBM3",
                     "compute_capability": "9.0", "sms": 132}]
    p["ranges"] = [ranges[k] for k in sorted(ranges)]
    p["ranges_dropped"] = 0
    p["notes"].append("hardware counters: not collected for NCCL communication kernels "
                      "(replaying a kernel that waits on other GPUs can hang); their time "
                      "comes from activity records")
    return p


def multi_gpu_process():
    """scale_kernel: 4 launches of 100 us on GPU 0 and 4 of 120 us on GPU 1; one
    peer copy of 64 MiB issued from each GPU to the other."""
    per_dev = {0: 100, 1: 120}
    ctr = hw({"f32": 1e8}, l1=4e8, l2=3e8, dram=2e8)
    whole = kernel("scale_kernel(float*, int)", "_Z12scale_kernelPfi", 8, 0)
    whole["duration_ns"] = {"timed_launches": 8, "total": 4 * 100 * US + 4 * 120 * US,
                            "min": 100 * US, "max": 120 * US, "mean": 110.0 * US}
    whole["counters"] = {"launches": 8, "total": scale(ctr, 8)}
    whole["by_device"] = []
    for dev, us in per_dev.items():
        c = dict(ctr, time_ns=us * US)
        whole["by_device"].append({"device": dev, "launches": 4,
                                   "duration_ns": {"timed_launches": 4, "total": 4 * us * US},
                                   "counters": {"launches": 4, "total": scale(c, 4)}})
    whole["counters"]["total"]["time_ns"] = 4 * 100 * US + 4 * 120 * US
    p = profile(6100, None, [whole])
    p["command"] = "./multi_gpu_scale"
    p["devices"] = [{"ordinal": d, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
                     "sms": 132} for d in per_dev]
    mib64 = 64 << 20
    p["transfers"] = {"by_kind": [{"kind": "PtoP", "count": 2, "bytes": 2 * mib64,
                                   "duration_ns": 2 * 400 * US,
                                   "gbytes_per_s": 2 * mib64 / (2 * 400 * US)}],
                      "records": [{"kind": "PtoP", "bytes": mib64, "start_ns": 1000 + i * 500 * US,
                                   "duration_ns": 400 * US, "gbytes_per_s": mib64 / (400 * US),
                                   "device": i, "stream": 7, "correlation": 40 + i,
                                   "src_device": i, "dst_device": 1 - i, "range": ""}
                                  for i in (0, 1)]}
    return p


def unknown_device_launch():
    """An older runtime's profile: a failed launch recorded on device -1 beside
    4 launches of 100 us on device 0; the report counts it on device 0."""
    k = kernel("scale_kernel(float*, int)", "_Z12scale_kernelPfi", 5, 0)
    k["duration_ns"] = {"timed_launches": 4, "total": 4 * 100 * US}
    k["errors"] = 1
    k["by_device"] = [{"device": -1, "launches": 1,
                       "duration_ns": {"timed_launches": 0, "total": 0}},
                      {"device": 0, "launches": 4,
                       "duration_ns": {"timed_launches": 4, "total": 4 * 100 * US}}]
    p = profile(6200, "0", [k])
    p["command"] = "./fails_once"
    return p


def main():
    write("unknown-device-launch.json", unknown_device_launch())
    write("ddp-rank0.json", ddp_rank("0", 7001))
    write("ddp-rank1.json", ddp_rank("1", 7002))
    write("multi-gpu-process.json", multi_gpu_process())


if __name__ == "__main__":
    main()
