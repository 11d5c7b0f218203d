// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "analysis.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ert {

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<Plateau> find_plateaus(const std::vector<Point> &s, double rel_tol, size_t min_points) {
  std::vector<Plateau> out;
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    // extend a run from i while max/min stays within 1 + rel_tol
    double lo = s[i].y, hi = s[i].y;
    size_t j = i + 1;
    while (j < n) {
      double nlo = std::min(lo, s[j].y), nhi = std::max(hi, s[j].y);
      if (nlo <= 0 || nhi > nlo * (1 + rel_tol))
        break;
      lo = nlo;
      hi = nhi;
      ++j;
    }
    if (j - i >= min_points && lo > 0) {
      Plateau p;
      p.first = i;
      p.last = j - 1;
      p.x_begin = s[i].x;
      p.x_end = s[j - 1].x;
      std::vector<double> ys;
      for (size_t k = i; k < j; ++k)
        ys.push_back(s[k].y);
      p.value = median(ys);
      out.push_back(p);
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

bool highest_plateau(const std::vector<Plateau> &p, Plateau *out) {
  if (p.empty())
    return false;
  *out = *std::max_element(p.begin(), p.end(),
                           [](const Plateau &a, const Plateau &b) { return a.value < b.value; });
  return true;
}

bool last_plateau(const std::vector<Plateau> &p, Plateau *out) {
  if (p.empty())
    return false;
  *out = p.back();
  return true;
}

bool memory_plateau(const std::vector<Point> &s, double min_x, double *value, Plateau *p,
                    size_t *npoints, double rel_tol, size_t min_points) {
  auto pl = find_plateaus(s, rel_tol, min_points);
  if (!last_plateau(pl, p))
    return false;
  std::vector<double> ys;
  for (size_t i = p->first; i <= p->last; ++i)
    if (s[i].x >= min_x)
      ys.push_back(s[i].y);
  *npoints = ys.size();
  if (ys.size() < 2)
    return false;
  *value = median(ys);
  return true;
}

RidgeResult find_ridge(const std::vector<double> &ai, const std::vector<double> &gflops,
                       const std::vector<double> &gbs) {
  RidgeResult r;
  const size_t n = std::min({ai.size(), gflops.size(), gbs.size()});
  if (n == 0)
    return r;
  // Compute plateau: plateaus of GFLOP/s over AI; the highest one.
  std::vector<Point> f;
  for (size_t i = 0; i < n; ++i)
    f.push_back({ai[i], gflops[i]});
  auto pl = find_plateaus(f, 0.10, 2);
  Plateau top;
  if (highest_plateau(pl, &top))
    r.flops_plateau = top.value;
  else
    r.flops_plateau = *std::max_element(gflops.begin(), gflops.begin() + n);
  // Memory-bound points: those whose bandwidth is within 10% of the best bandwidth.
  double bwmax = *std::max_element(gbs.begin(), gbs.begin() + n);
  std::vector<double> bws;
  for (size_t i = 0; i < n; ++i)
    if (gbs[i] >= 0.9 * bwmax)
      bws.push_back(gbs[i]);
  r.bw_plateau = median(bws);
  r.ridge_ai = r.bw_plateau > 0 ? r.flops_plateau / r.bw_plateau : 0;
  for (size_t i = 0; i < n; ++i)
    if (gflops[i] >= 0.9 * r.flops_plateau) {
      r.knee_ai = ai[i];
      break;
    }
  return r;
}

std::vector<Point> read_csv_columns(const std::string &path, const std::string &xcol,
                                    const std::string &ycol) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::string line;
  if (!std::getline(in, line))
    throw std::runtime_error(path + ": empty");
  auto split = [](const std::string &l) {
    std::vector<std::string> f;
    std::stringstream ss(l);
    std::string x;
    while (std::getline(ss, x, ','))
      f.push_back(x);
    return f;
  };
  auto head = split(line);
  int xi = -1, yi = -1;
  for (size_t i = 0; i < head.size(); ++i) {
    if (head[i] == xcol)
      xi = (int)i;
    if (head[i] == ycol)
      yi = (int)i;
  }
  if (xi < 0 || yi < 0)
    throw std::runtime_error(path + ": missing column " + (xi < 0 ? xcol : ycol));
  std::vector<Point> pts;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    auto f = split(line);
    if ((int)f.size() <= std::max(xi, yi))
      continue;
    pts.push_back({std::stod(f[xi]), std::stod(f[yi])});
  }
  return pts;
}

} // namespace ert
