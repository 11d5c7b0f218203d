#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs the GPU validation suite ON the machine with the GPU, from the repository root,
# with binaries built beforehand by test/gpu/build.sh (in .gpu-inputs/gpu, copied there);
# builds nothing. Logs and results go to $OUT (default ./gpu-out):
#   P.inst.stdout/.stderr  instrumented run under the hroof runtime
#   P.profile.json         the runtime's profile (dynamic counts)
#   P.ncu.csv              Nsight Compute on the plain binary
#   P.time.{plain,inst}.txt  --time N medians (no runtime attached)
#   table.md               the comparison (test/gpu/compare.py)
# Exits 0 with "SKIP: no GPU" where nvidia-smi fails. Env: OUT, NTIME (50),
# PROGS (default: all), NCU (ncu binary), NO_NCU=1 to skip Nsight Compute.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then
  echo "SKIP: no GPU (nvidia-smi failed)"
  exit 0
fi
C=$ROOT/.gpu-inputs/gpu
OUT=${OUT:-$ROOT/gpu-out}
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
export OUT
NTIME=${NTIME:-50}
if [ ! -d "$C/bin" ]; then
  echo "run.sh: $C/bin missing: run 'bash test/gpu/build.sh' on the machine with clang and copy .gpu-inputs here" >&2
  exit 1
fi
export LD_LIBRARY_PATH="$C/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset CUDA_INJECTION64_PATH
# Learned tensor types go to this run's own cache, not the user's (and every
# run of the suite starts cold, as the runs of record did).
export HROOF_TYPE_CACHE=$OUT/tensor-types.tsv
rm -f "$HROOF_TYPE_CACHE"
PROGS=${PROGS:-$(cd "$C/bin" && ls *.plain | sed 's/\.plain$//')}
T0=$(date +%s)
log() { echo "[run.sh +$(( $(date +%s) - T0 ))s] $*"; }

{ nvidia-smi; echo; cat "$C/manifest.txt" 2>/dev/null; } >"$OUT/environment.txt" 2>&1
DEVICE=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
log "device: $DEVICE; programs: $(echo $PROGS)"

# ---- how to attach the runtime ---------------------------------------------
HROOF=$C/bin/hroof
RT=$C/lib/libhroof_rt.so
MODE=none
if [ -x "$HROOF" ] && "$HROOF" run --help >/dev/null 2>&1 &&
   "$HROOF" run --output "$OUT/.probe.json" -- true >/dev/null 2>&1; then
  MODE=hroof-run
elif [ -f "$RT" ]; then
  MODE=injection
fi
rm -f "$OUT/.probe.json"
log "runtime attach: $MODE"

# ---- Nsight Compute metrics: keep only names this ncu knows -----------------
NCU=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
CAND="
sm__sass_thread_inst_executed_op_dadd_pred_on.sum
sm__sass_thread_inst_executed_op_dmul_pred_on.sum
sm__sass_thread_inst_executed_op_dfma_pred_on.sum
sm__sass_thread_inst_executed_op_fadd_pred_on.sum
sm__sass_thread_inst_executed_op_fmul_pred_on.sum
sm__sass_thread_inst_executed_op_ffma_pred_on.sum
sm__sass_thread_inst_executed_op_hadd_pred_on.sum
sm__sass_thread_inst_executed_op_hmul_pred_on.sum
sm__sass_thread_inst_executed_op_hfma_pred_on.sum
sm__sass_data_bytes_mem_global_op_ld.sum
sm__sass_data_bytes_mem_global_op_st.sum
sm__sass_data_bytes_mem_global_op_atom.sum
sm__sass_data_bytes_mem_global_op_red.sum
sm__sass_data_bytes_mem_shared_op_ld.sum
sm__sass_data_bytes_mem_shared_op_st.sum
sm__sass_data_bytes_mem_shared_op_atom.sum
sm__sass_data_bytes_mem_local_op_ld.sum
sm__sass_data_bytes_mem_local_op_st.sum
sm__inst_executed_pipe_tensor_op_hmma.sum
sm__ops_path_tensor_src_fp16.sum
"
METRICS=""
rm -f "$OUT/ncu-dropped-metrics.txt"
if [ "${NO_NCU:-0}" != 1 ] && [ -n "$NCU" ] && [ -x "$NCU" ]; then
  "$NCU" --query-metrics >"$OUT/ncu-query-metrics.txt" 2>&1 || true
  for m in $CAND; do
    if grep -qw -- "${m%.sum}" "$OUT/ncu-query-metrics.txt"; then
      METRICS="$METRICS${METRICS:+,}$m"
    else
      echo "$m" >>"$OUT/ncu-dropped-metrics.txt"
    fi
  done
  if [ -z "$METRICS" ]; then  # query failed: try all, ncu will say which is wrong
    METRICS=$(echo $CAND | tr ' ' ',')
  fi
  log "ncu: $NCU; $(echo "$METRICS" | tr ',' '\n' | wc -l) metrics${OUT:+ (dropped: $(cat "$OUT/ncu-dropped-metrics.txt" 2>/dev/null | tr '\n' ' '))}"
