#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs session_cost (session_cost.cu; bash test/gpu/counters/build.sh) on the
# GPU machine: the cost of opening user-replay sessions by configured range
# count, on a fresh object or the same one, and whether one object evaluates
# two configs. Writes $OUT/session-cost1.txt. With the argument "modes":
# user- against kernel-replay sessions, with SASS-patched metrics (do they
# read right, and what does a launch cost?) and hardware ones; writes
# $OUT/session-modes.txt; then two objects on one context, one per list.
set -uo pipefail
B=.carry/rc/session_cost; O=$OUT/session-cost1.txt
[ "${1:-}" = modes ] && O=$OUT/session-modes.txt
one() { echo "\$ session_cost $*" >>"$O"; timeout 60 "$B" "$@" >>"$O" 2>&1 || echo "exit $?" >>"$O"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O"; date -u >>"$O"
if [ "${1:-}" = modes ]; then
  for R in user kernel; do
    one 32 8 3 0 0 $R sass
    one 32 32 3 0 0 $R sass
    one 32 32 3 0 0 $R hw
  done
  one 32 8 6 1 2 user hw
  one 32 8 6 1 2 user sass
  echo "PRELOAD=1 (the kernel's module loaded before the profiler is enabled):" >>"$O"
  PRELOAD=1 one 32 8 2 0 0 user sass
  PRELOAD=1 one 32 8 2 0 0 kernel sass
  date -u >>"$O"; cat "$O"; exit 0
fi
one 512 8 4 0 0
one 32 8 4 0 0
one 512 8 4 0 1
one 32 8 4 0 1
one 512 8 6 1 0
one 32 8 6 1 0
date -u >>"$O"; cat "$O"
