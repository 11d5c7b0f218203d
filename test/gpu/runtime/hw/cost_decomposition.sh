#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cost_decomposition.sh - where a replayed range's host time goes. From the
# repository root on the machine with the GPU; builds nothing.
# Inputs: build/bin, build/lib, .gpu-inputs/hw/bin. Each row is one `hroof run
# --verbose 1 --counters LIST` whose note gives the per-range host time:
#   sass17  : the 17 SASS-patched metrics (FLOPs + instruction bytes), 1 pass
#   hw1     : time + L1/shared/L2/DRAM bytes + the 4 tensor-pipe counters, 1 pass
#   hw2     : time + L1/shared/L2/DRAM bytes + tensor fp16 type, 2 passes, no SASS
#   base    : sass17 + hw1 without pipes (the base set), 2 passes
# on many_launches 40 (120 launches) and torch_train.py 3 (123 launches), the
# latter also with BALLAST_MB=4096 (4 GiB allocated and filled, never used by
# the model): if a multi-pass range costs more with it, CUPTI's memory save
# before replay scales with the process's allocations.
# `cost_decomposition.sh scan`: instead, each hardware metric of the base set
# alone (with gpu__time_duration.sum) on many_launches 40, to find the one
# that makes a 1-pass range cost tens of milliseconds.
set -uo pipefail
. "$(dirname "$0")/common.sh"
hw_start decomp "${1:-sets}"
MT=gpu__time_duration.sum,l1tex__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum
PIPES=sm__inst_executed_pipe_tensor_op_hmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__inst_executed_pipe_tensor_op_dmma.sum,sm__inst_executed_pipe_tensor_op_imma.sum
SASS=""
for op in dadd dmul dfma fadd fmul ffma hadd hmul hfma; do SASS+=sm__sass_thread_inst_executed_op_${op}_pred_on.sum,; done
for m in global_op_ld global_op_st shared_op_ld shared_op_st local_op_ld local_op_st global_op_atom global_op_red; do SASS+=sm__sass_data_bytes_mem_$m.sum,; done
SASS=${SASS%,}
declare -A SET=([sass17]=$SASS [hw1]=$MT,$PIPES [hw2]=$MT,sm__ops_path_tensor_src_fp16.sum [base]=$SASS,$MT [time1]=gpu__time_duration.sum)
# r NAME ENV... CMD...: one run, wall time and hroof's per-range note
r() { local n=$1; shift; t $n env "$@"
      grep -h "replay passes per launch\|host time per range" $W/$n.log | sed 's/^/    /' | cut -c1-260 | tee -a $S; }
if [ "$MODE" = scan ]; then
  for m in sm__cycles_elapsed.avg.per_second l1tex__t_bytes.sum \
      l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum lts__t_bytes.sum \
      dram__bytes_read.sum dram__bytes_write.sum sm__inst_executed_pipe_tensor_op_hmma.sum \
      sm__ops_path_tensor_src_fp64.sum l1tex__cycles_elapsed.avg.per_second \
      lts__cycles_elapsed.avg.per_second dram__cycles_elapsed.avg.per_second \
      dram__bytes.sum.peak_sustained lts__t_sectors.sum dram__sectors_read.sum \
      smsp__inst_executed.sum sm__cycles_elapsed.max; do
    r many-$m A=1 $HR run --no-summary --verbose 1 --output $W --counters gpu__time_duration.sum,$m -- $H/many.plain 40
  done
  exit 0
fi
for k in time1 sass17 hw1 hw2 base; do
  r many-$k A=1 $HR run --no-summary --verbose 1 --output $W --counters ${SET[$k]} -- $H/many.plain 40
done
r torch-plain A=1 python3 $HW/torch_train.py 3
for k in time1 sass17 hw1 hw2 base; do
  r torch-$k A=1 $HR run --no-summary --verbose 1 --output $W --counters ${SET[$k]} -- python3 $HW/torch_train.py 3
done
r torch4g-plain BALLAST_MB=4096 python3 $HW/torch_train.py 3
for k in time1 sass17 hw2 base; do
  r torch4g-$k BALLAST_MB=4096 $HR run --no-summary --verbose 1 --output $W --counters ${SET[$k]} -- python3 $HW/torch_train.py 3
done
