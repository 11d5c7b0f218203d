#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the GPU validation suite's GPU test inputs HERE (needs clang++-22,
# CUDA, the hroof build; no GPU) into .gpu-inputs/gpu/ (git-ignored): the
# programs and files test/gpu/run.sh needs on the machine with the GPU:
#   .gpu-inputs/gpu/bin/<prog>.plain  uninstrumented binary
#   .gpu-inputs/gpu/bin/<prog>.inst   instrumented binary (-fpass-plugin=hroof.so)
#   .gpu-inputs/gpu/static/<prog>.json  analytic + static-model totals per launch
#   .gpu-inputs/gpu/static/<prog>.model.json  the plugin's static model
#   .gpu-inputs/gpu/lib/  libcudart (binaries use rpath $ORIGIN/../lib), the
#                         runtime libhroof_rt.so and its CUDA libraries if built
#   .gpu-inputs/gpu/hroof, compare.py, gpulib.py, manifest.txt
# The binaries, static models and IR are CMake targets (hroof-gpu-inputs-gpu-PROG,
# cmake/GpuTestInputs.cmake, built with the build's clang and HROOF_GPU_INPUTS_ARCH;
# ARCH=sm_XX in the environment changes it); this script adds the rest.
# Usage: bash test/gpu/build.sh [PROG...]   (default: every kernels/*.cu)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
CUDA=${CUDA_PATH:-/usr/local/cuda}
BUILD=${HROOF_BUILD:-$ROOT/build}
OUTD=$ROOT/.gpu-inputs/gpu
SRC=$ROOT/test/gpu/kernels
. "$ROOT/scripts/gpu/build-gpu-inputs.sh"

mkdir -p "$ROOT/.gpu-inputs"
if [ "${SKIP_NINJA:-0}" != 1 ]; then
  cmake --build "$BUILD" >"$ROOT/.gpu-inputs/ninja.log" 2>&1 || echo "build.sh: warning: building $BUILD failed; using what is there" >&2
fi
[ -f "$BUILD/lib/hroof.so" ] || { echo "build.sh: $BUILD/lib/hroof.so missing" >&2; exit 1; }
[ -x "$BUILD/bin/hroof" ] || { echo "build.sh: $BUILD/bin/hroof missing" >&2; exit 1; }

mkdir -p "$OUTD/bin" "$OUTD/static" "$OUTD/lib" "$OUTD/logs"
if [ $# -gt 0 ]; then PROGS="$*"; else PROGS=$(cd "$SRC" && ls *.cu | sed 's/\.cu$//'); fi

# Plain and instrumented binaries, the static model (as `hroof static FILE.cu` computes
# it) and the -O2 device IR of each program: cmake/GpuTestInputs.cmake, hroof-gpu-inputs-gpu-*.
targets=()
for p in $PROGS; do targets+=("hroof-gpu-inputs-gpu-$p"); done
gpu_inputs_build "$OUTD/logs/build.log" "${targets[@]}" || exit 1
CLANG=$(gpu_inputs_setting HROOF_CLANG)
ARCH=$(gpu_inputs_setting HROOF_GPU_INPUTS_ARCH)

# The local-memory kernel must keep its array as an alloca (local memory).
if [ -f "$OUTD/logs/memory.ll" ]; then
  nalloca=$(awk '/define.*local_array/,/^}/' "$OUTD/logs/memory.ll" | grep -c ' alloca ' || true)
  if [ "${nalloca:-0}" = 0 ]; then
    echo "build.sh: local_array has no alloca in the -O2 IR: the local-memory test is void" >&2
    exit 1
  fi
fi

echo "== analytic vs static model (build-time preview; static may be inexact where"
echo "   control flow depends on data)"
for p in $PROGS; do
  echo "$p:"
  python3 test/gpu/static_totals.py "$OUTD/bin/$p.plain" "$OUTD/static/$p.model.json" \
    "$BUILD/bin/hroof" "$OUTD/static/$p.json"
done

# Tools and libraries for the machine with the GPU.
cp -f "$BUILD/bin/hroof" "$OUTD/bin/hroof"
cp -f test/gpu/compare.py test/gpu/gpulib.py "$OUTD/"
cp -fL "$CUDA/lib64/libcudart.so.13" "$OUTD/lib/" 2>/dev/null || cp -fL "$CUDA"/lib64/libcudart.so.[0-9]* "$OUTD/lib/"
if [ -f "$BUILD/lib/libhroof_rt.so" ]; then
  cp -f "$BUILD/lib/libhroof_rt.so" "$OUTD/lib/"
  # CUDA libraries the runtime links (CUPTI...), resolved here, copied along.
  ldd "$BUILD/lib/libhroof_rt.so" | awk '/=> \// {print $3}' | grep -E "/cuda|cupti" | while read -r L; do
    case "$(basename "$L")" in libcuda.so*) ;; *) cp -fL "$L" "$OUTD/lib/";; esac
  done
else
  rm -f "$OUTD/lib/libhroof_rt.so"
  echo "build.sh: note: $BUILD/lib/libhroof_rt.so not built yet: run.sh will report no dynamic counts" >&2
fi
{
  echo "built: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- passes runtime tools common || echo ' (+local changes)')"
  echo "clang: $("$CLANG" --version | head -1)"
  echo "arch: $ARCH"
  echo "programs: $(echo $PROGS)"
} >"$OUTD/manifest.txt"
du -sh "$OUTD" | awk '{print "build.sh: .gpu-inputs/gpu is " $1}'
echo "build.sh: done; on the machine with the GPU: bash test/gpu/run.sh"
