//===- hroof/cuda_compat.h - cache-hinted loads/stores nvcc has, clang lacks -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUDA code written for nvcc calls the cache-hinted load and store functions
// of sm_32_intrinsics.h (__ldca, __ldlu, __stwb, __stcg, __stcs) that clang's
// CUDA headers (__clang_cuda_intrinsics.h, clang 22) do not define; clang has
// __ldg, __ldcg, __ldcs, __ldcv and __stwt. This header adds the missing
// ones, for the same types as clang's __ldcg (char ... double2, the
// vector types of vector_types.h), with the PTX that nvcc emits: an `ld` or
// `st` in the global space with the cache operator (.ca .lu .wb .cg .cs),
// and the unsigned long __ldcg/__ldcs/__ldcv and long __stwt that clang's
// lists leave out.
// The __half and __nv_bfloat16 overloads come with cuda_fp16.h and
// cuda_bf16.h, which define all of them for clang too.
//
// `hroof static` and the CMake function hroof_target_cuda_plugin() compile
// CUDA sources with `-include hroof/cuda_compat.h`. Outside clang's CUDA
// mode (nvcc, host-only C++) the header is empty.
//===----------------------------------------------------------------------===//
#ifndef HROOF_CUDA_COMPAT_H
#define HROOF_CUDA_COMPAT_H

#if defined(__clang__) && defined(__CUDA__) && !defined(__NVCC__) &&                      \
    (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 320)

// One element: asm " %0, [%1]" through a register type wide enough for it
// (8-bit values travel in 32-bit registers, as in clang's own header).
#define HROOF_COMPAT_LOAD(FN, OP, T, TMP, REG, CLOBBER)                                     \
  inline __device__ T FN(const T *__ptr) {                                                  \
    TMP __ret;                                                                              \
    asm(OP " %0, [%1];" : REG(__ret) : "l"(__ptr)CLOBBER);                                  \
    return (T)__ret;                                                                        \
  }
#define HROOF_COMPAT_LOAD2(FN, OP, T, TMP, REG, CLOBBER)                                    \
  inline __device__ T FN(const T *__ptr) {                                                  \
    T __ret;                                                                                \
    TMP __tmp;                                                                              \
    asm(OP " {%0,%1}, [%2];" : REG(__tmp.x), REG(__tmp.y) : "l"(__ptr)CLOBBER);             \
    using __Elem = decltype(__ret.x);                                                       \
    __ret.x = (__Elem)__tmp.x;                                                              \
    __ret.y = (__Elem)__tmp.y;                                                              \
    return __ret;                                                                           \
  }
#define HROOF_COMPAT_LOAD4(FN, OP, T, TMP, REG, CLOBBER)                                    \
  inline __device__ T FN(const T *__ptr) {                                                  \
    T __ret;                                                                                \
    TMP __tmp;                                                                              \
    asm(OP " {%0,%1,%2,%3}, [%4];"                                                          \
        : REG(__tmp.x), REG(__tmp.y), REG(__tmp.z), REG(__tmp.w)                            \
        : "l"(__ptr)CLOBBER);                                                               \
    using __Elem = decltype(__ret.x);                                                       \
    __ret.x = (__Elem)__tmp.x;                                                              \
    __ret.y = (__Elem)__tmp.y;                                                              \
    __ret.z = (__Elem)__tmp.z;                                                              \
    __ret.w = (__Elem)__tmp.w;                                                              \
    return __ret;                                                                           \
  }
#define HROOF_COMPAT_STORE(FN, OP, T, TMP, REG)                                             \
  inline __device__ void FN(T *__ptr, T __value) {                                          \
    TMP __tmp = (TMP)__value;                                                               \
    asm(OP " [%0], %1;" ::"l"(__ptr), REG(__tmp) : "memory");                               \
  }
#define HROOF_COMPAT_STORE2(FN, OP, T, TMP, REG)                                            \
  inline __device__ void FN(T *__ptr, T __value) {                                          \
    TMP __tmp;                                                                              \
    using __Elem = decltype(__tmp.x);                                                       \
    __tmp.x = (__Elem)__value.x;                                                            \
    __tmp.y = (__Elem)__value.y;                                                            \
    asm(OP " [%0], {%1,%2};" ::"l"(__ptr), REG(__tmp.x), REG(__tmp.y) : "memory");          \
  }
