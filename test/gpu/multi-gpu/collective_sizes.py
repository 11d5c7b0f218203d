#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Collectives of known sizes for the collectives table of `hroof report --by rank`.

One process per GPU under torchrun (NCCL). Per step (an NVTX range "step N"):
  all_reduce               of 2^24 float32            (NCCL message size 67108864 B)
  all_gather_into_tensor   of 2^20 float32 per rank   (payload 4194304 B, the per-rank part)
  reduce_scatter_tensor    to 2^20 float32 per rank   (payload 4194304 B, the per-rank part)
  broadcast                of 2^22 float32 from rank 0 (payload 16777216 B)
In step --late-step, the last rank sleeps --late-ms before its all_reduce: the
other ranks' skew in that call is about that long.

  hroof run --counters none -- python3 -m torch.distributed.run --standalone \
      --nproc-per-node 2 test/gpu/multi-gpu/collective_sizes.py
Prints one line RESULT {json} per rank (the sizes it used).
"""
import argparse
import json
import os
import time

import torch
import torch.cuda.nvtx as nvtx
import torch.distributed as dist


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--late-step", type=int, default=3)
    ap.add_argument("--late-ms", type=float, default=20.0)
    ap.add_argument("--start-end", action="store_true",
                    help="steps as start/end ranges (nvtx.range_start) instead of push/pop")
    a = ap.parse_args()
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)) % torch.cuda.device_count())
    ar = torch.ones(1 << 24, device="cuda")
    part = torch.ones(1 << 20, device="cuda")
    gathered = torch.empty(world << 20, device="cuda")
    bc = torch.ones(1 << 22, device="cuda")
    for step in range(1, a.steps + 1):
        rid = nvtx.range_start(f"step {step}") if a.start_end else nvtx.range_push(f"step {step}")
        if step == a.late_step and rank == world - 1:
            torch.cuda.synchronize()
            time.sleep(a.late_ms / 1e3)
        dist.all_reduce(ar)
        dist.all_gather_into_tensor(gathered, part)
        dist.reduce_scatter_tensor(part, gathered)
        dist.broadcast(bc, 0)
        torch.cuda.synchronize()
        nvtx.range_end(rid) if a.start_end else nvtx.range_pop()
    print("RESULT " + json.dumps({"rank": rank, "world": world, "all_reduce_bytes": ar.numel() * 4,
                                  "all_gather_part_bytes": part.numel() * 4,
                                  "broadcast_bytes": bc.numel() * 4,
                                  "nccl": ".".join(map(str, torch.cuda.nccl.version()))}),
          flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
