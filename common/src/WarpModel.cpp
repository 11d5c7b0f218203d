//===- WarpModel.cpp - memory traffic at the hardware's granularity -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/WarpModel.h"
#include "AffineForm.h"
#include "Footprint.h"
#include "WarpClasses.h"
#include "WarpCost.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>
#include <stdexcept>

namespace hroof {

namespace {

/// Accumulates one access over the launch.
class AccessEvaluator {
public:
  AccessEvaluator(const WarpAccess &A, const LaunchShape &L, const EvalEnv &Env,
                  std::vector<int64_t> BaseResidues, uint64_t &Budget, bool ByShift)
      : Totals(BaseResidues.size()), A(A), L(L), Env(Env), BaseResidues(std::move(BaseResidues)),
        Budget(Budget), ByShift(ByShift) {
    this->Env.NTid = L.Block;
    this->Env.NCtaId = L.Grid;
  }
  /// Also collect the access's footprint into \p FP: its spans (at \p AbsBase
  /// plus the offset) into the sets of memory object \p Object, as certain
  /// unless \p OnlyPossible.
  void collectFootprint(FootprintSets &FP, const std::string &Object, int64_t AbsBase,
                        bool OnlyPossible);

  void run();
  /// Evaluations that run() needs: per class of blocks where the access has
  /// them (WarpClasses.h); none up front where full blocks are counted by
  /// shift (that costs a few blocks); else one per thread of the launch.
  u128 evaluationsNeeded() const;
  /// Per candidate base residue (one when the base is known).
  std::vector<std::array<u128, 3>> Totals; ///< bytes, sectors, wavefronts
  std::array<u128, 3> BoundLo{}, BoundHi{};
  std::string Inexact;

private:
  struct Lane {
    bool Active = false;
    u128 Mult = 0;
    int64_t Addr = 0;
    int64_t Thread = 0; ///< index in the block
    std::vector<int64_t> Steps, Trips;
  };
  /// The enumerated loop's index (WarpLoop::IterVar), or -1.
  int enumeratedVar() const { return A.Loops.empty() ? -1 : A.Loops[0].IterVar; }
  template <typename Fn> void enumeratedWarp(const std::array<Lane, WarpSize> &Lanes, Fn Each);
  void warp(int64_t FirstThread, int64_t BlockThreads);
  /// runByShift()'s affine address and ctaid guards, where the access has them.
  struct ShiftPlan {
    AffineForm Off;
    std::vector<std::pair<const Expr *, AffineGuard>> Guards;
  };
  std::optional<ShiftPlan> planByShift() const;
  bool runByShift();
  /// runByClasses()'s address shifts, classes of blocks and their cost.
  struct ClassPlan : BlockClasses {
    uint64_t Work = 0; ///< interval evaluations spent finding the classes
    u128 Lanes = 0;    ///< lane evaluations of the classes, at most
  };
  std::optional<ClassPlan> planClasses() const;
  bool runByClasses();
  bool deadClass(const BlockClass &C) const;
  void lane(int64_t T, Lane &Out);
  /// \p E in the current lane: its value from Fixed, or evaluated.
  int64_t value(const Expr &E) const;
  void bound(const std::array<Lane, WarpSize> &Lanes, const std::string &Why,
             bool MayNotRun = false);
  void exactWarp(const std::array<Lane, WarpSize> &Lanes);
  void atomicWarp(const std::array<Lane, WarpSize> &Lanes);
  void addHistogram(const std::array<int64_t, WarpSize> &Rel, int64_t Res, const Histogram &H,
                    u128 Repeat);

  void addFootprint(const std::array<Lane, WarpSize> &Lanes, const Lane &First, int64_t From,
                    int64_t To);
  void footprintOfFullBlocks(SpanFamilies *ToCertain, SpanFamilies *ToPossible,
                             const std::vector<int64_t> &Shifts, int64_t BlockThreads);
  void footprintOverBudget();
  /// Where the footprint goes (null: not collected, or not in this pass).
  FootprintSets *FP = nullptr;
  SpanFamilies *Certain = nullptr, *Possible = nullptr;
  u128 *Unplaced = nullptr;
  int64_t AbsBase = 0;
  /// A pass that only collects the footprint (runByShift's block 0).
  bool FootprintOnly = false;
  /// atomicWarp(): placing an atomic's bytes (bound() adds to Unplaced
  /// only), or bounding its requests (a reason only where the bounds differ).
  bool Placing = false, AtomicCounts = false;

