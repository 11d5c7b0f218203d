//===- TypeCache.h - learned Tensor Core types kept across runs ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU side of the tensor-type cache (docs/runtime.md "Replay passes"):
// a kernel's first profiled launch collects every Tensor Core type metric
// (6 of the roofline set's 8 replay passes on GH100) to learn which types it
// uses. The cache keeps what was learned, keyed by chip, the kernel's code
// and its mangled name, so that the next run of the same binary starts from
// it: its first launches need the base passes plus the types used only.
//
// The code identity is a hash of the kernel's machine code: the bytes of its
// ".text.<mangled>" section in the cubin that CUPTI hands over at module load
// (cubinFunctionHashes). A kernel rebuilt with other code gets another key;
// a kernel whose code is not known (no cubin seen, or two different codes
// under one name in the process) is never looked up.
//
// File: one entry per line, tab-separated, '#' lines are comments:
//   chip  code-hash(16 hex)  types(metric,... or -)  pipes(metric,... or -)  mangled
// Written whole to a temporary file and renamed (atomic); entries written by
// other runs in the meantime are merged in first.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_TYPECACHE_H
#define HROOF_RUNTIME_TYPECACHE_H

#include "metrics/HwMetrics.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

/// (mangled name, FNV-1a 64 hash of its code) of every function of a 64-bit
/// CUDA ELF image (sections ".text.<name>"). Empty for anything else
/// (not ELF, truncated, PTX); never reads outside [Data, Data + Size).
std::vector<std::pair<std::string, uint64_t>> cubinFunctionHashes(const void *Data, size_t Size);

/// Where the cache lives for HROOF_TYPE_CACHE=auto:
/// $XDG_CACHE_HOME/hroof/tensor-types.tsv, else $HOME/.cache/hroof/...;
/// "" when neither variable is set.
std::string defaultTypeCachePath();

class TensorTypeCache {
public:
  /// Reads \p Path (a missing file is an empty cache). Returns "" or why the
  /// file could not be used; malformed lines are skipped and counted.
  std::string load(const std::string &Path);
  const std::string &path() const { return Path; }
  /// The learned types of this kernel code on this chip, or null.
  const TensorTypes *find(const std::string &Chip, uint64_t Code, const std::string &Mangled) const;
  void put(const std::string &Chip, uint64_t Code, const std::string &Mangled,
           const TensorTypes &T);
  /// Drops an entry that proved wrong (checkTensorTypes failed).
  void erase(const std::string &Chip, uint64_t Code, const std::string &Mangled);
  /// Writes the cache if anything changed: the file's current entries (other
  /// runs), then this run's puts and erases on top. "" or why not.
  std::string save();
  size_t size() const { return Entries.size(); }
  size_t skippedLines() const { return Skipped; }
  size_t puts() const { return Puts; }

private:
  using Key = std::tuple<std::string, uint64_t, std::string>;
  std::string Path;
  std::map<Key, TensorTypes> Entries;
  std::map<Key, bool> Changes; ///< true: put, false: erased (this run)
  size_t Skipped = 0, Puts = 0;
  static std::string read(const std::string &Path, std::map<Key, TensorTypes> &Out,
                          size_t &Skipped);
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_TYPECACHE_H
