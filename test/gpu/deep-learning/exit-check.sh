#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Does the PyTorch example exit cleanly under hroof run? On the machine with the GPU,
# from the repository root; builds nothing (inputs build/bin/hroof and
# build/lib/libhroof_rt.so). examples/pytorch_nvtx.py (FP32, STEPS steps,
# default 20) runs once plain and once under each configuration:
#   none    hroof run --counters none
#   shape   hroof run --range 'step 10' --counters-per-shape 1 (kernel replay)
#   app     the same with --replay application
#   pass    the same with --replay passes (one range profiler object, a
#           counter pass per later step: runtime/src/replay/PassSchedule.h)
#   shapewarm, appwarm  shape and app with a type cache kept in $OUT/exit
#           (as the default cache would be across runs): the first learns
#           the Tensor Core types, the next ones start from them
# and the exit status and wall time of each are printed (a profiler must not
# change the program's exit status). Writes $OUT/exit/ (stderr tails, times).
# CONFIGS="plain shape": only those; AMP=1: the example's --amp (mixed precision).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU (nvidia-smi failed)"; exit 77; fi
HROOF=${HROOF:-$ROOT/build/bin/hroof}
SCRIPT=$ROOT/examples/pytorch_nvtx.py
STEPS=${STEPS:-20}
O=${OUT:-$ROOT/gpu-out}/exit
mkdir -p "$O"
fail=0
AMPFLAG=(); [ "${AMP:-0}" = 1 ] && AMPFLAG=(--amp)
for cfg in ${CONFIGS:-plain none shape app}; do
  case $cfg in
    plain) cmd=(python3 "$SCRIPT" --steps "$STEPS") ;;
    none) cmd=("$HROOF" run --counters none --output "$O/$cfg.json" -- python3 "$SCRIPT" --steps "$STEPS") ;;
    shape) cmd=("$HROOF" run --type-cache none --range 'step 10(/|$)' --counters-per-shape 1
                --output "$O/$cfg.json" -- python3 "$SCRIPT" --steps "$STEPS") ;;
    app) cmd=("$HROOF" run --type-cache none --range 'step 10(/|$)' --counters-per-shape 1
              --replay application --output "$O/$cfg.json" -- python3 "$SCRIPT" --steps "$STEPS") ;;
    pass) cmd=("$HROOF" run --type-cache none --range 'step 10(/|$)' --counters-per-shape 1
               --replay passes --output "$O/$cfg-$(ls "$O" | grep -c "^pass-.*\.json$").json"
               -- python3 "$SCRIPT" --steps "$STEPS") ;;
    shapewarm|appwarm)
      # The default type cache's behaviour, in a file of this check: the
      # first such run learns the kernels' Tensor Core types, later ones
      # take them from the cache (docs/runtime.md, "Tensor Core types").
      replay=kernel; [ $cfg = appwarm ] && replay=application
      n=$(ls "$O" | grep -c "^$cfg-.*\.json$" || true)
      cmd=("$HROOF" run --type-cache "$O/types.tsv" --range 'step 10(/|$)' --counters-per-shape 1
           --replay $replay --output "$O/$cfg-$n.json" -- python3 "$SCRIPT" --steps "$STEPS") ;;
  esac
  t0=$(date +%s%N)
  timeout 150 "${cmd[@]}" ${AMPFLAG[@]+"${AMPFLAG[@]}"} >"$O/$cfg.stdout" 2>"$O/$cfg.stderr"
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "$cfg${AMPFLAG:+ (amp)}: exit $rc, wall $((ms / 1000)).$(printf %03d $((ms % 1000))) s" | tee -a "$O/summary.txt"
  tail -c 4000 "$O/$cfg.stderr" >"$O/$cfg.stderr.tail"; rm -f "$O/$cfg.stderr"
  [ $rc = 0 ] || fail=1
done
exit $fail
