#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The case study's ONE GPU run (H100), from the repository root, with
# .gpu-inputs/case built beforehand by case-studies/build.sh; builds nothing.
#   1. custom kernels (conv2d, lstm, lstm_fused), each program three ways:
#      - plain binary alone, 20 launches per kernel and size (CUDA-event
#        times, no profiler attached; since the addendum after one untimed
#        warm-up launch each, case.h)         -> kernels/<p>.time.stdout
#      - plain binary under hroof run --counters roofline (hardware counters
#        of each launch, times from gpu__time_duration)
#                                             -> kernels/<p>.plain.json
#      - instrumented binary under hroof run --counters none, 1 launch per
#        kernel and size (exact dynamic counts + static model per launch)
#                                             -> kernels/<p>.inst.json
#   2. PyTorch training steps (case-studies/pytorch/train_step.py) under
#      hroof run --counters roofline --launch-limit 2: LSTM and conv block,
#      fp32 (PyTorch defaults), fp16 AMP, bf16 AMP; then, time permitting,
#      fp32strict (TF32 off) -> torch/<model>-<precision>.json
#   3. case-studies/report.sh: hroof report (CSV/HTML/SVG) with the ERT
#      ceilings docs/machines/h100-80gb-hbm3.json, hroof compare,
#      summarize.py -> report/, summary.md
# Everything ends up in $OUT/case.tgz (plus $OUT/summary.md); the working
# files are removed (the device returns at most 8 files).
# Env: OUT (default ./case-out), BUDGET_S (default 300: PyTorch runs are
# cut to end by BUDGET_S+20 s and skipped past it; the fp32strict runs need
# 60 s left), TORCH_STEPS (3), LAUNCH_LIMIT (2). Worst case about
# BUDGET_S + 40 s in all (reports included).
# Expected: ~3-4 minutes on the H100 (about 15 s of custom kernels, ~20-30 s
# per PyTorch run, of which ~10 s start-up).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
. "$ROOT/case-studies/gpu-run-common.sh"
case_start run.sh case
BUDGET_S=${BUDGET_S:-300}
TORCH_STEPS=${TORCH_STEPS:-3}
LAUNCH_LIMIT=${LAUNCH_LIMIT:-2}
finish() {
  cp -f "$W/summary.md" "$OUT/summary.md" 2>/dev/null
  case_pack case "$OUT/summary.md"
}
trap finish EXIT

case_preflight
HROOF=$C/build/bin/hroof
unset CUDA_INJECTION64_PATH
cp -f "$C"/static/*.json "$C"/static/*.txt "$W/static/" 2>/dev/null
{
  date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  echo; cat "$C/manifest.txt"; echo; git -C "$ROOT" log -1 --oneline 2>/dev/null
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())" 2>&1
  command -v node && node --version
} >"$W/environment.txt" 2>&1
log "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# vega for hroof report --html/--svg (report.sh)
if [ -f "$C/report-js.tgz" ]; then
  mkdir -p /tmp/hroof-case-js && tar xzf "$C/report-js.tgz" -C /tmp/hroof-case-js &&
    export HROOF_REPORT_JS=/tmp/hroof-case-js/node_modules
fi

# ---- 1. custom kernels ------------------------------------------------------
for p in conv2d lstm lstm_fused; do
  [ -x "$C/bin/$p.plain" ] || { log "$p: not built"; continue; }
  timeout 60 "$C/bin/$p.plain" 20 >"$W/kernels/$p.time.stdout" 2>"$W/kernels/$p.time.stderr"
  log "$p: plain x20 rc=$? ($(tail -1 "$W/kernels/$p.time.stdout"))"
  timeout 90 "$HROOF" run --counters roofline --launch-limit 100 \
    --output "$W/kernels/$p.plain.json" -- "$C/bin/$p.plain" 3 \
    >"$W/kernels/$p.plain.stdout" 2>"$W/kernels/$p.plain.stderr"
  log "$p: plain under hroof run --counters roofline rc=$? ($(grep -c '^CASE' "$W/kernels/$p.plain.stdout") CASE lines, $(grep -c FAIL "$W/kernels/$p.plain.stdout") FAIL)"
  # one launch per kernel and size: counts are exact, and the runtime's
  # static evaluation is thread by thread (conv2d_direct_f32<3>: ~8 s of host
  # time per launch here; ~13 s for all conv2d launches)
  timeout 90 "$HROOF" run --counters none --launch-limit 100 \
    --output "$W/kernels/$p.inst.json" -- "$C/bin/$p.inst" 1 \
    >"$W/kernels/$p.inst.stdout" 2>"$W/kernels/$p.inst.stderr"
  log "$p: instrumented under hroof run --counters none rc=$? ($(tail -1 "$W/kernels/$p.inst.stdout" | cut -c1-80))"
done

# ---- 2. PyTorch -------------------------------------------------------------
torch_run() { # MODEL PRECISION  (skipped past the budget; timeout shrinks to fit it)
  local n=$1-$2 left=$((BUDGET_S + 20 - $(el)))
  [ $left -gt 90 ] && left=90
  if [ $left -lt 25 ]; then log "torch $n: skipped (elapsed $(el) s, budget $BUDGET_S s)"; return; fi
  timeout $left "$HROOF" run --counters roofline --launch-limit "$LAUNCH_LIMIT" \
    --output "$W/torch/$n.json" -- \
    python3 "$ROOT/case-studies/pytorch/train_step.py" --model "$1" --precision "$2" --steps "$TORCH_STEPS" \
    >"$W/torch/$n.stdout" 2>"$W/torch/$n.stderr"
  local rc=$?
  log "torch $n: rc=$rc $(grep -h '^TRAIN' "$W/torch/$n.stdout" | cut -c1-150)"
  [ $rc = 0 ] || tail -5 "$W/torch/$n.stderr" | sed 's/^/    /' | tee -a "$W/run.log"
}
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  for m in lstm conv; do
    for pr in fp32 fp16 bf16; do torch_run $m $pr; done
  done
  for m in conv lstm; do
    if [ "$(el)" -lt $((BUDGET_S - 60)) ]; then torch_run $m fp32strict
    else log "torch $m-fp32strict: skipped (elapsed $(el) s, budget $BUDGET_S s)"; fi
  done
else
  log "torch: not importable or no CUDA: PyTorch part skipped"
fi

# ---- 3. reports -------------------------------------------------------------
log "reports"
HROOF=$HROOF bash "$ROOT/case-studies/report.sh" "$W" >"$W/logs/report.log" 2>&1
log "report.sh rc=$? ($(ls "$W/report" 2>/dev/null | wc -l) files; problems: $(cat "$W/report/problems.txt" 2>/dev/null | tr '\n' ' '))"
echo "================ SUMMARY (full: summary.md, report/*.txt in case.tgz)"
if [ -f "$W/summary.md" ]; then
  grep -E '^\| `|^\| (lstm|conv)-' "$W/summary.md" | cut -c1-230 | head -60
fi
