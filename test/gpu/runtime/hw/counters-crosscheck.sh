#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# counters-crosscheck.sh - hardware counters on the examples (plain and instrumented) next to
# Nsight Compute with the same metric list, PyTorch (torch_small.py), the degrading cases
# (a faulting kernel, exit inside a range, the runtime under ncu) and the launch cost.
# On the machine with the GPU, repository root, builds nothing; needs .gpu-inputs/hw (README.md). Writes
# $OUT/counters-crosscheck.tgz and prints the summary last.
H=.gpu-inputs/hw; B=$H/build; HR=$B/bin/hroof; LIB=$PWD/$B/lib/libhroof_rt.so
W=/tmp/w; rm -rf $W; mkdir -p $W/p
S=$W/summary.txt; : > $S
say() { echo "$*" | tee -a $S; }
t() { local s=$(date +%s.%N); "$@"; local rc=$?; say "  [$(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $s}") s rc=$rc] $*"; return $rc; }
finish() { tar czf $OUT/counters-crosscheck.tgz -C $W . ; echo "==== SUMMARY"; tail -70 $S | cut -c1-200; }
trap finish EXIT
say "date: $(date -u)"; nvidia-smi -L | tee -a $S; ncu --version | tail -1 | tee -a $S
nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a $S
for e in saxpy reduce sgemm_tiled stencil2d half2_bf16 mma_gemm; do
  for k in plain inst; do
    mkdir -p $W/p/$e.$k
    t timeout 60 $HR run --verbose 1 --output $W/p/$e.$k -- $H/bin/$e.$k > $W/p/$e.$k.log 2>&1
  done
done
grep hroof: $W/p/saxpy.plain.log | grep -v "kernel\|profile:" | head -5 | cut -c1-400 | tee -a $S
tail -4 $W/p/saxpy.inst.log | tee -a $S
python3 - $W/p/saxpy.plain > $W/ncu-list.txt <<'PY'
import json,glob,sys
p=json.load(open(glob.glob(sys.argv[1]+"/*.json")[0]))
for L in p["launches"]:
    if L.get("counters"):
        print(",".join(m for m in L["counters"]["raw"] if "peak_sustained" not in m and "per_second" not in m)); break
else:
    print("gpu__time_duration.sum,dram__bytes_read.sum"); print(p.get("notes"), file=sys.stderr)
PY
say "ncu metrics: $(tr ',' '\n' < $W/ncu-list.txt | wc -l)"
for e in saxpy reduce sgemm_tiled stencil2d half2_bf16 mma_gemm; do
  t timeout 60 ncu --clock-control none --metrics $(cat $W/ncu-list.txt) --csv --page raw --log-file $W/ncu-$e.csv $H/bin/$e.plain > /dev/null 2>&1
done
mkdir -p $W/p/torch
t timeout 120 $HR run --verbose 1 --output $W/p/torch -- python3 $H/torch_small.py > $W/p/torch.log 2>&1
grep -v "hroof: kernel" $W/p/torch.log | tail -16 | cut -c1-170 | tee -a $S
t timeout 90 ncu --clock-control none --metrics $(cat $W/ncu-list.txt) --csv --page raw --log-file $W/ncu-torch.csv python3 $H/torch_small.py > /dev/null 2>&1
say "--- degrade: fault"
mkdir -p $W/p/fault
t timeout 60 $HR run --output $W/p/fault -- $B/bin/hroof-rt-fake fault > $W/p/fault.log 2>&1
grep -E "hroof:|fake|note" $W/p/fault.log | head -8 | cut -c1-300 | tee -a $S
say "--- degrade: exit inside a range"
mkdir -p $W/p/exitrace
t timeout 40 $HR run --output $W/p/exitrace -- $H/bin/many.plain exitrace > $W/p/exitrace.log 2>&1
grep -E "hroof:|many|note" $W/p/exitrace.log | head -8 | cut -c1-300 | tee -a $S
say "--- degrade: linked runtime (LD_PRELOAD) under ncu"
mkdir -p $W/p/ncu3
t timeout 40 ncu --clock-control none --metrics gpu__time_duration.sum env LD_PRELOAD=$LIB HROOF_OUTPUT=$W/p/ncu3 $H/bin/saxpy.plain > $W/p/ncu3.log 2>&1
grep -vE "^\s*$" $W/p/ncu3.log | head -12 | cut -c1-200 | tee -a $S
say "--- cost (a): many_launches 100 rounds = 300 launches"
for i in 1 2; do t $H/bin/many.plain 100 > /dev/null; done
for i in 1 2; do mkdir -p $W/p/many$i; t $HR run --no-summary --output $W/p/many$i -- $H/bin/many.plain 100 > $W/p/many$i.log 2>&1; done
grep -E "hroof:" $W/p/many1.log | head -3 | cut -c1-200 | tee -a $S
mkdir -p $W/p/manyn; t $HR run --counters none --no-summary --output $W/p/manyn -- $H/bin/many.plain 100 > /dev/null 2>&1
say "--- cost (b): torch_train 3 steps"
t python3 $H/torch_train.py 3 > /dev/null 2>&1
mkdir -p $W/p/train
t timeout 150 $HR run --output $W/p/train -- python3 $H/torch_train.py 3 > $W/p/train.log 2>&1
grep -E "hroof:|torch_train|note" $W/p/train.log | head -8 | cut -c1-200 | tee -a $S
