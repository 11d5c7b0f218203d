//===- WarpInstrument.cpp - dynamic warp-level traffic, per request -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "WarpInstrument.h"
#include "Counting.h"
#include "PtxCounting.h"
#include "WarpAccess.h"

#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <map>

using namespace llvm;

static cl::opt<bool>
    WarpCounts("hroof-warp-counts",
               cl::desc("hroof: in dynamic mode, also count the exact warp-level traffic "
                        "(warp_bytes, sectors, wavefronts) of every global and shared load "
                        "and store (shuffles and votes per request, match.any.sync where "
                        "addresses are not monotonic); kernels whose thread- and warp-level "
                        "models are exact and complete stay uninstrumented, counted by the "
                        "models at each launch; off by default for its cost "
                        "(docs/instrumentation.md, docs/validation/overhead.md)"),
               cl::init(false));

namespace hroof {

bool warpCountsEnabled() { return WarpCounts; }

std::optional<WarpRequest> warpRequestOf(Instruction &I) {
  auto A = memoryAccess(I);
  if (!A || A->Dir == MemDir::Atomic || isByValParamRead(A->Ptr))
    return std::nullopt;
  MemSpace S = resolveMemSpace(A->Ptr);
  if (S != MemSpace::Global && S != MemSpace::Shared && S != MemSpace::Generic)
    return std::nullopt;
  if (A->Bytes == 0 || A->Bytes > 32 || !isPowerOf2_64(A->Bytes))
    return std::nullopt;
  return WarpRequest{&I, A->Ptr, S, A->Dir, A->Bytes};
}

std::vector<WarpRequest> warpRequestsOf(Instruction &I) {
  std::vector<WarpRequest> Out;
  if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isInlineAsm()) {
    for (const AsmAccess &X : asmAccesses(*CB))
      if (auto R = asmWarpRequest(*CB, X))
        Out.push_back(*R);
  } else if (auto R = warpRequestOf(I)) {
    Out.push_back(*R);
  }
  return Out;
}

std::optional<WarpRequest> asmWarpRequest(CallBase &CB, const AsmAccess &X) {
  // The asm's own address operand, as it is: a pointer (clang's __ldcs and
  // hroof/cuda_compat.h pass one), no displacement, an instruction that
  // always runs. A 32-bit shared-window address, [$N+C] and @p are left out.
  auto *Ptr = const_cast<Value *>(X.Address);
  if (!X.Unmodelled.empty() || X.Predicated || X.AsyncCopy || X.Displacement || !Ptr ||
      !Ptr->getType()->isPointerTy() || X.Dir == MemDir::Atomic)
    return std::nullopt;
  if (X.Space != MemSpace::Global && X.Space != MemSpace::Shared)
    return std::nullopt;
  if (X.Bytes == 0 || X.Bytes > 32 || !isPowerOf2_64(X.Bytes))
    return std::nullopt;
  return WarpRequest{&CB, Ptr, X.Space, X.Dir, X.Bytes};
}

void warpCountersOf(const WarpRequest &R, std::set<int> &Out) {
  bool G = R.Space != MemSpace::Shared, S = R.Space != MemSpace::Global;
  if (G) {
    Out.insert(warpBytesIndex(MemSpace::Global, R.Dir));
    Out.insert(sectorsIndex(R.Dir));
  }
  if (S) {
    Out.insert(warpBytesIndex(MemSpace::Shared, R.Dir));
    Out.insert(wavefrontsIndex(R.Dir));
  }
}

