#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# learned-types.sh cost|checks|limits - learned Tensor Core types and their cost, on the GPU
# machine, from the repository root; builds nothing. Needs (copied there): build/bin/hroof, build/lib/libhroof_rt.so,
# .gpu-inputs/hw/bin/{many.plain,mma_gemm.plain,half2_bf16.plain},
# .gpu-inputs/big/bigstream. Writes logs and profiles under $OUT (one tarball) and
# prints a short table last.
#   cost   : wall time of many_launches 100 (300 launches) and torch_train.py 3
#            (123 launches): plain (x3), hroof run (learned tensor types, x2),
#            hroof run --counters roofline-full, ncu --set roofline (complete).
#   limits : torch_train.py 3 under hroof run with --launch-limit 1 and 2
#            (the user's bound on replay cost) next to the default and ncu.
#   checks : learned types vs roofline-full (exact fields equal; torch_train,
#            mma_gemm, half2_bf16); DRAM writes of bigstream (hroof roofline,
#            roofline-full, a 1-pass memory-only list; ncu); counters under a
#            non-root user; stream ids of replayed launches.
set -uo pipefail
. "$(dirname "$0")/common.sh"
hw_start learned-types "${1:?cost, checks or limits}"
ncu --version | tail -1 | tee -a $S
python3 -c "import torch; print('torch', torch.__version__)" 2>&1 | tail -1 | tee -a $S
hr() { local n=$1; shift; mkdir -p $W/p/$n; t $n $HR run --no-summary --verbose 1 --output $W/p/$n "$@"; grep -h "ranges" $W/$n.log | cut -c1-300 | tee -a $S; }

if [ "$MODE" = cost ]; then
  for i in 1 2 3; do t many-plain-$i $H/many.plain 100; done
  for i in 1 2; do hr many-hroof-$i -- $H/many.plain 100; done
  hr many-full --counters roofline-full -- $H/many.plain 100
  t many-ncu timeout 400 ncu --clock-control none --set roofline $H/many.plain 100
  say "  ncu profiled: $(grep -c '==PROF== Profiling' $W/many-ncu.log) kernels"
  for i in 1 2 3; do t torch-plain-$i python3 $HW/torch_train.py 3; done
  for i in 1 2; do hr torch-hroof-$i -- python3 $HW/torch_train.py 3; done
  hr torch-full --counters roofline-full -- python3 $HW/torch_train.py 3
  t torch-ncu timeout 400 ncu --clock-control none --set roofline python3 $HW/torch_train.py 3
  say "  ncu profiled: $(grep -c '==PROF== Profiling' $W/torch-ncu.log) kernels"
  say "--- learned vs full (torch_train 3)"
  python3 $HW/compare_learned.py $W/p/torch-hroof-1 $W/p/torch-full 2>&1 | tail -5 | tee -a $S
fi

if [ "$MODE" = limits ]; then
  for i in 1 2; do t torch-plain-$i python3 $HW/torch_train.py 3; done
  hr torch-hroof -- python3 $HW/torch_train.py 3
  for i in 1 2; do hr torch-limit2-$i --launch-limit 2 -- python3 $HW/torch_train.py 3; done
  hr torch-limit1 --launch-limit 1 -- python3 $HW/torch_train.py 3
  t torch-ncu timeout 400 ncu --clock-control none --set roofline python3 $HW/torch_train.py 3
  say "  ncu profiled: $(grep -c '==PROF== Profiling' $W/torch-ncu.log) kernels"
fi

if [ "$MODE" = checks ]; then
  say "--- learned tensor types vs roofline-full (exact fields)"
  for e in mma_gemm half2_bf16; do
    hr $e-learned -- $H/$e.plain; hr $e-full --counters roofline-full -- $H/$e.plain
    python3 $HW/compare_learned.py $W/p/$e-learned $W/p/$e-full 2>&1 | tail -3 | tee -a $S
  done
  hr small-learned -- python3 $HW/torch_small.py; hr small-full --counters roofline-full -- python3 $HW/torch_small.py
  python3 $HW/compare_learned.py $W/p/small-learned $W/p/small-full 2>&1 | tail -3 | tee -a $S
  say "--- bigstream DRAM writes (268435456 bytes written per kernel)"
  B=$PWD/.gpu-inputs/big/bigstream
  hr big-learned -- $B
  hr big-full --counters roofline-full -- $B
  MEM=lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_bytes.sum,gpu__time_duration.sum
  hr big-mem1 --counters $MEM -- $B
  for cc in all none; do
    t big-ncu-$cc ncu --clock-control none --cache-control $cc --metrics $MEM --csv --page raw --print-units base --log-file $W/big-ncu-$cc.csv $B
  done
  python3 - $W <<'PY' | tee -a $S
