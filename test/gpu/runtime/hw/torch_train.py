# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# torch_train.py - a small conv2d + LSTM model, STEPS (default 3) training
# steps: the PyTorch row of docs/validation/deep-learning.md. BALLAST_MB=N
# (default 0) first allocates and fills N MiB of device memory that the model
# never touches: the replay-cost decomposition (cost_decomposition.sh) uses it
# to see whether a replayed range's cost grows with the process's allocations.
import os, sys, time
import torch
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
torch.manual_seed(0)
dev = "cuda"
ballast_mb = int(os.environ.get("BALLAST_MB", "0"))
ballast = torch.ones(ballast_mb << 18, device=dev) if ballast_mb else None

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.lstm = torch.nn.LSTM(16 * 8, 64, batch_first=True)
        self.fc = torch.nn.Linear(64, 10)
    def forward(self, x):
        h = torch.relu(self.conv(x))            # B,16,8,32
        h = h.permute(0, 3, 1, 2).flatten(2)    # B,32,128
        o, _ = self.lstm(h)
        return self.fc(o[:, -1])

net = Net().to(dev)
opt = torch.optim.SGD(net.parameters(), lr=0.01)
x = torch.randn(16, 3, 8, 32, device=dev)
t = torch.randint(0, 10, (16,), device=dev)
t0 = time.time()
for s in range(steps):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), t)
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print("torch_train: %d steps, loss %.4f, %.3f s" % (steps, loss.item(), time.time() - t0))
