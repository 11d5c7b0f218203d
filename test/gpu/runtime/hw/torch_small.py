# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# torch_small.py - cuDNN/cuBLAS kernels for the hardware-counter check:
# conv2d (f32), matmul f16 1024^3 (2*2^30 FLOPs on tensor cores), matmul f32
# with TF32 off (CUDA cores) and with TF32 on.
import torch
torch.manual_seed(0)
dev = "cuda"
x = torch.randn(8, 16, 64, 64, device=dev)
w = torch.randn(32, 16, 3, 3, device=dev)
y = torch.nn.functional.conv2d(x, w, padding=1)
a = torch.randn(1024, 1024, device=dev, dtype=torch.float16)
b = torch.randn(1024, 1024, device=dev, dtype=torch.float16)
c = a @ b
torch.backends.cuda.matmul.allow_tf32 = False
af = torch.randn(512, 512, device=dev)
cf = af @ af
torch.backends.cuda.matmul.allow_tf32 = True
ct = af @ af
torch.cuda.synchronize()
print("torch_small: ok", float(y.sum()), float(c.float().sum()), float(cf.sum()))
