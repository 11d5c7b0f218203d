# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# stream_ids.py - kernels on the default stream and on two side streams, for
# the stream-id check of replayed launches (test/gpu/runtime/hw/learned-types.sh):
# add on the default stream, mul on side stream 1, sin on side stream 2,
# three rounds.
import torch
dev = "cuda"
x = torch.randn(1 << 20, device=dev)
s1, s2 = torch.cuda.Stream(), torch.cuda.Stream()
torch.cuda.synchronize()
for r in range(3):
    a = x + 1.0
    with torch.cuda.stream(s1):
        b = x * 3.0
    with torch.cuda.stream(s2):
        c = torch.sin(x)
    torch.cuda.synchronize()
print("stream_ids: ok", float(a.sum() + b.sum() + c.sum()))
