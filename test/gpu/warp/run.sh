#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Warp-level traffic on the GPU, from the repository root; builds nothing.
# Needs .gpu-inputs/warp/bin/warp_traffic{,.inst} (cmake --build build --target
# hroof-gpu-inputs-warp) and, for the dynamic counts, hroof with its runtime
# (build/bin/hroof and build/lib/libhroof_rt.so, or .gpu-inputs/gpu's from
# test/gpu/build.sh, or $HROOF). Runs the plain
# program once (its LAUNCH lines name every launch and its pointer values)
# and once under Nsight Compute with the counters the warp-level model
# predicts, keeps the SASS, and runs the instrumented program under `hroof
# run` (its EXPECT lines are the hand-derived warp-level counts; the profile
# has the dynamic ones). Writes $OUT/warp/{stdout,ncu.csv,ncu.stderr,
# sass.txt,env.txt,inst.stdout,inst.stderr,dynamic.json}; test/gpu/warp/
# compare.py (run where hroof is built) sets them beside `hroof static`.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU (nvidia-smi failed)"; exit 77; fi
PROG=$ROOT/.gpu-inputs/warp/bin/warp_traffic
[ -x "$PROG" ] || { echo "run.sh: $PROG missing (see the header)" >&2; exit 1; }
O=${OUT:-$ROOT/gpu-out}/warp
mkdir -p "$O"
METRICS=sm__sass_data_bytes_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_st.sum
METRICS+=,sm__sass_data_bytes_mem_shared_op_ld.sum,sm__sass_data_bytes_mem_shared_op_st.sum
METRICS+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
METRICS+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
METRICS+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1
  echo "ncu --clock-control none --csv --metrics $METRICS $PROG"; } >"$O/env.txt" 2>&1
timeout 60 "$PROG" >"$O/stdout" 2>&1 || echo "run.sh: the program failed" >&2
timeout 400 ncu --clock-control none --csv --metrics "$METRICS" "$PROG" >"$O/ncu.csv" 2>"$O/ncu.stderr" ||
  echo "run.sh: ncu failed (see ncu.stderr)" >&2
cuobjdump -sass "$PROG" >"$O/sass.txt" 2>&1 || true
# hroof and its runtime (<bin>/../lib/libhroof_rt.so): $HROOF, else the copied
# GPU suite's, else the build's.
if [ -z "${HROOF:-}" ]; then
  HROOF=$ROOT/.gpu-inputs/gpu/bin/hroof
  [ -x "$HROOF" ] || HROOF=$ROOT/build/bin/hroof
fi
if [ -x "$PROG.inst" ] && [ -x "$HROOF" ] && [ -f "$(dirname "$HROOF")/../lib/libhroof_rt.so" ]; then
  rm -f "$O/dynamic.json"
  timeout 120 "$HROOF" run --counters none --output "$O/dynamic.json" -- "$PROG.inst" \
    >"$O/inst.stdout" 2>"$O/inst.stderr" || echo "run.sh: the instrumented run failed" >&2
else
  echo "run.sh: no dynamic counts: $PROG.inst, $HROOF or its ../lib/libhroof_rt.so missing" >&2
fi
echo "run.sh: wrote $O"
