#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds public CUDA programs HERE (clang 22, no GPU) for the warp-level
# validation on the GPU (test/gpu/warp/corpus-run.sh): for each NAME in LIST
# (default test/gpu/warp/hecbench-programs.txt), SRC/NAME-cuda/*.cu becomes
#   .carry/warpcorpus/bin/NAME.inst   with the plugin (instrumented; its
#                                     runtime evaluates the static model per launch)
#   .carry/warpcorpus/bin/NAME.plain  without (what Nsight Compute profiles)
# Fetches nothing: SRC is a HeCBench `src/` directory you checked out.
# INST_ONLY=1 keeps a NAME.plain already built (after a plugin change).
# Usage: bash test/gpu/warp/corpus-build.sh SRC [LIST]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
SRC=${1:?usage: corpus-build.sh SRC [LIST]}
LIST=${2:-$ROOT/test/gpu/warp/hecbench-programs.txt}
CUDA=${CUDA_PATH:-/usr/local/cuda}
CLANG=${HROOF_CLANG:-clang++-22}
PLUGIN=${HROOF_PLUGIN:-$ROOT/build/lib/hroof.so}
OUTD=$ROOT/.carry/warpcorpus
mkdir -p "$OUTD/bin" "$OUTD/logs"
cp -f "$LIST" "$OUTD/programs.txt"
FLAGS=(-O2 -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version --cuda-path="$CUDA"
       -I"$CUDA/include/cccl" -w)
LINK=(-L"$CUDA/lib64" -lcudart_static -ldl -lrt -lpthread)
ok=0; failed=0
while read -r name args; do
  [[ -z $name || $name == \#* ]] && continue
  dir=$SRC/$name-cuda
  srcs=("$dir"/*.cu)
  log=$OUTD/logs/$name.log
  if timeout 600 "$CLANG" "${FLAGS[@]}" -I"$dir" -fpass-plugin="$PLUGIN" "${srcs[@]}" \
       -o "$OUTD/bin/$name.inst" "${LINK[@]}" >"$log" 2>&1 &&
     { [[ ${INST_ONLY:-0} = 1 && -x $OUTD/bin/$name.plain ]] ||
       timeout 600 "$CLANG" "${FLAGS[@]}" -I"$dir" "${srcs[@]}" -o "$OUTD/bin/$name.plain" \
         "${LINK[@]}" >>"$log" 2>&1; }; then
    ok=$((ok + 1)); echo "built $name"
  else
    failed=$((failed + 1)); echo "FAILED $name (see $log)"; rm -f "$OUTD/bin/$name".{inst,plain}
  fi
done <"$LIST"
echo "corpus-build: $ok built, $failed failed; commit of $SRC: $(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo unknown)"
