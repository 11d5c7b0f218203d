#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the range-profiler cost tools HERE (clang++-22, CUDA; no GPU) into
# .gpu-inputs/rc/ (git-ignored; copy it to the machine with the GPU):
#   replay_cost   host time per counted launch by replay mode (replay_cost.cu)
#   session_cost  what opening a user-replay session costs (session_cost.cu)
#   pass_replay   a multi-pass list in user replay, one pass per repetition (pass_replay.cu)
# Both link the runtime's own CUPTI wrappers (runtime/src/cupti/RangeProfiler*.cpp).
# Runs: test/gpu/counters/replay-cost.sh; results in
# docs/validation/deep-learning.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
CUDA=${CUDA_PATH:-/usr/local/cuda}
CXX=${CLANGXX:-clang++-22}
O=$ROOT/.gpu-inputs/rc
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$O"
for f in RangeProfiler RangeProfilerHost; do
  "$CXX" -O2 -std=c++17 -I"$CUDA/include" -I"$ROOT/runtime/src" -c "$ROOT/runtime/src/cupti/$f.cpp" -o "$T/$f.o"
done
for tool in replay_cost session_cost pass_replay; do
  "$CXX" -O2 -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version --cuda-path="$CUDA" \
    -I"$ROOT/runtime/src" -c "$ROOT/test/gpu/counters/$tool.cu" -o "$T/$tool.o"
  "$CXX" "$T/$tool.o" "$T/RangeProfiler.o" "$T/RangeProfilerHost.o" -L"$CUDA/lib64" \
    -L"$CUDA/lib64/stubs" -lcudart_static -lcuda -lcupti -ldl -lrt -lpthread \
    -Wl,-rpath,"$CUDA/lib64" -o "$O/$tool"
done
echo "built $O/replay_cost $O/session_cost $O/pass_replay"
