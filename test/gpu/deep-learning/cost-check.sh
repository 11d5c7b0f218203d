#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The one-step recipe's cost and exactness on a machine with a GPU; builds
# nothing (GPU test inputs: build/bin/hroof, build/lib/libhroof_rt.so).
#   MODEL=nvtx|transformer   examples/pytorch_nvtx.py (20 steps, step 10) or
#                            examples/pytorch_transformer.py (STEPS=16 steps, step 3)
#   PREC="fp32 amp"          precisions to run
#   RUNS=3                   plain and recipe runs each, interleaved
#   ROUNDS="off serial"      recipe runs with each --round-activity (NAME "recipe" for
#                            off, "recipe-serial" for serial; default off)
#   TYPECACHE=none|warm      recipe runs learn the tensor types (none, the default), or
#                            find them in a type cache a first recipe run (NAME
#                            PREC-warmup) filled: what a second run of the recipe costs
#   EXACT=1                  kernel-replay runs of the same step (the exact path);
#                            each recipe profile is compared with the first per
#                            range (range_compare.py), in $OUT/cost-MODEL/*.compare.md
# recipe: hroof run --range STEP --timing-range LATER --counters-per-shape 1
#         --replay passes --round-activity R --type-cache none|FILE
# exact:  hroof run --range STEP (kernel replay, every launch)
# Wall times go to $OUT/cost-MODEL/times.txt (name, exit status, seconds);
# profiles and logs under $OUT/cost-MODEL/, archived to $OUT/cost-MODEL.tgz
# after each run.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
MODEL=${MODEL:-transformer}
HROOF=${HROOF:-build/bin/hroof}
case $MODEL in
  nvtx) PROG=(python3 examples/pytorch_nvtx.py --steps 20); STEP='step 10(/|$)'
    LATER='^train/step (1[1-9])(/|$)' ;;
  transformer) PROG=(python3 examples/pytorch_transformer.py --steps "${STEPS:-16}")
    STEP='step 3(/|$)'; LATER='^step ([4-9]|[1-9][0-9])(/|$)' ;;
  *) echo "MODEL: nvtx or transformer" >&2; exit 2 ;;
esac
O=$OUT/cost-$MODEL
mkdir -p "$O"
save() { tar czf "$OUT/cost-$MODEL.tgz" -C "$OUT" "cost-$MODEL"; }
. test/gpu/deep-learning/wall.sh
run() { # NAME CMD...
  mkdir -p "$O/$1"
  timed_run 300 "$O" "$@"
  save
}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  python3 -c 'import torch; print("torch", torch.__version__)'; } | tee "$O/env.txt"
for P in ${PREC:-fp32 amp}; do
  A=(); [ "$P" = amp ] && A=(--amp)
  TC=none
  if [ "${TYPECACHE:-none}" = warm ]; then # a second run's types: one recipe run first
    TC=$O/types-$P.tsv
    run "$P-warmup" "$HROOF" run --output "$O/$P-warmup" --range "$STEP" --timing-range "$LATER" \
      --counters-per-shape 1 --replay passes --type-cache "$TC" -- "${PROG[@]}" "${A[@]}"
  fi
  for i in $(seq 1 "${RUNS:-3}"); do
    run "$P-plain-$i" "${PROG[@]}" "${A[@]}"
    for R in ${ROUNDS:-off}; do
      N=recipe; [ "$R" = off ] || N=recipe-$R
      run "$P-$N-$i" "$HROOF" run --output "$O/$P-$N-$i" --range "$STEP" \
        --timing-range "$LATER" --counters-per-shape 1 --replay passes --type-cache "$TC" \
        --round-activity "$R" -- "${PROG[@]}" "${A[@]}"
    done
  done
  for i in $(seq 1 "${EXACT:-1}"); do
    run "$P-exact-$i" "$HROOF" run --output "$O/$P-exact-$i" --range "$STEP" --type-cache none \
      -- "${PROG[@]}" "${A[@]}"
  done
done
# Exactness per range: every recipe profile against the precision's first
# kernel-replay profile (range_compare.py: recipe over exact).
for P in ${PREC:-fp32 amp}; do
  for d in "$O/$P"-exact-1 "$O/$P"-recipe*; do
    [ -d "$d" ] && ls "$d"/hroof-*.json >/dev/null 2>&1 || continue
    timeout 120 "$HROOF" report --by range --range-json "$d.range.json" "$d"/hroof-*.json \
      >"$d.range.txt" 2>&1
  done
  [ -f "$O/$P-exact-1.range.json" ] || continue
  for r in "$O/$P"-recipe*.range.json; do
    [ -f "$r" ] && python3 test/gpu/deep-learning/range_compare.py "$O/$P-exact-1.range.json" "$r" \
      --markdown >"${r%.range.json}.compare.md" 2>&1 && tail -1 "${r%.range.json}.compare.md"
  done
done
save
