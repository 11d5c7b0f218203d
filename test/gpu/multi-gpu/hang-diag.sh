#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hang-diag.sh - where a profiled DDP run stops (machine with the GPU): starts
# examples/pytorch_ddp.py under torchrun under hroof run (HROOF_* settings from
# the environment, PROFILE_ARGS: more options of hroof run, VERBOSE (default
# 2: one stderr line per launch), per rank via torchrun's --log-dir), and
# after AFTER seconds (default 60), if it still runs,
# writes every worker's native and Python stacks (gdb / py-spy where installed,
# /proc/PID/stack and wchan otherwise) and nvidia-smi, then kills it.
# Outputs under $OUT: diag.txt, torchrun logs, profiles; $OUT/hang-diag.tgz.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT=${OUT:-$ROOT/hd-out}; mkdir -p "$OUT/profiles" "$OUT/logs"; OUT=$(cd "$OUT" && pwd)
AFTER=${AFTER:-60}
HROOF=${HROOF:-$ROOT/build/bin/hroof}
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH
export HROOF_MACHINES_DIR=$ROOT/docs/machines
D=$OUT/diag.txt
read -r -a PA <<<"${PROFILE_ARGS:-}"
T0=$(date +%s.%N)
"$HROOF" run --verbose "${VERBOSE:-2}" ${PA[@]+"${PA[@]}"} --output "$OUT/profiles" -- python3 -m torch.distributed.run \
  --standalone --nproc-per-node 2 --log-dir "$OUT/logs" --tee 3 \
  examples/pytorch_ddp.py --steps "${STEPS:-3}" --backend nccl >"$OUT/run.stdout" 2>"$OUT/run.stderr" &
H=$!
for ((i = 0; i < AFTER; i++)); do kill -0 $H 2>/dev/null || break; sleep 1; done
if kill -0 $H 2>/dev/null; then
  echo "still running after $AFTER s" >"$D"
  nvidia-smi >>"$D" 2>&1
  for p in $(pgrep -f pytorch_ddp.py); do
    echo "=== pid $p: $(tr '\0' ' ' </proc/$p/cmdline | cut -c1-160)" >>"$D"
    echo "wchan: $(cat /proc/$p/wchan 2>/dev/null)" >>"$D"
    for t in /proc/$p/task/*; do echo "  task ${t##*/} $(cat $t/comm) $(cat $t/wchan 2>/dev/null)"; done >>"$D"
    if command -v py-spy >/dev/null; then timeout 30 py-spy dump --native --pid $p >>"$D" 2>&1; fi
    if command -v gdb >/dev/null; then timeout 60 gdb -p $p -batch -ex "thread apply all bt 25" >>"$D" 2>&1; fi
  done
  kill -TERM $H; sleep 5; pkill -KILL -f pytorch_ddp.py
else
  echo "finished before $AFTER s" >"$D"
fi
wait $H; echo "rc $?, wall $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s" >>"$D"
tar czf /tmp/hang-diag.tgz -C "$OUT" --exclude=hang-diag.tgz . && mv -f /tmp/hang-diag.tgz "$OUT/"
