#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A transformer training loop annotated with NVTX ranges for `hroof run` and
`hroof report --by range` (docs/deep-learning.md is the recipe).

Model: a 4-layer transformer encoder (d_model 1024, 16 heads, MLP 4096,
pre-layer-norm, GELU, dropout 0.1) over random token embeddings, a linear head,
cross-entropy on random labels; AdamW. With --amp the step runs under
torch.autocast(bfloat16). Each step also multiplies two 4096x4096 matrices
(bf16 with --amp, else fp32/tf32 as PyTorch chooses) in a range of its own,
"matmul 4096": a GEMM whose FLOPs are known (2*4096^3).

Ranges (start/end ranges belong to the process; push/pop ranges to a thread):
  step N                        start/end range per step
    forward | backward | optimizer | matmul 4096   start/end ranges
      layerI                    push/pop by module hooks (forward and backward)

  --steps N   steps (default 12)      --amp      bf16 autocast
  --batch B   sequences (default 16)  --seq L    tokens each (default 512)
  --skew F    under torchrun: rank 1 trains on F times the batch (a straggler)
Under torchrun (WORLD_SIZE > 1) the model is wrapped in DistributedDataParallel
(NCCL, one GPU per rank): its gradient all-reduces run in "backward".
Prints one line RESULT {json}: settings, final loss, loop wall time, median
step time, each step's wall time and the loop's start on CLOCK_MONOTONIC (the
clock of hroof's --verbose 2 lines) (per rank under torchrun).
"""
import argparse
import json
import os
import statistics
import time

import torch
import torch.cuda.nvtx as nvtx
import torch.distributed as dist
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, d=1024, heads=16, mlp=4096, layers=4, classes=16):
        super().__init__()
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(d, heads, mlp, dropout=0.1, activation="gelu",
                                       batch_first=True, norm_first=True)
            for _ in range(layers))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, classes)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x).mean(dim=1))


def annotate(model):
    """Pushes "layerI" around each encoder layer's forward and backward."""
    for i, layer in enumerate(model.layers):
        name = "layer%d" % i

        def push(*_, name=name):
            nvtx.range_push(name)

        def pop(*_):
            nvtx.range_pop()

        layer.register_forward_pre_hook(push)
        layer.register_forward_hook(pop)
        layer.register_full_backward_pre_hook(push)
        layer.register_full_backward_hook(pop)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--amp", action="store_true")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seq", type=int, default=512)
    ap.add_argument("--skew", type=float, default=1.0)
    a = ap.parse_args()
    world = int(os.environ.get("WORLD_SIZE", 1))
    rank = int(os.environ.get("RANK", 0))
    dev = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0)) % torch.cuda.device_count())
    torch.cuda.set_device(dev)
    if world > 1:
        dist.init_process_group("nccl", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = Net().to(dev)
    annotate(model)
    trained = model
    if world > 1:
        trained = nn.parallel.DistributedDataParallel(model, device_ids=[dev.index])
    optim = torch.optim.AdamW(trained.parameters(), lr=1e-4)
    loss_fn = nn.CrossEntropyLoss()
    batch = int(a.batch * (a.skew if rank == 1 else 1))
    x = torch.randn(batch, a.seq, 1024, device=dev, requires_grad=True)
    y = torch.randint(0, 16, (batch,), device=dev)
    gemm_t = torch.bfloat16 if a.amp else torch.float32
    ga = torch.randn(4096, 4096, device=dev, dtype=gemm_t)
    gb = torch.randn(4096, 4096, device=dev, dtype=gemm_t)
    amp = lambda: torch.autocast("cuda", dtype=torch.bfloat16, enabled=a.amp)
    times, loss = [], 0.0
    if world > 1:
        dist.barrier()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    t0_monotonic = time.monotonic()
    for i in range(a.steps):
        ts = time.perf_counter()
        step = nvtx.range_start("step %d" % i)
        r = nvtx.range_start("forward")
        with amp():
            loss_t = loss_fn(trained(x), y)
        nvtx.range_end(r)
        r = nvtx.range_start("backward")
        loss_t.backward()
        nvtx.range_end(r)
        r = nvtx.range_start("optimizer")
        optim.step()
        optim.zero_grad(set_to_none=True)
        nvtx.range_end(r)
        r = nvtx.range_start("matmul 4096")
        torch.matmul(ga, gb)
        nvtx.range_end(r)
        loss = loss_t.item()
        nvtx.range_end(step)
        times.append(time.perf_counter() - ts)
    wall = time.perf_counter() - t0
    print("RESULT " + json.dumps({"model": "transformer", "steps": a.steps, "amp": a.amp,
                                  "rank": rank, "world_size": world, "batch": batch,
                                  "seq": a.seq, "loss": loss, "wall_s": wall,
                                  "median_step_s": statistics.median(times),
                                  "step_s": [round(t, 4) for t in times],
                                  "start_monotonic_s": round(t0_monotonic, 3)}), flush=True)
    if world > 1:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
