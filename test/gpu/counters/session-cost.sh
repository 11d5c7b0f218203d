#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs session_cost (session_cost.cu; bash test/gpu/counters/build.sh) on the
# machine with the GPU: the cost of opening user-replay sessions by configured range
# count, on a fresh object or the same one, and whether one object evaluates
# two configs. Writes $OUT/session-cost1.txt. With the argument "modes":
# user- against kernel-replay sessions, with SASS-patched metrics (do they
# read right, and what does a launch cost?) and hardware ones; writes
# $OUT/session-modes.txt; then two objects on one context, one per list.
# With "phases": the time of each call of a session (enable, SetConfig,
# Start, Stop, Decode) on fresh objects; writes $OUT/session-phases.txt.
# With "sass-zero": SASS metrics in user-replay sessions with the runtime's
# other CUPTI uses (kernel activity, launch callbacks, a Start inside the
# launch callback); writes $OUT/session-sass-zero.txt.
set -uo pipefail
B=.gpu-inputs/rc/session_cost; O=$OUT/session-cost1.txt
[ "${1:-}" = modes ] && O=$OUT/session-modes.txt
one() { echo "\$ session_cost $*" >>"$O"; timeout 60 "$B" "$@" >>"$O" 2>&1 || echo "exit $?" >>"$O"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O"; date -u >>"$O"
if [ "${1:-}" = phases ]; then # where a fresh object's first session goes
  O=$OUT/session-phases.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O"
  for C in 32 8 1; do one $C 8 4 0 1 user hw; done
  one 32 8 4 0 0 user hw
  one 32 8 4 0 1 user sass
  one 32 8 4 0 1 kernel sass
  one 32 8 4 1 1 user hw
  date -u >>"$O"; cat "$O"; exit 0
fi
if [ "${1:-}" = sass-zero ]; then # what makes SASS metrics read 0 in sessions
  O=$OUT/session-sass-zero.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O"
  for V in "ACT=0 CB=0" "ACT=1 CB=0" "ACT=0 CB=1" "ACT=0 CB=1 CBSTART=1" "ACT=1 CB=1 CBSTART=1" \
    "ACT=2 CB=0" "ACT=1 ACTOFF=1 CB=0" "ACT=1 ACTOFF=1 CB=1 CBSTART=1" \
    "PRELOAD=1 ACT=1 ACTOFF=1 CB=1 CBSTART=1"; do
    echo "# $V" >>"$O"; (export $V; one 32 8 2 0 0 user sass)
  done
  date -u >>"$O"; cat "$O"; exit 0
fi
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
