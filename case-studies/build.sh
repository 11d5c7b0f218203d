#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the case study HERE (clang++-22, CUDA, the hroof build; no GPU) into
# .carry/case/ (git-ignored), everything case-studies/run.sh needs on the GPU
# machine, which has no compiler:
#   .carry/case/bin/<prog>.plain  uninstrumented (static libcudart)
#   .carry/case/bin/<prog>.inst   instrumented (-fpass-plugin=build/lib/hroof.so)
#   .carry/case/static/<prog>.model.json  the plugin's static model
#   .carry/case/static/<prog>.json        static totals at every launch shape
#                                         + the hand-derived FLOPs (static_totals.py)
#   .carry/case/static/<prog>.txt         the same, as printed
#   .carry/case/build/bin/hroof, .carry/case/build/lib/libhroof_rt.so
#                                 (hroof run finds the runtime at ../lib)
#   .carry/case/report-js.tgz     vega/vega-lite node_modules for hroof
#                                 report --html/--svg (from build/report-js)
#   .carry/case/manifest.txt
# The binaries and static models are CMake targets (hroof-carry-case-PROG,
# cmake/CarryPrograms.cmake, built with the build's clang and HROOF_CARRY_ARCH;
# ARCH=sm_XX in the environment changes it); this script adds the rest.
# Usage: bash case-studies/build.sh            (~1 min)
# Then copy `.carry/case` to the machine with the GPU and run case-studies/run.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
BUILD=${HROOF_BUILD:-$ROOT/build}
OUTD=$ROOT/.carry/case
PROGS=${PROGS:-"conv2d lstm lstm_fused"}
. "$ROOT/scripts/gpu/carry-build.sh"

rm -rf "$OUTD"
mkdir -p "$OUTD/bin" "$OUTD/static" "$OUTD/logs" "$OUTD/build/bin" "$OUTD/build/lib"
# Plain and instrumented binaries and the static model (parameter names kept so
# --arg NAME=VALUE works) of each program: cmake/CarryPrograms.cmake, hroof-carry-case-*.
targets=()
for p in $PROGS; do targets+=("hroof-carry-case-$p"); done
carry_build "$OUTD/logs/build.log" "${targets[@]}" || exit 1
CLANG=$(carry_setting HROOF_CLANG)
ARCH=$(carry_setting HROOF_CARRY_ARCH)
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
du -sh "$OUTD" | awk '{print "build.sh: .carry/case is " $1 " (carry limit 64 MiB)"}'
echo "build.sh: done; copy .carry/case to the machine with the GPU, there: bash case-studies/run.sh"
