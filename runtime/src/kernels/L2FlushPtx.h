//===- L2FlushPtx.h - the PTX of the runtime's L2 flush kernel ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_CACHE_CONTROL=all (L2Flush.h) streams a buffer larger than the L2
// through it before each counter range, so that earlier kernels' lines are
// evicted (dirty ones written back) outside the range. The kernel is PTX,
// loaded with cuModuleLoadData, because the runtime is a host library built
// without a CUDA compiler. It reads with ld.global.cg (cached in L2, not L1)
// in a grid-stride loop and stores the XOR of what it read only when it
// equals a constant that a zero-filled buffer never gives: the store never
// runs, but the compiler cannot drop the loads. Header-only and plain C++,
// so that a ctest can hand the text to ptxas on a machine without a GPU.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_L2FLUSHPTX_H
#define HROOF_RUNTIME_L2FLUSHPTX_H

namespace hroof {
namespace rt {

/// The kernel's name in the PTX: also how activity records of the runtime's
/// own flushes are told from the application's kernels.
inline constexpr const char *L2FlushKernelName = "hroof_l2_flush";

/// hroof_l2_flush(const u32 *buffer, u64 words, u32 *sink); PTX ISA 7.0
/// (CUDA 11.0) for sm_70 and later, JIT-compiled for the device at load.
inline constexpr const char *L2FlushPtx = R"PTX(
.version 7.0
.target sm_70
.address_size 64

.visible .entry hroof_l2_flush(
    .param .u64 buffer,
    .param .u64 words,
    .param .u64 sink)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<10>;

    ld.param.u64 %rd1, [buffer];
    ld.param.u64 %rd2, [words];
    ld.param.u64 %rd3, [sink];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd4, %r1, %r2;
    cvt.u64.u32 %rd5, %r3;
    add.u64 %rd4, %rd4, %rd5;
    mov.u32 %r4, %nctaid.x;
    mul.wide.u32 %rd6, %r4, %r2;
    mov.u32 %r5, 0;
LOOP:
    setp.ge.u64 %p1, %rd4, %rd2;
    @%p1 bra DONE;
    shl.b64 %rd7, %rd4, 2;
    add.u64 %rd8, %rd1, %rd7;
    ld.global.cg.u32 %r6, [%rd8];
    xor.b32 %r5, %r5, %r6;
    add.u64 %rd4, %rd4, %rd6;
    bra.uni LOOP;
DONE:
    setp.ne.u32 %p2, %r5, -1640531527;
    @%p2 bra END;
    st.global.u32 [%rd3], %r5;
END:
    ret;
}
)PTX";

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_L2FLUSHPTX_H
