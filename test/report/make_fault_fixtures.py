#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the fixtures of a GPU without a machine file and of a distributed run
that a kill left incomplete (run once; the outputs are committed):

- Inputs/h200-peaks.json: one process on an "NVIDIA H200" (no bundled machine
  file), whose launch records carry the counters' reference peaks
  ("peak", docs/profile-format.md); hroof report takes its ceilings from them.
- Inputs/rank-faults/hroof-710R-rankR.json: six ranks of one job profiled with
  --range 'step 2(/|$)' and counters under application replay:
  rank 0 and rank 2 complete; rank 1 torn (the file ends inside its trailer,
  after its launch records); rank 3 unfinished ("complete": false); rank 4
  never reached the profiled range (no launch); rank 5 torn inside its header
  (nothing readable).

FIXTURES, NOT MEASUREMENTS: round numbers chosen so that the expectations of
test/lit/report/report-any-gpu.test and report-rank-faults.test can be
derived by hand. The files are written in the runtime's layout (HEADER,
one launch record a line, TRAILER: runtime/src/profile/Profile.cpp), so that
cutting one short gives a torn file as a kill during a write does.
"""
import json
import os

from make_fixtures import checked

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "Inputs")
US = 1000  # ns
TENSOR = ["f16", "bf16", "tf32", "fp8", "int8", "f64"]
NCCL_AR = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

# The H200's reference peaks as the counters give them, per second: record 0
# at 90% of the clock of record 1; the report keeps the highest of each.
PEAK = {"flops_per_s": {"f64": 3.0e13, "f32": 6.0e13, "f16": 1.2e14},
        "tensor_flops_per_s": {"f16": 9.0e14, "bf16": 9.0e14, "tf32": 4.5e14, "fp8": 1.8e15,
                               "int8": 1.8e15, "f64": 6.0e13},
        "l1_bytes_per_s": 3.0e13, "l2_bytes_per_s": 1.0e13, "dram_bytes_per_s": 4.0e12}


def scaled(obj, f):
    if isinstance(obj, dict):
        return {k: scaled(v, f) for k, v in obj.items()}
    return obj * f


def counters(f32=0, tensor_f16=0, gload=0, l1=0, l2=0, dram=0, t_us=0, peak=None):
    c = {"flops": {"f64": 0, "f32": int(f32), "f16": 0},
         "tensor_flops": {k: 0 for k in TENSOR},
         "bytes": {"global": {"load": int(gload), "store": 0, "atomic": 0},
                   "shared": {"load": 0, "store": 0}, "local": {"load": 0, "store": 0}},
         "l1_bytes": int(l1), "l2_bytes": int(l2), "dram_bytes": int(dram),
         "time_ns": int(t_us * US)}
    c["tensor_flops"]["f16"] = int(tensor_f16)
    if peak is not None:
        c["peak"] = peak
    return c


def record(index, name, device, us, rng, ctr=None, replay_groups=None):
    r = {"index": index, "kernel": name, "mangled": name, "api": "cuLaunchKernel",
         "correlation": 100 + index, "thread": 0, "device": device, "stream": 7,
         "grid": [1024, 1, 1], "block": [256, 1, 1], "shared_mem": 0,
         "start_ns": 1000000 + index * 1000 * US, "duration_ns": int(us * US),
         "instrumented": False, "graph": False, "range": rng}
    if ctr is not None:
        r["counters"] = dict(ctr)
        if replay_groups:  # application replay: the one-pass groups the counters came from
            r["counters"]["replay_groups"] = replay_groups
    return r


def add_numbers(total, add):
    for k, v in add.items():
        if k in ("peak", "replay_groups"):  # per launch, not summed by the runtime
            continue
        if isinstance(v, dict):
            add_numbers(total.setdefault(k, {}), v)
        else:
            total[k] = total.get(k, 0) + v


def aggregates(records):
    """Kernel aggregates of the records, as the runtime sums them."""
    out = {}
    for r in records:
        a = out.setdefault(r["mangled"], {
            "kernel": r["kernel"], "mangled": r["mangled"], "instrumented": False, "launches": 0,
            "recorded_launches": 0, "graph_launches": 0, "errors": 0,
            "duration_ns": {"timed_launches": 0, "total": 0}, "device": r["device"]})
        a["launches"] += 1
        a["recorded_launches"] += 1
        a["duration_ns"]["timed_launches"] += 1
        a["duration_ns"]["total"] += r["duration_ns"]
        if "counters" in r:
            c = a.setdefault("counters", {"launches": 0, "total": {}})
            c["launches"] += 1
            add_numbers(c["total"], r["counters"])
    return list(out.values())


def runtime_text(header, records, trailer):
    """The file as the runtime writes it: HEADER RECORDS TRAILER."""
    checked(dict(header, launches=records, **trailer))
    h = json.dumps(header, indent=1, sort_keys=True)
    h = h[:h.rfind("}")].rstrip() + ",\n \"launches\": ["
    recs = "".join((",\n  " if i else "\n  ") + json.dumps(r, separators=(",", ":"), sort_keys=True)
                   for i, r in enumerate(records))
    t = json.dumps(trailer, indent=1)
    return h + recs + "\n ],\n" + t[t.find("{") + 1:t.rfind("}")].strip("\n") + "\n}\n"


def header(pid, rank, command, rng="", replay="kernel"):
    return {"hroof_profile": 1, "command": command, "counters": 57, "host": "gpu-node-11",
            "pid": pid, "rank": rank, "rank_from": "RANK" if rank is not None else None,
            "local_rank": rank, "world_size": "6" if rank is not None else None, "run_id": "7000",
            "settings": {"counters": "roofline", "launch_limit": 100, "flush_ms": 200,
                         "range": rng, "replay": replay},
            "start_time": 1795400000}


def trailer(records, device_name, device=0, complete=True, notes=(), ranges=True):
    t = {"kernels": aggregates(records),
         "devices": [{"ordinal": device, "name": device_name, "compute_capability": "9.0",
                      "sms": 132}] if records else [],
         "graph_launches": 0,
         "launch_records": {"written": len(records), "dropped": 0, "limit_per_kernel": 100},
         "notes": ["fixture written by test/report/make_fault_fixtures.py, not a measurement"]
         + list(notes),
         "complete": complete}
    if ranges and records:
        paths = sorted({r["range"] for r in records})
        t["ranges"] = [{"range": p, "kernels": aggregates([r for r in records if r["range"] == p]),
                        "transfers": []} for p in paths]
        t["ranges_dropped"] = 0
    return t


def h200_peaks():
    """sgemm_f32: 2 launches of 1 ms, 6e9 f32 FLOPs, L1 2e9, L2 6e8, HBM 2e8 bytes each.
    hgemm_tc: 2 launches of 0.5 ms, 1e11 Tensor Core f16 FLOPs, L1 4e9, L2 2e9, HBM 1e9.
    stencil_f32: 2 launches of 0.4 ms, 2e8 f32 FLOPs, requested 1e9, L1 1e9, L2 8e8, HBM 1e8."""
    low = scaled(PEAK, 0.9)
    recs = []
    for i in range(2):
        pk = low if i == 0 else PEAK
        recs.append(record(3 * i, "sgemm_f32", 0, 1000, "",
                           counters(f32=6e9, l1=2e9, l2=6e8, dram=2e8, t_us=1000, peak=pk)))
        recs.append(record(3 * i + 1, "hgemm_tc", 0, 500, "",
                           counters(tensor_f16=1e11, l1=4e9, l2=2e9, dram=1e9, t_us=500, peak=pk)))
        recs.append(record(3 * i + 2, "stencil_f32", 0, 400, "",
                           counters(f32=2e8, gload=1e9, l1=1e9, l2=8e8, dram=1e8, t_us=400,
                                    peak=pk)))
    return runtime_text(header(7000, None, "./gemm_bench"), recs,
                        trailer(recs, "NVIDIA H200", ranges=False))


# rank -> (gemm launches, gemm us, all-reduce us per launch)
RANKS = {"0": (4, 250, 150), "1": (4, 300, 50), "2": (4, 200, 250), "3": (2, 250, 150)}
GEMM_CTR = counters(f32=2e9, l1=4e8, l2=2e8, dram=1e8)


def rank_records(rank):
    n, gemm_us, ar_us = RANKS[rank]
    recs = []
    for i in range(n):
        recs.append(record(2 * i, "gemm_bwd", int(rank), gemm_us, "train/step 2/backward",
                           dict(GEMM_CTR, time_ns=gemm_us * US), replay_groups=7))
        recs.append(record(2 * i + 1, NCCL_AR, int(rank), ar_us, "train/step 2/backward"))
    return recs


def rank_faults():
    folder = os.path.join(OUT, "rank-faults")
    os.makedirs(folder, exist_ok=True)
    rng = "step 2(/|$)"
    cmd = "python3 train_ddp.py --steps 4"
    files = {}
    for rank in RANKS:
        recs = rank_records(rank)
        text = runtime_text(header(7100 + int(rank), rank, cmd, rng, "application"), recs,
                            trailer(recs, "NVIDIA H100 80GB HBM3", int(rank),
                                    complete=rank != "3"))
        if rank == "1":  # killed while the trailer was written: cut inside "kernels"
            text = text[:text.find("\"kernels\"") + 40]
        files[rank] = text
    files["4"] = runtime_text(
        header(7104, "4", cmd, rng, "application"), [],
        trailer([], "NVIDIA H100 80GB HBM3", 4,
                notes=["HROOF_RANGE='step 2(/|$)' matched no launch (35 launched outside it; "
                       "NVTX ranges reach the runtime only when NVTX_INJECTION64_PATH names it, "
                       "as hroof run does)"]))
    whole = runtime_text(header(7105, "5", cmd, rng, "application"), rank_records("0"),
                         trailer(rank_records("0"), "NVIDIA H100 80GB HBM3", 5))
    files["5"] = whole[:whole.find("\"settings\"")]  # cut inside the header
    for rank, text in files.items():
        with open(os.path.join(folder, "hroof-710%s-rank%s.json" % (rank, rank)), "w") as f:
            f.write(text)


def main():
    with open(os.path.join(OUT, "h200-peaks.json"), "w") as f:
        f.write(h200_peaks())
    rank_faults()


if __name__ == "__main__":
    main()
