#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs session_cost (session_cost.cu; bash test/gpu/counters/build.sh) on the
# GPU machine: the cost of opening user-replay sessions by configured range
# count, on a fresh object or the same one, and whether one object evaluates
# two configs. Writes $OUT/session-cost1.txt.
set -uo pipefail
B=.carry/rc/session_cost; O=$OUT/session-cost1.txt
one() { echo "\$ session_cost $*" >>"$O"; timeout 60 "$B" "$@" >>"$O" 2>&1 || echo "exit $?" >>"$O"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O"; date -u >>"$O"
one 512 8 4 0 0
one 32 8 4 0 0
one 512 8 4 0 1
one 32 8 4 0 1
one 512 8 6 1 0
one 32 8 6 1 0
date -u >>"$O"; cat "$O"
