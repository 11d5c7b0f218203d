#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs hroof-ert's whole validation on a machine with a GPU in one go (see docs/ert.md):
#   SASS check, Nsight Compute peak query, hroof-ert --quick, hroof-ert (full run).
# Usage: ert/run_on_gpu.sh BIN_DIR OUT_DIR [full|quick|both|l2profile]
# (l2profile: only the ncu profile of one L2-resident read launch)
# BIN_DIR holds hroof-ert; ert/check_sass.py is read from the repository.
set -uo pipefail
bin=${1:?bin dir}; out=${2:?out dir}; what=${3:-both}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
log=$out/log.txt
exec > >(tee -a "$log") 2>&1
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv
if [[ $what != l2profile ]]; then
echo "== SASS check (cuobjdump --dump-sass $bin/hroof-ert)"
cuobjdump --dump-sass "$bin/hroof-ert" > "$out/sass.txt" 2>&1
python3 "$here/check_sass.py" "$out/sass.txt" | tee "$out/sass_check.txt"
echo "== ncu peak_sustained query"
metrics=sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained,sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained,sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained,l1tex__t_bytes.sum.peak_sustained,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained,lts__t_bytes.sum.peak_sustained,dram__bytes.sum.peak_sustained,lts__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,sm__cycles_elapsed.avg.per_second
ncucmd="ncu --clock-control none --print-units base --csv --page raw -c 6 --metrics $metrics $bin/hroof-ert --ncu-probe"
echo "$ncucmd"
timeout 240 $ncucmd > "$out/ncu_peaks.csv" 2> "$out/ncu_stderr.txt"; echo "ncu rc=$?"
tail -3 "$out/ncu_stderr.txt"
python3 - "$out/ncu_peaks.csv" "$out/peaks.json" "$ncucmd" <<'PY'
import csv, json, statistics, sys
rows = list(csv.reader(open(sys.argv[1])))
hi = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if hi is None:
    print("ncu: no CSV table; peaks.json not written"); sys.exit(0)
head, units, data = rows[hi], rows[hi + 1], rows[hi + 2:]
m = {}
for j, name in enumerate(head):
    if "__" not in name: continue
    vals = []
    for r in data:
        try: vals.append(float(r[j].replace(",", "")))
        except (ValueError, IndexError): pass
    if vals:
        m[name] = {"value": statistics.median(vals), "unit": units[j], "kernels": len(vals)}
json.dump({"source": sys.argv[3], "metrics": m}, open(sys.argv[2], "w"), indent=1)
for k, v in m.items(): print(f"{k} = {v['value']} {v['unit']}")
PY
peaks=(); [[ -s $out/peaks.json ]] && peaks=(--peaks "$out/peaks.json")
if [[ $what == quick || $what == both ]]; then
  echo "== hroof-ert --quick"
  /usr/bin/time -f "quick wall %e s" "$bin/hroof-ert" --quick --out "$out/quick" "${peaks[@]}"; echo "rc=$?"
fi
if [[ $what == full || $what == both ]]; then
  echo "== hroof-ert (full)"
  /usr/bin/time -f "full wall %e s" "$bin/hroof-ert" --out "$out/full" "${peaks[@]}"; echo "rc=$?"
fi
fi
if [[ $what == both || $what == l2profile ]]; then
  # One timed launch of the first read variant on a 24 MiB working set: the first 5 launches
  # (calibration, warm-up, first timed one) run unprofiled so the calibration is not distorted;
  # --cache-control none keeps L2 warm across the replay passes.
  echo "== ncu profile of the L2 plateau (24 MiB working set, ld.global.cg.L2::256B)"
  l2cmd="ncu --clock-control none --cache-control none -k regex:k_read --launch-skip 5 -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --metrics lts__t_bytes.sum.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_bytes.sum.per_second,lts__t_sectors_srcunit_tex_op_read.sum.per_second $bin/hroof-ert --only global --global-ws 25165824 --out $out/l2probe"
  echo "$l2cmd"
  timeout 240 $l2cmd > "$out/ncu_l2.txt" 2>&1; echo "ncu rc=$?"
  grep -v "^==PROF==" "$out/ncu_l2.txt" | head -150
fi
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv
