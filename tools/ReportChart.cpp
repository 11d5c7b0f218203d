//===- ReportChart.cpp - the hierarchical roofline chart of `hroof report` -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every text on the plot (ceiling labels, kernel ids) is placed here in
// pixel space, against the boxes already placed: Vega's own label transform
// would move or drop labels after the fact, and the browser test checks
// what is drawn, so the placement has to be decided where the spec is
// written. Text sizes are estimated generously (LabelCharWidth) so that the
// boxes the browser draws are never larger than the ones placed.
//===----------------------------------------------------------------------===//
#include "ReportChart.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace hroof {

using namespace report;

namespace {

constexpr double Width = 860, Height = 540; ///< the plot area, px
constexpr double FontSize = 11;
/// Wider than the average glyph of the default sans-serif fonts at 11 px
/// (DejaVu Sans, Liberation Sans): the placed boxes cover the drawn text.
constexpr double LabelCharWidth = 7.2, LabelHeight = 14;

const char *levelLabel(const std::string &Ceiling) {
  return Ceiling == "l1" ? "L1" : Ceiling == "l2" ? "L2" : Ceiling == "shared" ? "shared" : "HBM";
}

std::string precisionLabel(const std::string &P) {
  if (P.rfind("tensor_", 0) == 0)
    return P.substr(7) + " Tensor";
  return P;
}

/// Distinct colours, one per kernel shown: Tableau 20, then hues a golden
/// angle apart (never the same string twice).
std::vector<std::string> palette(size_t N) {
  static const char *Tableau20[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
                                    "#a0cbe8", "#ffbe7d", "#ff9d9a", "#86bcb6", "#8cd17d",
                                    "#f1ce63", "#d4a6c8", "#fabfd2", "#d7b5a6", "#79706e"};
  std::vector<std::string> R;
  for (size_t I = 0; I < N; ++I) {
    if (I < 20) {
      R.push_back(Tableau20[I]);
      continue;
    }
    char Buf[40];
    std::snprintf(Buf, sizeof Buf, "hsl(%.1f,%d%%,%d%%)", std::fmod(I * 137.508, 360.0),
                  55 + int(I % 3) * 15, 35 + int(I % 4) * 10);
    R.push_back(Buf);
  }
  return R;
}

/// Log axes: data <-> pixels of the plot area (y grows downwards).
struct Axes {
  double X0, X1, Y0, Y1;
  double px(double AI) const { return Width * std::log(AI / X0) / std::log(X1 / X0); }
  double py(double G) const { return Height * (1 - std::log(G / Y0) / std::log(Y1 / Y0)); }
  double ai(double Px) const { return X0 * std::pow(X1 / X0, Px / Width); }
  double gflops(double Py) const { return Y0 * std::pow(Y1 / Y0, 1 - Py / Height); }
};

struct Box {
  double L, T, R, B;
  bool overlaps(const Box &O) const { return L < O.R && O.L < R && T < O.B && O.T < B; }
  bool inside() const { return L >= 0 && T >= 0 && R <= Width && B <= Height; }
};

/// The text boxes placed so far; a label goes at the first candidate spot
/// that is inside the plot and clear of all of them.
class LabelPlacer {
public:
  explicit LabelPlacer(const Axes &A) : Ax(A) {}

  static double textWidth(const std::string &T) { return LabelCharWidth * double(T.size()) + 2; }

  /// A point mark: labels keep clear of it where they can.
  void addPoint(const Box &B) { Points.push_back(B); }

