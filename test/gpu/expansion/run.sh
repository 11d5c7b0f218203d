#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# On the machine with the GPU: Nsight Compute FLOP metrics of each probe kernel, then
# derive.py -> $OUT/expansion.json. Builds nothing.
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUT=${OUT:-./expansion-out}; mkdir -p "$OUT"
D=.gpu-inputs/expansion
M=sm__sass_thread_inst_executed_op_dadd_pred_on.sum,sm__sass_thread_inst_executed_op_dmul_pred_on.sum,sm__sass_thread_inst_executed_op_dfma_pred_on.sum,sm__sass_thread_inst_executed_op_fadd_pred_on.sum,sm__sass_thread_inst_executed_op_fmul_pred_on.sum,sm__sass_thread_inst_executed_op_ffma_pred_on.sum
ncu --clock-control none --csv --page raw --print-units base --metrics "$M" $D/expansion > "$OUT/expansion.ncu.csv" 2> "$OUT/expansion.ncu.stderr"
python3 $D/derive.py "$D/static.json" "$OUT/expansion.ncu.csv" > "$OUT/expansion.json"
cat "$OUT/expansion.json"
