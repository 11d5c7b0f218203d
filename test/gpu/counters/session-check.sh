#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Application replay's batched sessions on the machine with the GPU (builds nothing;
# inputs build/bin and build/lib/libhroof_rt.so): the app-replay check
# (kernel vs application replay counters on hroof-rt-fake), then the
# PyTorch example's wall time, FP32 and AMP, plain against --range one step
# with application and kernel replay (dl-exit; CONFIGS_FP32 / CONFIGS_AMP).
# Each part's outputs become one tarball under $OUT (at most 8 files return).
set -uo pipefail
W=${TMPDIR:-/tmp}/session-check
rm -rf "$W"; mkdir -p "$W"
part() { # NAME ENV... -- CHECK...
  local name=$1; shift
  env OUT="$W/$name" "$@" >"$W/$name.log" 2>&1
  tar czf "$OUT/$name.tgz" -C "$W" "$name" "$name.log" 2>/dev/null
  tail -25 "$W/$name.log"
}
[ "${SKIP_APP:-0}" = 1 ] || part app bash scripts/gpu/run-check.sh app-replay
part fp32 CONFIGS="${CONFIGS_FP32:-plain app shape}" bash scripts/gpu/run-check.sh dl-exit
part amp AMP=1 CONFIGS="${CONFIGS_AMP:-plain app shape}" bash scripts/gpu/run-check.sh dl-exit