#define HROOF_COMPAT_STORE4(FN, OP, T, TMP, REG)                                            \
  inline __device__ void FN(T *__ptr, T __value) {                                          \
    TMP __tmp;                                                                              \
    using __Elem = decltype(__tmp.x);                                                       \
    __tmp.x = (__Elem)__value.x;                                                            \
    __tmp.y = (__Elem)__value.y;                                                            \
    __tmp.z = (__Elem)__value.z;                                                            \
    __tmp.w = (__Elem)__value.w;                                                            \
    asm(OP " [%0], {%1,%2,%3,%4};" ::"l"(__ptr), REG(__tmp.x), REG(__tmp.y), REG(__tmp.z), \
        REG(__tmp.w)                                                                        \
        : "memory");                                                                        \
  }

// Every type of clang's __ldcg, loaded with "ld.global.CO".
#define HROOF_COMPAT_LOADS(FN, CO, CLOBBER)                                                 \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".s8", char, unsigned int, "=r", CLOBBER)           \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".s8", signed char, unsigned int, "=r", CLOBBER)    \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".s16", short, unsigned short, "=h", CLOBBER)       \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".s32", int, unsigned int, "=r", CLOBBER)           \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".s64", long long, unsigned long long, "=l",        \
                    CLOBBER)                                                                \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".u8", unsigned char, unsigned int, "=r", CLOBBER)  \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".u16", unsigned short, unsigned short, "=h",       \
                    CLOBBER)                                                                \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".u32", unsigned int, unsigned int, "=r", CLOBBER)  \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".u64", unsigned long long, unsigned long long,     \
                    "=l", CLOBBER)                                                          \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".f32", float, float, "=f", CLOBBER)                \
  HROOF_COMPAT_LOAD(FN, "ld.global." CO ".f64", double, double, "=d", CLOBBER)              \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.s8", char2, int2, "=r", CLOBBER)              \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.s8", char4, int4, "=r", CLOBBER)              \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.s16", short2, short2, "=h", CLOBBER)          \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.s16", short4, short4, "=h", CLOBBER)          \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.s32", int2, int2, "=r", CLOBBER)              \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.s32", int4, int4, "=r", CLOBBER)              \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.s64", longlong2, longlong2, "=l", CLOBBER)    \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.u8", uchar2, int2, "=r", CLOBBER)             \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.u8", uchar4, int4, "=r", CLOBBER)             \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.u16", ushort2, ushort2, "=h", CLOBBER)        \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.u16", ushort4, ushort4, "=h", CLOBBER)        \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.u32", uint2, uint2, "=r", CLOBBER)            \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.u32", uint4, uint4, "=r", CLOBBER)            \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.u64", ulonglong2, ulonglong2, "=l", CLOBBER)  \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.f32", float2, float2, "=f", CLOBBER)          \
  HROOF_COMPAT_LOAD4(FN, "ld.global." CO ".v4.f32", float4, float4, "=f", CLOBBER)          \
  HROOF_COMPAT_LOAD2(FN, "ld.global." CO ".v2.f64", double2, double2, "=d", CLOBBER)        \
  inline __device__ long FN(const long *__ptr) {                                            \
    return sizeof(long) == 8 ? (long)FN((const long long *)__ptr) : (long)FN((const int *)__ptr); \
  }                                                                                         \
  inline __device__ unsigned long FN(const unsigned long *__ptr) {                          \
    return sizeof(long) == 8 ? (unsigned long)FN((const unsigned long long *)__ptr)         \
                             : (unsigned long)FN((const unsigned int *)__ptr);              \
  }

