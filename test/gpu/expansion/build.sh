#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the expansion probe (plain) into .gpu-inputs/expansion and its static
# counts at the probe's launch (hroof static), for run.sh on the machine with the GPU.
set -euo pipefail
cd "$(dirname "$0")/../../.."
D=.gpu-inputs/expansion
mkdir -p $D
SRC=test/gpu/expansion/expansion.cu
clang++-22 -O2 -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version "$SRC" \
  -o $D/expansion -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread
build/bin/hroof static "$SRC" --grid 3907 --block 256 --arg n=1000003 --json > $D/static.json
cp test/gpu/expansion/derive.py $D/
echo "build.sh: $D ready"