namespace {

/// An access as the static model's merge sees it (WarpAccess.cpp).
struct Candidate {
  std::optional<WarpRequest> Req; ///< null: not counted at warp level
  MemDir Dir;
  uint64_t Width;
  const SCEV *Ptr = nullptr;
  uint64_t Align = 1;
  size_t Pos = 0;     ///< position in the block
  size_t LastPos = 0; ///< position of the run's last access
};

/// The backend's merge, with the static model's rule (mergeAdjacent in
/// WarpAccess.cpp): a run of accesses of one direction and width at
/// contiguous constant distances, no access of the other direction in
/// between, the first aligned to the merged width (16 or 8 bytes). Applied
/// also where the static model has no address form (gathers), as the
/// backend does.
void mergeRuns(std::vector<Candidate> &C, ScalarEvolution &SE) {
  for (size_t I = 0; I < C.size(); ++I) {
    Candidate &Head = C[I];
    if (!Head.Req || !Head.Ptr)
      continue;
    for (uint64_t Want : {16u, 8u}) {
      if (Head.Align < Want || Head.Width >= Want || Want % Head.Width)
        continue;
      std::vector<size_t> Run{I};
      uint64_t Covered = Head.Width;
      for (size_t J = I + 1; J < C.size() && Covered < Want; ++J) {
        if (C[J].Dir != Head.Dir)
          break;
        if (!C[J].Ptr || C[J].Width != Head.Width)
          continue;
        const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(C[J].Ptr, Head.Ptr));
        if (D && D->getAPInt().getSExtValue() == int64_t(Covered)) {
          Run.push_back(J);
          Covered += C[J].Width;
        }
      }
      if (Covered != Want)
        continue;
      Head.Width = Head.Req->Width = Want;
      Head.LastPos = C[Run.back()].Pos;
      for (size_t K = Run.size(); K-- > 1;)
        C.erase(C.begin() + Run[K]);
      break;
    }
  }
}

/// Spans of positions that must stay free of inserted code, or the backend
/// could not vectorize them (our calls have side effects): each merged run,
/// and any two accesses of one direction less than 16 bytes apart with no
/// access of the other direction between (LLVM 22's vectorizer also merges
/// loads with gaps, e.g. the .x and .w of a float4; those stay two requests
/// in the counts, as in the static model, but are not split by our code).
std::vector<std::pair<size_t, size_t>> keepTogether(const std::vector<Candidate> &C,
                                                    ScalarEvolution &SE) {
  std::vector<std::pair<size_t, size_t>> Spans;
  for (size_t I = 0; I < C.size(); ++I) {
    if (C[I].LastPos > C[I].Pos)
      Spans.push_back({C[I].Pos, C[I].LastPos});
    if (!C[I].Ptr)
      continue;
    for (size_t J = I + 1; J < C.size() && J < I + 16; ++J) {
      if (C[J].Dir != C[I].Dir)
        break;
      if (!C[J].Ptr || C[J].Ptr->getType() != C[I].Ptr->getType())
        continue;
      const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(C[J].Ptr, C[I].Ptr));
      if (D && D->getAPInt().abs().ult(16))
        Spans.push_back({C[I].Pos, std::max(C[J].LastPos, C[I].LastPos)});
    }
  }
  return Spans;
}

} // namespace

std::vector<WarpRequest> warpRequests(BasicBlock &BB, ScalarEvolution &SE) {
  std::vector<Candidate> C;
  std::vector<Instruction *> ByPos;
  for (Instruction &I : BB) {
    ByPos.push_back(&I);
    if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isInlineAsm()) {
      for (const AsmAccess &X : asmAccesses(*CB))
        C.push_back({asmWarpRequest(*CB, X), X.Dir, X.Bytes, nullptr, 1, ByPos.size() - 1,
                     ByPos.size() - 1});
      continue;
    }
    auto A = memoryAccess(I);
    if (!A || resolveMemSpace(A->Ptr) == MemSpace::Constant || isByValParamRead(A->Ptr))
      continue;
    Candidate X{warpRequestOf(I), A->Dir, A->Bytes};
    if (SE.isSCEVable(A->Ptr->getType()))
      X.Ptr = SE.getSCEV(A->Ptr);
    X.Align = accessAlign(I, A->Ptr);
    X.Pos = X.LastPos = ByPos.size() - 1;
    C.push_back(X);
  }
  mergeRuns(C, SE);
  std::vector<std::pair<size_t, size_t>> Spans = keepTogether(C, SE);
  // A request whose first access lies inside a span is counted after the
  // last access of the spans that overlap it.
  std::vector<WarpRequest> Out;
  for (const Candidate &Me : C) {
    if (!Me.Req)
      continue;
    bool Inside = std::any_of(Spans.begin(), Spans.end(), [&](const auto &S) {
      return S.first < Me.Pos && S.second >= Me.Pos;
    });
    size_t End = Me.LastPos;
    for (bool Grew = Inside; Grew;) {
      Grew = false;
      for (auto [From, To] : Spans)
        if (From <= End && To > End) {
          End = To;
          Grew = true;
        }
    }
    WarpRequest R = *Me.Req;
    if (Inside && End + 1 < ByPos.size())
      R.At = ByPos[End + 1];
    Out.push_back(R);
  }
  return Out;
}

