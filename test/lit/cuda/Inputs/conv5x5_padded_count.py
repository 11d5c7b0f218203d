#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Global load requests of conv5x5_padded (warp-conv2d-4096-closed-form.cu)
over a W x W image, W a multiple of 16, 16 x 16 blocks, counted without hroof:
a warp is two rows of 16 pixels; at tap (dy, dx) each row reads the pixels
of its row moved by (dx, dy) that lie in the image, one contiguous run, in
its own sectors (rows are W floats apart); the warp also reads one 4-byte
filter word when any of its lanes runs the tap. Pointers 256-byte aligned."""
import sys

W = int(sys.argv[1])
sectors = bytes_ = 0
for dy in range(-2, 3):
    for dx in range(-2, 3):
        for x0 in range(0, W, 16):
            lo, hi = max(x0 + dx, 0), min(x0 + 15 + dx, W - 1)
            if hi < lo:
                continue
            for y in range(0, W, 2):
                rows = [yy for yy in (y + dy, y + 1 + dy) if 0 <= yy < W]
                for yy in rows:
                    sectors += (4 * (yy * W + hi)) // 32 - (4 * (yy * W + lo)) // 32 + 1
                    bytes_ += 4 * (hi - lo + 1)
                if rows:  # the filter word
                    sectors += 1
                    bytes_ += 4
print("sectors.global.load %d" % sectors)
print("warp_bytes.global.load %d" % bytes_)
