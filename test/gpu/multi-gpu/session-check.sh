#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# session-check.sh - application replay's batched sessions on several GPUs (GPU
# machine; builds nothing; inputs build/bin/hroof, build/lib/libhroof_rt.so and
# .gpu-inputs/mgpu from build.sh here). A DDP job under NCCL switches to application
# replay (docs/multi-gpu.md), so each step below runs batched sessions:
#   diag      the DDP example, --range one step, --counters-per-shape 1, under
#             hang-diag.sh (stacks if it still runs after AFTER s, default 150)
#   ddp       run.sh: plain torchrun against hroof run with that recipe; if
#             diag did not finish, diag-onepass instead: diag with one-pass
#             metrics only (batched sessions, no kernel-replay range)
#   programs  programs.sh: cuda-samples simpleMultiGPU, simpleP2P, simpleIPC
# AMP=1: ddp-amp, the same with the example's --amp; SKIP_PROGRAMS=1: no programs.
# Each part's outputs become $OUT/NAME.tgz (at most 8 files return). Exit: 1
# when a part fails or the diag run does not finish, else 0.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
W=${TMPDIR:-/tmp}/mg-session-check
rm -rf "$W"; mkdir -p "$W"
RECIPE=${RECIPE:---range train/step.2/ --counters-per-shape 1}
failed=0
part() { # NAME ENV... -- runs SCRIPT with OUT=$W/NAME
  local name=$1; shift
  env OUT="$W/$name" "$@" >"$W/$name.log" 2>&1
  local rc=$?
  echo "== $name: rc $rc"
  [ $rc -eq 0 ] || failed=1
  tar czf "$OUT/$name.tgz" -C "$W" "$name" "$name.log" 2>/dev/null
  tail -15 "$W/$name.log"
}
part diag STEPS=10 AFTER=${AFTER:-150} VERBOSE=1 PROFILE_ARGS="$RECIPE" \
  bash test/gpu/multi-gpu/hang-diag.sh
cat "$W/diag/diag.txt" 2>/dev/null | head -5
grep -q "^finished" "$W/diag/diag.txt" 2>/dev/null || failed=1 # a hang is a failure
if grep -q "^finished" "$W/diag/diag.txt" 2>/dev/null; then
  part ddp STEPS=10 BUDGET_S=${DDP_BUDGET_S:-180} PROFILE_ARGS="$RECIPE" bash test/gpu/multi-gpu/run.sh
  [ "${AMP:-0}" = 1 ] && part ddp-amp STEPS=10 BUDGET_S=${DDP_BUDGET_S:-180} \
    PROFILE_ARGS="$RECIPE" APP_ARGS=--amp bash test/gpu/multi-gpu/run.sh
else # one-pass metrics only: batched sessions without any kernel-replay range
  part diag-onepass STEPS=10 AFTER=${AFTER_ONEPASS:-60} VERBOSE=1 PROFILE_ARGS="$RECIPE" \
    HROOF_COUNTERS=gpu__time_duration.sum,lts__t_bytes.sum,dram__bytes_read.sum \
    bash test/gpu/multi-gpu/hang-diag.sh
  head -3 "$W/diag-onepass/diag.txt" 2>/dev/null
fi
[ "${SKIP_PROGRAMS:-0}" = 1 ] || part programs BUDGET_S=${PROGRAMS_BUDGET_S:-120} bash test/gpu/multi-gpu/programs.sh
exit $failed
