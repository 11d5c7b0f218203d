#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Instrumentation overhead on public programs, on the machine with the GPU from the
# repository root; builds nothing. Needs .gpu-inputs/warpcorpus with the plain,
# inst and warp binaries (corpus-build.sh)
# and .gpu-inputs/gpu/{bin/hroof,lib/libhroof_rt.so} (test/gpu/build.sh).
# For each program of .gpu-inputs/warpcorpus/programs.txt (or ONLY="a b"), REPS
# rounds of: NAME.plain, NAME.inst (thread-level counts, the default), NAME.warp (with the
# opt-in warp-level counts) or the VARIANTS named, each under
#   hroof run --counters none --static-eval 0 --launch-limit LAUNCHES
# whose launch records carry CUPTI's kernel durations (the same tracing for
# all three, so only the kernel code differs); the order of the three rotates
# from round to round. overhead-compare.py (run where hroof is built) takes
# the per-kernel median durations and their ratios.
# Writes $OUT/overhead/NAME.VARIANT.ROUND.json and a tarball of the folder
# after each program ($OUT/overhead.tgz). Stops starting programs after
# BUDGET_S seconds (default 300).
set -uo pipefail
. "$(dirname "$0")/corpus-lib.sh" overhead
LAUNCHES=${LAUNCHES:-200}
# The binaries timed, in the order of round 1 (rotated by one each round):
# corpus-build.sh's variants, e.g. VARIANTS="plain inst inst-base" (before/after).
read -r -a VARS <<<"${VARIANTS:-plain inst warp}"
REPS=${REPS:-2}
BUDGET_S=${BUDGET_S:-300}
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
  echo "hroof run --counters none --static-eval 0 --launch-limit $LAUNCHES --no-summary --output NAME.VARIANT.ROUND.json -- NAME.VARIANT ARGS (REPS=$REPS)"; } >"$O/env.txt" 2>&1
WORK=$(mktemp -d)
START=$SECONDS
BAD=0 # runs that exited non-zero: the check fails
for ((round = 1; round <= REPS; ++round)); do
  while read -r -u3 name args; do
    [[ -z $name || $name == \#* ]] && continue
    [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]] && continue
    if ((SECONDS - START > BUDGET_S)); then echo "budget: stopped before $name round $round" >>"$O/status.txt"; break 2; fi
    missing=""; for v in "${VARS[@]}"; do [ -x "$C/bin/$name.$v" ] || missing+=" $v"; done
    [ -z "$missing" ] || { echo "$name: not built:$missing" >>"$O/status.txt"; continue; }
    order=""; for ((k = 0; k < ${#VARS[@]}; ++k)); do order+=" ${VARS[(k + round - 1) % ${#VARS[@]}]}"; done
    line="$name round $round:"
    for v in $order; do
      cd "$WORK"
      t0=$(date +%s%N)
      timeout 90 "$HROOF" run --counters none --static-eval 0 --launch-limit "$LAUNCHES" --no-summary \
        --output "$O/$name.$v.$round.json" -- "$C/bin/$name.$v" $args >"$O/$name.$v.log" 2>&1 </dev/null
      rc=$?
      [ $rc = 0 ] || BAD=$((BAD + 1))
      line+=" $v rc=$rc $(( ($(date +%s%N) - t0) / 1000000 ))ms"
      cd "$ROOT"
    done
    echo "$line" >>"$O/status.txt"
    find "$O" -name '*.log' -size +20k -exec sh -c 'tail -c 20000 "$1" >"$1.t" && mv "$1.t" "$1"' _ {} \;
    (cd "$BASE" && tar czf overhead.tgz.tmp overhead && mv overhead.tgz.tmp overhead.tgz)
  done 3<"$C/programs.txt"
done
rm -rf "$WORK"
cat "$O/status.txt"
[ $BAD = 0 ] || { echo "overhead-run.sh: $BAD run(s) failed (status.txt)" >&2; exit 1; }
