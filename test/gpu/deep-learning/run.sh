#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# run.sh - the deep-learning workflow on the machine with the GPU (docs/deep-learning.md):
# examples/pytorch_nvtx.py (conv + BatchNorm + ReLU + 2-layer LSTM, NVTX ranges per
# step, phase and module), FP32 and AMP, each
#   plain                                   wall time (median of up to 3 runs)
#   hroof run --range 'step 10(/|$)'        one step of 20 profiled (counters, records)
#   the same with --counters-per-shape 1    counters for one launch per launch shape
#   hroof run                               every step profiled (launch limit 100)
# then hroof report --by range (table + JSON), --by range:2, and --tuning 15 on
# each profile. Builds nothing: needs the copied build/bin/hroof and
# build/lib/libhroof_rt.so (copied to the machine with the GPU) and python3 with torch and CUDA.
# Outputs under $OUT (default ./dl-out): log.txt, summary.txt, times.tsv,
# <mode>-<run>.{stdout,stderr,json}, reports/; $OUT/deep-learning.tgz rewritten
# after each step. Budget: BUDGET_S (default 290) seconds; a step that does not
# fit is skipped and says so. PLAN=cost runs only what the cost target needs,
# three times (see cost_plan below); PLAN=app only plain and --replay
# application (app_plan). Exit: 0, 77 when no GPU / torch / binaries.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT=${OUT:-$ROOT/dl-out}
mkdir -p "$OUT/reports"
OUT=$(cd "$OUT" && pwd)
BUDGET_S=${BUDGET_S:-290}
STEPS=${STEPS:-20}
HROOF=${HROOF:-$ROOT/build/bin/hroof}
SCRIPT=${DL_SCRIPT:-$ROOT/examples/pytorch_nvtx.py} # DL_SCRIPT: a stand-in, to try this script without a GPU
T0=$(date +%s)
CHECK=deep-learning
. "$ROOT/test/gpu/torch-check-lib.sh"
require_torch
{
  date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  git -C "$ROOT" log -1 --oneline 2>/dev/null
  timeout 60 python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())"
} >"$OUT/environment.txt" 2>&1
log "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(tail -1 "$OUT/environment.txt")"
printf 'mode\trun\trep\trc\twall_s\tloop_s\n' >"$OUT/times.tsv"

# run MODE RUN REP CAP CMD...: one timed program (timeout: CAP or what is left).
run() {
  local mode=$1 name=$2 rep=$3 cap=$4; shift 4
  local l; l=$(left)
  if [ "$l" -lt 20 ]; then log "$mode $name #$rep: skipped ($l s of the budget left)"; return 1; fi
  [ "$l" -lt "$cap" ] && cap=$l
  local base=$OUT/$mode-$name-$rep a b rc
  a=$(date +%s.%N)
  timeout -s TERM -k 10 "$cap" "$@" >"$base.stdout" 2>"$base.stderr"
  rc=$?
  b=$(date +%s.%N)
  local wall; wall=$(python3 -c "print(round($b - $a, 3))")
  local loop; loop=$(sed -n 's/^RESULT //p' "$base.stdout" | python3 -c \
    "import json,sys; t=sys.stdin.read().strip(); print(json.loads(t)['wall_s'] if t else '-')")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$name" "$rep" "$rc" "$wall" "$loop" >>"$OUT/times.tsv"
  log "$mode $name #$rep: rc=$rc wall ${wall} s (training loop ${loop} s)$([ $rc = 124 ] && echo ' TIMED OUT')"
  [ $rc = 0 ] || tail -3 "$base.stderr" | sed 's/^/    /' | tee -a "$S"
  pack
}

