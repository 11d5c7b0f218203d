#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the case study's GPU test inputs HERE (clang++-22, CUDA, the hroof build;
# no GPU) into .gpu-inputs/case/ (git-ignored): the programs and files
# case-studies/run.sh needs on the machine with the GPU, which has no compiler:
#   .gpu-inputs/case/bin/<prog>.plain  uninstrumented (static libcudart)
#   .gpu-inputs/case/bin/<prog>.inst   instrumented (-fpass-plugin=build/lib/hroof.so)
#   .gpu-inputs/case/static/<prog>.model.json  the plugin's static model
#   .gpu-inputs/case/static/<prog>.json        static totals at every launch shape
#                                              + the hand-derived FLOPs (static_totals.py)
#   .gpu-inputs/case/static/<prog>.txt         the same, as printed
#   .gpu-inputs/case/build/bin/hroof, .gpu-inputs/case/build/lib/libhroof_rt.so
#                                      (hroof run finds the runtime at ../lib)
#   .gpu-inputs/case/report-js.tgz     vega/vega-lite node_modules for hroof
#                                      report --html/--svg (from build/report-js)
#   .gpu-inputs/case/manifest.txt
# The binaries and static models are CMake targets (hroof-gpu-inputs-case-PROG,
# cmake/GpuTestInputs.cmake, built with the build's clang and HROOF_GPU_INPUTS_ARCH;
# ARCH=sm_XX in the environment changes it); this script adds the rest.
# Usage: bash case-studies/build.sh            (~1 min)
# Then copy `.gpu-inputs/case` to the machine with the GPU and run case-studies/run.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${HROOF_BUILD:-$ROOT/build}
OUTD=$ROOT/.gpu-inputs/case
PROGS=${PROGS:-"conv2d lstm lstm_fused"}
. "$ROOT/scripts/gpu/build-gpu-inputs.sh"

rm -rf "$OUTD"
mkdir -p "$OUTD/bin" "$OUTD/static" "$OUTD/logs" "$OUTD/build/bin" "$OUTD/build/lib"
# Plain and instrumented binaries and the static model (parameter names kept so
# --arg NAME=VALUE works) of each program: cmake/GpuTestInputs.cmake, hroof-gpu-inputs-case-*.
targets=()
for p in $PROGS; do targets+=("hroof-gpu-inputs-case-$p"); done
gpu_inputs_build "$OUTD/logs/build.log" "${targets[@]}" || exit 1
CLANG=$(gpu_inputs_setting HROOF_CLANG)
ARCH=$(gpu_inputs_setting HROOF_GPU_INPUTS_ARCH)
[ -x "$BUILD/bin/hroof" ] || { echo "build.sh: $BUILD/bin/hroof missing" >&2; exit 1; }
[ -f "$BUILD/lib/libhroof_rt.so" ] || { echo "build.sh: $BUILD/lib/libhroof_rt.so missing" >&2; exit 1; }

echo "== static model vs hand-derived FLOPs, per kernel and size (no GPU)"
for p in $PROGS; do
  echo "$p:"
  python3 case-studies/static_totals.py "$OUTD/bin/$p.plain" "$OUTD/static/$p.model.json" \
    "$BUILD/bin/hroof" "$OUTD/static/$p.json" | tee "$OUTD/static/$p.txt"
done

cp -f "$BUILD/bin/hroof" "$OUTD/build/bin/"
cp -f "$BUILD/lib/libhroof_rt.so" "$OUTD/build/lib/"
if [ -d "$BUILD/report-js/node_modules" ]; then
  tar czf "$OUTD/report-js.tgz" -C "$BUILD/report-js" node_modules
else
  echo "build.sh: note: $BUILD/report-js missing: no --html/--svg on the machine with the GPU" >&2
fi
{
  echo "built: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- passes runtime tools common case-studies || echo ' (+local changes)')"
  echo "clang: $("$CLANG" --version | head -1)"
  echo "arch: $ARCH"
  echo "programs: $PROGS"
} >"$OUTD/manifest.txt"
du -sh "$OUTD" | awk '{print "build.sh: .gpu-inputs/case is " $1 " (copied whole to the machine with the GPU)"}'
echo "build.sh: done; copy .gpu-inputs/case to the machine with the GPU, there: bash case-studies/run.sh"
