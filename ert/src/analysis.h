// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert sweep analysis: plateau detection and the ridge of the FLOPs-per-byte sweep.
// Plain C++ (no CUDA), unit-tested in test/ert/ on recorded sweeps.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ert {

struct Point {
  double x = 0; // working set in bytes (or arithmetic intensity)
  double y = 0; // bandwidth in GB/s (or GFLOP/s)
};

struct Plateau {
  size_t first = 0, last = 0; // indices into the (x-sorted) sweep, inclusive
  double x_begin = 0, x_end = 0;
  double value = 0; // median y over the plateau
  size_t size() const { return last - first + 1; }
};

double median(std::vector<double> v);

// Splits a sweep (sorted by x) into plateaus: maximal runs of at least `min_points`
// consecutive points whose y all lie within a factor (1 + rel_tol) of each other
// (max/min). Runs are found greedily left to right; points between runs (transitions)
// belong to no plateau.
std::vector<Plateau> find_plateaus(const std::vector<Point> &sweep, double rel_tol = 0.10,
                                   size_t min_points = 3);

// The plateau with the highest value (a cache level's bandwidth in an L1 or L2 sweep);
// nullptr-equivalent: returns false when the sweep has no plateau.
bool highest_plateau(const std::vector<Plateau> &p, Plateau *out);
// The plateau that reaches the largest working sets (HBM in an L2/HBM sweep).
bool last_plateau(const std::vector<Plateau> &p, Plateau *out);

// The memory (HBM) level of an L2/HBM sweep: the last plateau, restricted to its points at
// working sets >= min_x (2x the L2 size: smaller sets still hit L2 in part). Returns false
// unless at least 2 points remain; *value = their median.
bool memory_plateau(const std::vector<Point> &sweep, double min_x, double *value, Plateau *p,
                    size_t *npoints, double rel_tol = 0.10, size_t min_points = 3);

// FLOPs-per-byte sweep: x = FLOP/byte, y = GFLOP/s, bw = GB/s at each point.
struct RidgeResult {
  double bw_plateau = 0;    // GB/s: median bandwidth over the memory-bound points
  double flops_plateau = 0; // GFLOP/s: value of the highest-AI plateau of GFLOP/s
  double ridge_ai = 0;      // flops_plateau / bw_plateau (FLOP/byte)
  double knee_ai = 0;       // smallest measured AI reaching 90% of flops_plateau
};
RidgeResult find_ridge(const std::vector<double> &ai, const std::vector<double> &gflops,
                       const std::vector<double> &gbs);

// Reads two numeric columns from a CSV with a header row (comma separated, no quoting).
std::vector<Point> read_csv_columns(const std::string &path, const std::string &xcol,
                                    const std::string &ycol);

} // namespace ert