// Every type of clang's __stwt, stored with "st.global.CO".
#define HROOF_COMPAT_STORES(FN, CO)                                                         \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".s8", char, int, "r")                             \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".s8", signed char, int, "r")                      \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".s16", short, short, "h")                         \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".s32", int, int, "r")                             \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".s64", long long, long long, "l")                 \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".u8", unsigned char, int, "r")                    \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".u16", unsigned short, unsigned short, "h")       \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".u32", unsigned int, unsigned int, "r")           \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".u64", unsigned long long, unsigned long long,    \
                     "l")                                                                   \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".f32", float, float, "f")                         \
  HROOF_COMPAT_STORE(FN, "st.global." CO ".f64", double, double, "d")                       \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.s8", char2, int2, "r")                       \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.s8", char4, int4, "r")                       \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.s16", short2, short2, "h")                   \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.s16", short4, short4, "h")                   \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.s32", int2, int2, "r")                       \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.s32", int4, int4, "r")                       \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.s64", longlong2, longlong2, "l")             \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.u8", uchar2, uint2, "r")                     \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.u8", uchar4, uint4, "r")                     \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.u16", ushort2, ushort2, "h")                 \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.u16", ushort4, ushort4, "h")                 \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.u32", uint2, uint2, "r")                     \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.u32", uint4, uint4, "r")                     \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.u64", ulonglong2, ulonglong2, "l")           \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.f32", float2, float2, "f")                   \
  HROOF_COMPAT_STORE4(FN, "st.global." CO ".v4.f32", float4, float4, "f")                   \
  HROOF_COMPAT_STORE2(FN, "st.global." CO ".v2.f64", double2, double2, "d")                 \
  inline __device__ void FN(long *__ptr, long __value) {                                    \
    if (sizeof(long) == 8)                                                                  \
      FN((long long *)__ptr, (long long)__value);                                           \
    else                                                                                    \
      FN((int *)__ptr, (int)__value);                                                       \
  }                                                                                         \
  inline __device__ void FN(unsigned long *__ptr, unsigned long __value) {                  \
    if (sizeof(long) == 8)                                                                  \
      FN((unsigned long long *)__ptr, (unsigned long long)__value);                         \
    else                                                                                    \
      FN((unsigned int *)__ptr, (unsigned int)__value);                                     \
  }

#define HROOF_COMPAT_MEMORY : "memory"
// Cache at all levels; last use; write-back; cache in L2 only; streaming.
// A last-use load may be evicted right after it, hence the memory clobber,
// as clang gives __ldcv.
HROOF_COMPAT_LOADS(__ldca, "ca", )
HROOF_COMPAT_LOADS(__ldlu, "lu", HROOF_COMPAT_MEMORY)
HROOF_COMPAT_STORES(__stwb, "wb")
HROOF_COMPAT_STORES(__stcg, "cg")
HROOF_COMPAT_STORES(__stcs, "cs")

// The long overloads clang has not: unsigned long for its loads, both for
// __stwt.
#define HROOF_COMPAT_ULONG_LOAD(FN)                                                         \
  inline __device__ unsigned long FN(const unsigned long *__ptr) {                          \
    return sizeof(long) == 8 ? (unsigned long)FN((const unsigned long long *)__ptr)         \
                             : (unsigned long)FN((const unsigned int *)__ptr);              \
  }
HROOF_COMPAT_ULONG_LOAD(__ldcg)
HROOF_COMPAT_ULONG_LOAD(__ldcs)
HROOF_COMPAT_ULONG_LOAD(__ldcv)
inline __device__ void __stwt(long *__ptr, long __value) {
  if (sizeof(long) == 8)
    __stwt((long long *)__ptr, (long long)__value);
  else
    __stwt((int *)__ptr, (int)__value);
}
inline __device__ void __stwt(unsigned long *__ptr, unsigned long __value) {
  if (sizeof(long) == 8)
    __stwt((unsigned long long *)__ptr, (unsigned long long)__value);
  else
    __stwt((unsigned int *)__ptr, (unsigned int)__value);
}

#undef HROOF_COMPAT_ULONG_LOAD
#undef HROOF_COMPAT_MEMORY
#undef HROOF_COMPAT_LOADS
#undef HROOF_COMPAT_STORES
#undef HROOF_COMPAT_LOAD
#undef HROOF_COMPAT_LOAD2
#undef HROOF_COMPAT_LOAD4
#undef HROOF_COMPAT_STORE
#undef HROOF_COMPAT_STORE2
#undef HROOF_COMPAT_STORE4

#endif // clang CUDA, sm_32 and later
#endif // HROOF_CUDA_COMPAT_H
