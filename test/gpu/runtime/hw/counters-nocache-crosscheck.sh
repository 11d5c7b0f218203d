#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# counters-nocache-crosscheck.sh - the examples next to ncu --cache-control none, the spread
# of repeated runs, the runtime's GPU smoke test with counters, and the cost of a complete
# ncu --set roofline. On the machine with the GPU, from the repository root, builds nothing; needs .gpu-inputs/hw
# (README.md; .gpu-inputs/hw/ncu-list.txt from counters-crosscheck.sh). Writes
# $OUT/counters-nocache-crosscheck.tgz and prints the summary last.
H=.gpu-inputs/hw; B=$H/build; HR=$B/bin/hroof
W=/tmp/w; rm -rf $W; mkdir -p $W/p
S=$W/summary.txt; : > $S
say() { echo "$*" | tee -a $S; }
t() { local s=$(date +%s.%N); "$@"; local rc=$?; say "  [$(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $s}") s rc=$rc] $*"; return $rc; }
finish() { tar czf $OUT/counters-nocache-crosscheck.tgz -C $W . ; echo "==== SUMMARY"; tail -50 $S | cut -c1-200; }
trap finish EXIT
say "date: $(date -u)"; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee -a $S
cp $H/ncu-list.txt $W/ 2>/dev/null
for e in saxpy reduce sgemm_tiled stencil2d half2_bf16 mma_gemm; do
  mkdir -p $W/p/$e.plain; t timeout 60 $HR run --no-summary --output $W/p/$e.plain -- $H/bin/$e.plain > /dev/null 2>&1
  t timeout 60 ncu --clock-control none --cache-control none --metrics $(cat $H/ncu-list.txt) --csv --page raw --log-file $W/ncu-$e.none.csv $H/bin/$e.plain > /dev/null 2>&1
done
say "--- many 40 rounds, twice"
mkdir -p $W/p/m40 $W/p/m40r
t $HR run --no-summary --verbose 1 --output $W/p/m40 -- $H/bin/many.plain 40 2>&1 | grep -E "ranges|off" | cut -c1-250 | tee -a $S
t $HR run --no-summary --verbose 1 --output $W/p/m40r -- $H/bin/many.plain 40 2>&1 | grep -E "ranges|off|problem" | cut -c1-250 | tee -a $S
say "--- torch_train"
mkdir -p $W/p/trainr
t timeout 100 $HR run --no-summary --verbose 1 --output $W/p/trainr -- python3 $H/torch_train.py 3 2>&1 | grep -E "ranges|off|torch_train" | cut -c1-250 | tee -a $S
say "--- runtime-gpu-smoke with counters"
t env HROOF_RT_LOGS=$W/smoke timeout 100 test/gpu/runtime/run.sh .gpu-inputs/hw/build > $W/smoke.log 2>&1
grep -E "^FAIL|^PASS fake_saxpy: [0-9]+ launches with|^PASS launches with|^PASS fault: hard|runtime-gpu-smoke|INFO (plain|hroof)" $W/smoke.log | tee -a $S
say "--- cost, many 10 rounds (30 launches): plain, hroof, ncu --set roofline (complete)"
t $H/bin/many.plain 10 > /dev/null
mkdir -p $W/p/m10; t $HR run --no-summary --output $W/p/m10 -- $H/bin/many.plain 10 > /dev/null 2>&1
t timeout 60 ncu --clock-control none --set roofline $H/bin/many.plain 10 > $W/ncu-many10.log 2>&1
say "  ncu profiled kernels: $(grep -c '==PROF== Profiling' $W/ncu-many10.log)"
