#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Which tensor pipe issues each Tensor Core type (machine with the GPU; builds
# nothing). Inputs: .gpu-inputs/pipes/pipe_types, built here with
#   nvcc -gencode arch=compute_90a,code=sm_90a -O2 \
#        -o .gpu-inputs/pipes/pipe_types test/gpu/counters/pipe_types.cu
# Runs it under Nsight Compute with the four tensor pipe counters and the six
# type counters of the roofline set, one row per kernel, into
# $OUT/pipe-types.csv; then prints, per kernel, the pipes that issued and
# the types that counted, and the HFMA2.MMA instructions of the hmma count. The result is the rule of
# runtime/src/metrics/HwMetrics.cpp (typesIdleByPipes): a type is zero where every
# pipe that can issue it read zero.
set -uo pipefail
BIN=${BIN:-.gpu-inputs/pipes/pipe_types}
[ -x "$BIN" ] || { echo "pipe-types: $BIN missing (see this script's header)"; exit 77; }
command -v ncu >/dev/null || { echo "pipe-types: no ncu"; exit 77; }
OUT=${OUT:-$PWD/check-out}; mkdir -p "$OUT"
M=sm__inst_executed_pipe_tensor_op_hmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum
M=$M,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__inst_executed_pipe_tensor_op_imma.sum
# HFMA2.MMA (CUDA-core half math on the hmma pipe; ptxas also moves
# constants with it): counted in hmma, with no tensor type.
M=$M,sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum
for T in fp16 bf16_dst_fp32 tf32_dst_fp32 fp64 int8 fp8_sparsity_off; do
  M=$M,sm__ops_path_tensor_src_$T.sum
done
# The parts of the two types that need 2 passes alone on GH100 (each part
# needs one): is fp16 = dst_fp16 + dst_fp32 and int8 = sparsity off + on,
# for mma.sync and wgmma alike? (Application replay could then collect the
# parts in one-pass groups.)
P=smsp__ops_path_tensor_op
M=$M,${P}_hmma_src_fp16_dst_fp16.sum,${P}_hmma_src_fp16_dst_fp32.sum
M=$M,${P}_imma_src_int8_sparsity_off.sum,${P}_imma_src_int8_sparsity_on.sum
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version | tail -1
timeout 300 ncu --clock-control none --metrics "$M" --csv --print-units base \
  "$BIN" >"$OUT/pipe-types.csv" 2>"$OUT/pipe-types.err"
rc=$?
echo "ncu exit $rc"
PYTHONPATH="$(dirname "$0")" python3 - "$OUT/pipe-types.csv" <<'PY'
import sys
from ncu_csv import by_kernel
for k, m in by_kernel(sys.argv[1]).items():
    pipes = [n.split("_op_")[1].split(".")[0] + "=%d" % v
             for n, v in m.items() if "pipe_tensor" in n and v]
    types = [n.split("_src_")[1].split(".")[0] + "=%d" % v
             for n, v in m.items() if n.startswith("sm__ops_path_tensor") and v]
    parts = [n.split("_src_")[1].split(".")[0] + "=%d" % v
             for n, v in m.items() if n.startswith("smsp__ops_path_tensor") and v]
    print(f"{k:16s} pipes={','.join(pipes) or '-':44s} types={','.join(types) or '-'}"
          f" parts={','.join(parts) or '-'}")
PY
exit $rc
