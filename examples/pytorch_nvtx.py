#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A PyTorch training loop annotated with NVTX ranges for `hroof run` and
`hroof report --by range` (docs/deep-learning.md is the recipe).

Model: conv(3->C) - BatchNorm - ReLU - conv(C->2C, stride 2) - BatchNorm -
ReLU, the feature map's columns as a sequence into a 2-layer LSTM, a linear
classifier on the last step; cross-entropy on random labels.

Ranges (every kernel and copy of the loop is inside one):
  train                              start/end range around the loop
    step N                           start/end range per step (the batch copy
                                     to the GPU and the loss read back are here)
      forward | backward | optimizer start/end ranges per phase
        MODULE                       push/pop by module hooks: forward pre/post
                                     hooks, full backward pre/post hooks
Phases and steps are start/end ranges because they belong to the process:
PyTorch runs the backward pass on its own autograd thread, and a push/pop
range of the main thread would not cover the kernels that thread launches.
The module names are push/pop ranges of the thread that runs the module
(the main thread forward, the autograd thread backward), so a backward kernel
has the path "train/step N/backward/conv1".

  --steps N      steps (default 20)
  --amp          torch.autocast(float16) + GradScaler; default FP32
  --emit-nvtx    also torch.autograd.profiler.emit_nvtx(): one range per
                 operator (long paths: use --by range:DEPTH in the report)
  --no-hooks     no module ranges (steps and phases only)
Prints one line RESULT {json} with the settings, the final loss, the wall time
of the loop and the median step time.
"""
import argparse
import contextlib
import json
import statistics
import time

import torch
import torch.cuda.nvtx as nvtx
import torch.nn as nn


class LSTMBlock(nn.Module):
    """nn.LSTM returning only its output sequence: module hooks see one tensor."""

    def __init__(self, features, hidden):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, num_layers=2, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0]


class Net(nn.Module):
    def __init__(self, channels, hidden, classes):
        super().__init__()
        self.conv1 = nn.Conv2d(3, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu1 = nn.ReLU()  # not in place: backward hooks wrap its output
        self.conv2 = nn.Conv2d(channels, 2 * channels, 3, stride=2, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(2 * channels)
        self.relu2 = nn.ReLU()
        self.lstm = LSTMBlock(2 * channels, hidden)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        y = self.relu2(self.bn2(self.conv2(self.relu1(self.bn1(self.conv1(x))))))
        seq = y.mean(dim=2).transpose(1, 2)  # [batch, width, channels]
        return self.fc(self.lstm(seq)[:, -1])


def annotate(model):
    """Pushes each child module's name around its forward and its backward.
    Hooks must return None (a returned value would replace the tensors)."""
    for name, module in model.named_children():
        def push(*_, name=name):
            nvtx.range_push(name)

        def pop(*_):
            nvtx.range_pop()

        module.register_forward_pre_hook(push)
        module.register_forward_hook(pop)
        module.register_full_backward_pre_hook(push)
        module.register_full_backward_hook(pop)


def grad_scaler(enabled):
    try:
        return torch.amp.GradScaler("cuda", enabled=enabled)
    except (AttributeError, TypeError):  # PyTorch before 2.3
        return torch.cuda.amp.GradScaler(enabled=enabled)


def train_step(i, model, optim, scaler, loss_fn, images, labels, dev, autocast):
    """Step i inside its ranges ("step i", then forward, backward, optimizer);
    returns the loss, whose read-back is the step's end (also used by
    pytorch_ddp.py, where model is the DistributedDataParallel wrapper)."""
    step = nvtx.range_start("step %d" % i)
    # The first module's full backward hooks need an input that
    # requires grad (else they may not fire and the ranges unbalance).
    x = images.to(dev, non_blocking=True).requires_grad_(True)
    y = labels.to(dev, non_blocking=True)
    r = nvtx.range_start("forward")
    with autocast():
        loss_t = loss_fn(model(x), y)
    nvtx.range_end(r)
    r = nvtx.range_start("backward")
    scaler.scale(loss_t).backward()
    nvtx.range_end(r)
    r = nvtx.range_start("optimizer")
    scaler.step(optim)
    scaler.update()
    optim.zero_grad(set_to_none=True)
    nvtx.range_end(r)
    loss = loss_t.item()  # a device-to-host copy, and the step's end
    nvtx.range_end(step)
    return loss


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--amp", action="store_true")
    ap.add_argument("--emit-nvtx", action="store_true")
    ap.add_argument("--no-hooks", action="store_true")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=64, help="image height and width")
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=256)
    a = ap.parse_args()

    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = Net(a.channels, a.hidden, 10).to(dev)
    if not a.no_hooks:
        annotate(model)
    optim = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scaler = grad_scaler(a.amp)
    loss_fn = nn.CrossEntropyLoss()
    # Batches live in pinned host memory and are copied in each step (a
    # host-to-device transfer per step, as with a data loader).
    images = torch.randn(a.batch, 3, a.size, a.size).pin_memory()
    labels = torch.randint(0, 10, (a.batch,)).pin_memory()
    autocast = (lambda: torch.autocast("cuda", dtype=torch.float16)) if a.amp else contextlib.nullcontext
    profiler = torch.autograd.profiler.emit_nvtx() if a.emit_nvtx else contextlib.nullcontext()

    step_times, loss = [], None
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    train = nvtx.range_start("train")
    with profiler:
        for i in range(a.steps):
            ts = time.perf_counter()
            loss = train_step(i, model, optim, scaler, loss_fn, images, labels, dev, autocast)
            step_times.append(time.perf_counter() - ts)
    nvtx.range_end(train)
    torch.cuda.synchronize()
    wall = time.perf_counter() - t0
    print("RESULT " + json.dumps({
        "steps": a.steps, "amp": a.amp, "emit_nvtx": a.emit_nvtx, "hooks": not a.no_hooks,
        "batch": a.batch, "size": a.size, "channels": a.channels, "hidden": a.hidden,
        "loss": loss, "wall_s": round(wall, 4),
        "step_s_median": round(statistics.median(step_times), 5) if step_times else None,
        "torch": torch.__version__, "device": torch.cuda.get_device_name(0)}), flush=True)


if __name__ == "__main__":
    main()
