#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# run.sh - the distributed-training check on the machine with the GPU (docs/multi-gpu.md):
# examples/pytorch_ddp.py (DDP, conv + BatchNorm + ReLU + LSTM, NVTX ranges) under
#   plain torchrun                                  wall time
#   hroof run -- torchrun ...                       every rank profiled with counters
# with NCCL, one process per GPU, when the machine has 2+ GPUs; on one GPU, two
# processes share it with the gloo backend (no NCCL kernels then). Then
# hroof report --by rank (table, JSON; the HTML is made where the profiles are
# brought back: the machine with the GPU has no report-js) on the profiles, and --rank 0.
# Builds nothing: needs the copied build/bin/hroof and build/lib/libhroof_rt.so
# and python3 with torch and CUDA. Outputs under $OUT (default ./mg-out): log.txt,
# summary.txt, <mode>.{stdout,stderr}, profiles/, reports/; $OUT/multi-gpu.tgz
# rewritten after each step. Budget: BUDGET_S (default 400) seconds. APP_ARGS:
# more options of the example (--amp).
# Exit: 0, 1 when a step fails, 77 when no GPU / torch / binaries.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT=${OUT:-$ROOT/mg-out}
mkdir -p "$OUT/reports" "$OUT/profiles"
OUT=$(cd "$OUT" && pwd)
BUDGET_S=${BUDGET_S:-400}
STEPS=${STEPS:-10}
HROOF=${HROOF:-$ROOT/build/bin/hroof}
T0=$(date +%s)
CHECK=multi-gpu
. "$ROOT/test/gpu/torch-check-lib.sh"
require_torch
GPUS=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
if [ "$GPUS" -ge 2 ]; then NPROC=$GPUS; BACKEND=nccl; else NPROC=2; BACKEND=gloo; fi
{
  date -u; nvidia-smi --query-gpu=index,name,driver_version --format=csv; nvidia-smi topo -m
  git -C "$ROOT" log -1 --oneline 2>/dev/null
  timeout 60 python3 -c "import torch; print('torch', torch.__version__, 'nccl', torch.cuda.nccl.version())"
} >"$OUT/environment.txt" 2>&1
log "GPUs: $GPUS; $NPROC processes, backend $BACKEND, $STEPS steps"
TORCHRUN=(python3 -m torch.distributed.run --standalone --nproc-per-node "$NPROC")
read -r -a XA <<<"${APP_ARGS:-}" # more options of the example (--amp)
APP=(examples/pytorch_ddp.py --steps "$STEPS" --backend "$BACKEND" ${XA[@]+"${XA[@]}"})
failed=0
step() { # step NAME CMD...: runs CMD with the time left, logs rc and wall time
  local name=$1; shift
  local t=$(left)
  [ "$t" -gt 30 ] || { log "$name: skipped (budget)"; return; }
  local s=$(date +%s.%N)
  timeout "$t" "$@" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr"
  local rc=$?
  log "$name: rc $rc, wall $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s"
  [ $rc -eq 0 ] || failed=1
  pack
}
step plain "${TORCHRUN[@]}" "${APP[@]}"
# PROFILE_ARGS: hroof run's options; by default one step's launches, each
# shape's first with counters (the recipe of docs/multi-gpu.md).
read -r -a PA <<<"${PROFILE_ARGS:---range train/step.2/ --counters-per-shape 1}"
log "hroof run ${PA[*]}"
step profiled "$HROOF" run "${PA[@]}" --output "$OUT/profiles" -- "${TORCHRUN[@]}" "${APP[@]}"
mapfile -t P < <(ls "$OUT"/profiles/hroof-*.json 2>/dev/null)
log "profiles: ${#P[@]} (${P[*]##*/})"
if [ ${#P[@]} -gt 0 ]; then
  step report-by-rank "$HROOF" report "${P[@]}" --any-machine --by rank:3 \
    --rank-json "$OUT/reports/by-rank.json" --json "$OUT/reports/report.json"
  step report-rank0 "$HROOF" report "${P[@]}" --any-machine --rank 0 --by range:3
fi
grep -h '^RESULT' "$OUT"/*.stdout >>"$S" 2>/dev/null
pack
exit $failed
