//===- WarpModel.cpp - memory traffic at the hardware's granularity -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/WarpModel.h"
#include "WarpEvaluator.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>
#include <stdexcept>

namespace hroof {

namespace warp_eval {

void AccessEvaluator::lane(int64_t T, Lane &Out) {
  enterThread(T);
  if (Budget-- == 0)
    throw overBudget();
  u128 M = 0;
  for (const auto &P : A.Alternatives) {
    u128 X = 1;
    for (const ExprPtr &F : P) {
      int64_t V = value(*F);
      X *= u128(V < 0 ? 0 : V);
      if (!X)
        break;
    }
    M += X;
  }
  Out.Active = M != 0;
  Out.Mult = M;
  Out.Thread = T;
  if (!Out.Active || !A.Offset)
    return;
  if (enumeratedVar() < 0) // else the address is one per iteration: enumeratedWarp()
    Out.Addr = A.Offset->eval(Env) + Shift;
  for (const WarpLoop &Lp : A.Loops) {
    Out.Steps.push_back(value(*Lp.Step));
    Out.Trips.push_back(std::max<int64_t>(value(*Lp.Trips), 0));
  }
  if (!A.Loops.empty() && A.Loops[0].First)
    Out.Start = std::max<int64_t>(0, value(*A.Loops[0].First));
}

int64_t AccessEvaluator::value(const Expr &E) const {
  for (const auto &[F, V] : Fixed)
    if (F == &E)
      return V;
  return E.eval(Env);
}

void AccessEvaluator::warp(int64_t FirstThread, int64_t BlockThreads) {
  std::array<Lane, WarpSize> Lanes;
  bool Any = false;
  for (int I = 0; I < WarpSize && FirstThread + I < BlockThreads; ++I) {
    lane(FirstThread + I, Lanes[size_t(I)]);
    Any |= Lanes[size_t(I)].Active;
  }
  if (!Any)
    return;
  if (!A.Guarded.empty() && !A.Offset)
    return bound(Lanes, A.Guarded + " at " + A.Where, /*MayNotRun=*/true);
  if (!A.Guarded.empty() && Inexact.empty())
    Inexact = A.Guarded + " at " + A.Where;
  if (!A.Offset)
    return bound(Lanes, A.Unmodelled + " at " + A.Where);
  if (enumeratedVar() >= 0)
    return enumeratedWarp(Lanes, [&](const std::array<Lane, WarpSize> &K) {
      A.Dir == MemDir::Atomic ? atomicWarp(K) : exactWarp(K);
    });
  if (A.Dir == MemDir::Atomic)
    return atomicWarp(Lanes);
  exactWarp(Lanes);
}

/// An access whose address reads its loop's iteration index other than by a
/// step (a shuffle `i % G * K + i / G` of i = tid + k * ntid): iteration k
/// of the warp is one request of the lanes that run it (Start <= k < Trips),
/// at the addresses of index k, handed to \p Each as a loop of one
/// iteration. Costs one lane evaluation per lane and iteration.
template <typename Fn>
void AccessEvaluator::enumeratedWarp(const std::array<Lane, WarpSize> &Lanes, Fn Each) {
  int64_t Least = INT64_MAX, Most = 0;
  u128 Cost = 0;
  for (const Lane &Ln : Lanes)
    if (Ln.Active) {
      if (!Ln.innermost() || Ln.Mult % u128(Ln.innermost()))
        return bound(Lanes, "lanes of a warp take different paths or loop counts at " + A.Where,
                     !A.Guarded.empty());
      Least = std::min(Least, Ln.Start);
      Most = std::max(Most, Ln.Trips[0]);
      Cost += u128(Ln.innermost());
    }
  // Refused before the work, not after it (a trip count of 2^31).
  if (Cost > Budget)
    throw overBudget();
  Budget -= uint64_t(Cost); // one evaluation per lane and iteration, below
  auto Id = size_t(enumeratedVar());
  if (Env.IterVals.size() <= Id) {
    Env.IterVals.resize(Id + 1);
    Env.IterBound.resize(Id + 1);
  }
  Env.IterBound[Id] = true;
  std::array<Lane, WarpSize> K;
  for (int64_t It = Least; It < Most; ++It) {
    Env.IterVals[Id] = It;
    for (size_t I = 0; I < WarpSize; ++I) {
      const Lane &Ln = Lanes[I];
      K[I] = Lane{};
      if (!Ln.runs(It, It + 1))
        continue;
      enterThread(Ln.Thread);
      K[I] = Ln;
      K[I].Mult = Ln.Mult / u128(Ln.innermost());
      K[I].Start = 0;
      K[I].Trips[0] = 1;
      K[I].Addr = A.Offset->eval(Env) + Shift;
    }
    Each(K);
  }
  Env.IterBound[Id] = false;
}

/// Bounds for a warp whose requests the model cannot follow: at least one
/// request per execution of the busiest lane, each at least one sector and
/// pass; at most one request per lane execution, each costing what one lane
/// alone costs. \p MayNotRun: the multiplicities are upper bounds only.
void AccessEvaluator::bound(const std::array<Lane, WarpSize> &Lanes, const std::string &Why,
                            bool MayNotRun) {
  if (Inexact.empty() && !AtomicCounts)
    Inexact = Why;
  if (FootprintOnly && !Placing)
    return;
  u128 Max = 0, Sum = 0;
  for (const Lane &Ln : Lanes)
    if (Ln.Active) {
      Max = std::max(Max, Ln.Mult);
      Sum += Ln.Mult;
    }
  // Accesses are naturally aligned (PTX requires it).
  uint64_t W = A.Width, SectorsPerLane = (W + SectorBytes - 1) / SectorBytes;
  uint64_t WordsPerLane = (W + 3) / 4;
  if (MayNotRun)
    Max = 0;
  Max *= Scale;
  Sum *= Scale;
  if (Unplaced && !AtomicCounts)
    *Unplaced += Sum * W; // at most this many distinct bytes, anywhere
  if (Unplaced && !AtomicCounts && Max && A.Space == MemSpace::Global) // one lane's, at least
    FP->UnplacedLeast[int(A.Dir)] = std::max(FP->UnplacedLeast[int(A.Dir)], u128(W));
  if (Placing)
    return;
  if (AtomicCounts && Inexact.empty() && (Max != Sum || SectorsPerLane != 1))
    Inexact = Why;
  BoundLo[0] += Max * W;
  BoundHi[0] += Sum * W;
  BoundLo[1] += Max;
  BoundHi[1] += Sum * SectorsPerLane;
  BoundLo[2] += Max;
  BoundHi[2] += Sum * WordsPerLane;
}

/// L2 serves atomics one address at a time: a warp's requests and sectors
/// are bounded (bound()), said so where the bounds differ (one lane is one
/// request). The address is known: the bytes go into the footprint.
void AccessEvaluator::atomicWarp(const std::array<Lane, WarpSize> &Lanes) {
  if (!FootprintOnly) {
    AtomicCounts = true;
    bound(Lanes,
          "atomics are served by L2: their requests and sectors are bounded by the lanes that "
          "run them, not followed address by address, at " + A.Where,
          !A.Guarded.empty());
    AtomicCounts = false;
  }
  if (!Possible && !Unplaced)
    return;
  bool Keep = FootprintOnly;
  FootprintOnly = Placing = true;
  exactWarp(Lanes);
  FootprintOnly = Keep;
  Placing = false;
}

void AccessEvaluator::exactWarp(const std::array<Lane, WarpSize> &Lanes) {
  const Lane *First = nullptr;
  for (const Lane &Ln : Lanes)
    if (Ln.Active && !First)
      First = &Ln;
  // Lanes must agree on the steps and (but for the innermost loop's
  // iterations, below) on the trip counts; the rest of the multiplicity
  // must be the same.
  auto Chain = [](const Lane &Ln) {
    u128 C = u128(Ln.innermost());
    for (size_t J = 1; J < Ln.Trips.size(); ++J)
      C *= u128(Ln.Trips[J]);
    return C;
  };
  u128 FirstChain = Chain(*First);
  for (const Lane &Ln : Lanes) {
    if (!Ln.Active)
      continue;
    bool Same = Ln.Steps == First->Steps &&
                std::equal(Ln.Trips.begin() + (Ln.Trips.empty() ? 0 : 1), Ln.Trips.end(),
                           First->Trips.begin() + (First->Trips.empty() ? 0 : 1));
    u128 LaneChain = Chain(Ln);
    if (!Same || !LaneChain || Ln.Mult % LaneChain ||
        (FirstChain && Ln.Mult / LaneChain != First->Mult / FirstChain))
      return bound(Lanes, "lanes of a warp take different paths or loop counts at " + A.Where,
                   !A.Guarded.empty());
  }
  u128 Repeat = (FirstChain ? First->Mult / FirstChain : 0) * Scale;
  // Each lane runs iterations [Start, Trips) of the innermost loop (a
  // condition on the loop's variable moves Start; lanes leave as their trip
  // counts run out): between two consecutive ends of those windows, the
  // same lanes run every iteration.
  std::vector<int64_t> Ends;
  for (const Lane &Ln : Lanes)
    if (Ln.Active) {
      Ends.push_back(Ln.Start);
      Ends.push_back(Ln.Trips.empty() ? 1 : Ln.Trips[0]);
    }
  std::sort(Ends.begin(), Ends.end());
  Ends.erase(std::unique(Ends.begin(), Ends.end()), Ends.end());
  for (size_t E = 0; E + 1 < Ends.size(); ++E) {
    int64_t From = Ends[E], To = Ends[E + 1];
    std::array<int64_t, WarpSize> Rel;
    int64_t Low = INT64_MAX;
    for (int I = 0; I < WarpSize; ++I) {
      const Lane &Ln = Lanes[size_t(I)];
      bool In = Ln.runs(From, To);
      Rel[size_t(I)] = In ? Ln.Addr : NoLane;
      if (In)
        Low = std::min(Low, Ln.Addr);
    }
    if (Low == INT64_MAX)
      continue; // no lane runs these iterations
    for (int64_t &R : Rel)
      if (R != NoLane)
        R -= Low;
    std::vector<std::pair<int64_t, int64_t>> ST;
    for (size_t J = 0; J < First->Trips.size(); ++J)
      ST.push_back({First->Steps[J], J == 0 ? To : First->Trips[J]});
    Histogram H = iterationResidues(ST, ST.empty() ? 0 : From);
    if (!FootprintOnly)
      addHistogram(Rel, Low, H, Repeat);
    if (Possible)
      addFootprint(Lanes, *First, From, To);
  }
}

void AccessEvaluator::addHistogram(const std::array<int64_t, WarpSize> &Rel, int64_t Low,
                                   const Histogram &H, u128 Repeat) {
  // Guarded: the lanes that run are a subset, in a subset of the
  // executions, and a request never costs more than one with more lanes:
  // [0, this warp's cost with every modelled lane] for any placement.
  bool Upper = !A.Guarded.empty();
  std::array<u128, 3> Most{};
  for (size_t B = 0; B < BaseResidues.size(); ++B) {
    std::array<u128, 3> Sum{};
    for (int64_t R = 0; R < Period; ++R) {
      if (!H[size_t(R)])
        continue;
      int64_t Res = residue(BaseResidues[B] + Low + R);
      auto [It, New] = Costs.try_emplace({Rel, Res});
      if (New)
        It->second = requestCost(Rel, int64_t(A.Width), Res);
      const RequestCost &C = It->second;
      u128 N = H[size_t(R)] * Repeat;
      Sum[0] += N * C.Bytes;
      Sum[1] += N * C.Sectors;
      Sum[2] += N * C.Wavefronts;
    }
    for (int Q = 0; Q < 3; ++Q) {
      if (Upper)
        Most[size_t(Q)] = std::max(Most[size_t(Q)], Sum[size_t(Q)]);
      else
        Totals[B][size_t(Q)] += Sum[size_t(Q)];
    }
  }
  for (int Q = 0; Q < 3; ++Q)
    BoundHi[size_t(Q)] += Most[size_t(Q)];
}

} // namespace warp_eval

namespace {

using warp_eval::AccessEvaluator;

std::string key(const char *Quantity, const WarpAccess &A) {
  return std::string(Quantity) + "." + MemSpaceNames[int(A.Space)] + "." + MemDirNames[int(A.Dir)];
}

void addUnique(std::vector<std::string> &V, const std::string &S) {
  if (std::find(V.begin(), V.end(), S) == V.end())
    V.push_back(S);
}

/// The memory object whose footprint set an access adds to, and the address
/// of its byte 0: given pointer values share one address space ("abs"), so
/// two parameters that point into one buffer are counted once.
std::pair<std::string, int64_t> footprintObject(const WarpAccess &A,
                                                const PointerValues &Pointers) {
  if (A.BaseParam >= 0) {
    size_t P = size_t(A.BaseParam);
    if (P < Pointers.size() && Pointers[P])
      return {"abs", int64_t(*Pointers[P])};
    return {"p" + std::to_string(P), 0};
  }
  return {"o:" + A.BaseObject, 0};
}

/// footprint.global.{load,store} from the collected sets, or the note why not.
void writeFootprint(WarpTraffic &Out, FootprintSets &FP) {
  std::map<std::string, Bounds> Found;
  for (bool Written : {false, true}) {
    if (!FP.Problem.empty() || !FP.touched(Written))
      continue;
    if (auto B = FP.bytes(Written))
      Found[std::string("footprint.global.") + (Written ? "store" : "load")] = {B->first,
                                                                                B->second};
  }
  if (!FP.Problem.empty()) {
    Out.FootprintNote = FP.Problem;
    return;
  }
  Out.Counts.insert(Found.begin(), Found.end());
  std::set<std::string> Apart; // pointer parameters whose values were not given
  for (const auto &Sets : FP.Possible)
    for (const auto &KV : Sets)
      if (KV.first[0] == 'p' && !KV.second.empty())
        Apart.insert(KV.first);
  if (Apart.size() > 1)
    addUnique(Out.Assumptions,
              "the footprint counts the bytes of each pointer parameter apart "
              "(the arrays do not overlap); give the pointer values to merge them");
}

/// Whether \p E is a multiple of \p M in every thread (from its form:
/// constants, and sums and products of such).
bool multipleOf(const Expr &E, uint64_t M) {
  switch (E.Op) {
  case ExprOp::Const:
    return uint64_t(E.Imm) % M == 0;
  case ExprOp::Mul:
    return multipleOf(*E.Ops[0], M) || multipleOf(*E.Ops[1], M);
  case ExprOp::Add:
  case ExprOp::Sub:
    return multipleOf(*E.Ops[0], M) && multipleOf(*E.Ops[1], M);
  case ExprOp::Shl:
    return multipleOf(*E.Ops[0], M) ||
           (E.Ops[1]->isConst() && E.Ops[1]->Imm >= 0 && E.Ops[1]->Imm < 63 &&
            (uint64_t(1) << E.Ops[1]->Imm) % M == 0);
  default:
    return false;
  }
}

/// Whether every address of \p A lies a multiple of \p M from its base.
bool stepsMultipleOf(const WarpAccess &A, uint64_t M) {
  if (!A.Offset || !multipleOf(*A.Offset, M))
    return false;
  return std::all_of(A.Loops.begin(), A.Loops.end(),
                     [M](const WarpLoop &Lp) { return multipleOf(*Lp.Step, M); });
}

/// \p A with its launch-uniform parts evaluated once (foldLaunchUniform):
/// the evaluator runs its expressions once per thread, and an address
/// expression is mostly arguments and block sizes.
WarpAccess foldAccess(const WarpAccess &A, const EvalEnv &UniformEnv) {
  WarpAccess F = A;
  F.Offset = foldLaunchUniform(A.Offset, UniformEnv);
  for (WarpLoop &Lp : F.Loops) {
    Lp.Step = foldLaunchUniform(Lp.Step, UniformEnv);
    Lp.Trips = foldLaunchUniform(Lp.Trips, UniformEnv);
    if (Lp.First)
      Lp.First = foldLaunchUniform(Lp.First, UniformEnv);
  }
  for (auto &P : F.Alternatives)
    for (ExprPtr &X : P)
      X = foldLaunchUniform(X, UniformEnv);
  return F;
}

} // namespace

namespace {

WarpTraffic evaluateOnce(const std::vector<WarpAccess> &Accesses, const LaunchShape &L,
                         const EvalEnv &Env, const PointerValues &Pointers,
                         const std::vector<std::string> &ParamNames,
                         const WarpModelOptions &Opts) {
  WarpTraffic Out;
  uint64_t Budget = Opts.MaxLaneEvaluations;
  FootprintSets FP;
  FP.Budget = Opts.MaxFootprintIntervals;
  for (const WarpAccess &A : Accesses)
    if (!A.Unbounded.empty())
      throw ExprError("the access at " + A.Where + " has no bound: " + A.Unbounded);
  EvalEnv UniformEnv = Env;
  UniformEnv.NTid = L.Block;
  UniformEnv.NCtaId = L.Grid;
  std::vector<WarpAccess> Folded;
  for (const WarpAccess &A : Accesses)
    Folded.push_back(foldAccess(A, UniformEnv));
  // An access not counted by block shift costs one evaluation per thread: a
  // launch that needs more than allowed is refused before any work, not
  // after seconds of it.
  u128 Needed = 0;
  for (const WarpAccess &A : Folded)
    Needed += AccessEvaluator(A, L, Env, {0}, Budget, Opts.ByShift).evaluationsNeeded();
  if (Needed > Budget)
    throw LaneBudgetExceeded(
        "the warp-level model needs more lane evaluations than allowed for this launch (" +
        u128ToString(Needed) +
        " for the accesses whose address is not affine in the block index, at most " +
        std::to_string(Budget) + ")");
  for (const WarpAccess &A : Folded) {
    // Where the base lies modulo 128: a given pointer, cudaMalloc's
    // alignment, or every placement a variable's alignment allows.
    std::vector<int64_t> Bases{0};
    if (A.Offset && A.BaseParam >= 0) {
      if (size_t(A.BaseParam) < Pointers.size() && Pointers[size_t(A.BaseParam)])
        Bases = {residue(int64_t(*Pointers[size_t(A.BaseParam)] % Period))};
      else
        addUnique(Out.Assumptions,
                  "pointer " +
                      (size_t(A.BaseParam) < ParamNames.size()
                           ? ParamNames[size_t(A.BaseParam)]
                           : "arg" + std::to_string(A.BaseParam)) +
                      " is 256-byte aligned (cudaMalloc); give its value to use another");
    } else if (A.Offset) {
      // PTX faults on a misaligned access: where every offset is a multiple
      // of the access width, so is the variable's address (an `extern
      // __shared__ unsigned char` buffer read as floats).
      uint64_t Align = std::clamp<uint64_t>(A.BaseAlign, 1, Period);
      if (stepsMultipleOf(A, A.Width))
        Align = std::max(Align, std::min<uint64_t>(A.Width, Period));
      Bases.clear();
      for (int64_t R = 0; R < Period; R += int64_t(Align))
        Bases.push_back(R);
    }
    if (A.Offset && !A.Assumes.empty())
      addUnique(Out.Assumptions, A.Assumes + " (" + A.Where + ")");
    AccessEvaluator E(A, L, Env, Bases, Budget, Opts.ByShift);
    if (A.Space == MemSpace::Global || A.Space == MemSpace::Generic) {
      auto [Object, Base] = footprintObject(A, Pointers);
      E.collectFootprint(FP, Object, Base, /*OnlyPossible=*/A.Space == MemSpace::Generic);
    }
    E.run();
    const char *Names[3] = {"warp_bytes", "sectors", "wavefronts"};
    if (A.Space == MemSpace::Generic) {
      // Global or shared, not known before it runs: up to its bounds in either, or nothing.
      for (MemSpace S : {MemSpace::Global, MemSpace::Shared})
        for (int Q = 0; Q < 3; ++Q)
          if (Q == 0 || (Q == 1) == (S == MemSpace::Global)) {
            WarpAccess As = A;
            As.Space = S;
            Out.Counts[key(Names[Q], As)].Hi += E.BoundHi[size_t(Q)];
          }
      if (!E.Inexact.empty())
        addUnique(Out.Inexact, E.Inexact);
      continue;
    }
    for (int Q = 0; Q < 3; ++Q) {
      bool Applies = A.AsyncCopy ? Q == 1 && A.Space == MemSpace::Global // WarpModel.h
                                 : Q == 0 || (Q == 1 && A.Space == MemSpace::Global) ||
                                       (Q == 2 && A.Space == MemSpace::Shared);
      if (!Applies)
        continue;
      u128 Lo = E.Totals[0][size_t(Q)], Hi = Lo;
      for (const auto &T : E.Totals) {
        Lo = std::min(Lo, T[size_t(Q)]);
        Hi = std::max(Hi, T[size_t(Q)]);
      }
      if (Lo != Hi)
        addUnique(Out.Inexact, std::string(Names[Q]) + " at " + A.Where + " depend on where " +
                                   A.BaseObject + " is placed");
      Bounds &B = Out.Counts[key(Names[Q], A)];
      B.Lo += Lo + E.BoundLo[size_t(Q)];
      B.Hi += Hi + E.BoundHi[size_t(Q)];
    }
    if (!E.Inexact.empty())
      addUnique(Out.Inexact, E.Inexact);
  }
  writeFootprint(Out, FP);
  return Out;
}

} // namespace

WarpTraffic evaluateWarpTraffic(const std::vector<WarpAccess> &Accesses, const LaunchShape &L,
                                const EvalEnv &Env, const PointerValues &Pointers,
                                const std::vector<std::string> &ParamNames,
                                const WarpModelOptions &Opts) {
  try {
    return evaluateOnce(Accesses, L, Env, Pointers, ParamNames, Opts);
  } catch (const LaneBudgetExceeded &) {
    // Iterations enumerated one by one (WarpLoop::IterVar) cost one lane
    // evaluation per lane and iteration, and rule out the closed forms over
    // blocks: over the budget, such accesses get the bounds they had before
    // (their multiplicities alone), and the launch is evaluated again.
    std::vector<WarpAccess> Demoted = Accesses;
    bool Any = false;
    for (WarpAccess &A : Demoted)
      if (A.Offset && !A.Loops.empty() && A.Loops[0].IterVar >= 0) {
        A.Unmodelled = "evaluating its loop's iterations one by one needs more lane "
                       "evaluations than allowed for this launch";
        A.Offset = nullptr;
        A.Loops.clear();
        Any = true;
      }
    if (!Any)
      throw;
    return evaluateOnce(Demoted, L, Env, Pointers, ParamNames, Opts);
  }
}

} // namespace hroof
