#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs replay_cost (replay_cost.cu; bash test/gpu/counters/build.sh builds it
# here into .gpu-inputs/rc/) on the GPU
# machine: host time per counted launch by replay mode, with and without
# gigabytes of device memory held. Writes $OUT/replay-cost.txt.
# Usage (machine with the GPU): bash test/gpu/counters/replay-cost.sh
set -uo pipefail
B=${RC_BIN:-.gpu-inputs/rc/replay_cost}
O=${OUT:-/tmp}/replay-cost.txt
N=${LAUNCHES:-100}
one() { echo "\$ replay_cost $*" >>"$O"; timeout 120 "$B" "$@" >>"$O" 2>&1 || echo "exit $?" >>"$O"; }
SASS="sm__sass_thread_inst_executed_op_ffma_pred_on.sum sm__sass_data_bytes_mem_global_op_ld.sum gpu__time_duration.sum"
FULL="gpu__time_duration.sum sm__cycles_elapsed.avg.per_second sm__sass_thread_inst_executed_op_ffma_pred_on.sum sm__sass_data_bytes_mem_global_op_ld.sum sm__sass_data_bytes_mem_global_op_st.sum l1tex__t_bytes.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum lts__t_bytes.sum dram__bytes_read.sum dram__bytes_write.sum"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$O" 2>&1
date -u >>"$O"
for mem in 0 ${MEM_GB:-20}; do
  one plain "$mem" "$N"
  one kernel-each "$mem" "$N"
  one user-each "$mem" "$N"
  one user-batch "$mem" "$N" 50
  one kernel-each "$mem" "$N" 1 $SASS
  one user-each "$mem" "$N" 1 $SASS
  one user-batch "$mem" "$N" 50 $SASS
  one kernel-each "$mem" 30 1 $FULL
  one user-batch "$mem" "$N" 50 $FULL
done
date -u >>"$O"
cat "$O"