  const WarpAccess &A;
  const LaunchShape &L;
  EvalEnv Env;
  std::vector<int64_t> BaseResidues;
  uint64_t &Budget;
  bool ByShift;
  /// runByClasses(), runByShift(): the factors with one value in every
  /// thread of the blocks a pass stands for (guards that hold: 1), the shift
  /// added to every address, and how many blocks a pass stands for.
  std::vector<std::pair<const Expr *, int64_t>> Fixed;
  int64_t Shift = 0;
  u128 Scale = 1;
  /// Warps of a launch mostly repeat the same lane pattern.
  std::map<std::pair<std::array<int64_t, WarpSize>, int64_t>, RequestCost> Costs;
};

void AccessEvaluator::lane(int64_t T, Lane &Out) {
  Env.Tid = {T % L.Block[0], (T / L.Block[0]) % L.Block[1], T / (L.Block[0] * L.Block[1])};
  if (Budget-- == 0)
    throw ExprError("the warp-level model needs more lane evaluations than allowed for "
                    "this launch");
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
}

int64_t AccessEvaluator::value(const Expr &E) const {
  for (const auto &[F, V] : Fixed)
    if (F == &E)
      return V;
  return E.eval(Env);
}

/// Launches of many blocks: when the address is affine in the indices and
/// every factor that depends on ctaid is an affine guard, a block whose
/// guards hold for all its threads costs what block 0 costs with all its
/// addresses shifted by the block's part of the address. Such blocks are
/// counted by that shift modulo 128 and evaluated once per shift; the others
/// (edges, where a guard holds for some threads) lane by lane. Returns false
/// when the access has another shape (then every block is evaluated).
std::optional<AccessEvaluator::ShiftPlan> AccessEvaluator::planByShift() const {
  if (!A.Offset || A.Alternatives.size() != 1)
    return std::nullopt;
  ShiftPlan P;
  auto Off = affineForm(*A.Offset, L, Env);
  if (!Off)
    return std::nullopt;
  P.Off = *Off;
  constexpr unsigned CtaBits = 0x38;
  for (const WarpLoop &Lp : A.Loops)
    if ((Lp.Step->threadVarMask() | Lp.Trips->threadVarMask()) & CtaBits)
      return std::nullopt;
  for (const ExprPtr &F : A.Alternatives[0]) {
    if (!(F->threadVarMask() & CtaBits))
      continue;
    auto G = affineGuard(*F, L, Env);
    if (!G)
      return std::nullopt;
    P.Guards.push_back({F.get(), *G});
  }
  return P;
}

u128 AccessEvaluator::evaluationsNeeded() const {
  if (!ByShift)
    return u128(L.Grid[0]) * u128(L.Grid[1]) * u128(L.Grid[2]) *
           u128(L.Block[0] * L.Block[1] * L.Block[2]);
  if (auto P = planClasses())
    return P->Work + P->Lanes;
  if (planByShift())
    return 0; // a few blocks' worth, paid as it goes
  return u128(L.Grid[0]) * u128(L.Grid[1]) * u128(L.Grid[2]) *
         u128(L.Block[0] * L.Block[1] * L.Block[2]);
}

bool AccessEvaluator::runByShift() {
  auto Plan = planByShift();
  if (!Plan)
    return false;
  const AffineForm *Off = &Plan->Off;
  const auto &Guards = Plan->Guards;
  int64_t BlockThreads = L.Block[0] * L.Block[1] * L.Block[2];
  std::array<u128, Period> Full{};
  std::vector<int64_t> FullShifts; // exact, for the footprint
  for (int64_t Z = 0; Z < L.Grid[2]; ++Z)
    for (int64_t Y = 0; Y < L.Grid[1]; ++Y)
      for (int64_t X = 0; X < L.Grid[0]; ++X) {
        std::array<int64_t, 3> C{X, Y, Z};
        int State = 1;
        for (const auto &G : Guards)
          State = std::min(State, G.second.decide(L, C));
        if (State == 0)
          continue; // no thread of the block runs the access
        if (State == 1) {
          i128 S = Off->Coef[3] * X + Off->Coef[4] * Y + Off->Coef[5] * Z;
          ++Full[size_t(residue(int64_t(S % Period)))];
          if (Possible && FullShifts.size() >= FP->Budget)
            footprintOverBudget();
          if (Possible)
            FullShifts.push_back(int64_t(S));
          continue;
        }
        Env.CtaId = C; // an edge block
        for (int64_t T = 0; T < BlockThreads; T += WarpSize)
          warp(T, BlockThreads);
      }
  for (const auto &G : Guards)
    Fixed.push_back({G.first, 1});
  Env.CtaId = {0, 0, 0};
  SpanFamilies *KeepCertain = Certain, *KeepPossible = Possible;
  Certain = Possible = nullptr; // the residue passes below have no real addresses
  for (int64_t S = 0; S < Period; ++S) {
    if (!Full[size_t(S)])
      continue;
    Shift = S;
    Scale = Full[size_t(S)];
    for (int64_t T = 0; T < BlockThreads; T += WarpSize)
      warp(T, BlockThreads);
  }
  Shift = 0;
  Scale = 1;
  if (KeepPossible && !FullShifts.empty())
    footprintOfFullBlocks(KeepCertain, KeepPossible, FullShifts, BlockThreads);
  Fixed.clear();
  Shift = 0;
  Scale = 1;
  return true;
}

/// Blocks grouped into classes that cost the same but for their address
/// shift (WarpClasses.h): where the address is affine in the indices (or
/// reads no ctaid at all: every block then has the same addresses) and each
/// factor, loop step and trip count that reads ctaid reads one grid
/// dimension (a grid-stride loop's trip count: its value is one in every
/// thread of most runs of blocks). nullopt otherwise, or where finding the
/// classes would cost more than the budget left.
std::optional<AccessEvaluator::ClassPlan> AccessEvaluator::planClasses() const {
  ClassPlan P;
  std::vector<const Expr *> Factors;
  auto Add = [&](const Expr *F) {
    if (std::find(Factors.begin(), Factors.end(), F) == Factors.end())
      Factors.push_back(F);
  };
  for (const auto &Alt : A.Alternatives)
    for (const ExprPtr &F : Alt)
      Add(F.get());
  for (const WarpLoop &Lp : A.Loops) {
    Add(Lp.Step.get());
    Add(Lp.Trips.get());
  }
  // Every class costs at least one block's threads, so a plan of more runs
  // than the budget has blocks' worth of evaluations is of no use: finding
  // it stops there (a grid of 2^31 blocks with a 32-bit index that wraps
  // would otherwise split runs for minutes before the refusal).
  uint64_t BlockLanes = uint64_t(L.Block[0] * L.Block[1] * L.Block[2]);
  uint64_t BlocksAffordable = Budget / std::max<uint64_t>(1, BlockLanes);
  uint64_t PlanWork =
      std::min<uint64_t>(Budget, std::max<uint64_t>(4096, 8 * (Factors.size() + 1) * BlocksAffordable));
  auto Classes = planBlockClasses(Factors, A.Offset.get(), L, Env, PlanWork, P.Work);
  if (!Classes)
    return std::nullopt;
  static_cast<BlockClasses &>(P) = std::move(*Classes);
  u128 BlockThreads = u128(L.Block[0] * L.Block[1] * L.Block[2]);
  for (const BlockClass &C : P.Classes)
    if (deadClass(C))
      continue;
    else if (C.Irregular) // every block
      P.Lanes += C.blocks() * BlockThreads;
    else // one pass per shift, one for the footprint
      P.Lanes += (u128(std::count_if(C.Shifts.begin(), C.Shifts.end(),
                                     [](u128 N) { return N != 0; })) + 1) * BlockThreads;
  return P;
}

/// Whether no thread of the class runs the access: in every alternative, a
/// factor of the class is 0 (or negative) and only factors of the class
/// precede it (lane() would evaluate nothing that could fail).
bool AccessEvaluator::deadClass(const BlockClass &C) const {
  for (const auto &Alt : A.Alternatives) {
    bool Dead = false;
    for (const ExprPtr &F : Alt) {
      auto It = std::find_if(C.Fixed.begin(), C.Fixed.end(),
                             [&](const auto &KV) { return KV.first == F.get(); });
      if (It == C.Fixed.end())
        break;
      if (It->second <= 0) {
        Dead = true;
        break;
      }
    }
    if (!Dead)
      return false;
  }
  return true;
}

/// Each class of blocks is evaluated once per address shift modulo 128 that
/// its blocks have, as the block C.CtaId with the class's factors fixed,
/// scaled by its blocks of that shift; its footprint is that block's spans
/// moved by every block's exact shift. An irregular class's blocks are
/// evaluated one by one.
bool AccessEvaluator::runByClasses() {
  auto Plan = planClasses();
  if (!Plan)
    return false;
  Budget -= std::min<uint64_t>(Budget, Plan->Work);
  int64_t BlockThreads = L.Block[0] * L.Block[1] * L.Block[2];
  SpanFamilies *KeepCertain = Certain, *KeepPossible = Possible;
  for (const BlockClass &C : Plan->Classes) {
    if (deadClass(C))
      continue;
    Fixed = C.Fixed;
    if (C.Irregular) {
      Certain = KeepCertain;
      Possible = KeepPossible;
      forEachBlock(C, Plan->Off, [&](const std::array<int64_t, 3> &Cta, int64_t) {
        Env.CtaId = Cta;
        for (int64_t T = 0; T < BlockThreads; T += WarpSize)
          warp(T, BlockThreads);
        return true;
      });
      if (FP && !FP->Problem.empty())
        KeepCertain = KeepPossible = nullptr;
      continue;
    }
    Env.CtaId = C.CtaId;
    Certain = Possible = nullptr; // the shift passes have no real addresses
    for (int64_t S = 0; S < Period; ++S) {
      if (!C.Shifts[size_t(S)])
        continue;
      Shift = S;
      Scale = C.Shifts[size_t(S)];
      for (int64_t T = 0; T < BlockThreads; T += WarpSize)
        warp(T, BlockThreads);
    }
    Shift = 0;
    Scale = 1;
    if (!KeepPossible || !FP->Problem.empty())
      continue;
    if (C.blocks() > FP->Budget) {
      footprintOverBudget();
      continue;
    }
    std::vector<int64_t> Shifts;
    forEachBlock(C, Plan->Off, [&](const std::array<int64_t, 3> &, int64_t X) {
      Shifts.push_back(X);
      return true;
    });
    footprintOfFullBlocks(KeepCertain, KeepPossible, Shifts, BlockThreads);
  }
  Fixed.clear();
  Env.CtaId = {0, 0, 0};
  return true;
}

void AccessEvaluator::collectFootprint(FootprintSets &Sets, const std::string &Object, int64_t Base,
                                       bool OnlyPossible) {
  FP = &Sets;
  int D = int(A.Dir);
  Possible = &Sets.Possible[D][Object];
  Certain = OnlyPossible || !A.Guarded.empty() ? nullptr : &Sets.Certain[D][Object];
  Unplaced = &Sets.Unplaced[D];
  AbsBase = Base;
}

void AccessEvaluator::footprintOverBudget() {
  if (FP->Problem.empty())
    FP->Problem =
        "the footprint needs more intervals than allowed for this launch (at " + A.Where + ")";
  Certain = Possible = nullptr;
  Unplaced = nullptr;
}

/// The union of the requests of a warp segment (the lanes still in the
/// innermost loop during iterations [From, To)) over the loops' iterations.
void AccessEvaluator::addFootprint(const std::array<Lane, WarpSize> &Lanes, const Lane &First,
                                   int64_t From, int64_t To) {
  std::vector<Span> Spans;
  for (const Lane &Ln : Lanes)
    if (Ln.Active && (Ln.Trips.empty() ? 1 : Ln.Trips[0]) >= To)
      Spans.push_back({AbsBase + Ln.Addr, AbsBase + Ln.Addr + int64_t(A.Width)});
  Spans = mergeSpans(std::move(Spans));
  if (!Possible->add(First.Steps, First.Trips, From, To, Spans, FP->Budget) ||
      (Certain && !Certain->add(First.Steps, First.Trips, From, To, Spans, FP->Budget)))
    footprintOverBudget();
}

/// Full blocks touch block 0's bytes moved by their exact shift: block 0 is
/// evaluated once more for its spans, which are then added at every shift.
void AccessEvaluator::footprintOfFullBlocks(SpanFamilies *ToCertain, SpanFamilies *ToPossible,
                                            const std::vector<int64_t> &Shifts,
                                            int64_t BlockThreads) {
  SpanFamilies Block0Certain, Block0Possible;
  u128 *KeepUnplaced = Unplaced;
  Certain = ToCertain ? &Block0Certain : nullptr;
  Possible = &Block0Possible;
  Unplaced = nullptr; // bound() already added these blocks' upper bytes
  FootprintOnly = true;
  for (int64_t T = 0; T < BlockThreads && Possible; T += WarpSize)
    warp(T, BlockThreads);
  FootprintOnly = false;
  if (!Possible) // over budget in block 0
    return;
  Certain = ToCertain;
  Possible = ToPossible;
  Unplaced = KeepUnplaced;
  // The spans move with their loops, so that they still merge with those of
  // other accesses (an unrolled loop's copies) when the sets are expanded;
  // block 0's warps are merged first (a coalesced block is one span).
  Block0Possible.compact();
  Block0Certain.compact();
  for (int64_t S : Shifts)
    if (!Possible->addShifted(Block0Possible, S, FP->Budget) ||
        (Certain && !Certain->addShifted(Block0Certain, S, FP->Budget)))
      return footprintOverBudget();
}

void AccessEvaluator::run() {
  if (ByShift && runByClasses())
    return;
  // Every block is visited at least once (by shift: to decide its guards),
  // which a lane evaluation's budget pays for: a launch of billions of blocks
  // is refused at once instead of after minutes.
  u128 Blocks = u128(L.Grid[0]) * u128(L.Grid[1]) * u128(L.Grid[2]);
  if (Blocks > Budget)
    throw ExprError("the warp-level model needs more lane evaluations than allowed for "
                    "this launch (" +
                    u128ToString(Blocks) + " blocks; it visits every block, at most " +
                    std::to_string(Budget) +
                    " here): give a grid of fewer blocks for the warp-level traffic");
  Budget -= uint64_t(Blocks);
  if (ByShift && runByShift())
    return;
  int64_t BlockThreads = L.Block[0] * L.Block[1] * L.Block[2];
  for (int64_t Z = 0; Z < L.Grid[2]; ++Z)
    for (int64_t Y = 0; Y < L.Grid[1]; ++Y)
      for (int64_t X = 0; X < L.Grid[0]; ++X) {
        Env.CtaId = {X, Y, Z};
        for (int64_t T = 0; T < BlockThreads; T += WarpSize)
          warp(T, BlockThreads);
      }
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
/// of the warp is one request of the lanes whose trip count exceeds k, at
/// the addresses of index k, handed to \p Each as a loop of one iteration.
/// Costs one lane evaluation per lane and iteration.
template <typename Fn>
void AccessEvaluator::enumeratedWarp(const std::array<Lane, WarpSize> &Lanes, Fn Each) {
  int64_t Most = 0;
  for (const Lane &Ln : Lanes)
    if (Ln.Active) {
      if (!Ln.Trips[0] || Ln.Mult % u128(Ln.Trips[0]))
        return bound(Lanes, "lanes of a warp take different paths or loop counts at " + A.Where,
                     !A.Guarded.empty());
      Most = std::max(Most, Ln.Trips[0]);
    }
  auto Id = size_t(enumeratedVar());
  if (Env.IterVals.size() <= Id) {
    Env.IterVals.resize(Id + 1);
    Env.IterBound.resize(Id + 1);
  }
  Env.IterBound[Id] = true;
  std::array<Lane, WarpSize> K;
  for (int64_t It = 0; It < Most; ++It) {
    Env.IterVals[Id] = It;
    for (size_t I = 0; I < WarpSize; ++I) {
      const Lane &Ln = Lanes[I];
      K[I] = Lane{};
      if (!Ln.Active || Ln.Trips[0] <= It)
        continue;
      if (Budget-- == 0)
        throw ExprError("the warp-level model needs more lane evaluations than allowed for "
                        "this launch");
      int64_t T = Ln.Thread;
      Env.Tid = {T % L.Block[0], (T / L.Block[0]) % L.Block[1], T / (L.Block[0] * L.Block[1])};
      K[I] = Ln;
      K[I].Mult = Ln.Mult / u128(Ln.Trips[0]);
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
  // Lanes must agree on the steps and (but for the innermost loop, below)
  // on the trip counts; the rest of the multiplicity must be the same.
  u128 Chain = 1;
  for (int64_t T : First->Trips)
    Chain *= u128(T);
  for (const Lane &Ln : Lanes) {
    if (!Ln.Active)
      continue;
    bool Same = Ln.Steps == First->Steps &&
                std::equal(Ln.Trips.begin() + (Ln.Trips.empty() ? 0 : 1), Ln.Trips.end(),
                           First->Trips.begin() + (First->Trips.empty() ? 0 : 1));
    u128 LaneChain = 1;
    for (int64_t T : Ln.Trips)
      LaneChain *= u128(T);
    if (!Same || !LaneChain || Ln.Mult % LaneChain ||
        (Chain && Ln.Mult / LaneChain != First->Mult / Chain))
      return bound(Lanes, "lanes of a warp take different paths or loop counts at " + A.Where,
                   !A.Guarded.empty());
  }
  u128 Repeat = (Chain ? First->Mult / Chain : 0) * Scale;
  // Lanes leave the innermost loop as their trip counts run out: iterations
  // [From, To) run with the lanes whose count is at least To.
  std::vector<int64_t> Ends;
  for (const Lane &Ln : Lanes)
    if (Ln.Active)
      Ends.push_back(Ln.Trips.empty() ? 1 : Ln.Trips[0]);
  std::sort(Ends.begin(), Ends.end());
  Ends.erase(std::unique(Ends.begin(), Ends.end()), Ends.end());
  int64_t From = 0;
  for (int64_t To : Ends) {
    if (To <= From)
      continue;
    std::array<int64_t, WarpSize> Rel;
    int64_t Low = INT64_MAX;
    for (int I = 0; I < WarpSize; ++I) {
      const Lane &Ln = Lanes[size_t(I)];
      bool In = Ln.Active && (Ln.Trips.empty() ? 1 : Ln.Trips[0]) >= To;
      Rel[size_t(I)] = In ? Ln.Addr : NoLane;
      if (In)
        Low = std::min(Low, Ln.Addr);
    }
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
    From = To;
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

/// \p A with its launch-uniform parts evaluated once (foldLaunchUniform):
/// the evaluator runs its expressions once per thread, and an address
/// expression is mostly arguments and block sizes.
WarpAccess foldAccess(const WarpAccess &A, const EvalEnv &UniformEnv) {
  WarpAccess F = A;
  F.Offset = foldLaunchUniform(A.Offset, UniformEnv);
  for (WarpLoop &Lp : F.Loops) {
    Lp.Step = foldLaunchUniform(Lp.Step, UniformEnv);
    Lp.Trips = foldLaunchUniform(Lp.Trips, UniformEnv);
  }
  for (auto &P : F.Alternatives)
    for (ExprPtr &X : P)
      X = foldLaunchUniform(X, UniformEnv);
  return F;
}

} // namespace

WarpTraffic evaluateWarpTraffic(const std::vector<WarpAccess> &Accesses, const LaunchShape &L,
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
    throw ExprError("the warp-level model needs more lane evaluations than allowed for this "
                    "launch (" + u128ToString(Needed) +
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
      Bases.clear();
      for (int64_t R = 0; R < Period; R += int64_t(std::clamp<uint64_t>(A.BaseAlign, 1, Period)))
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

} // namespace hroof
