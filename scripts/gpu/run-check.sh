#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# run-check.sh NAME... - runs named checks ON the machine with the GPU, from the repository root,
# with the inputs the machine with clang built and copied there (each check's line says which);
# builds nothing. Check NAME writes its own outputs under $OUT/NAME/ and its stdout and
# stderr to $OUT/NAME/log.txt; after each check $OUT/checks.tgz is rewritten with
# everything so far, so a run cut short still returns the finished checks.
#   gpu-suite          test/gpu/run.sh                   inputs .gpu-inputs/gpu (test/gpu/build.sh)
#   examples-overhead  test/gpu/examples-overhead.sh     inputs build/examples
#   runtime-smoke      test/gpu/runtime/run.sh build     inputs build/bin, build/lib
#   app-replay         test/gpu/runtime/app-replay.sh build  inputs build/bin, build/lib
#                      (kernel vs application replay counters on hroof-rt-fake repeat)
#   pass-replay        the same with REPLAY=passes (kernel vs pass replay)
#   dl-pass            test/gpu/deep-learning/pass-check.sh  inputs build/bin/hroof,
#                      build/lib/libhroof_rt.so, build/share/hroof (PyTorch example:
#                      plain vs --replay passes wall time, records vs kernel replay)
#   dl-gemm            test/gpu/deep-learning/gemm-check.sh  inputs build/bin/hroof,
#                      build/lib/libhroof_rt.so (persistent-kernel GEMMs: tensor FLOPs per
#                      launch vs 2*M*N*K under kernel, per-shape and pass replay; OLD_RT=lib)
#   dl-cost-MODEL      test/gpu/deep-learning/cost-check.sh  same inputs (MODEL nvtx or
#                      transformer: plain vs the one-step recipe vs kernel replay)
#   ert-quick          test/ert/gpu_quick.sh             inputs build/bin/hroof-ert
#   ert[-MODE]         ert/run_on_gpu.sh $ERT_BIN $OUT/NAME MODE (MODE: both (default),
#                      quick, full, l2profile; ERT_BIN default build/bin)
#   ert-l2compare      scripts/gpu/ert-l2compare.sh    inputs .gpu-inputs/ertl2 (hroof-ert, or set
#                      ERT_L2_BIN), .gpu-inputs/l2bench (gpu-benches' gpu-l2-cache, its README.txt)
#   case-study         case-studies/run.sh               inputs .gpu-inputs/case (case-studies/build.sh)
#   hw-crosscheck      test/gpu/runtime/hw/counters-crosscheck.sh          inputs .gpu-inputs/hw
#   hw-nocache         test/gpu/runtime/hw/counters-nocache-crosscheck.sh  inputs .gpu-inputs/hw
#   hw-learned-MODE    test/gpu/runtime/hw/learned-types.sh MODE (cost, checks, limits)
#   hw-cache-MODE      test/gpu/runtime/hw/type-cache-cost.sh MODE (smoke, torch, many,
#                      overhead, steps)
#   hw-decomposition[-scan]  test/gpu/runtime/hw/cost_decomposition.sh
#   deep-learning      test/gpu/deep-learning/run.sh     inputs build/bin/hroof,
#                      build/lib/libhroof_rt.so (PyTorch NVTX example, FP32 + AMP, BUDGET_S)
#   dl-exit            test/gpu/deep-learning/exit-check.sh  inputs build/bin/hroof,
#                      build/lib/libhroof_rt.so (the PyTorch example's exit status under
#                      hroof run: --counters none, --counters-per-shape, --replay application)
#   dram               test/gpu/warp/dram-run.sh         inputs .gpu-inputs/warpcorpus (corpus-build.sh
#                      SRC test/gpu/warp/hecbench-dram.txt), build/bin/hroof,
#                      build/lib/libhroof_rt.so (DRAM bytes with --cache-control all vs ncu)
#   warp               test/gpu/warp/run.sh              inputs .gpu-inputs/warp (hroof-gpu-inputs-warp), .gpu-inputs/gpu
#                      (warp_traffic: dynamic warp-level counts vs ncu; compare.py here)
#   overhead           test/gpu/warp/overhead-run.sh     inputs .gpu-inputs/warpcorpus (corpus-build.sh
#                      with the plain, inst and warp variants), .gpu-inputs/gpu (kernel time of plain,
#                      instrumented and warp-count binaries of public programs)
#   model-counted      test/gpu/warp/model-counted-run.sh inputs .gpu-inputs/warpcorpus (inst and
#                      inst-all variants), .gpu-inputs/gpu (counts of exact kernels from the model
#                      vs the same kernels instrumented; model-counted-compare.py here)
#   warpcorpus         test/gpu/warp/corpus-run.sh       inputs .gpu-inputs/warpcorpus, .gpu-inputs/gpu
#                      (static warp model per launch vs ncu; ONLY="a b" for some programs)
#   launch-cost        test/gpu/runtime/launch-cost.sh   inputs .gpu-inputs/launchcost
#                      (cmake --build build --target hroof-gpu-inputs-launchcost), .gpu-inputs/gpu
#                      (6000 short launches: plain vs hroof run --counters none)
#   multi-gpu          test/gpu/multi-gpu/run.sh         inputs build/bin/hroof,
#                      build/lib/libhroof_rt.so (DDP example under torchrun: NCCL on 2+ GPUs,
#                      two processes sharing one GPU with gloo otherwise; report --by rank)
#   multi-gpu-programs test/gpu/multi-gpu/programs.sh    inputs .gpu-inputs/mgpu (cuda-samples
#                      simpleMultiGPU, simpleP2P, simpleIPC built plain and with the plugin by test/gpu/multi-gpu/build.sh),
#                      build/bin/hroof, build/lib/libhroof_rt.so
# (.gpu-inputs/hw and .gpu-inputs/big: test/gpu/runtime/hw/README.md.) A check that exits 77 is
# skipped (no GPU, or its inputs missing). Exit status: the number of failed checks.
# Usage (on the machine with the GPU): bash scripts/gpu/run-check.sh gpu-suite runtime-smoke ert-quick
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
[ $# -gt 0 ] || { sed -n '2,/^# Usage/p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
OUT=${OUT:-$ROOT/check-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HW=test/gpu/runtime/hw

# The command of check NAME (its output directory is $2), or nothing if NAME is unknown.
check_command() {
  local name=$1 dir=$2
  case "$name" in
    gpu-suite) echo "env OUT=$dir bash test/gpu/run.sh" ;;
    examples-overhead) echo "bash test/gpu/examples-overhead.sh" ;;
    runtime-smoke) echo "env HROOF_RT_LOGS=$dir bash test/gpu/runtime/run.sh $ROOT/build" ;;
    app-replay) echo "env OUT=$dir bash test/gpu/runtime/app-replay.sh $ROOT/build" ;;
    pass-replay) echo "env OUT=$dir REPLAY=passes bash test/gpu/runtime/app-replay.sh $ROOT/build" ;;
    dl-pass) echo "env OUT=$dir bash test/gpu/deep-learning/pass-check.sh" ;;
    dl-gemm) echo "env OUT=$dir bash test/gpu/deep-learning/gemm-check.sh" ;;
    dl-cost-*) echo "env OUT=$dir MODEL=${name#dl-cost-} bash test/gpu/deep-learning/cost-check.sh" ;;
    ert-quick) echo "bash test/ert/gpu_quick.sh ${ERT_BIN:-$ROOT/build/bin}/hroof-ert $dir/quick" ;;
    ert) echo "bash ert/run_on_gpu.sh ${ERT_BIN:-$ROOT/build/bin} $dir both" ;;
    ert-l2compare) echo "bash scripts/gpu/ert-l2compare.sh $dir" ;;
    ert-*) echo "bash ert/run_on_gpu.sh ${ERT_BIN:-$ROOT/build/bin} $dir ${name#ert-}" ;;
    case-study) echo "env OUT=$dir bash case-studies/run.sh" ;;
    hw-crosscheck) echo "env OUT=$dir bash $HW/counters-crosscheck.sh" ;;
    hw-nocache) echo "env OUT=$dir bash $HW/counters-nocache-crosscheck.sh" ;;
    hw-learned-*) echo "env OUT=$dir bash $HW/learned-types.sh ${name#hw-learned-}" ;;
    hw-cache-*) echo "env OUT=$dir bash $HW/type-cache-cost.sh ${name#hw-cache-}" ;;
    hw-decomposition) echo "env OUT=$dir bash $HW/cost_decomposition.sh" ;;
    hw-decomposition-scan) echo "env OUT=$dir bash $HW/cost_decomposition.sh scan" ;;
    deep-learning) echo "env OUT=$dir bash test/gpu/deep-learning/run.sh" ;;
    multi-gpu) echo "env OUT=$dir bash test/gpu/multi-gpu/run.sh" ;;
    multi-gpu-programs) echo "env OUT=$dir bash test/gpu/multi-gpu/programs.sh" ;;
    dram) echo "env OUT=$dir bash test/gpu/warp/dram-run.sh" ;;
    dl-exit) echo "env OUT=$dir bash test/gpu/deep-learning/exit-check.sh" ;;
    warp) echo "env OUT=$dir bash test/gpu/warp/run.sh" ;;
    overhead) echo "env OUT=$dir bash test/gpu/warp/overhead-run.sh" ;;
    model-counted) echo "env OUT=$dir bash test/gpu/warp/model-counted-run.sh" ;;
    warpcorpus) echo "env OUT=$dir bash test/gpu/warp/corpus-run.sh" ;;
    launch-cost) echo "env OUT=$dir bash test/gpu/runtime/launch-cost.sh" ;;
  esac
}

failed=0
summary=$OUT/checks.txt
: >"$summary"
for name in "$@"; do
  dir=$OUT/$name
  cmd=$(check_command "$name" "$dir")
  if [ -z "$cmd" ]; then
    echo "run-check: unknown check '$name'" | tee -a "$summary" >&2
    failed=$((failed + 1))
    continue
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "== $name: $cmd"
  start=$(date +%s)
  $cmd >"$dir/log.txt" 2>&1
  rc=$?
  case $rc in
    0) verdict=PASS ;;
    77) verdict=SKIP ;;
    *) verdict=FAIL; failed=$((failed + 1)) ;;
  esac
  echo "$verdict $name (exit $rc, $(( $(date +%s) - start )) s)" | tee -a "$summary"
  tail -15 "$dir/log.txt"
  # Written outside $OUT: a file growing in the folder tar reads makes tar
  # fail ("file changed as we read it") and the tarball would never be renamed.
  part=${TMPDIR:-/tmp}/checks-$$.tgz
  tar czf "$part" -C "$OUT" --exclude=checks.tgz . && mv -f "$part" "$OUT/checks.tgz"
done
echo "== run-check: $# check(s), $failed failed"
cat "$summary"
exit $failed
