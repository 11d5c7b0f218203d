#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""GEMMs of several sizes and types in one NVTX step: the case where per-shape
counter sampling can misattribute. cuBLAS/cuBLASLt's persistent kernels take
their grid from the SM count, so GEMMs of different sizes share one launch
shape; only their by-value parameters differ.

Each step is an NVTX range "step N"; inside it every GEMM runs in its own range
"gemm DTYPE MxNxK" (torch.matmul for bf16, fp16 and tf32, torch._scaled_mm for
fp8 where the GPU has it), twice, so a second launch of the same work follows
the first. gemm_check.py compares the profile's tensor FLOPs per launch with
2*M*N*K.

  python3 gemm_sampling.py --steps 6 [--list]
"""
import argparse

import torch

SIZES = [(4096, 4096, 4096), (2048, 2048, 2048), (1024, 1024, 1024), (8192, 256, 4096),
         (256, 8192, 4096)]


def gemms(dtypes):
    out = []
    for dt in dtypes:
        for m, n, k in SIZES:
            out.append((dt, m, n, k))
    return out


def make(dt, m, n, k, dev):
    if dt == "fp8":
        a = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, k, device=dev).to(torch.float8_e4m3fn).t()  # column-major
        one = torch.ones((), device=dev)
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    t = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32}[dt]
    a = torch.randn(m, k, device=dev, dtype=t)
    b = torch.randn(k, n, device=dev, dtype=t)
    return lambda: torch.matmul(a, b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--list", action="store_true", help="print the GEMMs (dtype m n k) and exit")
    a = ap.parse_args()
    dtypes = ["bf16", "fp16", "tf32"]
    dev = "cuda"
    if torch.cuda.get_device_capability(0) >= (8, 9):
        dtypes.append("fp8")
    work = gemms(dtypes)
    if a.list:
        for dt, m, n, k in work:
            print(dt, m, n, k)
        return
    torch.backends.cuda.matmul.allow_tf32 = True
    fns = [(dt, m, n, k, make(dt, m, n, k, dev)) for dt, m, n, k in work]
    for s in range(a.steps):
        torch.cuda.nvtx.range_push(f"step {s}")
        for dt, m, n, k, f in fns:
            torch.cuda.nvtx.range_push(f"gemm {dt} {m}x{n}x{k}")
            f()
            f()
            torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
