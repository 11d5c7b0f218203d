#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs pass_replay (pass_replay.cu; bash test/gpu/counters/build.sh) on the
# machine with the GPU: a multi-pass metric list in user replay with user ranges, one
# pass per repetition of the workload, in the orders and with the CUPTI
# activity kinds that the runtime would meet. Writes $OUT/pass-replay.txt.
set -uo pipefail
B=.gpu-inputs/rc/pass_replay; O=$OUT/pass-replay.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O"; date -u >>"$O"
for V in "ORDER=same" "ORDER=swap" "ORDER=thread" "ORDER=auto" "ORDER=drop" "ORDER=same LIST=tensor" \
  "ORDER=same ACT=1" "ORDER=same ACT=2" "ORDER=same ROUNDS=3"; do
  echo "\$ $V pass_replay" >>"$O"
  (export $V; timeout 60 "$B" >>"$O" 2>&1 || echo "exit $?" >>"$O")
done
date -u >>"$O"; cat "$O"
