#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The conv + BatchNorm + ReLU + LSTM model of pytorch_nvtx.py trained with
DistributedDataParallel, one process per GPU, for `hroof run` and
`hroof report --by rank` (docs/multi-gpu.md is the recipe).

Start it with torchrun, under hroof run (every worker is profiled, one
profile per rank):
  hroof run -- python3 -m torch.distributed.run --nproc-per-node 2 examples/pytorch_ddp.py
Each worker takes the GPU LOCAL_RANK % (GPUs on the node), so two workers on
a one-GPU machine share it: use --backend gloo there (NCCL refuses two ranks
on one GPU).

Ranges as in pytorch_nvtx.py ("train/step N/forward|backward|optimizer/
MODULE"); DDP's all-reduce kernels run inside "backward", overlapped with it.

  --steps N        steps (default 20)
  --backend NAME   nccl (default) or gloo
  --amp            torch.autocast(float16) + GradScaler
  --skew F         rank 1 does F times the work of the others in each step
                   (a larger batch), to show an imbalance; default 1
Prints one line RESULT {json} per rank.
"""
import argparse
import contextlib
import json
import os
import statistics
import time

import torch
import torch.cuda.nvtx as nvtx
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel

from pytorch_nvtx import Net, annotate, grad_scaler, train_step


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--backend", default="nccl", choices=["nccl", "gloo"])
    ap.add_argument("--amp", action="store_true")
    ap.add_argument("--skew", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=256)
    a = ap.parse_args()

    rank, world = int(os.environ.get("RANK", 0)), int(os.environ.get("WORLD_SIZE", 1))
    local = int(os.environ.get("LOCAL_RANK", 0))
    dev = torch.device("cuda", local % torch.cuda.device_count())
    torch.cuda.set_device(dev)
    dist.init_process_group(a.backend, rank=rank, world_size=world)
    torch.manual_seed(0)
    model = Net(a.channels, a.hidden, 10).to(dev)
    annotate(model)
    ddp = DistributedDataParallel(model, device_ids=[dev.index])
    optim = torch.optim.SGD(ddp.parameters(), lr=0.01, momentum=0.9)
    scaler = grad_scaler(a.amp)
    loss_fn = nn.CrossEntropyLoss()
    batch = int(a.batch * (a.skew if rank == 1 else 1))
    images = torch.randn(batch, 3, a.size, a.size).pin_memory()
    labels = torch.randint(0, 10, (batch,)).pin_memory()
    autocast = (lambda: torch.autocast("cuda", dtype=torch.float16)) if a.amp else contextlib.nullcontext

    step_times, loss = [], None
    dist.barrier()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    train = nvtx.range_start("train")
    for i in range(a.steps):
        ts = time.perf_counter()
        # DDP's all-reduce buckets run inside the step's "backward" range.
        loss = train_step(i, ddp, optim, scaler, loss_fn, images, labels, dev, autocast)
        step_times.append(time.perf_counter() - ts)
    nvtx.range_end(train)
    torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    print("RESULT " + json.dumps({
        "rank": rank, "world_size": world, "device": str(dev), "backend": a.backend,
        "steps": a.steps, "amp": a.amp, "batch": batch, "loss": loss, "wall_s": round(wall, 4),
        "step_s_median": round(statistics.median(step_times), 5) if step_times else None,
        "torch": torch.__version__, "gpu": torch.cuda.get_device_name(dev)}), flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