import csv, glob, json, sys
W = sys.argv[1]
def prof(n):
    f = glob.glob(W + "/p/" + n + "/*.json")
    return json.load(open(f[0])) if f else {"launches": []}
rows = {}
for n in ["big-learned", "big-full", "big-mem1"]:
    for L in prof(n)["launches"]:
        raw = (L.get("counters") or {}).get("raw", {})
        rows.setdefault(L["kernel"].split("(")[0], {})[n] = raw.get("dram__bytes_write.sum")
for cc in ["all", "none"]:
    try:
        r = list(csv.reader(open(W + "/big-ncu-%s.csv" % cc)))
    except OSError:
        continue
    h = [i for i, x in enumerate(r) if x and x[0] == "ID"]
    if not h: continue
    hd = r[h[0]]; ki = hd.index("Kernel Name"); mi = hd.index("dram__bytes_write.sum")
    for x in r[h[0] + 2:]:
        if len(x) > mi:
            rows.setdefault(x[ki].split("(")[0], {})["ncu-" + cc] = float(x[mi].replace(",", ""))
cols = ["big-learned", "big-full", "big-mem1", "ncu-all", "ncu-none"]
print("kernel | " + " | ".join(cols) + "   (dram__bytes_write, % vs 268435456)")
for k, v in rows.items():
    print(k + " | " + " | ".join("%s (%+.2f%%)" % (int(v[c]), 100 * (v[c] / 268435456 - 1)) if v.get(c) is not None else "-" for c in cols))
PY
  say "--- counters as a non-root user"
  grep -i "RmProfilingAdminOnly" /proc/driver/nvidia/params 2>&1 | tee -a $S
  NP=/tmp/np; rm -rf $NP; mkdir -p $NP/build/bin $NP/build/lib $NP/out
  cp $HR $NP/build/bin/; cp build/lib/libhroof_rt.so $NP/build/lib/; cp $H/mma_gemm.plain $NP/
  chmod -R a+rX $NP; chmod a+rwx $NP/out
  if command -v setpriv > /dev/null; then
    t nonroot setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=$NP $NP/build/bin/hroof run --no-summary --output $NP/out -- $NP/mma_gemm.plain
  else
    t nonroot su -s /bin/sh nobody -c "$NP/build/bin/hroof run --no-summary --output $NP/out -- $NP/mma_gemm.plain"
  fi
  grep -h "hroof" $W/nonroot.log | cut -c1-300 | tee -a $S
  cp -r $NP/out $W/p/nonroot 2>/dev/null
  python3 -c "
import glob, json
for f in glob.glob('$NP/out/*.json'):
    p = json.load(open(f)); print('nonroot profile notes:', p.get('notes')); print('launches:', [(L['kernel'][:30], L.get('duration_ns'), 'counters' in L and L['counters'] is not None) for L in p['launches']])
" 2>&1 | cut -c1-400 | tee -a $S
  say "--- stream ids: replayed launches (counters) vs activity records (--counters none)"
  hr streams-none --counters none -- python3 $HW/stream_ids.py
  hr streams-hw -- python3 $HW/stream_ids.py
  python3 - $W <<'PY' | tee -a $S
import glob, json, sys
W = sys.argv[1]
def recs(n):
    f = glob.glob(W + "/p/" + n + "/*.json"); p = json.load(open(f[0]))
    return [(L["kernel"].split("<")[0][:60], L.get("stream"), L.get("duration_source")) for L in p["launches"]]
a, b = recs("streams-none"), recs("streams-hw")
same = sum(1 for x, y in zip(a, b) if x[0] == y[0] and x[1] == y[1])
print("launches: %d (none) %d (counters); same kernel and stream id in order: %d" % (len(a), len(b), same))
print("stream ids (none):", sorted(set(x[1] for x in a)), " (counters):", sorted(set(y[1] for y in b)))
print("duration sources (counters run):", sorted(set(str(y[2]) for y in b)))
for x, y in zip(a, b):
    if x[:2] != y[:2]: print("DIFF", x, y)
PY
fi
