#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ADDENDUM to the case study's GPU run (H100), from the repository root, with
# the same input folder as run.sh (.gpu-inputs/case, built beforehand by
# case-studies/build.sh, which must include the case.h warm-up); builds
# nothing. Closes two gaps of the first run (docs/case-studies/README.md):
#   a. LSTM fusion timing without the first-launch artifact: the plain lstm
#      and lstm_fused binaries alone (no profiler), 20 timed launches per
#      kernel and size as in run.sh, now after one untimed warm-up launch
#      (case.h; the CASE lines say "warmup":1), the pair repeated 3 times
#      (interleaved) to show the spread
#                                  -> kernels/<p>.time.r<i>.stdout
#   b. PyTorch LSTM and conv block really in bf16: train_step.py --precision
#      bf16w (model and input in torch.bfloat16, no autocast; the AMP bf16
#      LSTM had run fp16 cuDNN kernels) under hroof run --counters roofline
#      --launch-limit 2, as run.sh runs the other precisions
#                                  -> torch/<model>-bf16w.json
#   c. case-studies/report.sh on these (hroof report per PyTorch profile,
#      summarize.py; the custom-kernel charts need profiles this run does not
#      make: their "no profiles" lines are expected), then a short table:
#      timing spread and fusion speed-up per repetition; per PyTorch run the
#      parameter dtype, tensor FLOPs by type, and the kernels with bf16/half
#      in their names or with tensor FLOPs (time, FLOPs per launch by type)
#      (case-studies/addendum_table.py) -> addendum-table.txt (printed last)
# Everything ends up in $OUT/addendum.tgz plus $OUT/addendum-summary.md; the
# working files are removed (the device returns at most 8 files).
# Env: OUT (default ./case-out), BUDGET_S (default 180: the PyTorch runs are
# cut to end by then and skipped past it), TORCH_STEPS (3), LAUNCH_LIMIT (2),
# TIME_REPEATS (3).
# Expected: ~1-1.5 minutes on the H100 (a few s of custom kernels, ~20 s per
# PyTorch run); worst case about BUDGET_S + 30 s (reports included).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
. "$ROOT/case-studies/gpu-run-common.sh"
case_start run-addendum.sh addendum
BUDGET_S=${BUDGET_S:-180}
TORCH_STEPS=${TORCH_STEPS:-3}
LAUNCH_LIMIT=${LAUNCH_LIMIT:-2}
TIME_REPEATS=${TIME_REPEATS:-3}
finish() {
  {
    echo "# hroof case study: addendum run (case-studies/run-addendum.sh)"
    echo
    echo "Generated on the machine with the GPU; full outputs in addendum.tgz (addendum/)."
    echo
    echo '## run.log'
    echo; echo '```'; cat "$W/run.log" 2>/dev/null; echo '```'; echo
    echo '## environment (head)'
    echo; echo '```'; grep -E 'UTC|NVIDIA H|torch |^commit|^built|^clang|^[0-9a-f]{7} ' "$W/environment.txt" 2>/dev/null | head -12; echo '```'; echo
    echo '## tables (addendum-table.txt)'
    echo; echo '```'; cat "$W/addendum-table.txt" 2>/dev/null; echo '```'; echo
    if [ -f "$W/summary.md" ]; then
      echo '## summarize.py (summary.md): before/after and PyTorch rows'
      echo
      grep -E '^\| (LSTM|optimization|run) |^(\|---){10}\|$|^\| (lstm|conv)-' "$W/summary.md" | sed 's/^| run |/\n| run |/'
      echo
    fi
  } >"$OUT/addendum-summary.md" 2>/dev/null
  cp -f "$OUT/addendum-summary.md" "$W/" 2>/dev/null
  case_pack addendum "$OUT/addendum-summary.md"
}
trap finish EXIT

case_preflight
HROOF=$C/build/bin/hroof
unset CUDA_INJECTION64_PATH CASE_WARMUP
cp -f "$C"/static/lstm.json "$C"/static/lstm_fused.json "$W/static/" 2>/dev/null
{
  date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  echo; cat "$C/manifest.txt"; echo; git -C "$ROOT" log -1 --oneline 2>/dev/null
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version())" 2>&1
  command -v node && node --version
} >"$W/environment.txt" 2>&1
log "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

