#!/usr/bin/env bash
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
# Usage: bash case-studies/build.sh            (~1 min)
# Then carry `.carry/case` to the GPU machine and run case-studies/run.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_PATH:-/usr/local/cuda}
ARCH=${ARCH:-sm_90}
BUILD=${HROOF_BUILD:-$ROOT/build}
PLUGIN=$BUILD/lib/hroof.so
OUTD=$ROOT/.carry/case
SRC=$ROOT/case-studies/kernels
PROGS=${PROGS:-"conv2d lstm lstm_fused"}

[ -f "$PLUGIN" ] || { echo "build.sh: $PLUGIN missing (build hroof first)" >&2; exit 1; }
[ -x "$BUILD/bin/hroof" ] || { echo "build.sh: $BUILD/bin/hroof missing" >&2; exit 1; }
[ -f "$BUILD/lib/libhroof_rt.so" ] || { echo "build.sh: $BUILD/lib/libhroof_rt.so missing" >&2; exit 1; }
rm -rf "$OUTD"
mkdir -p "$OUTD/bin" "$OUTD/static" "$OUTD/logs" "$OUTD/build/bin" "$OUTD/build/lib"

COMMON=(-O2 -x cuda --cuda-gpu-arch=$ARCH --cuda-path=$CUDA -Wno-unknown-cuda-version -I"$SRC")
LINK=(-L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread)

build_one() {
  local p=$1
  {
    set -e
    "$CLANG" "${COMMON[@]}" "$SRC/$p.cu" -o "$OUTD/bin/$p.plain" "${LINK[@]}"
    "$CLANG" "${COMMON[@]}" -fpass-plugin="$PLUGIN" "$SRC/$p.cu" -o "$OUTD/bin/$p.inst" "${LINK[@]}"
    # The static model as `hroof static FILE.cu` computes it (device-only,
    # parameter names kept so --arg NAME=VALUE works).
    HROOF_STATIC_JSON="$OUTD/static/$p.model.json" "$CLANG" -x cuda --cuda-device-only \
      --cuda-gpu-arch=$ARCH --cuda-path=$CUDA -Wno-unknown-cuda-version -I"$SRC" \
      -fno-discard-value-names -fpass-plugin="$PLUGIN" -S -o /dev/null -O2 "$SRC/$p.cu"
  } >"$OUTD/logs/build-$p.log" 2>&1
}

pids=()
for p in $PROGS; do build_one "$p" & pids+=($!); done
fail=0; i=0
for p in $PROGS; do
  if ! wait "${pids[$i]}"; then
    echo "build.sh: $p FAILED:" >&2; tail -20 "$OUTD/logs/build-$p.log" >&2; fail=1
  fi
  i=$((i + 1))
done
[ $fail = 0 ] || exit 1

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
  echo "build.sh: note: $BUILD/report-js missing: no --html/--svg on the GPU machine" >&2
fi
{
  echo "built: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- passes runtime tools common case-studies || echo ' (+local changes)')"
  echo "clang: $("$CLANG" --version | head -1)"
  echo "arch: $ARCH"
  echo "programs: $PROGS"
} >"$OUTD/manifest.txt"
du -sh "$OUTD" | awk '{print "build.sh: .carry/case is " $1 " (carry limit 64 MiB)"}'
echo "build.sh: done; on the GPU machine (carry .carry/case): bash case-studies/run.sh"
