#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Warp-level validation on public programs, on the machine with the GPU from the
# repository root; builds nothing. Needs .gpu-inputs/warpcorpus (corpus-build.sh)
# and .gpu-inputs/gpu/{bin/hroof,lib/libhroof_rt.so} (test/gpu/build.sh). For each
# program of .gpu-inputs/warpcorpus/programs.txt:
#   hroof run --counters none   on NAME.warp (else NAME.inst): the static model (and its
#                               warp-level traffic) at each launch, with the
#                               real arguments, and the dynamic warp-level
#                               counts of NAME.warp) -> NAME.profile.json
#   ncu --launch-count LAUNCHES on NAME.plain: the same launches' counters
#                               -> NAME.ncu.csv
# then corpus-compare.py (run where hroof is built) sets them side by side,
# and footprint-compare.py the footprint beside the DRAM bytes.
# Writes $OUT/warpcorpus/ and a tarball of it after each program
# ($OUT/warpcorpus.tgz), so a run cut short keeps what it finished; starts no
# program after BUDGET_S seconds (unset: no limit); ONLY="a b": those programs.
set -uo pipefail
. "$(dirname "$0")/corpus-lib.sh" warpcorpus
LAUNCHES=${LAUNCHES:-40}
METRICS=sm__sass_data_bytes_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_st.sum
METRICS+=,sm__sass_data_bytes_mem_shared_op_ld.sum,sm__sass_data_bytes_mem_shared_op_st.sum
METRICS+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
METRICS+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
METRICS+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
# DRAM bytes against the footprint: ncu flushes every cache before each
# profiled launch (--cache-control all, its default, stated here).
METRICS+=,dram__bytes_read.sum,dram__bytes_write.sum
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1
  echo "ncu --clock-control none --cache-control all --csv --launch-count $LAUNCHES --metrics $METRICS NAME.plain ARGS"
  echo "hroof run --counters none --launch-limit $LAUNCHES --output NAME.profile.json -- NAME.inst ARGS"; } >"$O/env.txt" 2>&1
WORK=$(mktemp -d)
START=$SECONDS
BAD=0 # programs whose hroof run failed: the check fails (ncu may fail on its own)
while read -r -u3 name args; do
  [[ -z $name || $name == \#* ]] && continue
  if ((SECONDS - START > ${BUDGET_S:-100000})); then echo "budget: stopped before $name" >>"$O/status.txt"; break; fi
  # The dynamic warp-level counts are opt-in: NAME.warp has them.
  inst=$C/bin/$name.warp; [ -x "$inst" ] || inst=$C/bin/$name.inst
  [ -x "$inst" ] || { echo "$name: not built" >>"$O/status.txt"; continue; }
  [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]] && continue
  cd "$WORK"
  timeout 60 "$HROOF" run --counters none --launch-limit "$LAUNCHES" --no-summary \
    --output "$O/$name.profile.json" -- "$inst" $args >"$O/$name.run.log" 2>&1 </dev/null
  rc1=$?
  [ $rc1 = 0 ] || BAD=$((BAD + 1))
  timeout 120 ncu --clock-control none --cache-control all --csv --launch-count "$LAUNCHES" \
    --metrics "$METRICS" \
    "$C/bin/$name.plain" $args >"$O/$name.ncu.csv" 2>"$O/$name.ncu.stderr" </dev/null
  rc2=$?
  cd "$ROOT"
  echo "$name: run rc=$rc1 ncu rc=$rc2" >>"$O/status.txt"
  tail -c 20000 "$O/$name.run.log" >"$O/$name.run.tail" && rm -f "$O/$name.run.log"
  (cd "$BASE" && tar czf warpcorpus.tgz.tmp warpcorpus && mv warpcorpus.tgz.tmp warpcorpus.tgz)
done 3<"$C/programs.txt"
rm -rf "$WORK"
cat "$O/status.txt"
[ $BAD = 0 ] || { echo "corpus-run.sh: $BAD program(s) failed under hroof run" >&2; exit 1; }
