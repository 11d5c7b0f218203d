#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# build.sh - builds, on the machine with clang, the cuda-samples multi-GPU programs
# that programs.sh runs on the machine with the GPU: simpleMultiGPU, simpleP2P and
# simpleIPC (with Common/helper_multiprocess.cpp), each plain (NAME.plain) and
# with the plugin (NAME.inst, -hroof-instrument-exact as the GPU test suites),
# into .gpu-inputs/mgpu (git-ignored; copy it to the machine with the GPU). Needs a cuda-samples checkout:
#   bash test/gpu/multi-gpu/build.sh /path/to/cuda-samples
# Exit: 0, 1 when a compile fails (its log in .gpu-inputs/mgpu/build.log).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SAMPLES=${1:?usage: build.sh CUDA_SAMPLES_DIR}
CUDA=${CUDA_PATH:-/usr/local/cuda}
CLANG=${HROOF_CLANG:-clang++-22}
PLUGIN=${HROOF_PLUGIN:-$ROOT/build/lib/hroof.so}
OUTD=$ROOT/.gpu-inputs/mgpu
mkdir -p "$OUTD"
[ -f "$PLUGIN" ] || { echo "build.sh: $PLUGIN missing (build hroof first)" >&2; exit 1; }
echo "cuda-samples $(git -C "$SAMPLES" log -1 --format=%H 2>/dev/null || echo unknown)" >"$OUTD/build.log"
FLAGS=(-O2 -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$CUDA" -Wno-unknown-cuda-version
       -I"$SAMPLES/Common")
LINK=(-L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread)
build() { # NAME SOURCE [EXTRA_SOURCE]
  local name=$1 src=$2; shift 2
  "$CLANG" "${FLAGS[@]}" "$src" "$@" -o "$OUTD/$name.plain" "${LINK[@]}" >>"$OUTD/build.log" 2>&1
  "$CLANG" "${FLAGS[@]}" -fpass-plugin="$PLUGIN" -mllvm -hroof-instrument-exact "$src" "$@" \
    -o "$OUTD/$name.inst" "${LINK[@]}" >>"$OUTD/build.log" 2>&1
  echo "$name: built"
}
I=$SAMPLES/Samples/0_Introduction
build simpleMultiGPU "$I/simpleMultiGPU/simpleMultiGPU.cu"
build simpleP2P "$I/simpleP2P/simpleP2P.cu"
build simpleIPC "$I/simpleIPC/simpleIPC.cu" -x c++ "$SAMPLES/Common/helper_multiprocess.cpp"
