#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The one-step recipe on a DDP run, on a machine with 2+ GPUs; builds nothing
# (GPU test inputs: build/bin/hroof, build/lib/libhroof_rt.so).
#   examples/pytorch_transformer.py under torchrun (NCCL), rank 1 given
#   SKEW (1.5) times the batch; STEPS (16) steps, step 3 profiled.
#   RUNS=3      plain and recipe runs each, interleaved
#   NOCOUNT=1   runs of `hroof run --counters none` (the same ranges, no
#               replay): the reference compute ratio between the ranks
#   PREC="fp32" precisions (fp32, amp)
#   ROUNDS="off serial"  recipe runs with each --round-activity (NAME "recipe"
#               for off, "recipe-serial" for serial; default off)
#   TYPECACHE=none|warm  the recipe learns the tensor types (none, the
#               default) or finds them in a cache a first run (PREC-warmup) filled
#   NPROC=2     GPUs (ranks); SKEW: rank 1's batch factor
# recipe: hroof run --range STEP --timing-range LATER --counters-per-shape 1
#         --replay passes -- torchrun ...
# Wall times go to $OUT/ddp/times.txt; profiles, logs and `hroof report --by
# rank` outputs under $OUT/ddp/, archived to $OUT/ddp.tgz after each run.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
HROOF=${HROOF:-build/bin/hroof}
NPROC=${NPROC:-2}
STEPS=${STEPS:-16}
STEP='step 3(/|$)'
LATER='^step ([4-9]|[1-9][0-9])(/|$)'
O=$OUT/ddp
mkdir -p "$O"
save() { tar czf "$OUT/ddp.tgz" -C "$OUT" ddp; }
. test/gpu/deep-learning/wall.sh
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  python3 -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())'
} | tee "$O/env.txt"
PROG=(torchrun --standalone --nproc_per_node "$NPROC" examples/pytorch_transformer.py
      --steps "$STEPS" --skew "${SKEW:-1.5}")
report() { # NAME: --by rank of NAME's profiles
  timeout 120 "$HROOF" report --by rank --rank-json "$O/$1.rank.json" "$O/$1"/*.json \
    >"$O/$1.rank.txt" 2>&1
}
for P in ${PREC:-fp32}; do
  A=(); [ "$P" = amp ] && A=(--amp)
  TC=none
  if [ "${TYPECACHE:-none}" = warm ]; then # a second run's types: one recipe run first
    TC=$O/types-$P.tsv
    timed_run 300 "$O" "$P-warmup" "$HROOF" run --output "$O/$P-warmup" --range "$STEP" \
      --timing-range "$LATER" --counters-per-shape 1 --replay passes --type-cache "$TC" \
      -- "${PROG[@]}" "${A[@]}"; save
  fi
  for i in $(seq 1 "${NOCOUNT:-1}"); do
    timed_run 300 "$O" "$P-nocount-$i" "$HROOF" run --output "$O/$P-nocount-$i" --range "$STEP" \
      --timing-range "$LATER" --counters none -- "${PROG[@]}" "${A[@]}"
    report "$P-nocount-$i"; save
  done
  for i in $(seq 1 "${RUNS:-3}"); do
    timed_run 300 "$O" "$P-plain-$i" "${PROG[@]}" "${A[@]}"; save
    for R in ${ROUNDS:-off}; do
      N=recipe; [ "$R" = off ] || N=recipe-$R
      timed_run 300 "$O" "$P-$N-$i" "$HROOF" run --output "$O/$P-$N-$i" --range "$STEP" \
        --timing-range "$LATER" --counters-per-shape 1 --replay passes --round-activity "$R" \
        --type-cache "$TC" -- "${PROG[@]}" "${A[@]}"
      report "$P-$N-$i"; save
    done
  done
done
