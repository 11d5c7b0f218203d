//===- hroof/CounterLayout.h - the one layout of hroof's counters --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The single source of truth for which counters exist, their order and their
// key names ("flops.f32", "bytes.global.load", ...), and for the names of the
// symbols that carry them from the device to the runtime. Shared, as plain
// data, by the LLVM pass (the static model's keys, and each kernel's device
// counter array: NumCounters 64-bit counters in the order below, in as many
// copies as -hroof-counter-slots, which every warp adds its counts to at
// kernel exit), the runtime (which sums their copies after a launch, on the
// GPU, zeroing them for the next) and the report readers. Header-only, no
// dependencies, so any of them can include it.
//
// Keys follow docs/counting-model.md: flops.{f64,f32,f16,bf16},
// tensor_flops.{f16,bf16,tf32,fp8,int8,f64},
// special.<prec>.{div,sqrt,rcp,rsqrt,transcendental}, other.<prec>,
// bytes.<space>.{load,store,atomic}. The extra space "generic" holds accesses
// whose address space the static model could not prove (the dynamic counts
// resolve them at run time, so there it stays zero).
//
// The first NumThreadCounters are the thread-level counts, which the static
// model's terms and totals carry. The warp-level counts after them
// (warp_bytes.{global,shared}.{load,store}, sectors.global.{load,store},
// wavefronts.shared.{load,store}; docs/counting-model.md "Warp-level
// traffic") are counted only by the instrumented kernels: the static model
// evaluates them per launch from its accesses instead (hroof/WarpModel.h),
// under the same keys, and its thread-level vectors leave them zero.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COUNTERLAYOUT_H
#define HROOF_COUNTERLAYOUT_H

#include <cstdint>

namespace hroof {

/// The device symbols of an instrumented module, looked up by the runtime
/// with cuModuleGetGlobal (docs/instrumentation.md): each kernel's counter
/// array is this prefix followed by the kernel's mangled name.
constexpr const char *CounterArrayPrefix = "__hroof_counters_";
/// The module's static model, a NUL-terminated JSON string (embedded always,
/// also when the kernels are not instrumented).
constexpr const char *ModelSymbol = "__hroof_model";

enum class Precision : uint8_t { F64, F32, F16, BF16 };
constexpr int NumPrecisions = 4;
constexpr const char *PrecisionNames[NumPrecisions] = {"f64", "f32", "f16", "bf16"};

enum class TensorType : uint8_t { F16, BF16, TF32, FP8, INT8, F64 };
constexpr int NumTensorTypes = 6;
constexpr const char *TensorTypeNames[NumTensorTypes] = {"f16", "bf16", "tf32",
                                                         "fp8", "int8", "f64"};

enum class SpecialOp : uint8_t { Div, Sqrt, Rcp, Rsqrt, Transcendental };
constexpr int NumSpecialOps = 5;
constexpr const char *SpecialOpNames[NumSpecialOps] = {"div", "sqrt", "rcp", "rsqrt",
                                                       "transcendental"};

enum class MemSpace : uint8_t { Global, Shared, Local, Constant, Generic };
constexpr int NumMemSpaces = 5;
constexpr const char *MemSpaceNames[NumMemSpaces] = {"global", "shared", "local", "constant",
                                                     "generic"};

enum class MemDir : uint8_t { Load, Store, Atomic };
constexpr int NumMemDirs = 3;
constexpr const char *MemDirNames[NumMemDirs] = {"load", "store", "atomic"};

// Flat counter indices, in this order: flops, tensor_flops, special, other, bytes.
constexpr int FlopsBase = 0;
constexpr int TensorBase = FlopsBase + NumPrecisions;
constexpr int SpecialBase = TensorBase + NumTensorTypes;
constexpr int OtherBase = SpecialBase + NumPrecisions * NumSpecialOps;
constexpr int BytesBase = OtherBase + NumPrecisions;
/// The thread-level counters (the static model's terms and totals).
constexpr int NumThreadCounters = BytesBase + NumMemSpaces * NumMemDirs;
/// Warp-level counters, dynamic only: warp_bytes.{global,shared}.{load,store},
/// sectors.global.{load,store}, wavefronts.shared.{load,store}.
constexpr int WarpBase = NumThreadCounters;
constexpr int NumWarpCounters = 8;
constexpr int NumCounters = WarpBase + NumWarpCounters;
constexpr const char *WarpCounterKeys[NumWarpCounters][3] = {
    {"warp_bytes", "global", "load"},  {"warp_bytes", "global", "store"},
    {"warp_bytes", "shared", "load"},  {"warp_bytes", "shared", "store"},
    {"sectors", "global", "load"},     {"sectors", "global", "store"},
    {"wavefronts", "shared", "load"},  {"wavefronts", "shared", "store"}};

constexpr int flopsIndex(Precision P) { return FlopsBase + int(P); }
constexpr int tensorIndex(TensorType T) { return TensorBase + int(T); }
constexpr int specialIndex(Precision P, SpecialOp O) {
  return SpecialBase + int(P) * NumSpecialOps + int(O);
}
constexpr int otherIndex(Precision P) { return OtherBase + int(P); }
constexpr int bytesIndex(MemSpace S, MemDir D) { return BytesBase + int(S) * NumMemDirs + int(D); }
/// Warp-level counters: \p S is Global or Shared, \p D Load or Store.
constexpr int warpBytesIndex(MemSpace S, MemDir D) {
  return WarpBase + (S == MemSpace::Shared ? 2 : 0) + (D == MemDir::Store ? 1 : 0);
}
constexpr int sectorsIndex(MemDir D) { return WarpBase + 4 + (D == MemDir::Store ? 1 : 0); }
constexpr int wavefrontsIndex(MemDir D) { return WarpBase + 6 + (D == MemDir::Store ? 1 : 0); }
constexpr bool isWarpCounter(int Index) { return Index >= WarpBase && Index < NumCounters; }

/// Key path of counter \p Index as its parts, e.g. {"bytes","global","load"}.
/// Unused trailing parts are null.
struct CounterKey {
  const char *Parts[3];
};
inline CounterKey counterKey(int Index) {
  if (Index < TensorBase)
    return {{"flops", PrecisionNames[Index - FlopsBase], nullptr}};
  if (Index < SpecialBase)
    return {{"tensor_flops", TensorTypeNames[Index - TensorBase], nullptr}};
  if (Index < OtherBase) {
    int I = Index - SpecialBase;
    return {{"special", PrecisionNames[I / NumSpecialOps], SpecialOpNames[I % NumSpecialOps]}};
  }
  if (Index < BytesBase)
    return {{"other", PrecisionNames[Index - OtherBase], nullptr}};
  if (Index < WarpBase) {
    int I = Index - BytesBase;
    return {{"bytes", MemSpaceNames[I / NumMemDirs], MemDirNames[I % NumMemDirs]}};
  }
  const auto &W = WarpCounterKeys[Index - WarpBase];
  return {{W[0], W[1], W[2]}};
}

/// Dotted key, e.g. "bytes.global.load".
inline void counterKeyString(int Index, char *Out, int Size) {
  CounterKey K = counterKey(Index);
  int N = 0;
  for (const char *P : K.Parts) {
    if (!P)
      break;
    if (N && N < Size - 1)
      Out[N++] = '.';
    for (; *P && N < Size - 1; ++P)
      Out[N++] = *P;
  }
  Out[N] = 0;
}

} // namespace hroof

#endif // HROOF_COUNTERLAYOUT_H
