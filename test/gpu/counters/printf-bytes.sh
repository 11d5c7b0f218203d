#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What does a device printf (a call to vprintf) add to the SASS byte,
# instruction and LSU sector counters hroof compares with (machine with the GPU;
# builds nothing)? Inputs: .gpu-inputs/pipes/printf_bytes (nvcc) and
# .gpu-inputs/pipes/printf_bytes_clang (clang, as hroof compiles), built here with
#   nvcc -gencode arch=compute_90,code=sm_90 -O2 \
#        -o .gpu-inputs/pipes/printf_bytes test/gpu/counters/printf_bytes.cu
#   clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda -O2 \
#        -Wno-unknown-cuda-version -L/usr/local/cuda/lib64 -lcudart \
#        -Wl,-rpath,/usr/local/cuda/lib64 -o .gpu-inputs/pipes/printf_bytes_clang \
#        test/gpu/counters/printf_bytes.cu
# Writes $OUT/printf-bytes-*.csv (ncu, both kernels) and prints the values.
set -uo pipefail
command -v ncu >/dev/null || { echo "printf-bytes: no ncu"; exit 77; }
OUT=${OUT:-$PWD/check-out}; mkdir -p "$OUT"
M=""
for S in global local; do
  for Op in ld st; do
    M=$M,sm__sass_data_bytes_mem_${S}_op_$Op.sum,sm__sass_inst_executed_op_${S}_$Op.sum
    M=$M,l1tex__t_sectors_pipe_lsu_mem_${S}_op_$Op.sum
  done
done
M=${M#,},sm__sass_data_bytes_mem_global_op_atom.sum,sm__sass_data_bytes_mem_global_op_red.sum
M=$M,sm__sass_inst_executed_op_global_atom.sum,sm__sass_inst_executed_op_global_red.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
M=$M,sm__sass_inst_executed.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
rc=0
for B in printf_bytes printf_bytes_clang; do
  BIN=.gpu-inputs/pipes/$B
  [ -x "$BIN" ] || { echo "printf-bytes: $BIN missing (see this script's header)"; rc=77; continue; }
  timeout 120 ncu --clock-control none --metrics "$M" --csv --print-units base \
    "$BIN" >"$OUT/printf-bytes-$B.csv" 2>"$OUT/printf-bytes-$B.err"
  echo "== $B: ncu exit $?"; tail -2 "$OUT/printf-bytes-$B.err"
  python3 "$(dirname "$0")/ncu_csv.py" "$OUT/printf-bytes-$B.csv"
done
exit $rc