namespace {

/// One request's per-lane shares, before the space is applied: the bytes it
/// adds (warp_bytes.*), the sectors (global) and the wavefronts (shared).
struct Shares {
  Value *Bytes, *Sectors, *Waves;
};

/// Emits a request's counting code. Two paths, chosen per warp at run time
/// (the condition is warp-uniform):
/// - fast: the active lanes are contiguous and their addresses monotonic in
///   the lane id (coalesced, strided, broadcast, partial broadcast; for a
///   possibly-shared request of at most 4 bytes also spanning fewer than 32
///   words): each lane compares its address with the next lane's
///   (shfl.sync.down), and ballot + popc count the distinct addresses and
///   sectors; one wavefront per shared request;
/// - slow: match.any.sync on the address, the sector and the bank (below).
/// match.any on 32 distinct 64-bit keys is far slower than a shuffle and a
/// vote, so it runs only where the fast path cannot (kernel times with it on
/// every request and with the fast path: docs/validation/overhead.md).
class RequestEmitter {
public:
  RequestEmitter(Module &M, const WarpRequest &R, WarpAddFn Add, DomTreeUpdater *DTU,
                 LoopInfo *LI)
      : M(M), R(R), Add(Add), DTU(DTU), LI(LI), B(R.At), I32(B.getInt32Ty()),
        I64(B.getInt64Ty()) {}