  /// Places \p Text with its left edge and vertical middle at the first
  /// candidate (pixel points) clear of the texts and points placed; failing
  /// that, the first clear of the texts alone. \p Rise: the text's angle
  /// (radians, rising to the right), boxes are then the rotated text's
  /// envelope. Adds it to \p Out with data coordinates and "angle" (Vega's
  /// degrees, clockwise); false when no candidate is clear of the texts.
  bool place(const std::string &Text, const std::vector<std::pair<double, double>> &Candidates,
             nlohmann::json Fields, nlohmann::json &Out, double Rise = 0) {
    double W = textWidth(Text), C = std::cos(Rise), S = std::sin(Rise);
    auto Clear = [](const std::vector<Box> &Boxes, const Box &B) {
      return std::none_of(Boxes.begin(), Boxes.end(), [&](const Box &P) { return P.overlaps(B); });
    };
    for (bool AvoidPoints : {true, false})
      for (const auto &[X, Y] : Candidates) {
        Box B{1e300, 1e300, -1e300, -1e300};
        for (double U : {0.0, W})
          for (double V : {-LabelHeight / 2, LabelHeight / 2}) {
            double Px = X + U * C + V * S, Py = Y - U * S + V * C;
            B = {std::min(B.L, Px), std::min(B.T, Py), std::max(B.R, Px), std::max(B.B, Py)};
          }
        if (!B.inside() || !Clear(Placed, B) || (AvoidPoints && !Clear(Points, B)))
          continue;
        Placed.push_back(B);
        Fields["text"] = Text;
        Fields["ai"] = Ax.ai(X);
        Fields["gflops"] = Ax.gflops(Y);
        Fields["angle"] = Rise == 0 ? 0.0 : 360 - Rise * 180 / M_PI;
        Out.push_back(Fields);
        return true;
      }
    return false;
  }

private:
  const Axes &Ax;
  std::vector<Box> Placed, Points;
};

/// A point's area in px^2 (Vega's symbol size) from its share of time.
double pointArea(double TimeShare) { return 25 + 1375 * std::clamp(TimeShare, 0.0, 100.0) / 100; }

/// The chart's extent: log-axis domains (decades around the points and the
/// ridge points) and the ceilings drawn.
struct ChartFrame {
  Axes Ax;
  double PMax = 0, PMin = 1e300, BwMax = 0, BwMin = 1e300;
  std::set<std::string> Precisions; ///< compute ceilings drawn
  std::vector<std::string> Levels;  ///< memory ceilings drawn: l1, l2, hbm
};

ChartFrame chartFrame(const std::vector<const KernelAnalysis *> &As, const Machine &M,
                      bool AllCeilings) {
  ChartFrame F;
  double MinAI = 1e300, MaxAI = 0, MinG = 1e300;
  for (const KernelAnalysis *A : As) {
    for (const auto &[P, V] : A->FlopsByPrecision)
      if (V > 0 && M.Flops.count(P))
        F.Precisions.insert(P);
    if (A->GFlops <= 0)
      continue;
    for (const LevelPoint &L : A->Levels)
      if (L.AI > 0)
        MinAI = std::min(MinAI, L.AI), MaxAI = std::max(MaxAI, L.AI),
        MinG = std::min(MinG, A->GFlops);
  }
  if (AllCeilings)
    for (const auto &[P, V] : M.Flops)
      F.Precisions.insert(P);
  if (F.Precisions.empty())
    F.Precisions.insert(M.Flops.count("f32") ? "f32" : M.Flops.begin()->first);
  for (const std::string &P : F.Precisions)
    F.PMax = std::max(F.PMax, M.Flops.at(P)), F.PMin = std::min(F.PMin, M.Flops.at(P));
  for (const char *L : {"l1", "l2", "hbm"})
    if (M.Bandwidth.count(L)) {
      F.Levels.push_back(L);
      F.BwMax = std::max(F.BwMax, M.Bandwidth.at(L));
      F.BwMin = std::min(F.BwMin, M.Bandwidth.at(L));
    }
  auto Floor10 = [](double V) { return std::pow(10.0, std::floor(std::log10(V))); };
  auto Ceil10 = [](double V) { return std::pow(10.0, std::ceil(std::log10(V))); };
  F.Ax.X0 = Floor10(std::min(MinAI < 1e300 ? MinAI / 2 : 1.0, 0.1));
  F.Ax.X1 = Ceil10(std::max({MaxAI * 2, F.PMax / F.BwMin * 4, 100.0}));
  // A decade above the highest ceiling: room for stacked ceiling labels.
  F.Ax.Y1 = Ceil10(F.PMax * 3);
  F.Ax.Y0 = Floor10(std::min({MinG < 1e300 ? MinG / 2 : F.PMin, F.Ax.X0 * F.BwMin, F.PMin / 10}));
  return F;
}

/// The ceiling lines (two end points each) and their labels, placed: compute
/// labels above (else below) their line from the right edge leftwards,
/// memory labels above their diagonal from the left.
void chartCeilings(const ChartFrame &Fr, const Machine &M, LabelPlacer &Placer,
                   nlohmann::json &Ceil, nlohmann::json &CeilLabels) {
  const Axes &Ax = Fr.Ax;
  std::vector<std::pair<double, std::string>> Compute;
  for (const std::string &P : Fr.Precisions)
    Compute.push_back({M.Flops.at(P), P});
  std::sort(Compute.rbegin(), Compute.rend()); // highest first: it has the room above
  for (const auto &[F, P] : Compute) {
    std::string Name = precisionLabel(P) + " " + fmtNum(F / 1e3, 3) + " TFLOP/s";
    double XStart = F / Fr.BwMax;
    Ceil.push_back(
        {{"ceiling", Name}, {"kind", "compute"}, {"end", 0}, {"ai", XStart}, {"gflops", F}});
    Ceil.push_back(
        {{"ceiling", Name}, {"kind", "compute"}, {"end", 1}, {"ai", Ax.X1}, {"gflops", F}});
    double W = LabelPlacer::textWidth(Name), Y = Ax.py(F);
    std::vector<std::pair<double, double>> Spots;
    for (double X = Width - W - 4; X > Ax.px(XStart); X -= 40)
      for (double Dy : {-9.0, 9.0, -23.0, 23.0})
        Spots.push_back({X, Y + Dy});
    Placer.place(Name, Spots, {{"kind", "compute"}, {"ceiling", Name}}, CeilLabels);
  }
  for (const std::string &L : Fr.Levels) {
    double Bw = M.Bandwidth.at(L);
    std::string Name = std::string(levelLabel(L)) + " " + fmtNum(Bw / 1e3, 3) + " TB/s";
    double XEnd = Fr.PMax / Bw, XStart = std::max(Ax.X0, Ax.Y0 / Bw);
    Ceil.push_back({{"ceiling", Name},
                    {"kind", "memory"},
                    {"end", 0},
                    {"ai", XStart},
                    {"gflops", XStart * Bw}});
    Ceil.push_back(
        {{"ceiling", Name}, {"kind", "memory"}, {"end", 1}, {"ai", XEnd}, {"gflops", Fr.PMax}});
    // Along the diagonal, just above it: its slope on screen is the ratio
    // of the axes' pixels per decade.
    double Rise =
        std::atan((Height / std::log10(Ax.Y1 / Ax.Y0)) / (Width / std::log10(Ax.X1 / Ax.X0)));
    std::vector<std::pair<double, double>> Spots;
    for (double X = std::max(4.0, Ax.px(XStart) + 4); X < Ax.px(XEnd); X += 20)
      Spots.push_back({X, Ax.py(Ax.ai(X) * Bw) - (LabelHeight / 2 + 2) / std::cos(Rise)});
    Placer.place(Name, Spots, {{"kind", "memory"}, {"ceiling", Name}}, CeilLabels, Rise);
  }
}

/// The JSON tooltip fields of one kernel's point at one level.
nlohmann::json pointFields(const KernelAnalysis &A, const LevelPoint &L) {
  return {{"level", L.Level},
          {"ai", L.AI},
          {"gflops", A.GFlops},
          {"bytes", L.Bytes},
          {"flops", A.FlopsPerLaunch},
          {"time_us", A.TimeNsPerLaunch / 1e3},
          {"launches", A.K->Launches},
          {"time_share", A.TimeShare},
          {"precision", A.Precision},
          {"pct", A.PctOfCeiling},
          {"bound", A.Bound},
          {"hierarchy", A.HierarchyFlag.empty() ? "ok" : A.HierarchyFlag},
          {"sources",
           "FLOPs: " + A.FlopSource + ", bytes: " + A.BytesSource + ", time: " + A.TimeSource}};
}

/// The limiting roof in one word, for colouring by bound.
std::string roofOf(const std::string &Bound) {
  for (const char *R : {"compute", "L1", "L2", "HBM"})
    if (Bound.rfind(R, 0) == 0)
      return R;
  return "unknown";
}

struct KernelMarks {
  nlohmann::json Points = nlohmann::json::array(), Labels = nlohmann::json::array();
  nlohmann::json Arrows = nlohmann::json::array(); ///< baseline -> this run
  std::vector<std::string> Legend, Colors;
};

/// One arrow per level both runs have: from the baseline's point to this
/// run's, with its head halfway (a triangle turned along the arrow).
void addArrows(const KernelAnalysis &Old, const KernelAnalysis &New, const nlohmann::json &Fields,
               const Axes &Ax, nlohmann::json &Out, bool KeepEqual) {
  if (Old.GFlops <= 0 || New.GFlops <= 0)
    return;
  for (const LevelPoint &L : New.Levels)
    for (const LevelPoint &B : Old.Levels)
      if (B.Level == L.Level && B.AI > 0 && L.AI > 0) {
        double Dx = Ax.px(L.AI) - Ax.px(B.AI), Dy = Ax.py(New.GFlops) - Ax.py(Old.GFlops);
        bool Same = std::hypot(Dx, Dy) < 3; // no arrow on the point itself
        if (Same && !KeepEqual)
          continue;
        nlohmann::json A = Fields;
        A["same"] = Same;
        A.update({{"level", L.Level},
                  {"ai_old", B.AI},
                  {"gflops_old", Old.GFlops},
                  {"ai", L.AI},
                  {"gflops", New.GFlops},
                  {"ai_mid", std::sqrt(B.AI * L.AI)},
                  {"gflops_mid", std::sqrt(Old.GFlops * New.GFlops)},
                  {"angle", std::atan2(Dy, Dx) * 180 / M_PI}});
        Out.push_back(A);
      }
}

/// Points of the kernels drawn, their id labels (placed after the ceiling
/// labels, at the highest-AI point: right, left, above, below, then further
/// out), and the colour legend in the order of \p Shown.
KernelMarks kernelMarks(const std::vector<const KernelAnalysis *> &Shown, const Axes &Ax,
                        LabelPlacer &Placer, const ChartOptions &O) {
  KernelMarks K;
  std::vector<std::string> Colors = palette(Shown.size());
  for (size_t I = 0; I < Shown.size(); ++I) {
    const KernelAnalysis &A = *Shown[I];
    std::string Legend =
        A.Id == "other" ? A.K->Name : A.Id + " " + cutName(compactName(A.K->Name), O.NameWidth);
    K.Legend.push_back(Legend);
    K.Colors.push_back(A.Id == "other" ? "#9a9a9a" : Colors[I]);
    if (A.GFlops <= 0)
      continue;
    const LevelPoint *Last = nullptr;
    for (const LevelPoint &L : A.Levels) {
      if (L.AI <= 0)
        continue;
      nlohmann::json P = pointFields(A, L);
      P["kernel"] = A.Id;
      P["legend"] = Legend;
      P["full_name"] = A.K->Name;
      P["roof"] = roofOf(A.Bound);
      P["flagged"] = !A.HierarchyFlag.empty();
      K.Points.push_back(P);
      if (!Last || L.AI > Last->AI)
        Last = &L;
    }
    auto Base = O.Baseline.find(&A);
    if (Base != O.Baseline.end())
      addArrows(*Base->second, A, {{"kernel", A.Id}, {"legend", Legend}, {"roof", roofOf(A.Bound)}},
                Ax, K.Arrows, O.BaselineWhereEqual);
    if (!Last)
      continue;
    double X = Ax.px(Last->AI), Y = Ax.py(A.GFlops), W = LabelPlacer::textWidth(A.Id);
    double Radius = std::sqrt(pointArea(A.TimeShare)) / 2;
    std::vector<std::pair<double, double>> Spots;
    for (double R : {Radius + 4, Radius + 14, Radius + 28, Radius + 46, Radius + 70})
      for (auto [Dx, Dy] : std::initializer_list<std::pair<double, double>>{{R, 0},
                                                                            {-R - W, 0},
                                                                            {-W / 2, -R},
                                                                            {-W / 2, R},
                                                                            {R, -R},
                                                                            {R, R},
                                                                            {-R - W, -R},
                                                                            {-R - W, R}})
        Spots.push_back({X + Dx, Y + Dy});
    Placer.place(A.Id, Spots, {{"kernel", A.Id}, {"legend", Legend}, {"roof", roofOf(A.Bound)}},
                 K.Labels);
  }
  return K;
}

nlohmann::json textLayer(const char *Data, const nlohmann::json &X, const nlohmann::json &Y,
                         const nlohmann::json &Color) {
  nlohmann::json Enc = {
      {"x", X},
      {"y", Y},
      {"text", {{"field", "text"}}},
      {"angle", {{"field", "angle"}, {"type", "quantitative"}, {"scale", nullptr}}}};
  if (!Color.is_null())
    Enc["color"] = Color;
  return {{"data", {{"name", Data}}},
          {"mark",
           {{"type", "text"},
            {"align", "left"},
            {"baseline", "middle"},
            {"fontSize", FontSize},
            {"color", "#444"}}},
          {"encoding", Enc}};
}

/// The Vega-Lite layers: ceilings, their labels, the kernels' lines and
/// points (with tooltips) and the kernel labels.
nlohmann::json chartLayers(const nlohmann::json &X, const nlohmann::json &Y,
                           const nlohmann::json &Color) {
  nlohmann::json LevelScale = {{"domain", {"L1", "L2", "HBM", "global (requested)"}},
                               {"range", {"circle", "square", "triangle-up", "diamond"}}};
  nlohmann::json Tooltip = nlohmann::json::array(
      {{{"field", "full_name"}, {"title", "kernel"}},
       {{"field", "kernel"}, {"title", "id"}},
       {{"field", "level"}, {"title", "level"}},
       {{"field", "ai"}, {"title", "AI (FLOP/B)"}, {"format", ".4~g"}},
       {{"field", "gflops"}, {"title", "GFLOP/s"}, {"format", ".4~g"}},
       {{"field", "bytes"}, {"title", "bytes/launch"}, {"format", ".4~s"}},
       {{"field", "flops"}, {"title", "FLOPs/launch"}, {"format", ".4~s"}},
       {{"field", "time_us"}, {"title", "time/launch (us)"}, {"format", ".4~g"}},
       {{"field", "launches"}, {"title", "launches"}},
       {{"field", "time_share"}, {"title", "% of time"}, {"format", ".1f"}},
       {{"field", "precision"}, {"title", "precision"}},
       {{"field", "pct"}, {"title", "% of ceiling"}, {"format", ".1f"}},
       {{"field", "bound"}, {"title", "bound by"}},
       {{"field", "hierarchy"}, {"title", "memory hierarchy"}},
       {{"field", "sources"}, {"title", "sources"}}});
  nlohmann::json PointEnc = {
      {"x", X},
      {"y", Y},
      {"color", Color},
      {"shape",
       {{"field", "level"}, {"type", "nominal"}, {"title", "Memory level"}, {"scale", LevelScale}}},
      // Area proportional to the share of time.
      {"size",
       {{"field", "time_share"},
        {"type", "quantitative"},
        {"scale",
         {{"domain", {0, 100}}, {"range", {pointArea(0), pointArea(100)}}, {"zero", true}}},
        {"legend", nullptr}}},
      // Kernels whose levels do not read as a hierarchy: a red outline.
      {"stroke",
       {{"condition", {{"test", "datum.flagged"}, {"value", "#d00"}}}, {"value", "#222"}}},
      {"strokeWidth", {{"condition", {{"test", "datum.flagged"}, {"value", 2.5}}}, {"value", 0.6}}},
      {"tooltip", Tooltip}};
  return nlohmann::json::array(
      {{{"data", {{"name", "ceilings"}}},
        {"mark", {{"type", "line"}, {"clip", true}, {"color", "#555"}, {"strokeWidth", 1.6}}},
        {"encoding",
         {{"x", X},
          {"y", Y},
          {"detail", {{"field", "ceiling"}}},
          {"strokeDash",
           {{"field", "kind"},
            {"type", "nominal"},
            {"scale", {{"domain", {"compute", "memory"}}, {"range", {{1, 0}, {6, 3}}}}},
            {"legend", nullptr}}}}}},
       textLayer("ceiling_labels", X, Y, nullptr),
       {{"data", {{"name", "points"}}},
        {"mark", {{"type", "line"}, {"strokeWidth", 1}, {"opacity", 0.45}}},
        {"encoding", {{"x", X}, {"y", Y}, {"detail", {{"field", "kernel"}}}, {"color", Color}}}},
       {{"data", {{"name", "points"}}},
        {"mark", {{"type", "point"}, {"filled", true}, {"opacity", 0.85}}},
        {"encoding", PointEnc}},
       textLayer("labels", X, Y, Color)});
}

/// \p Layers with the baseline's layers added when there are arrows: a
/// dashed rule from each baseline point to this run's, a hollow circle at
/// the baseline and the arrow's head halfway.
nlohmann::json baselineLayers(nlohmann::json Layers, const nlohmann::json &Arrows,
                              const nlohmann::json &X, const nlohmann::json &Y,
                              const nlohmann::json &Color) {
  if (Arrows.empty())
    return Layers;
  auto Field = [](nlohmann::json Axis, const char *Name) {
    Axis["field"] = Name;
    return Axis;
  };
  nlohmann::json Data = {{"name", "arrows"}};
  nlohmann::json NotSame = nlohmann::json::array({{{"filter", "!datum.same"}}});
  nlohmann::json Rule = {{"data", Data},
                         {"transform", NotSame},
                         {"mark", {{"type", "rule"}, {"strokeDash", {3, 2}}, {"opacity", 0.8}}},
                         {"encoding",
                          {{"x", Field(X, "ai_old")},
                           {"y", Field(Y, "gflops_old")},
                           {"x2", {{"field", "ai"}}},
                           {"y2", {{"field", "gflops"}}},
                           {"color", Color}}}};
  nlohmann::json Old = {
      {"data", Data},
      {"mark", {{"type", "point"}, {"filled", false}, {"size", 60}, {"strokeWidth", 1.2}}},
      {"encoding", {{"x", Field(X, "ai_old")}, {"y", Field(Y, "gflops_old")}, {"color", Color}}}};
  nlohmann::json Head = {
      {"data", Data},
      {"transform", NotSame},
      {"mark", {{"type", "point"}, {"shape", "triangle-right"}, {"filled", true}, {"size", 70}}},
      {"encoding",
       {{"x", Field(X, "ai_mid")},
        {"y", Field(Y, "gflops_mid")},
        {"color", Color},
        {"angle", {{"field", "angle"}, {"type", "quantitative"}, {"scale", nullptr}}}}}};
  // After the ceilings and their labels, before the kernels' points.
  Layers.insert(Layers.begin() + 2, Head);
  Layers.insert(Layers.begin() + 2, Old);
  Layers.insert(Layers.begin() + 2, Rule);
  return Layers;
}

} // namespace