if [ -f "$C/report-js.tgz" ]; then
  mkdir -p /tmp/hroof-case-js && tar xzf "$C/report-js.tgz" -C /tmp/hroof-case-js &&
    export HROOF_REPORT_JS=/tmp/hroof-case-js/node_modules
fi

# ---- a. LSTM fusion timing, warm-up, 3 repetitions --------------------------
for r in $(seq 1 "$TIME_REPEATS"); do
  for p in lstm lstm_fused; do
    [ -x "$C/bin/$p.plain" ] || { log "$p: not built"; continue; }
    timeout 60 "$C/bin/$p.plain" 20 >"$W/kernels/$p.time.r$r.stdout" 2>"$W/kernels/$p.time.r$r.stderr"
    log "$p: plain x20 (repetition $r) rc=$? ($(tail -1 "$W/kernels/$p.time.r$r.stdout"); warm-up per CASE line: $(grep -o '"warmup":[0-9]*' "$W/kernels/$p.time.r$r.stdout" | sort | uniq -c | tr -s ' ' | tr '\n' ' '))"
  done
done
grep -q '"warmup":[1-9]' "$W/kernels/lstm_fused.time.r1.stdout" 2>/dev/null ||
  log "WARNING: no CASE line says \"warmup\":1: .gpu-inputs/case predates the case.h warm-up (rerun build.sh here)"
# summarize.py reads <p>.time.stdout: repetition 1
for p in lstm lstm_fused; do
  cp -f "$W/kernels/$p.time.r1.stdout" "$W/kernels/$p.time.stdout" 2>/dev/null
done

# ---- b. PyTorch in bf16 (weights), as run.sh's torch_run ---------------------
torch_run() { # MODEL PRECISION  (skipped past the budget; timeout shrinks to fit it)
  local n=$1-$2 left=$((BUDGET_S - $(el)))
  [ $left -gt 90 ] && left=90
  if [ $left -lt 25 ]; then log "torch $n: skipped (elapsed $(el) s, budget $BUDGET_S s)"; return; fi
  timeout $left "$HROOF" run --counters roofline --launch-limit "$LAUNCH_LIMIT" \
    --output "$W/torch/$n.json" -- \
    python3 "$ROOT/case-studies/pytorch/train_step.py" --model "$1" --precision "$2" --steps "$TORCH_STEPS" \
    >"$W/torch/$n.stdout" 2>"$W/torch/$n.stderr"
  local rc=$?
  log "torch $n: rc=$rc $(grep -h '^TRAIN' "$W/torch/$n.stdout" | cut -c1-150)"
  grep -h '^train_step:' "$W/torch/$n.stdout" | cut -c1-300 | sed 's/^/    /' | tee -a "$W/run.log"
  python3 -c 'import json, sys
for l in open(sys.argv[1]):
    if l.startswith("TRAIN "):
        t = json.loads(l[6:])
        print("    " + ", ".join("%s=%s" % (k, t.get(k)) for k in ("param_dtype", "input_dtype", "out_dtype", "out_grad_fn", "cudnn_enabled", "fallback", "wall_s")))' \
    "$W/torch/$n.stdout" 2>/dev/null | tee -a "$W/run.log"
  [ $rc = 0 ] || tail -5 "$W/torch/$n.stderr" | sed 's/^/    /' | tee -a "$W/run.log"
}
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  for m in lstm conv; do torch_run $m bf16w; done
else
  log "torch: not importable or no CUDA: PyTorch part skipped"
fi

# ---- c. reports and the table ------------------------------------------------
log "reports"
HROOF=$HROOF bash "$ROOT/case-studies/report.sh" "$W" >"$W/logs/report.log" 2>&1
log "report.sh rc=$? ($(ls "$W/report" 2>/dev/null | wc -l) files; problems other than the expected custom-kernel 'no profiles': $(grep -v -E '^report.sh: (conv2d|lstm|opt-conv2d-direct-vs-tiled|opt-lstm-unfused-vs-fused|conv2d-f32-vs-tensor|kernels-dynamic): no profiles$' "$W/report/problems.txt" 2>/dev/null | tr '\n' ' '))"
python3 "$ROOT/case-studies/addendum_table.py" "$W" >"$W/addendum-table.txt" 2>"$W/logs/table.err"
log "table rc=$? ($(wc -l <"$W/addendum-table.txt") lines)"
echo "================ ADDENDUM TABLE (also addendum-table.txt, addendum-summary.md)"
cat "$W/addendum-table.txt"
