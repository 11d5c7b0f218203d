// A -hroof-warp-counts build leaves a kernel to its models where they read
// every access. An access whose iterations the warp model enumerates one by
// one counts there only where its address does not move with the block
// (one block then stands for all); where it does, each block is evaluated
// lane by lane and iteration by iteration, which large launches cannot
// afford at run time: that kernel keeps its instrumentation. The kernels:
// warp-enumerated-loop-index.cu (shuffle's enumerated access is a shared
// load; gather's a global load at blockIdx.x * stride + ...).
//
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O2 -fpass-plugin=%hroof -mllvm -hroof-warp-counts \
// RUN:   -S -emit-llvm -o - %S/warp-enumerated-loop-index.cu | FileCheck %s

// CHECK-DAG: \22mangled\22:\22_Z7shuffleiiPKfPf\22{{.*}}\22warp_counted_by_model\22:true
// CHECK-DAG: @__hroof_counters__Z6gatheriiiPKfPf =
// CHECK-NOT: @__hroof_counters__Z7shuffleiiPKfPf =
