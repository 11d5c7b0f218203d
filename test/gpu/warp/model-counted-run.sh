#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Kernels counted by their exact static model against the same kernels
# instrumented, on the machine with the GPU from the repository root; builds nothing.
# Needs .gpu-inputs/warpcorpus with the inst (the plugin's default: exact kernels
# uninstrumented, their counts from the model) and inst-all
# (-mllvm -hroof-instrument-exact) binaries of corpus-build.sh, and
# .gpu-inputs/gpu/{bin/hroof,lib/libhroof_rt.so}. For each program of
# .gpu-inputs/warpcorpus/programs.txt (or ONLY="a b"):
#   hroof run --counters none --launch-limit LAUNCHES --output NAME.VARIANT.json -- NAME.VARIANT ARGS
# for both variants. model-counted-compare.py (here) pairs the launches and
# checks that every count taken from the model equals the instrumented one.
# Writes $OUT/model-counted/ and its tarball after each program; stops
# starting programs after BUDGET_S seconds (default 240).
set -uo pipefail
. "$(dirname "$0")/corpus-lib.sh" model-counted
LAUNCHES=${LAUNCHES:-20}
BUDGET_S=${BUDGET_S:-240}
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "hroof run --counters none --launch-limit $LAUNCHES --no-summary --output NAME.VARIANT.json -- NAME.VARIANT ARGS"; } >"$O/env.txt" 2>&1
WORK=$(mktemp -d)
START=$SECONDS
BAD=0
while read -r -u3 name args; do
  [[ -z $name || $name == \#* ]] && continue
  [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]] && continue
  if ((SECONDS - START > BUDGET_S)); then echo "budget: stopped before $name" >>"$O/status.txt"; break; fi
  line="$name:"
  for v in inst inst-all; do
    [ -x "$C/bin/$name.$v" ] || { line+=" $v not built"; continue; }
    cd "$WORK"
    timeout 90 "$HROOF" run --counters none --launch-limit "$LAUNCHES" --no-summary \
      --output "$O/$name.$v.json" -- "$C/bin/$name.$v" $args >"$O/$name.$v.log" 2>&1 </dev/null
    rc=$?
    [ $rc = 0 ] || BAD=$((BAD + 1))
    line+=" $v rc=$rc"
    cd "$ROOT"
  done
  echo "$line" >>"$O/status.txt"
  find "$O" -name '*.log' -size +20k -exec sh -c 'tail -c 20000 "$1" >"$1.t" && mv "$1.t" "$1"' _ {} \;
  (cd "$BASE" && tar czf model-counted.tgz.tmp model-counted && mv model-counted.tgz.tmp model-counted.tgz)
done 3<"$C/programs.txt"
rm -rf "$WORK"
cat "$O/status.txt"
[ $BAD = 0 ] || { echo "model-counted-run.sh: $BAD run(s) failed (status.txt)" >&2; exit 1; }