# report MODE NAME: the range table, depth 2, and the tuning candidates of a profile.
# Ceilings: the bundled machine file of the GPU, else (no file for this GPU) the
# H100's with --any-machine, said in the summary (the rooflines are then indicative).
MACHINE=()
report() {
  local p=$OUT/$1-$2-1.json r=$OUT/reports/$1-$2
  [ -s "$p" ] || { log "report $1 $2: no profile"; return; }
  timeout 60 "$HROOF" report "$p" "${MACHINE[@]}" --by range --tuning 15 \
    --range-json "$r.ranges.json" --tuning-json "$r.tuning.json" --csv "$r.kernels.csv" >"$r.txt" 2>&1
  local rc=$?
  if [ $rc != 0 ] && grep -q "no bundled machine file" "$r.txt" && [ ${#MACHINE[@]} = 0 ]; then
    MACHINE=(--machine "$ROOT/docs/machines/h100-80gb-hbm3.json" --any-machine)
    log "no machine file for this GPU: reports use the H100's ceilings (--any-machine)"
    report "$@"
    return
  fi
  log "report $1 $2: rc=$rc ($(grep -c . "$r.txt") lines)"
  timeout 60 "$HROOF" report "$p" "${MACHINE[@]}" --by range:2 --tuning 10 >"$r.depth2.txt" 2>&1
  timeout 60 "$HROOF" report "$p" "${MACHINE[@]}" --by range:3 >"$r.depth3.txt" 2>&1
  pack
}

TC=$OUT/tensor-types.tsv # learned Tensor Core types, shared by the runs (first run: cold)
# PLAN=full: every kind of run once, then repeats of plain and --range.
full_plan() {
  for mode in fp32 amp; do
    flag=""; [ $mode = amp ] && flag=--amp
    run $mode plain 1 120 python3 "$SCRIPT" --steps "$STEPS" $flag
    run $mode step10 1 150 "$HROOF" run --type-cache "$TC" --range 'step 10(/|$)' \
      --output "$OUT/$mode-step10-1.json" -- python3 "$SCRIPT" --steps "$STEPS" $flag
    report $mode step10
    # One profiled launch per launch shape (HROOF_COUNTERS_PER_SHAPE): the cost target.
    run $mode step10shape 1 150 "$HROOF" run --type-cache "$TC" --range 'step 10(/|$)' \
      --counters-per-shape 1 --output "$OUT/$mode-step10shape-1.json" -- \
      python3 "$SCRIPT" --steps "$STEPS" $flag
    report $mode step10shape
  done
  for mode in fp32 amp; do
    flag=""; [ $mode = amp ] && flag=--amp
    run $mode all 1 100 "$HROOF" run --type-cache "$TC" --output "$OUT/$mode-all-1.json" -- \
      python3 "$SCRIPT" --steps "$STEPS" $flag
    report $mode all
  done
  # Repeats for medians, while the budget lasts (plain, then --range).
  for rep in 2 3; do
    for mode in fp32 amp; do
      flag=""; [ $mode = amp ] && flag=--amp
      run $mode plain $rep 120 python3 "$SCRIPT" --steps "$STEPS" $flag
      run $mode step10 $rep 150 "$HROOF" run --type-cache "$TC" --range 'step 10(/|$)' \
        --output "$OUT/$mode-step10-$rep.json" -- python3 "$SCRIPT" --steps "$STEPS" $flag
    done
  done
}
# step10 MODE RUN REP [--amp]: --range 'step 10' with counters for one launch
# per shape; RUN step10shape with kernel replay, step10app with application
# replay (one-pass ranges, each group on a later launch of the shape: steps
# 11.. complete step 10's shapes).
step10() {
  local mode=$1 name=$2 rep=$3; shift 3
  local replay=()
  [ "$name" = step10app ] && replay=(--replay application --verbose 1)
  run $mode $name $rep 150 "$HROOF" run --type-cache "$TC" --range 'step 10(/|$)' \
    --counters-per-shape 1 "${replay[@]}" --output "$OUT/$mode-$name-$rep.json" -- \
    python3 "$SCRIPT" --steps "$STEPS" "$@"
}
# PLAN=cost: what the cost target needs, with medians. Per mode, three rounds of
# plain, --range 'step 10' --counters-per-shape 1 and the same with --replay
# application side by side (the first round's type cache is cold), then every
# step with --counters-per-shape 1, then
# one --range 'step 10' with counters for every launch (the old default).
cost_plan() {
  for mode in fp32 amp; do
    flag=""; [ $mode = amp ] && flag=--amp
    for rep in 1 2 3; do
      run $mode plain $rep 120 python3 "$SCRIPT" --steps "$STEPS" $flag
      step10 $mode step10shape $rep $flag
      step10 $mode step10app $rep $flag
    done
    report $mode step10shape
    report $mode step10app
    [ "${COST_CORE:-0}" = 1 ] && continue # COST_CORE=1: only the three-way rounds
    run $mode allshape 1 150 "$HROOF" run --type-cache "$TC" --counters-per-shape 1 \
      --output "$OUT/$mode-allshape-1.json" -- python3 "$SCRIPT" --steps "$STEPS" $flag
    report $mode allshape
  done
  [ "${COST_CORE:-0}" = 1 ] && return 0
  for mode in fp32 amp; do
    flag=""; [ $mode = amp ] && flag=--amp
    run $mode step10 1 150 "$HROOF" run --type-cache "$TC" --range 'step 10(/|$)' \
      --output "$OUT/$mode-step10-1.json" -- python3 "$SCRIPT" --steps "$STEPS" $flag
  done
}
# PLAN=app: plain and --range 'step 10' --counters-per-shape 1 --replay
# application side by side, three rounds per mode.
app_plan() {
  for mode in fp32 amp; do
    flag=""; [ $mode = amp ] && flag=--amp
    for rep in 1 2 3; do
      run $mode plain $rep 120 python3 "$SCRIPT" --steps "$STEPS" $flag
      step10 $mode step10app $rep $flag
    done
    report $mode step10app
  done
}
case ${PLAN:-full} in
  full) full_plan ;;
  cost) cost_plan ;;
  app) app_plan ;;
  *) log "unknown PLAN '${PLAN}' (full, cost or app)"; exit 2 ;;
esac
python3 - "$OUT/times.tsv" <<'PY' | tee -a "$S"
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]), delimiter="\t") if r["rc"] == "0"]
med = {}
for r in rows:
    med.setdefault((r["mode"], r["run"]), []).append(float(r["wall_s"]))
for mode in ("fp32", "amp"):
    plain = statistics.median(med.get((mode, "plain"), [float("nan")]))
    for run in ("plain", "step10", "step10shape", "step10app", "all", "allshape"):
        v = med.get((mode, run))
        if v:
            m = statistics.median(v)
            print("%s %-7s wall median %.2f s over %d run(s): %.2fx plain" % (mode, run, m, len(v), m / plain))
PY
# Application replay: where its time went and how many records completed.
for mode in fp32 amp; do
  for f in "$OUT/$mode"-step10app-*.json; do
    [ -s "$f" ] || continue
    python3 - "$f" <<'PY' | tee -a "$S"
import json, sys
p = json.load(open(sys.argv[1]))
ls = p.get("launches", [])
full = sum(1 for l in ls if l.get("counters") and "counters_incomplete" not in l)
inc = sum(1 for l in ls if "counters_incomplete" in l)
print("%s: %d records, %d with complete counters, %d counters_incomplete" % (sys.argv[1].split("/")[-1], len(ls), full, inc))
for n in p.get("notes", []):
    if n.startswith("hardware counters:") or n.startswith("application replay"):
        print("  " + n)
PY
  done
done
pack
exit 0