std::string cutName(const std::string &Name, size_t Width) {
  if (Name.size() <= Width || Width < 4)
    return Name;
  return Name.substr(0, Width - 3) + "...";
}

nlohmann::json chartSpec(const std::vector<const KernelAnalysis *> &Kernels,
                         const KernelAnalysis *Other, const Machine &M, const std::string &Title,
                         const ChartOptions &O) {
  std::vector<const KernelAnalysis *> Shown = Kernels;
  if (Other)
    Shown.push_back(Other);
  std::vector<const KernelAnalysis *> Framed = Shown;
  for (const auto &[New, Old] : O.Baseline)
    Framed.push_back(Old);
  ChartFrame Fr = chartFrame(Framed, M, O.AllCeilings);
  const Axes &Ax = Fr.Ax;
  LabelPlacer Placer(Ax);
  for (const KernelAnalysis *A : Shown)
    for (const LevelPoint &L : A->Levels)
      if (L.AI > 0 && A->GFlops > 0) {
        double R = std::sqrt(pointArea(A->TimeShare)) / 2, X = Ax.px(L.AI), Y = Ax.py(A->GFlops);
        Placer.addPoint({X - R, Y - R, X + R, Y + R});
      }
  nlohmann::json Ceil = nlohmann::json::array(), CeilLabels = nlohmann::json::array();
  chartCeilings(Fr, M, Placer, Ceil, CeilLabels);
  KernelMarks K = kernelMarks(Shown, Ax, Placer, O);
  nlohmann::json Color =
      O.ColorByBound
          ? nlohmann::json{{"field", "roof"},
                           {"type", "nominal"},
                           {"title", "Limiting roof"},
                           {"scale",
                            {{"domain", {"compute", "L1", "L2", "HBM", "unknown"}},
                             {"range", {"#4e79a7", "#59a14f", "#f28e2b", "#e15759", "#9a9a9a"}}}}}
          : nlohmann::json{{"field", "legend"},
                           {"type", "nominal"},
                           {"title", O.LegendTitle},
                           {"sort", K.Legend},
                           {"scale", {{"domain", K.Legend}, {"range", K.Colors}}},
                           {"legend", {{"symbolLimit", 0}, {"labelLimit", 420}}}};
  // Ticks at the decades only: log axes otherwise crowd 2..9 between them.
  auto Decades = [](double A, double B) {
    nlohmann::json V = nlohmann::json::array();
    for (double D = A; D <= B * 1.0001; D *= 10)
      V.push_back(D);
    return V;
  };
  nlohmann::json X = {{"field", "ai"},
                      {"type", "quantitative"},
                      {"scale", {{"type", "log"}, {"domain", {Ax.X0, Ax.X1}}}},
                      {"axis",
                       {{"title", "Arithmetic intensity (FLOP/byte)"},
                        {"format", "~g"},
                        {"values", Decades(Ax.X0, Ax.X1)}}}};
  nlohmann::json Y = {
      {"field", "gflops"},
      {"type", "quantitative"},
      {"scale", {{"type", "log"}, {"domain", {Ax.Y0, Ax.Y1}}}},
      {"axis",
       {{"title", "Performance (GFLOP/s)"}, {"format", "~s"}, {"values", Decades(Ax.Y0, Ax.Y1)}}}};
  return {{"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
          {"title",
           {{"text", Title},
            {"subtitle", M.FromCounterPeaks
                             ? "ceilings: peaks from the counters, not measured (" + M.Name + ")"
                             : "ceilings: " + M.Name + " (" +
                                   M.Path.substr(M.Path.rfind('/') + 1) + ", hroof-ert)"}}},
          {"width", Width},
          {"height", Height},
          {"background", "white"},
          {"datasets",
           {{"points", K.Points},
            {"ceilings", Ceil},
            {"ceiling_labels", CeilLabels},
            {"labels", K.Labels},
            {"arrows", K.Arrows}}},
          {"config", {{"axis", {{"grid", true}, {"gridOpacity", 0.35}}}}},
          {"layer", baselineLayers(chartLayers(X, Y, Color), K.Arrows, X, Y, Color)},
          {"resolve", {{"scale", {{"color", "shared"}}}}}};
}

} // namespace hroof
