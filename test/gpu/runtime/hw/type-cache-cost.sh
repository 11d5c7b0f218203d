#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# type-cache-cost.sh smoke|torch|many|overhead|steps - the tensor-type cache and the cost of
# hroof run next to ncu, on the machine with the GPU, from the repository root; builds nothing.
# Inputs: build/bin, build/lib, .gpu-inputs/hw/bin.
# Writes logs and profiles under $OUT (one tarball), prints a table last.
#   smoke : the runtime's GPU smoke test (test/gpu/runtime/run.sh), which now
#           also runs counters-not-permitted (LD_PRELOAD shim) and the
#           tensor-type cache (second run from the first's cache).
#   torch : torch_train.py 3 (123 launches), interleaved three times: plain,
#           hroof run with an empty tensor-type cache (cold), hroof run with
#           the cache of an earlier run (warm); then ncu --set roofline twice.
#           Exactness: the warm run vs --counters roofline-full.
#   many  : many_launches 100 (300 launches), the same rows, ncu once.
set -uo pipefail
. "$(dirname "$0")/common.sh"
hw_start type-cache-cost "${1:?smoke, torch, many, overhead or steps}"
hr() { local n=$1; shift; mkdir -p $W/p/$n; t $n $HR run --no-summary --verbose 1 --output $W/p/$n "$@"
       grep -h "ranges by replay\|tensor-type cache\|configure+start per range" $W/$n.log | sed 's/^hroof: hardware counters: [0-9]* ranges; //' | cut -c1-260 | sed 's/^/    /' | tee -a $S; }

if [ "$MODE" = smoke ]; then
  HROOF_RT_LOGS=$W/smoke bash test/gpu/runtime/run.sh $PWD/build > $W/smoke.log 2>&1
  say "smoke rc=$?"
  grep -E "^(PASS|FAIL|INFO)|^hroof: .*(not permitted|tensor-type cache|ranges by)|runtime-gpu-smoke" $W/smoke.log | cut -c1-300 | tee -a $S
fi

# cost PROGRAM-NAME NCU-RUNS CMD...: plain/cold/warm interleaved x3, then ncu.
cost() {
  local n=$1 nn=$2; shift 2
  hr $n-warmup --type-cache $W/warm.tsv -- "$@"   # fills the warm cache
  for i in 1 2 3; do
    t $n-plain-$i "$@"
    hr $n-cold-$i --type-cache $W/cold-$i.tsv -- "$@"
    hr $n-warm-$i --type-cache $W/warm.tsv -- "$@"
  done
  for i in $(seq $nn); do
    t $n-ncu-$i timeout 400 ncu --clock-control none --set roofline "$@"
    say "  ncu profiled: $(grep -c '==PROF== Profiling' $W/$n-ncu-$i.log) kernels"
  done
  hr $n-full --counters roofline-full -- "$@"
  say "--- $n: warm (cached types) vs roofline-full, and cold vs roofline-full"
  python3 $HW/compare_learned.py $W/p/$n-warm-1 $W/p/$n-full 2>&1 | tail -4 | tee -a $S
  python3 $HW/compare_learned.py $W/p/$n-cold-1 $W/p/$n-full 2>&1 | tail -4 | tee -a $S
  python3 - $W $n $nn <<'PY' | tee -a $S
import re, statistics, sys
W, n, nn = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = open(W + "/summary.txt").read()
def secs(k):
    return [float(m) for m in re.findall(r"^%s-%s(?:-\d)?\s+([\d.]+) s rc=0" % (n, k), s, re.M)]
rows = {k: secs(k) for k in ["plain", "cold", "warm", "ncu"]}
ncu = statistics.median(rows["ncu"]) if rows["ncu"] else float("nan")
print("%s: median wall (runs)   plain %s   cold %s   warm %s   ncu %s" % (n, *[
    "%.2f s (%s)" % (statistics.median(v), ", ".join("%.2f" % x for x in v)) if v else "-" for v in rows.values()]))
for k in ["cold", "warm"]:
    if rows[k] and rows["ncu"]:
        print("  hroof %s / ncu: median %.3f, worst %.3f" % (k, statistics.median(rows[k]) / ncu, max(rows[k]) / min(rows["ncu"])))
PY
}

if [ "$MODE" = overhead ]; then # hroof's cost outside the ranges, torch_train.py 3
  T="python3 $HW/torch_train.py 3"
  for i in 1 2; do
    t ovh-plain-$i $T
    hr ovh-none-$i --counters none -- $T
    hr ovh-time-$i --counters gpu__time_duration.sum -- $T
  done
  hr ovh-fill --type-cache $W/o.tsv -- $T
  hr ovh-warm --type-cache $W/o.tsv -- $T
fi
if [ "$MODE" = steps ]; then # torch_train.py 10 (about 410 launches)
  T="python3 $HW/torch_train.py 10"
  for i in 1 2; do
    t steps-plain-$i $T
    hr steps-cold-$i --type-cache $W/s-cold-$i.tsv -- $T
  done
  hr steps-warm-1 --type-cache $W/s-cold-1.tsv -- $T
  t steps-ncu-1 timeout 500 ncu --clock-control none --set roofline $T
  say "  ncu profiled: $(grep -c '==PROF== Profiling' $W/steps-ncu-1.log) kernels"
  python3 - $W <<'PY' | tee -a $S
import re, statistics, sys
s = open(sys.argv[1] + "/summary.txt").read()
v = {k: [float(x) for x in re.findall(r"^steps-%s-\d\s+([\d.]+) s rc=0" % k, s, re.M)] for k in ["plain", "cold", "warm", "ncu"]}
print("steps 10: plain %s  cold %s  warm %s  ncu %s" % tuple(v[k] for k in ["plain", "cold", "warm", "ncu"]))
if v["ncu"]:
    n = v["ncu"][0]; p = statistics.median(v["plain"])
    for k in ["cold", "warm"]:
        for x in v[k]:
            print("  %s / ncu = %.3f   (hroof - plain) / (ncu - plain) = %.3f" % (k, x / n, (x - p) / (n - p)))
PY
fi
[ "$MODE" = torch ] && cost torch 2 python3 $HW/torch_train.py 3
[ "$MODE" = many ] && cost many 1 $H/many.plain 100
exit 0
