#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# dram-run.sh - hroof's DRAM bytes against Nsight Compute's under the same cache
# policy, on the machine with the GPU from the repository root; builds nothing. Needs
# .gpu-inputs/warpcorpus (test/gpu/warp/corpus-build.sh SRC test/gpu/warp/hecbench-dram.txt)
# and the copied build/bin/hroof + build/lib/libhroof_rt.so. For each program of
# .gpu-inputs/warpcorpus/programs.txt, on NAME.plain (no plugin code in the kernels):
#   roof  hroof run --counters roofline --cache-control all       (the roofline set:
#         several replay passes per launch)
#   dram  hroof run --counters dram__bytes_read.sum,dram__bytes_write.sum
#         --cache-control all                                     (one pass)
#   ncu   ncu --clock-control none --cache-control all --metrics the same two
# each with LAUNCHES launches per kernel (ncu: LAUNCHES in all), and with
# STATIC_PROGRAMS (default "babelstream stencil1d softmax") also
#   inst  hroof run --counters roofline --cache-control all on NAME.inst (the
#         static model beside the counters: hroof report --static)
# then test/gpu/warp/dram-compare.py (run here or where hroof is built).
# ONLY="NAME..." runs only those programs; MODES (default "roof dram") picks
# the hroof runs.
# Writes $OUT/dram/ and rewrites $OUT/dram.tgz after each program; stops
# starting programs after BUDGET_S seconds (default 420).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU (nvidia-smi failed)"; exit 77; fi
C=$ROOT/.gpu-inputs/warpcorpus
HROOF=$ROOT/build/bin/hroof
for f in "$HROOF" "$ROOT/build/lib/libhroof_rt.so" "$C/programs.txt"; do
  [ -e "$f" ] || { echo "dram-run.sh: $f missing (see the header)"; exit 77; }
done
unset CUDA_INJECTION64_PATH
export HROOF_MACHINES_DIR=$ROOT/docs/machines
BASE=${OUT:-$ROOT/gpu-out}
O=$BASE/dram
mkdir -p "$O"
LAUNCHES=${LAUNCHES:-10}
BUDGET_S=${BUDGET_S:-420}
STATIC_PROGRAMS=${STATIC_PROGRAMS:-babelstream stencil1d softmax}
ONLY=${ONLY:-}
MODES=${MODES:-roof dram}
DRAM=dram__bytes_read.sum,dram__bytes_write.sum
T0=$(date +%s)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1
  git -C "$ROOT" log -1 --oneline 2>/dev/null
  echo "roof: hroof run --counters roofline --cache-control all --launch-limit $LAUNCHES --no-summary --output NAME.roof.profile.json -- NAME.plain ARGS"
  echo "dram: hroof run --counters $DRAM --cache-control all --launch-limit $LAUNCHES --no-summary --output NAME.dram.profile.json -- NAME.plain ARGS"
  echo "ncu:  ncu --clock-control none --cache-control all --csv --launch-count $LAUNCHES --metrics $DRAM NAME.plain ARGS"
  echo "inst: hroof run --counters roofline --cache-control all --launch-limit $LAUNCHES --no-summary --output NAME.inst.profile.json -- NAME.inst ARGS"
} >"$O/env.txt" 2>&1
WORK=$(mktemp -d)
hroof_run() { # MODE BINARY COUNTERS ARGS...
  local mode=$1 bin=$2 counters=$3; shift 3
  (cd "$WORK" && timeout 120 "$HROOF" run --counters "$counters" --cache-control all \
     --launch-limit "$LAUNCHES" --no-summary --output "$O/$name.$mode.profile.json" -- \
     "$bin" "$@" >"$O/$name.$mode.log" 2>&1)
  echo -n " $mode rc=$?"
  tail -c 8000 "$O/$name.$mode.log" >"$O/$name.$mode.tail" && rm -f "$O/$name.$mode.log"
}
while read -r name args; do
  [[ -z $name || $name == \#* ]] && continue
  [[ -n $ONLY && " $ONLY " != *" $name "* ]] && continue
  if [ $(( $(date +%s) - T0 )) -gt "$BUDGET_S" ]; then echo "$name: skipped (budget)" >>"$O/status.txt"; continue; fi
  [ -x "$C/bin/$name.plain" ] || { echo "$name: not built" >>"$O/status.txt"; continue; }
  # Said before it runs, and packed: a program that hangs past the command's
  # own limit is then named in what comes back.
  echo "$name: started at $(( $(date +%s) - T0 )) s" >>"$O/status.txt"
  (cd "$BASE" && tar czf dram.tgz dram)
  {
    echo -n "$name:"
    [[ " $MODES " == *" roof "* ]] && hroof_run roof "$C/bin/$name.plain" roofline $args
    [[ " $MODES " == *" dram "* ]] && hroof_run dram "$C/bin/$name.plain" "$DRAM" $args
    (cd "$WORK" && timeout 180 ncu --clock-control none --cache-control all --csv \
       --launch-count "$LAUNCHES" --metrics "$DRAM" "$C/bin/$name.plain" $args \
       >"$O/$name.ncu.csv" 2>"$O/$name.ncu.stderr")
    echo -n " ncu rc=$?"
    if [[ " $STATIC_PROGRAMS " == *" $name "* && -x "$C/bin/$name.inst" ]]; then
      hroof_run inst "$C/bin/$name.inst" roofline $args
    fi
    echo " ($(( $(date +%s) - T0 )) s)"
  } >>"$O/status.txt"
  for f in "$O"/$name.*.profile.json; do [ -f "$f" ] && gzip -f "$f"; done
  (cd "$BASE" && tar czf dram.tgz dram)
done <"$C/programs.txt"
rm -rf "$WORK"
cat "$O/status.txt"
