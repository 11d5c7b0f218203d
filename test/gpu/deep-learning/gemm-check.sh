#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Per-shape sampling on persistent-kernel GEMMs (gemm_sampling.py: bf16, fp16,
# tf32, fp8; square and skinny; every GEMM twice in its own NVTX range) on a
# machine with a GPU; builds nothing (GPU test inputs: build/bin/hroof,
# build/lib/libhroof_rt.so; OLD_RT=path of another libhroof_rt.so to run the
# same recipes with it, e.g. a build from before work keys).
# Runs: plain (x3), kernel replay of step 3 (exact), kernel replay with
# --counters-per-shape 1, pass replay with --counters-per-shape 1, each
# profile checked by gemm_check.py (tensor FLOPs per launch vs 2*M*N*K).
# Writes $OUT/gemm/ and rewrites $OUT/gemm.tgz after each run.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
O=$OUT/gemm
mkdir -p "$O"
HROOF=${HROOF:-build/bin/hroof}
PROG=(python3 test/gpu/deep-learning/gemm_sampling.py --steps ${STEPS:-10})
RANGE='step 3(/|$)'
save() { tar czf "$OUT/gemm.tgz" -C "$OUT" gemm; }
. test/gpu/deep-learning/wall.sh
profile() { # NAME [hroof run options...]
  local name=$1; shift
  mkdir -p "$O/$name"
  timed_run 240 "$O" "$name" "$HROOF" run --output "$O/$name" "$@" -- "${PROG[@]}"
  local f
  f=$(ls "$O/$name"/hroof-*.json 2>/dev/null | head -1)
  if [ -n "$f" ]; then
    python3 test/gpu/deep-learning/gemm_check.py "$f" --markdown >"$O/$name.check.md" 2>&1
    tail -1 "$O/$name.check.md"
  fi
  save
}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; git rev-parse HEAD 2>/dev/null
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  "${PROG[@]}" --list; } >"$O/env.txt" 2>&1
cat "$O/env.txt"
for i in 1 2 3; do timed_run 240 "$O" "plain-$i" "${PROG[@]}"; done
save
profile exact --range "$RANGE" --type-cache none
profile shape --range "$RANGE" --counters-per-shape 1 --type-cache none
profile passes --range "$RANGE" --counters-per-shape 1 --replay passes --type-cache none
if [ -n "${OLD_RT:-}" ]; then
  profile old-shape --range "$RANGE" --counters-per-shape 1 --type-cache none --runtime-lib "$OLD_RT"
  profile old-passes --range "$RANGE" --counters-per-shape 1 --replay passes --type-cache none \
    --runtime-lib "$OLD_RT"
fi
save
