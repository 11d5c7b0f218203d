// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The run context of hroof-ert (run.h): progress output, result entries, CSV files.
#include "run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace ert {

Ctx C;

double elapsed_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - C.t0).count();
}
void progress(const std::string &s) {
  std::fprintf(stderr, "[ert %6.1fs] %s\n", elapsed_s(), s.c_str());
  std::fflush(stderr);
}
bool want(const std::string &group) { return C.only.empty() || C.only.count(group); }

std::string fmt(double v, int prec) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}

json entry(double value, const std::string &unit, const std::string &method) {
  json j;
  j["value"] = std::round(value * 10) / 10;
  j["unit"] = unit;
  j["method"] = method;
  return j;
}

void record_check(const std::string &name, const ert::Bench &b) {
  C.checks.push_back({{"benchmark", name}, {"verified", b.verified}, {"check", b.check}});
  if (!b.verified) {
    C.all_verified = false;
    progress("CHECK FAILED: " + name + ": " + b.check);
  }
}

std::string human_bytes(double b) {
  const char *u[] = {"B", "KiB", "MiB", "GiB"};
  int i = 0;
  while (b >= 1024 && i < 3) {
    b /= 1024;
    ++i;
  }
  return fmt(b, b < 10 ? 1 : 0) + " " + u[i];
}

std::vector<size_t> ws_sizes(size_t lo, size_t hi, bool halfsteps) {
  std::vector<size_t> v;
  for (size_t s = lo; s <= hi; s *= 2) {
    v.push_back(s);
    if (halfsteps && s * 3 / 2 <= hi)
      v.push_back(s * 3 / 2);
  }
  std::sort(v.begin(), v.end());
  return v;
}

void Csv::write() const {
  std::ofstream o(path);
  if (!o)
    throw std::runtime_error("cannot write " + path);
  for (size_t i = 0; i < head.size(); ++i)
    o << (i ? "," : "") << head[i];
  o << "\n";
  for (auto &r : rows) {
    for (size_t i = 0; i < r.size(); ++i)
      o << (i ? "," : "") << r[i];
    o << "\n";
  }
}

} // namespace ert
