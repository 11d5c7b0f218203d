//===- MemSpace.cpp - the memory space a generic pointer points to -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// resolveMemSpace (Counting.h): what the static model can prove about the
// space of a pointer in the generic address space (docs/counting-model.md,
// "Memory spaces"). Anything it cannot prove stays Generic: the access is
// counted under bytes.generic, the kernel is not exact, and the
// instrumentation classifies it at run time.
#include "Counting.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <optional>

using namespace llvm;

namespace hroof {

namespace {

MemSpace spaceOfAS(unsigned AS) {
  switch (AS) {
  case 1:
    return MemSpace::Global;
  case 3:
    return MemSpace::Shared;
  case 4:
    return MemSpace::Constant;
  case 5:
    return MemSpace::Local;
  default:
    return MemSpace::Generic;
  }
}

MemSpace resolveObject(const Value *Obj, int Depth);

MemSpace resolvePointer(const Value *Ptr, int Depth) {
  if (Depth > 6)
    return MemSpace::Generic;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != 0)
    return spaceOfAS(AS);
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs, nullptr, 0);
  std::optional<MemSpace> Result;
  for (const Value *O : Objs) {
    MemSpace S = resolveObject(O, Depth);
    if (Result && *Result != S)
      return MemSpace::Generic;
    Result = S;
  }
  return Result.value_or(MemSpace::Generic);
}

MemSpace resolveObject(const Value *Obj, int Depth) {
  unsigned AS = Obj->getType()->isPointerTy() ? Obj->getType()->getPointerAddressSpace() : 0;
  if (AS != 0)
    return spaceOfAS(AS);
  if (isa<AllocaInst>(Obj))
    return MemSpace::Local;
  if (const auto *GV = dyn_cast<GlobalValue>(Obj))
    return spaceOfAS(GV->getAddressSpace());
  if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Obj))
    return spaceOfAS(ASC->getSrcAddressSpace());
  if (const auto *A = dyn_cast<Argument>(Obj)) {
    const Function *F = A->getParent();
    if (F->getCallingConv() == CallingConv::PTX_Kernel)
      // Pointer arguments are global (docs/counting-model.md); a struct passed by value
      // is in the parameter space (its reads are not counted, see
      // isKernelParamRead; a write to it is a local copy).
      return A->hasByValAttr() ? MemSpace::Local : MemSpace::Global;
    // Whole-program device compilation (CUDA without -rdc): every caller of
    // a device function is in this module.
    if (F->user_empty())
      return MemSpace::Generic;
    std::optional<MemSpace> Result;
    for (const User *U : F->users()) {
      const auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != F)
        return MemSpace::Generic;
      MemSpace S = resolvePointer(CB->getArgOperand(A->getArgNo()), Depth + 1);
      if (Result && *Result != S)
        return MemSpace::Generic;
      Result = S;
    }
    return Result.value_or(MemSpace::Generic);
  }
  return MemSpace::Generic;
}

} // namespace

MemSpace resolveMemSpace(const Value *Ptr) { return resolvePointer(Ptr, 0); }

} // namespace hroof
