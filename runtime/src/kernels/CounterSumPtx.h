//===- CounterSumPtx.h - the PTX of the runtime's counter-sum kernel ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An instrumented kernel's counter array is CounterSlots copies of
// NumCounters u64 (hroof/CounterLayout.h, docs/instrumentation.md). After a
// counted launch the runtime enqueues this kernel on the launch's stream
// (CounterSum.h): block k sums counter k over every slot into out[k] and
// writes 0 to each slot it read, so the array is zero for the next launch
// without a memset, and only NumCounters u64 are copied back instead of
// the whole array. Each thread adds the slots tid, tid+ntid, ... (loads
// with ld.global.cg: the instrumented kernel's atomics are in L2); the
// warps reduce with shfl.sync.down (a 64-bit value as two 32-bit halves),
// lane 0 of each warp writes its sum to shared memory, thread 0 adds them
// and stores out[k]. Launched with ntid a multiple of 32 (full warps) and
// at most 1024, one block per counter. PTX, loaded with cuModuleLoadData,
// because the runtime is a host library built without a CUDA compiler;
// header-only and plain C++, so that a ctest can hand the text to ptxas on
// a machine without a GPU.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_COUNTERSUMPTX_H
#define HROOF_RUNTIME_COUNTERSUMPTX_H

namespace hroof {
namespace rt {

/// The kernel's name in the PTX: also how activity records of the runtime's
/// own sums are told from the application's kernels.
inline constexpr const char *CounterSumKernelName = "hroof_sum_counters";
/// Threads per block the runtime launches it with.
inline constexpr unsigned CounterSumThreads = 256;

/// hroof_sum_counters(u64 *counters, u64 slots, u64 ncounters, u64 *out),
/// grid ncounters blocks; PTX ISA 7.0 (CUDA 11.0) for sm_70 and later,
/// JIT-compiled for the device at load.
inline constexpr const char *CounterSumPtx = R"PTX(
.version 7.0
.target sm_70
.address_size 64

.visible .entry hroof_sum_counters(
    .param .u64 counters,
    .param .u64 slots,
    .param .u64 ncounters,
    .param .u64 out)
{
    .reg .pred %p<6>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<24>;
    .shared .align 8 .b64 warpsum[32];

    ld.param.u64 %rd1, [counters];
    ld.param.u64 %rd2, [slots];
    ld.param.u64 %rd3, [ncounters];
    ld.param.u64 %rd4, [out];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd4, %rd4;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ntid.x;
    cvt.u64.u32 %rd5, %r1;
    setp.ge.u64 %p1, %rd5, %rd3;
    @%p1 bra END;
    cvt.u64.u32 %rd6, %r2;
    cvt.u64.u32 %rd7, %r3;
    mov.u64 %rd8, 0;
    mov.u64 %rd9, 0;
SLOTS:
    setp.ge.u64 %p2, %rd6, %rd2;
    @%p2 bra WARP;
    mad.lo.u64 %rd10, %rd6, %rd3, %rd5;
    shl.b64 %rd10, %rd10, 3;
    add.u64 %rd11, %rd1, %rd10;
    ld.global.cg.u64 %rd12, [%rd11];
    add.u64 %rd8, %rd8, %rd12;
    st.global.u64 [%rd11], %rd9;
    add.u64 %rd6, %rd6, %rd7;
    bra.uni SLOTS;
WARP:
    mov.b64 {%r4, %r5}, %rd8;
    shfl.sync.down.b32 %r6, %r4, 16, 31, -1;
    shfl.sync.down.b32 %r7, %r5, 16, 31, -1;
    mov.b64 %rd13, {%r6, %r7};
    add.u64 %rd8, %rd8, %rd13;
    mov.b64 {%r4, %r5}, %rd8;
    shfl.sync.down.b32 %r6, %r4, 8, 31, -1;
    shfl.sync.down.b32 %r7, %r5, 8, 31, -1;
    mov.b64 %rd13, {%r6, %r7};
    add.u64 %rd8, %rd8, %rd13;
    mov.b64 {%r4, %r5}, %rd8;
    shfl.sync.down.b32 %r6, %r4, 4, 31, -1;
    shfl.sync.down.b32 %r7, %r5, 4, 31, -1;
    mov.b64 %rd13, {%r6, %r7};
    add.u64 %rd8, %rd8, %rd13;
    mov.b64 {%r4, %r5}, %rd8;
    shfl.sync.down.b32 %r6, %r4, 2, 31, -1;
    shfl.sync.down.b32 %r7, %r5, 2, 31, -1;
    mov.b64 %rd13, {%r6, %r7};
    add.u64 %rd8, %rd8, %rd13;
    mov.b64 {%r4, %r5}, %rd8;
    shfl.sync.down.b32 %r6, %r4, 1, 31, -1;
    shfl.sync.down.b32 %r7, %r5, 1, 31, -1;
    mov.b64 %rd13, {%r6, %r7};
    add.u64 %rd8, %rd8, %rd13;
    and.b32 %r8, %r2, 31;
    setp.ne.u32 %p3, %r8, 0;
    @%p3 bra BARRIER;
    shr.u32 %r9, %r2, 5;
    mul.wide.u32 %rd14, %r9, 8;
    mov.u64 %rd15, warpsum;
    add.u64 %rd15, %rd15, %rd14;
    st.shared.u64 [%rd15], %rd8;
BARRIER:
    bar.sync 0;
    setp.ne.u32 %p4, %r2, 0;
    @%p4 bra END;
    add.u32 %r10, %r3, 31;
    shr.u32 %r10, %r10, 5;
    mov.u32 %r11, 0;
    mov.u64 %rd8, 0;
    mov.u64 %rd15, warpsum;
WARPS:
    setp.ge.u32 %p5, %r11, %r10;
    @%p5 bra STORE;
    ld.shared.u64 %rd16, [%rd15];
    add.u64 %rd8, %rd8, %rd16;
    add.u64 %rd15, %rd15, 8;
    add.u32 %r11, %r11, 1;
    bra.uni WARPS;
STORE:
    shl.b64 %rd17, %rd5, 3;
    add.u64 %rd18, %rd4, %rd17;
    st.global.u64 [%rd18], %rd8;
END:
    ret;
}
)PTX";

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_COUNTERSUMPTX_H
