#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""PyTorch training steps of the seed papers' two workloads, for hroof run
(hardware counters only: PyTorch's kernels are cuDNN/cuBLAS/ATen, not built
with the plugin).

  --model conv: a ResNet basic block on x = 32x64x56x56 (NCHW):
       conv3x3(64->64) - BatchNorm - ReLU - conv3x3(64->64) - BatchNorm
       + identity - ReLU; loss = MSE against a fixed random target.
  --model lstm: nn.LSTM(input 1024, hidden 1024, 1 layer), seq 32, batch 64;
       loss = MSE of the output sequence against a fixed random target.
  --precision fp32     PyTorch defaults: cuDNN convolutions MAY use TF32
                       (torch.backends.cudnn.allow_tf32 defaults to True),
                       matmuls do not (cuda.matmul.allow_tf32 = False)
              fp32strict  TF32 off everywhere (true FP32 on CUDA cores)
              fp16     torch.autocast(float16) + GradScaler (AMP)
              bf16     torch.autocast(bfloat16) (AMP, no scaler). NB: autocast
                       casts a cuDNN RNN to float16 whatever its dtype
                       (ATen's AutocastRNN), so the bf16 LSTM runs fp16 kernels
              bf16w    model (parameters and buffers) and input converted to
                       torch.bfloat16 (no autocast, no scaler): the LSTM and
                       the conv block really run in bf16; the loss is computed
                       in float32 (output.float() vs a float32 target), as in
                       every mode

Before the steps, one untimed probe forward+backward (it also warms up);
an LSTM whose cuDNN path fails at this precision falls back to ATen's LSTM
(cudnn disabled, said in the TRAIN line). The TRAIN line also gives the
dtypes of the parameters, the input and the model's output, and the autograd
node of that output (for the LSTM, CudnnRnnBackward0 = cuDNN's RNN, anything
else = ATen's). Each step = zero_grad, forward, loss, backward, SGD step,
inside NVTX ranges
"<model>/<precision>/step<i>/{forward,backward,optimizer}" (harmless without
a profiler; the kernel names are in the hroof profile). --steps N (default 3:
the first one warms up cuDNN/cuBLAS; all are profiled; hroof run's
--launch-limit bounds the replays per kernel). Prints one line
TRAIN {json} with the settings, the loss and the wall time of the steps.
"""
import argparse
import contextlib
import json
import time

import torch
import torch.nn as nn


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + x)


def flag(get):
    """A TF32 setting for the TRAIN line; never fails the run."""
    try:
        return get()
    except Exception as e:  # noqa: BLE001
        return "unreadable: %s" % str(e)[:80]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", choices=["conv", "lstm"], required=True)
    ap.add_argument("--precision", choices=["fp32", "fp32strict", "fp16", "bf16", "bf16w"],
                    default="fp32")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--batch", type=int, default=None)
    a = ap.parse_args()

    torch.manual_seed(0)
    dev = "cuda"
    if a.precision == "fp32strict":
        try:  # the long-standing flags
            torch.backends.cudnn.allow_tf32 = False
            torch.backends.cuda.matmul.allow_tf32 = False
        except Exception:  # noqa: BLE001  newer releases: fp32_precision
            torch.backends.cudnn.conv.fp32_precision = "ieee"
            torch.backends.cudnn.rnn.fp32_precision = "ieee"
            torch.backends.cuda.matmul.fp32_precision = "ieee"
    torch.backends.cudnn.benchmark = False  # heuristics: no autotuning launches

    if a.model == "conv":
        n = a.batch or 32
        net = BasicBlock(64).to(dev)
        x = torch.randn(n, 64, 56, 56, device=dev)
        target = torch.randn(n, 64, 56, 56, device=dev)
        shape = "x=%dx64x56x56, 2x conv3x3 64->64 + BN + ReLU + residual" % n
    else:
        n = a.batch or 64
        net = nn.LSTM(1024, 1024, num_layers=1).to(dev)
        x = torch.randn(32, n, 1024, device=dev)  # (seq, batch, input)
        target = torch.randn(32, n, 1024, device=dev)
        shape = "nn.LSTM(1024, 1024), seq 32, batch %d" % n

    if a.precision == "bf16w":  # bf16 weights, buffers and input; no autocast
        net = net.to(torch.bfloat16)
        x = x.to(torch.bfloat16)  # target stays float32: loss in float32

    opt = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9)
    amp_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(a.precision)
    scaler = torch.amp.GradScaler("cuda") if a.precision == "fp16" else None
    nvtx = torch.cuda.nvtx

    seen = {}

    def forward():
        out = net(x)
        if a.model == "lstm":
            out = out[0]
        seen["out_dtype"] = str(out.dtype)
        seen["out_grad_fn"] = type(out.grad_fn).__name__ if out.grad_fn is not None else None
        return nn.functional.mse_loss(out.float(), target)

    fallback = None
    try:  # bf16/fp16 cuDNN RNN support depends on the cuDNN version
        with (torch.autocast("cuda", dtype=amp_dtype) if amp_dtype is not None
              else contextlib.nullcontext()):
            loss = forward()
        loss.backward()
        opt.zero_grad(set_to_none=True)
    except RuntimeError as e:
        if a.model != "lstm":
            raise
        fallback = "cudnn disabled (%s)" % str(e).splitlines()[0][:160]
        torch.backends.cudnn.enabled = False
        print("train_step: cuDNN LSTM failed, using ATen's LSTM: " + fallback, flush=True)
        opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    t0 = time.time()
    for s in range(a.steps):
        tag = "%s/%s/step%d" % (a.model, a.precision, s)
        nvtx.range_push(tag + "/forward")
        opt.zero_grad(set_to_none=True)
        if amp_dtype is not None:
            with torch.autocast("cuda", dtype=amp_dtype):
                loss = forward()
        else:
            loss = forward()
        nvtx.range_pop()
        nvtx.range_push(tag + "/backward")
        if scaler is not None:
            scaler.scale(loss).backward()
        else:
            loss.backward()
        nvtx.range_pop()
        nvtx.range_push(tag + "/optimizer")
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        nvtx.range_pop()
    torch.cuda.synchronize()
    wall = time.time() - t0
    print("TRAIN " + json.dumps({
        "model": a.model, "precision": a.precision, "steps": a.steps,
        "shape": shape, "loss": float(loss.item()), "wall_s": round(wall, 3),
        "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
        "cudnn_allow_tf32": flag(lambda: torch.backends.cudnn.allow_tf32),
        "matmul_allow_tf32": flag(lambda: torch.backends.cuda.matmul.allow_tf32),
        "cudnn_enabled": torch.backends.cudnn.enabled, "fallback": fallback,
        "param_dtype": sorted({str(p.dtype) for p in net.parameters()}),
        "input_dtype": str(x.dtype), "out_dtype": seen.get("out_dtype"),
        "out_grad_fn": seen.get("out_grad_fn"),
        "device": torch.cuda.get_device_name(0)}), flush=True)


if __name__ == "__main__":
    main()
