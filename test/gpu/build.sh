#!/usr/bin/env bash
# Builds the GPU validation suite HERE (needs clang++-22, CUDA, the hroof
# build; no GPU) into .carry/gpu/ (git-ignored), everything that
# test/gpu/run.sh needs on the GPU machine:
#   .carry/gpu/bin/<prog>.plain  uninstrumented binary
#   .carry/gpu/bin/<prog>.inst   instrumented binary (-fpass-plugin=hroof.so)
#   .carry/gpu/static/<prog>.json  analytic + static-model totals per launch
#   .carry/gpu/static/<prog>.model.json  the plugin's static model
#   .carry/gpu/lib/  libcudart (binaries use rpath $ORIGIN/../lib), the
#                    runtime libhroof_rt.so and its CUDA libraries if built
#   .carry/gpu/hroof, compare.py, gpulib.py, manifest.txt
# Usage: bash test/gpu/build.sh [PROG...]   (default: every kernels/*.cu)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
CLANG=${CLANG:-clang++-22}
CUDA=${CUDA_PATH:-/usr/local/cuda}
ARCH=${ARCH:-sm_90}
BUILD=${HROOF_BUILD:-$ROOT/build}
PLUGIN=$BUILD/lib/hroof.so
OUTD=$ROOT/.carry/gpu
SRC=$ROOT/test/gpu/kernels

mkdir -p "$ROOT/.carry"
if [ "${SKIP_NINJA:-0}" != 1 ]; then
  ninja -C "$BUILD" >"$ROOT/.carry/ninja.log" 2>&1 || echo "build.sh: warning: ninja -C $BUILD failed; using what is there" >&2
fi
[ -f "$PLUGIN" ] || { echo "build.sh: $PLUGIN missing" >&2; exit 1; }
[ -x "$BUILD/bin/hroof" ] || { echo "build.sh: $BUILD/bin/hroof missing" >&2; exit 1; }

mkdir -p "$OUTD/bin" "$OUTD/static" "$OUTD/lib" "$OUTD/logs"
if [ $# -gt 0 ]; then PROGS="$*"; else PROGS=$(cd "$SRC" && ls *.cu | sed 's/\.cu$//'); fi

COMMON=(-O2 -x cuda --cuda-gpu-arch=$ARCH --cuda-path=$CUDA -Wno-unknown-cuda-version -I"$SRC")
LINK=(-L"$CUDA/lib64" -lcudart -Wl,-rpath,'$ORIGIN/../lib' -Wl,-rpath,"$CUDA/lib64")

build_one() {
  local p=$1 log=$OUTD/logs/build-$1.log
  {
    set -e
    "$CLANG" "${COMMON[@]}" "$SRC/$p.cu" -o "$OUTD/bin/$p.plain" "${LINK[@]}"
    "$CLANG" "${COMMON[@]}" -fpass-plugin="$PLUGIN" "$SRC/$p.cu" -o "$OUTD/bin/$p.inst" "${LINK[@]}"
    # The static model exactly as `hroof static FILE.cu` computes it
    # (device-only, -fno-discard-value-names so parameters keep their names).
    HROOF_STATIC_JSON="$OUTD/static/$p.model.json" "$CLANG" -x cuda --cuda-device-only \
      --cuda-gpu-arch=$ARCH --cuda-path=$CUDA -Wno-unknown-cuda-version -I"$SRC" \
      -fno-discard-value-names -fpass-plugin="$PLUGIN" -S -o /dev/null -O2 "$SRC/$p.cu"
    "$CLANG" "${COMMON[@]}" --cuda-device-only -S -emit-llvm -o "$OUTD/logs/$p.ll" "$SRC/$p.cu"
  } >"$log" 2>&1
}

pids=()
for p in $PROGS; do
  build_one "$p" & pids+=($!)
done
fail=0
i=0
for p in $PROGS; do
  if ! wait "${pids[$i]}"; then
    echo "build.sh: $p FAILED to build:" >&2; tail -20 "$OUTD/logs/build-$p.log" >&2; fail=1
  fi
  i=$((i + 1))
done
[ $fail = 0 ] || exit 1

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

# Tools and libraries for the GPU machine.
cp -f "$BUILD/bin/hroof" "$OUTD/bin/hroof"
cp -f test/gpu/compare.py test/gpu/gpulib.py "$OUTD/"
cp -fL "$CUDA/lib64/libcudart.so.13" "$OUTD/lib/" 2>/dev/null || cp -fL "$CUDA"/lib64/libcudart.so.[0-9]* "$OUTD/lib/"
if [ -f "$BUILD/lib/libhroof_rt.so" ]; then
  cp -f "$BUILD/lib/libhroof_rt.so" "$OUTD/lib/"
  # CUDA libraries the runtime links (CUPTI...), resolved here, carried along.
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
du -sh "$OUTD" | awk '{print "build.sh: .carry/gpu is " $1}'
echo "build.sh: done; on the GPU machine: bash test/gpu/run.sh"
