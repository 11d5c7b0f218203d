//===- TypeCache.cpp - learned Tensor Core types kept across runs --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See TypeCache.h. Unit tests: test/unit/runtime/TypeCacheTest.cpp.
//===----------------------------------------------------------------------===//
#include "metrics/TypeCache.h"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hroof {
namespace rt {

std::vector<std::pair<std::string, uint64_t>> cubinFunctionHashes(const void *Data, size_t Size) {
  std::vector<std::pair<std::string, uint64_t>> Out;
  const auto *B = static_cast<const unsigned char *>(Data);
  Elf64_Ehdr H;
  if (!B || Size < sizeof H)
    return Out;
  std::memcpy(&H, B, sizeof H);
  if (std::memcmp(H.e_ident, ELFMAG, SELFMAG) || H.e_ident[EI_CLASS] != ELFCLASS64 ||
      H.e_shentsize != sizeof(Elf64_Shdr) || H.e_shoff > Size ||
      H.e_shnum > (Size - H.e_shoff) / sizeof(Elf64_Shdr) || H.e_shstrndx >= H.e_shnum)
    return Out;
  auto Section = [&](size_t I) {
    Elf64_Shdr S;
    std::memcpy(&S, B + H.e_shoff + I * sizeof S, sizeof S);
    return S;
  };
  auto Inside = [&](const Elf64_Shdr &S) {
    return S.sh_offset <= Size && S.sh_size <= Size - S.sh_offset;
  };
  Elf64_Shdr Str = Section(H.e_shstrndx);
  if (!Inside(Str))
    return Out;
  const char *Names = reinterpret_cast<const char *>(B + Str.sh_offset);
  static const char Prefix[] = ".text.";
  for (size_t I = 0; I < H.e_shnum; ++I) {
    Elf64_Shdr S = Section(I);
    if (S.sh_type == SHT_NOBITS || S.sh_name >= Str.sh_size || !Inside(S))
      continue;
    const char *N = Names + S.sh_name;
    size_t Len = strnlen(N, Str.sh_size - S.sh_name);
    if (Len == Str.sh_size - S.sh_name || Len <= sizeof Prefix - 1 ||
        std::strncmp(N, Prefix, sizeof Prefix - 1))
      continue;
    // FNV-1a 64 over the code, seeded with the ELF flags (the SM version).
    uint64_t Hash = 14695981039346656037ull ^ H.e_flags;
    for (const unsigned char *P = B + S.sh_offset, *E = P + S.sh_size; P != E; ++P)
      Hash = (Hash ^ *P) * 1099511628211ull;
    Out.emplace_back(std::string(N + sizeof Prefix - 1, Len - (sizeof Prefix - 1)), Hash);
  }
  return Out;
}

std::string defaultTypeCachePath() {
  const char *X = std::getenv("XDG_CACHE_HOME");
  if (X && *X)
    return std::string(X) + "/hroof/tensor-types.tsv";
  const char *Home = std::getenv("HOME");
  if (Home && *Home)
    return std::string(Home) + "/.cache/hroof/tensor-types.tsv";
  return "";
}

namespace {

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::string Cur;
  std::istringstream In(S);
  while (std::getline(In, Cur, Sep))
    Out.push_back(Cur);
  if (!S.empty() && S.back() == Sep)
    Out.emplace_back();
  return Out;
}

/// "-" or a comma list, each name one of \p Allowed.
bool parseNames(const std::string &Text, const std::vector<std::string> &Allowed,
                std::set<std::string> &Out) {
  if (Text == "-")
    return true;
  for (const std::string &N : split(Text, ',')) {
    if (std::find(Allowed.begin(), Allowed.end(), N) == Allowed.end())
      return false;
    Out.insert(N);
  }
  return true;
}

std::string joinNames(const std::set<std::string> &S) {
  if (S.empty())
    return "-";
  std::string Out;
  for (const std::string &N : S)
    Out += (Out.empty() ? "" : ",") + N;
  return Out;
}

} // namespace

std::string TensorTypeCache::read(const std::string &Path, std::map<Key, TensorTypes> &Out,
                                  size_t &Skipped) {
  std::error_code EC;
  if (!std::filesystem::exists(Path, EC))
    return "";
  std::ifstream In(Path);
  if (!In)
    return "cannot read " + Path + ": " + std::strerror(errno);
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#')
      continue;
    std::vector<std::string> F = split(Line, '\t');
    TensorTypes T;
    char *End = nullptr;
    uint64_t Code = F.size() == 5 && F[1].size() == 16 ? std::strtoull(F[1].c_str(), &End, 16) : 0;
    if (F.size() != 5 || F[0].empty() || F[4].empty() || !End || *End ||
        !parseNames(F[2], tensorTypeMetrics(), T.Types) ||
        !parseNames(F[3], tensorPipeMetrics(), T.Pipes)) {
      ++Skipped;
      continue;
    }
    Out[Key{F[0], Code, F[4]}] = std::move(T);
  }
  return "";
}

std::string TensorTypeCache::load(const std::string &P) {
  Path = P;
  Entries.clear();
  Changes.clear();
  Skipped = 0;
  return read(Path, Entries, Skipped);
}

const TensorTypes *TensorTypeCache::find(const std::string &Chip, uint64_t Code,
                                         const std::string &Mangled) const {
  auto It = Entries.find(Key{Chip, Code, Mangled});
  return It == Entries.end() ? nullptr : &It->second;
}

void TensorTypeCache::put(const std::string &Chip, uint64_t Code, const std::string &Mangled,
                          const TensorTypes &T) {
  Key K{Chip, Code, Mangled};
  Entries[K] = T;
  Changes[K] = true;
  ++Puts;
}

void TensorTypeCache::erase(const std::string &Chip, uint64_t Code, const std::string &Mangled) {
  Key K{Chip, Code, Mangled};
  Entries.erase(K);
  Changes[K] = false;
}

std::string TensorTypeCache::save() {
  if (Changes.empty() || Path.empty())
    return "";
  std::map<Key, TensorTypes> Merged;
  size_t Ignored = 0;
  read(Path, Merged, Ignored); // unreadable: this run's entries only
  for (const auto &[K, Put] : Changes) {
    if (!Put)
      Merged.erase(K);
    else if (auto It = Entries.find(K); It != Entries.end())
      Merged[K] = It->second;
  }
  std::error_code EC;
  std::filesystem::path Dir = std::filesystem::path(Path).parent_path();
  if (!Dir.empty())
    std::filesystem::create_directories(Dir, EC);
  std::string Tmp = Path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream Out(Tmp, std::ios::trunc);
    if (!Out)
      return "cannot write " + Tmp + ": " + std::strerror(errno);
    Out << "# hroof tensor-type cache (docs/runtime.md \"Replay passes\"): chip, "
           "code hash, tensor types, tensor pipes, kernel\n";
    for (const auto &[K, T] : Merged) {
      char Hex[17];
      std::snprintf(Hex, sizeof Hex, "%016llx", (unsigned long long)std::get<1>(K));
      Out << std::get<0>(K) << '\t' << Hex << '\t' << joinNames(T.Types) << '\t'
          << joinNames(T.Pipes) << '\t' << std::get<2>(K) << '\n';
    }
    if (!Out.flush()) {
      std::remove(Tmp.c_str());
      return "cannot write " + Tmp;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    std::string E = "cannot replace " + Path + ": " + std::strerror(errno);
    std::remove(Tmp.c_str());
    return E;
  }
  Changes.clear();
  return "";
}

} // namespace rt
} // namespace hroof
