//===- WarpBlocks.cpp - which blocks the warp-level model evaluates -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A launch's blocks mostly cost the same but for an address shift: classes
// of blocks (WarpClasses.h), full blocks by shift with edge blocks lane by
// lane, or every block where the access has neither shape; and the
// footprint of full blocks, moved by each block's exact shift.
#include "WarpEvaluator.h"

#include <algorithm>

namespace hroof::warp_eval {

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
    if ((Lp.Step->threadVarMask() | Lp.Trips->threadVarMask() |
         (Lp.First ? Lp.First->threadVarMask() : 0)) & CtaBits)
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
    if (Lp.First)
      Add(Lp.First.get());
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
    if (Ln.runs(From, To))
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
    throw LaneBudgetExceeded(
        "the warp-level model needs more lane evaluations than allowed for this launch (" +
        u128ToString(Blocks) + " blocks; it visits every block, at most " +
        std::to_string(Budget) + " here): give a grid of fewer blocks for the warp-level traffic");
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

} // namespace hroof::warp_eval
