#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Do texture fetches count in the SASS byte and LSU sector counters hroof
# compares with (machine with the GPU; builds nothing)? Inputs: .gpu-inputs/pipes/tex_bytes,
# built here with
#   nvcc -gencode arch=compute_90,code=sm_90 -O2 \
#        -o .gpu-inputs/pipes/tex_bytes test/gpu/counters/tex_bytes.cu
# Writes $OUT/tex-bytes.csv (ncu, both kernels) and prints the values.
set -uo pipefail
BIN=${BIN:-.gpu-inputs/pipes/tex_bytes}
[ -x "$BIN" ] || { echo "tex-bytes: $BIN missing (see this script's header)"; exit 77; }
command -v ncu >/dev/null || { echo "tex-bytes: no ncu"; exit 77; }
OUT=${OUT:-$PWD/check-out}; mkdir -p "$OUT"
M=sm__sass_data_bytes_mem_global_op_ld.sum,sm__sass_data_bytes_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,sm__sass_inst_executed_op_texture.sum,l1tex__t_sectors_pipe_tex.sum,l1tex__t_bytes.sum
M=$M,sm__sass_inst_executed_op_global_ld.sum,smsp__inst_executed_op_texture.sum
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 ncu --clock-control none --metrics "$M" --csv --print-units base \
  "$BIN" >"$OUT/tex-bytes.csv" 2>"$OUT/tex-bytes.err"
rc=$?
echo "ncu exit $rc"; tail -3 "$OUT/tex-bytes.err"
python3 "$(dirname "$0")/ncu_csv.py" "$OUT/tex-bytes.csv"
exit $rc
