//===- StaticModelKeys.h - the static-model JSON's keys, spelled once -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The plugin writes the static-model JSON (passes/KernelModelOutput.cpp,
// WarpAccess.cpp, Instrument.cpp; embedded in instrumented modules and
// written by -hroof-static-json) and hroof_model reads it
// (common/src/StaticModel.cpp, WarpModel.cpp): both spell every key with the
// names below. StaticModelKeyTable lists each key with the object that holds
// it; the lit test static-model-json-keys.ll checks that the plugin's output
// uses exactly these keys (hroof-model-keys prints the table).
// Header-only, no LLVM, no JSON library. docs/static-model.md describes the
// format.
//===----------------------------------------------------------------------===//
#ifndef HROOF_STATICMODELKEYS_H
#define HROOF_STATICMODELKEYS_H

namespace hroof {
namespace model_keys {

// The module (top level).
inline constexpr const char *Version = "hroof_static_model";
inline constexpr const char *Source = "source";
inline constexpr const char *Arch = "arch";
inline constexpr const char *Kernels = "kernels";
// A kernel.
inline constexpr const char *Name = "name";
inline constexpr const char *Mangled = "mangled";
inline constexpr const char *Exact = "exact";
inline constexpr const char *CountedByModel = "counted_by_model";
inline constexpr const char *WarpCountedByModel = "warp_counted_by_model";
inline constexpr const char *Unknown = "unknown";
inline constexpr const char *NoUpperBound = "no_upper_bound";
inline constexpr const char *Functions = "functions";
inline constexpr const char *Params = "params";
inline constexpr const char *Terms = "terms";
inline constexpr const char *Accesses = "accesses";
inline constexpr const char *WarpUnknown = "warp_unknown";
// A parameter (and Name).
inline constexpr const char *Type = "type";
// A term.
inline constexpr const char *Where = "where";
inline constexpr const char *Counts = "counts";
inline constexpr const char *Factors = "factors";
inline constexpr const char *Guarded = "guarded";
inline constexpr const char *Unbounded = "unbounded";
// A warp-level access (and Where, Guarded, Unbounded).
inline constexpr const char *Space = "space";
inline constexpr const char *Dir = "dir";
inline constexpr const char *Width = "width";
inline constexpr const char *Multiplicity = "multiplicity";
inline constexpr const char *AsyncCopy = "async_copy";
inline constexpr const char *Unmodelled = "unmodelled";
inline constexpr const char *Base = "base";
inline constexpr const char *Offset = "offset";
inline constexpr const char *Assumes = "assumes";
inline constexpr const char *Loops = "loops";
// An access's base, and a loop of an access.
inline constexpr const char *BaseParam = "param";
inline constexpr const char *BaseObject = "object";
inline constexpr const char *BaseAlign = "align";
inline constexpr const char *LoopStep = "step";
inline constexpr const char *LoopTrips = "trips";
inline constexpr const char *LoopIterVar = "ivar";
inline constexpr const char *LoopFirst = "first";

/// One key: the object that holds it, the key, what it holds.
struct KeyInfo {
  const char *Object, *Key, *Meaning;
};

inline constexpr KeyInfo StaticModelKeyTable[] = {
    {"module", Version, "format version (1)"},
    {"module", Source, "the source file of the device compile"},
    {"module", Arch, "the GPU architecture (sm_90, ...)"},
    {"module", Kernels, "one object per kernel"},
    {"kernel", Name, "demangled name"},
    {"kernel", Mangled, "mangled name"},
    {"kernel", Exact, "the model claims exact totals"},
    {"kernel", CountedByModel, "the kernel is not instrumented: its counts are the model's"},
    {"kernel", WarpCountedByModel,
     "(-hroof-warp-counts) not instrumented: its warp-level counts are its warp model's"},
    {"kernel", Unknown, "why the model is not exact"},
    {"kernel", NoUpperBound, "why some counter has no upper bound"},
    {"kernel", Functions, "device functions whose counts are in the kernel's"},
    {"kernel", Params, "the kernel's parameters"},
    {"kernel", Terms, "the terms whose sum is the totals"},
    {"kernel", Accesses, "the warp-level memory accesses"},
    {"kernel", WarpUnknown, "why the warp-level model is not exact"},
    {"param", Name, "parameter name (argN without a source name)"},
    {"param", Type, "LLVM type: iN, ptr, f32, ..."},
    {"term", Where, "the basic block (or source place) the term counts"},
    {"term", Counts, "counts per execution of the term, by counter key"},
    {"term", Factors, "expressions whose product is the term's executions"},
    {"term", Guarded, "the term runs only under a condition the factors hold as bounds"},
    {"term", Unbounded, "the term's executions have no upper bound"},
    {"access", Where, "the instruction"},
    {"access", Space, "memory space"},
    {"access", Dir, "load, store, atomic"},
    {"access", Width, "bytes per thread"},
    {"access", Multiplicity, "alternative products of factors: its executions"},
    {"access", Guarded, "why its executions are a bound"},
    {"access", Unbounded, "why its executions have no upper bound"},
    {"access", AsyncCopy, "a cp.async copy"},
    {"access", Unmodelled, "why its address is not modelled"},
    {"access", Base, "the base pointer: a parameter or an object"},
    {"access", Offset, "the byte offset from the base, an expression"},
    {"access", Assumes, "what the model assumes about the address"},
    {"access", Loops, "loops whose induction moves the address"},
    {"base", BaseParam, "parameter index of the base pointer"},
    {"base", BaseObject, "named object (shared or global variable)"},
    {"base", BaseAlign, "alignment of that object"},
    {"loop", LoopStep, "bytes per iteration"},
    {"loop", LoopTrips, "iterations"},
    {"loop", LoopIterVar, "iteration index the offset reads (step 0): iterations enumerated"},
    {"loop", LoopFirst, "first iteration that runs the access (innermost loop; default 0)"},
};

} // namespace model_keys
} // namespace hroof

#endif // HROOF_STATICMODELKEYS_H
