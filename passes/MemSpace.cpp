//===- MemSpace.cpp - the memory space a generic pointer points to -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// resolveMemSpace (Counting.h): what the static model can prove about the
// space of a pointer in the generic address space (docs/counting-model.md,
// "Memory spaces"). Anything it cannot prove stays Generic: the access is
// counted under bytes.generic, the kernel is not exact, and the
// instrumentation classifies it at run time.
#include "Counting.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Regex.h"

#include <optional>

using namespace llvm;

namespace hroof {

/// True when every use of a kernel's byval argument only reads it (loads,
/// address arithmetic, the source of a memcpy): then its bytes are the ones
/// the host passed at launch. A store, a call or an escaping address may put
/// a pointer of the kernel's own (a shared or local address) there, or any
/// other value. Also used by the static model (ExprBuilder), for which a
/// field of such an argument is a launch parameter.
bool isReadOnlyKernelParam(const Argument &A) {
  SmallVector<const Value *, 8> Work{&A};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (isa<GetElementPtrInst, BitCastInst, AddrSpaceCastInst, PHINode, SelectInst>(Usr)) {
        Work.push_back(Usr);
        continue;
      }
      if (isa<LoadInst>(Usr))
        continue;
      if (const auto *MT = dyn_cast<MemTransferInst>(Usr); MT && U.get() == MT->getRawSource() &&
                                                            U.get() != MT->getRawDest())
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(Usr); II && II->isLifetimeStartOrEnd())
        continue;
      return false;
    }
  }
  return true;
}

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
MemSpace resolvePointer(const Value *Ptr, int Depth);


/// A value loaded from a kernel's byval struct argument that the kernel does
/// not write: an address in it was set by the host, like a pointer argument.
bool isLoadedFromKernelParam(const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L)
    return false;
  const auto *A = dyn_cast<Argument>(getUnderlyingObject(L->getPointerOperand(), 0));
  return A && A->hasByValAttr() && A->getParent()->getCallingConv() == CallingConv::PTX_Kernel &&
         isReadOnlyKernelParam(*A);
}

/// Whether use \p U of a slot's address keeps the slot a pointer slot: the
/// address of a load of a whole generic pointer, or of a store of one (whose
/// value goes to \p Stored), aligned to the pointer's size. Storing the slot's
/// own address somewhere is not such a use: the address would escape.
bool isPointerSlotAccess(const Use &U, const DataLayout &DL,
                         SmallVectorImpl<const Value *> &Stored) {
  const User *Usr = U.getUser();
  auto Whole = [&](Type *T, Align A) {
    return T->isPointerTy() && T->getPointerAddressSpace() == 0 &&
           A.value() >= DL.getTypeStoreSize(T).getFixedValue();
  };
  if (const auto *L = dyn_cast<LoadInst>(Usr))
    return Whole(L->getType(), L->getAlign());
  if (const auto *St = dyn_cast<StoreInst>(Usr); St && U.getOperandNo() == St->getPointerOperandIndex()) {
    Stored.push_back(St->getValueOperand());
    return Whole(St->getValueOperand()->getType(), St->getAlign());
  }
  return false;
}

/// The pointers a slot may hold: a local variable (alloca) or a shared
/// variable (no initializer the host could set) that only whole, aligned
/// generic pointers are loaded from and stored into. A load of it reads one of
/// the stored values (or an uninitialized one, which the program may not
/// dereference). Nothing else may write it: its address may not escape.
std::optional<SmallVector<const Value *, 4>> slotContents(const Value *Slot) {
  const auto *GV = dyn_cast<GlobalVariable>(Slot);
  if (GV && (GV->getAddressSpace() != 3 ||
             (GV->hasInitializer() && !isa<UndefValue>(GV->getInitializer()))))
    return std::nullopt;
  if (!GV && !isa<AllocaInst>(Slot))
    return std::nullopt;
  const DataLayout &DL = GV ? GV->getParent()->getDataLayout()
                            : cast<AllocaInst>(Slot)->getModule()->getDataLayout();
  SmallVector<const Value *, 4> Stored;
  SmallVector<const Value *, 8> Work{Slot};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const User *Usr = U.getUser();
      if (isa<GEPOperator, BitCastOperator, AddrSpaceCastOperator>(Usr)) {
        Work.push_back(Usr);
        continue;
      }
      if (const auto *II = dyn_cast<IntrinsicInst>(Usr); II && II->isLifetimeStartOrEnd())
        continue;
      if (!isPointerSlotAccess(U, DL, Stored))
        return std::nullopt;
    }
  }
  return Stored;
}