else
  log "ncu: not found or NO_NCU=1: the ncu column stays empty"
fi

for P in $PROGS; do
  rm -f "$OUT/$P.profile.json"
  # (a) instrumented run under the runtime: expectations + dynamic counts
  case $MODE in
    hroof-run)
      timeout 300 "$HROOF" run --output "$OUT/$P.profile.json" -- "$C/bin/$P.inst" \
        >"$OUT/$P.inst.stdout" 2>"$OUT/$P.inst.stderr" ;;
    injection)
      CUDA_INJECTION64_PATH="$RT" HROOF_OUTPUT="$OUT/$P.profile.json" timeout 300 \
        "$C/bin/$P.inst" >"$OUT/$P.inst.stdout" 2>"$OUT/$P.inst.stderr" ;;
    *)
      timeout 300 "$C/bin/$P.inst" >"$OUT/$P.inst.stdout" 2>"$OUT/$P.inst.stderr" ;;
  esac
  rc=$?
  # a profile written elsewhere (directory output, hroof-<pid>.json in cwd)
  if [ ! -f "$OUT/$P.profile.json" ]; then
    if [ -d "$OUT/$P.profile.json" ]; then mv "$OUT/$P.profile.json" "$OUT/$P.profile"; fi
    for f in hroof-*.json; do [ -f "$f" ] && mkdir -p "$OUT/$P.profile" && mv "$f" "$OUT/$P.profile/"; done
  fi
  log "$P: instrumented run rc=$rc ($(grep -c HROOF_EXPECT "$OUT/$P.inst.stdout") expectations; $(tail -1 "$OUT/$P.inst.stdout"))"
  # (b) Nsight Compute on the plain binary
  if [ -n "$METRICS" ]; then
    ok=0
    for opts in "--print-units base --print-kernel-base function" "--print-units base" ""; do
      # shellcheck disable=SC2086
      timeout 400 "$NCU" --clock-control none --csv --page raw $opts --metrics "$METRICS" \
        --log-file "$OUT/$P.ncu.csv" "$C/bin/$P.plain" >"$OUT/$P.ncu.stdout" 2>&1 && ok=1
      grep -q '"ID"' "$OUT/$P.ncu.csv" 2>/dev/null || { grep -q '"ID"' "$OUT/$P.ncu.stdout" && cp "$OUT/$P.ncu.stdout" "$OUT/$P.ncu.csv"; }
      [ $ok = 1 ] && break
      log "$P: ncu failed with options '$opts', retrying ($(grep -m1 -i error "$OUT/$P.ncu.csv" "$OUT/$P.ncu.stdout" 2>/dev/null | head -1))"
    done
    log "$P: ncu rc ok=$ok ($(grep -c '^"[0-9]' "$OUT/$P.ncu.csv" 2>/dev/null || echo 0) kernel rows)"
  fi
  # (c) timing, no runtime attached
  timeout 300 "$C/bin/$P.plain" --time "$NTIME" >"$OUT/$P.time.plain.txt" 2>&1
  timeout 300 "$C/bin/$P.inst" --time "$NTIME" >"$OUT/$P.time.inst.txt" 2>&1
  log "$P: timing done"
done

# (d) the comparison; its short table is the last thing printed
python3 "$ROOT/test/gpu/compare.py" --out "$OUT" --inputs "$C" $PROGS
rc=$?
{ echo; echo "device: $DEVICE"; echo "date: $(date -u +%FT%TZ)"; echo "runtime attach: $MODE"; echo "ncu: $NCU"; } >>"$OUT/table.md"
exit $rc