  void run() {
    Mask = call(Intrinsic::nvvm_activemask, {});
    Lane = call(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
    Below = call(Intrinsic::nvvm_read_ptx_sreg_lanemask_lt, {});
    IsG = B.getInt1(R.Space == MemSpace::Global);
    IsS = B.getInt1(R.Space == MemSpace::Shared);
    if (R.Space == MemSpace::Generic) {
      Value *P = B.CreatePointerCast(R.Ptr, PointerType::get(B.getContext(), 0));
      IsG = call(Intrinsic::nvvm_isspacep_global, {P});
      IsS = call(Intrinsic::nvvm_isspacep_shared, {P});
    }
    Addr = B.CreatePtrToInt(R.Ptr, I64, "hroof.warp.addr");
    if (!isFalse(IsS))
      Word = B.CreateLShr(sharedOffset(), B.getInt32(2));
    Value *Fast = fastCondition();
    Instruction *FastT = nullptr, *SlowT = nullptr;
    SplitBlockAndInsertIfThenElse(Fast, R.At->getIterator(), &FastT, &SlowT, nullptr, DTU, LI);
    B.SetInsertPoint(FastT);
    Shares F = fastShares();
    B.SetInsertPoint(SlowT);
    Shares S = slowShares();
    B.SetInsertPoint(R.At);
    auto Join = [&](Value *A, Value *C) -> Value * {
      if (!A)
        return nullptr;
      PHINode *P = B.CreatePHI(A->getType(), 2);
      P->addIncoming(A, FastT->getParent());
      P->addIncoming(C, SlowT->getParent());
      return P;
    };
    Value *Bytes = Join(F.Bytes, S.Bytes), *Sectors = Join(F.Sectors, S.Sectors),
          *Waves = Join(F.Waves, S.Waves);
    Value *Zero = B.getInt64(0);
    for (auto [Sp, Is] : {std::pair{MemSpace::Global, IsG}, {MemSpace::Shared, IsS}})
      if (!isFalse(Is))
        Add(B, warpBytesIndex(Sp, R.Dir), B.CreateSelect(Is, Bytes, Zero), 32 * R.Width);
    if (Sectors)
      Add(B, sectorsIndex(R.Dir), B.CreateSelect(IsG, Sectors, Zero), 64);
    if (Waves)
      Add(B, wavefrontsIndex(R.Dir), B.CreateSelect(IsS, Waves, Zero), 32);
  }

private:
  static bool isFalse(Value *V) {
    auto *C = dyn_cast<ConstantInt>(V);
    return C && C->isZero();
  }
  Value *call(Intrinsic::ID ID, ArrayRef<Value *> Args) {
    return B.CreateCall(Intrinsic::getOrInsertDeclaration(&M, ID), Args);
  }
  Value *match64(Value *Key) { return call(Intrinsic::nvvm_match_any_sync_i64, {Mask, Key}); }
  /// This lane is the lowest of its group \p Peers: no lane below it is in
  /// Peers (%lanemask_lt).
  Value *leader(Value *Peers) {
    return B.CreateICmpEQ(B.CreateAnd(Peers, Below), B.getInt32(0));
  }
  Value *voteAll(Value *Pred) { return call(Intrinsic::nvvm_vote_all_sync, {Mask, Pred}); }
  Value *ballot(Value *Pred) { return call(Intrinsic::nvvm_vote_ballot_sync, {Mask, Pred}); }
  /// 1 + the lanes whose \p Key differs from the next lane's: the distinct
  /// keys of a monotonic sequence.
  Value *distinct(Value *Key, Value *NextKey) {
    Value *Step = B.CreateAnd(HasNext, B.CreateICmpNE(NextKey, Key));
    return B.CreateAdd(B.CreateUnaryIntrinsic(Intrinsic::ctpop, ballot(Step)), B.getInt32(1));
  }
  /// The 32-bit shared-window offset of the address (garbage for a generic
  /// address outside shared memory, used only where IsS holds).
  Value *sharedOffset() {
    if (R.Ptr->getType()->getPointerAddressSpace() == 3)
      return B.CreateTrunc(Addr, I32);
    Value *P = B.CreatePointerCast(R.Ptr, PointerType::get(B.getContext(), 0));
    return B.CreatePtrToInt(B.CreateAddrSpaceCast(P, PointerType::get(B.getContext(), 3)), I32);
  }
  /// Whether ballot(\p Pred) is all or none of the active lanes.
  Value *uniform(Value *Pred) {
    Value *Ballot = ballot(Pred);
    return B.CreateOr(B.CreateICmpEQ(Ballot, Mask), B.CreateICmpEQ(Ballot, B.getInt32(0)));
  }

  /// The fast path's condition, the same in every active lane.
  Value *fastCondition() {
    First = B.CreateBinaryIntrinsic(Intrinsic::cttz, Mask, B.getTrue());
    Last = B.CreateSub(B.getInt32(31), B.CreateBinaryIntrinsic(Intrinsic::ctlz, Mask, B.getTrue()));
    Value *Shifted = B.CreateLShr(Mask, First);
    Value *Contig =
        B.CreateICmpEQ(B.CreateAnd(Shifted, B.CreateAdd(Shifted, B.getInt32(1))), B.getInt32(0));
    auto Down = [&](Value *V) {
      return call(Intrinsic::nvvm_shfl_sync_down_i32, {Mask, V, B.getInt32(1), B.getInt32(31)});
    };
    Value *NextLo = Down(B.CreateTrunc(Addr, I32));
    Value *NextHi = Down(B.CreateTrunc(B.CreateLShr(Addr, 32), I32));
    Next = B.CreateOr(B.CreateShl(B.CreateZExt(NextHi, I64), 32), B.CreateZExt(NextLo, I64));
    HasNext = B.CreateICmpULT(Lane, Last);
    Value *NoNext = B.CreateNot(HasNext);
    Value *Up = voteAll(B.CreateOr(NoNext, B.CreateICmpUGE(Next, Addr)));
    Value *DownMono = voteAll(B.CreateOr(NoNext, B.CreateICmpULE(Next, Addr)));
    Value *Fast = B.CreateAnd(Contig, B.CreateOr(Up, DownMono));
    if (R.Space == MemSpace::Generic)
      Fast = B.CreateAnd(Fast, B.CreateAnd(uniform(IsG), uniform(IsS)));
    if (!isFalse(IsS)) {
      // Shared, at most 4 bytes a lane, monotonic: fewer than 32 words from
      // the first lane's to the last's put at most one distinct word in each
      // bank (one wavefront). Wider shared requests take the slow path.
      Value *SharedOk = B.getFalse();
      if (R.Width <= 4) {
        auto Idx = [&](Value *From) {
          return call(Intrinsic::nvvm_shfl_sync_idx_i32, {Mask, Word, From, B.getInt32(31)});
        };
        Value *WF = Idx(First), *WL = Idx(Last);
        Value *Span = B.CreateSub(B.CreateBinaryIntrinsic(Intrinsic::umax, WF, WL),
                                  B.CreateBinaryIntrinsic(Intrinsic::umin, WF, WL));
        SharedOk = B.CreateICmpULT(Span, B.getInt32(32));
      }
      Fast = B.CreateAnd(Fast, B.CreateOr(B.CreateNot(IsS), SharedOk));
    }
    return Fast;
  }

  Shares fastShares() {
    Value *IsFirst = B.CreateICmpEQ(Lane, First);
    auto Lead = [&](Value *V) { return B.CreateZExt(B.CreateSelect(IsFirst, V, B.getInt32(0)), I64); };
    Shares S{};
    S.Bytes = B.CreateMul(Lead(distinct(Addr, Next)), B.getInt64(R.Width));
    if (!isFalse(IsG))
      S.Sectors = Lead(distinct(B.CreateLShr(Addr, 5), B.CreateLShr(Next, 5)));
    if (!isFalse(IsS))
      S.Waves = Lead(B.getInt32(1));
    return S;
  }

  Shares slowShares() {
    // Distinct bytes: naturally aligned accesses of one width either are
    // the same or do not overlap, so each group of equal addresses adds the
    // width once.
    Shares S{};
    S.Bytes = B.CreateSelect(leader(match64(Addr)), B.getInt64(R.Width), B.getInt64(0));
    // Sectors: an aligned access of at most 32 bytes lies in one sector.
    if (!isFalse(IsG))
      S.Sectors = B.CreateZExt(leader(match64(B.CreateLShr(Addr, 5))), I64);
    if (!isFalse(IsS))
      S.Waves = wavefronts();
    return S;
  }

  /// WarpModel.cpp's requestCost: lanes in groups of 32/n (n words per
  /// lane); per group the most distinct 4-byte words in one bank. A lane's
  /// words are chunk*n .. chunk*n+n-1 (chunk = address / (4n), aligned), so
  /// distinct words are distinct chunks and the words of one bank are the
  /// chunks with one value of chunk mod (32/n). The lowest active lane's
  /// share is the sum over the groups.
  Value *wavefronts() {
    uint64_t ChunkBytes = std::max<uint64_t>(R.Width, 4), N = ChunkBytes / 4, G = 32 / N;
    Value *Off = B.CreateZExt(sharedOffset(), I64);
    Value *Chunk = B.CreateLShr(Off, Log2_64(ChunkBytes));
    Value *Grp = B.CreateLShr(Lane, Log2_64(G));
    Value *Key = B.CreateOr(B.CreateShl(B.CreateZExt(Grp, I64), 40), Chunk);
    Key = B.CreateSelect(IsS, Key, B.getInt64(uint64_t(1) << 63));
    Value *LeadC = B.CreateAnd(leader(match64(Key)), IsS);
    Value *Bank =
        B.CreateOr(B.CreateShl(Grp, 8), B.CreateAnd(B.CreateTrunc(Chunk, I32), B.getInt32(G - 1)));
    Bank = B.CreateSelect(LeadC, Bank, B.getInt32(0xffffffff));
    Value *Same = call(Intrinsic::nvvm_match_any_sync_i32, {Mask, Bank});
    Value *Cnt =
        B.CreateSelect(LeadC, B.CreateUnaryIntrinsic(Intrinsic::ctpop, Same), B.getInt32(0));
    Value *Total = B.getInt32(0);
    for (uint64_t Gi = 0; Gi < N; ++Gi) {
      Value *V =
          N == 1 ? Cnt : B.CreateSelect(B.CreateICmpEQ(Grp, B.getInt32(Gi)), Cnt, B.getInt32(0));
      Total = B.CreateAdd(Total, call(Intrinsic::nvvm_redux_sync_umax, {V, Mask}));
    }
    return B.CreateZExt(B.CreateSelect(leader(Mask), Total, B.getInt32(0)), I64);
  }

  Module &M;
  const WarpRequest &R;
  WarpAddFn Add;
  DomTreeUpdater *DTU;
  LoopInfo *LI;
  IRBuilder<> B;
  Type *I32, *I64;
  Value *Mask = nullptr, *Lane = nullptr, *Below = nullptr, *IsG = nullptr, *IsS = nullptr,
        *Addr = nullptr, *Word = nullptr, *First = nullptr, *Last = nullptr, *Next = nullptr,
        *HasNext = nullptr;
};

} // namespace

void emitWarpCounts(Module &M, const WarpRequest &R, WarpAddFn Add, DomTreeUpdater *DTU,
                    LoopInfo *LI) {
  RequestEmitter(M, R, Add, DTU, LI).run();
}

} // namespace hroof