/// A pointer loaded from a slot (slotContents): the one space of every
/// pointer stored into it.
MemSpace resolveSlotLoad(const LoadInst &L, int Depth) {
  auto Stored = slotContents(getUnderlyingObject(L.getPointerOperand(), 0));
  if (!Stored)
    return MemSpace::Generic;
  std::optional<MemSpace> Result;
  for (const Value *V : *Stored) {
    if (isa<ConstantPointerNull, UndefValue>(V))
      continue;
    MemSpace S = resolvePointer(V, Depth + 1);
    if (S == MemSpace::Generic || (Result && *Result != S))
      return MemSpace::Generic;
    Result = S;
  }
  return Result.value_or(MemSpace::Generic);
}

/// A pointer built from an integer: global when the integer is a whole
/// 64-bit word loaded from a kernel's byval argument (a pointer field that
/// the optimizer reads as an integer, as in thrust's iterators).
/// Inline asm whose one output is set by one statement, `cvta.shared.u64
/// $0, ...` (cooperative groups' reserved shared memory, CUB's and the
/// samples' dynamic shared memory helpers): the PTX ISA defines cvta.shared
/// as converting a shared address to the generic address of it.
bool isSharedAddressAsm(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  if (!IA || IA->getConstraintString() != "=l")
    return false;
  SmallVector<StringRef, 8> Stmts;
  StringRef(IA->getAsmString()).split(Stmts, ';');
  static const Regex Cvta("^cvta\\.shared(::cta)?\\.u64[ \t]+\\$0[ \t]*,");
  int Writes = 0, Mentions = 0;
  for (StringRef St : Stmts) {
    St = St.trim(" \t\n{}");
    if (!St.contains("$0"))
      continue;
    ++Mentions;
    Writes += Cvta.match(St);
  }
  return Mentions == 1 && Writes == 1;
}

MemSpace resolveIntToPtr(const IntToPtrInst &I) {
  const Value *Int = I.getOperand(0);
  if (Int->getType()->isIntegerTy(64) && isLoadedFromKernelParam(Int))
    return MemSpace::Global;
  if (const auto *CB = dyn_cast<CallBase>(Int); CB && isSharedAddressAsm(*CB))
    return MemSpace::Shared;
  return MemSpace::Generic;
}

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
    // A null or undefined pointer may not be dereferenced: the access goes
    // through the other objects.
    if (isa<ConstantPointerNull, UndefValue>(O))
      continue;
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
  // A variable in the generic space (a constant array that clang made of a
  // local one, a string) is put in the global space by the backend
  // (NVPTXGenericToNVVM).
  if (const auto *GV = dyn_cast<GlobalVariable>(Obj))
    return GV->getAddressSpace() == 0 ? MemSpace::Global : spaceOfAS(GV->getAddressSpace());
  if (const auto *GV = dyn_cast<GlobalValue>(Obj))
    return spaceOfAS(GV->getAddressSpace());
  if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Obj))
    return spaceOfAS(ASC->getSrcAddressSpace());
  if (isLoadedFromKernelParam(Obj))
    return MemSpace::Global;
  if (const auto *L = dyn_cast<LoadInst>(Obj))
    return resolveSlotLoad(*L, Depth);
  if (const auto *I2P = dyn_cast<IntToPtrInst>(Obj))
    return resolveIntToPtr(*I2P);
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

const Argument *deviceFunctionArgument(const Value *Ptr) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs, nullptr, 0);
  const Argument *Result = nullptr;
  for (const Value *O : Objs) {
    if (isa<ConstantPointerNull, UndefValue>(O))
      continue;
    const auto *A = dyn_cast<Argument>(O);
    if (!A || (Result && Result != A))
      return nullptr;
    Result = A;
  }
  return Result && Result->getParent()->getCallingConv() != CallingConv::PTX_Kernel ? Result
                                                                                     : nullptr;
}

} // namespace hroof
