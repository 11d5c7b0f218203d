//===- TypeCacheTest.cpp - code hashes of cubins, the tensor-type cache ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Run: build/bin/hroof-rt-tests --gtest_filter='TypeCache*:CubinHash*'
//===----------------------------------------------------------------------===//
#include "metrics/TypeCache.h"

#include <gtest/gtest.h>

#include <elf.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace hroof::rt;

namespace {

/// A minimal ELF64 image: the given (name, bytes) sections after the
/// header, then the section-name table, then the section headers.
std::vector<unsigned char> makeElf(const std::vector<std::pair<std::string, std::string>> &Sections,
                                   uint32_t Flags = 0x5a055a) {
  std::vector<unsigned char> Img(sizeof(Elf64_Ehdr));
  std::string Names(1, '\0');
  std::vector<Elf64_Shdr> Hdrs(1); // index 0: the null section
  for (const auto &[Name, Bytes] : Sections) {
    Elf64_Shdr S{};
    S.sh_name = Names.size();
    Names += Name + '\0';
    S.sh_type = SHT_PROGBITS;
    S.sh_offset = Img.size();
    S.sh_size = Bytes.size();
    Img.insert(Img.end(), Bytes.begin(), Bytes.end());
    Hdrs.push_back(S);
  }
  Elf64_Shdr Str{};
  Str.sh_name = Names.size();
  Names += std::string(".shstrtab") + '\0';
  Str.sh_type = SHT_STRTAB;
  Str.sh_offset = Img.size();
  Str.sh_size = Names.size();
  Img.insert(Img.end(), Names.begin(), Names.end());
  Hdrs.push_back(Str);
  Elf64_Ehdr H{};
  std::memcpy(H.e_ident, ELFMAG, SELFMAG);
  H.e_ident[EI_CLASS] = ELFCLASS64;
  H.e_machine = 190; // EM_CUDA
  H.e_flags = Flags;
  H.e_shoff = Img.size();
  H.e_shentsize = sizeof(Elf64_Shdr);
  H.e_shnum = Hdrs.size();
  H.e_shstrndx = Hdrs.size() - 1;
  for (const Elf64_Shdr &S : Hdrs) {
    const auto *P = reinterpret_cast<const unsigned char *>(&S);
    Img.insert(Img.end(), P, P + sizeof S);
  }
  std::memcpy(Img.data(), &H, sizeof H);
  return Img;
}

std::map<std::string, uint64_t> hashes(const std::vector<unsigned char> &Img) {
  std::map<std::string, uint64_t> M;
  for (auto &[N, H] : cubinFunctionHashes(Img.data(), Img.size()))
    M[N] = H;
  return M;
}

std::string tempPath(const char *Name) {
  return (std::filesystem::temp_directory_path() /
          ("hroof-typecache-" + std::to_string(::getpid()) + "-" + Name))
      .string();
}

} // namespace

TEST(CubinHash, OneHashPerFunctionTextSection) {
  auto Img = makeElf({{".nv.info", "xx"},
                      {".text._Z4gemmPf", "CODE-A"},
                      {".nv.constant0._Z4gemmPf", "k"},
                      {".text._Z4saxpyPf", "CODE-B"}});
  auto M = hashes(Img);
  ASSERT_EQ(M.size(), 2u);
  EXPECT_TRUE(M.count("_Z4gemmPf"));
  EXPECT_TRUE(M.count("_Z4saxpyPf"));
  EXPECT_NE(M["_Z4gemmPf"], M["_Z4saxpyPf"]);
}

TEST(CubinHash, SameCodeSameHashAnywhereOtherCodeOtherHash) {
  auto A = hashes(makeElf({{".text.k", "CODE-A"}}));
  auto Moved = hashes(makeElf({{".nv.info", "padding"}, {".text.k", "CODE-A"}}));
  auto Changed = hashes(makeElf({{".text.k", "CODE-a"}}));
  auto OtherArch = hashes(makeElf({{".text.k", "CODE-A"}}, 0x600600));
  EXPECT_EQ(A["k"], Moved["k"]);
  EXPECT_NE(A["k"], Changed["k"]);
  EXPECT_NE(A["k"], OtherArch["k"]);
}

TEST(CubinHash, NotElfOrTruncatedGivesNothing) {
  EXPECT_TRUE(cubinFunctionHashes(nullptr, 100).empty());
  std::string Ptx = ".version 8.0\n.target sm_90\n";
  EXPECT_TRUE(cubinFunctionHashes(Ptx.data(), Ptx.size()).empty());
  auto Img = makeElf({{".text.k", "CODE"}});
  // Every truncation: the section headers are at the end, so none is usable.
  for (size_t N = 0; N < Img.size(); ++N)
    EXPECT_TRUE(cubinFunctionHashes(Img.data(), N).empty()) << N;
  // A section pointing outside the image is skipped, the others are kept.
  auto Bad = makeElf({{".text.k", "CODE"}, {".text.j", "MORE"}});
  Elf64_Ehdr H;
  std::memcpy(&H, Bad.data(), sizeof H);
  Elf64_Shdr S;
  std::memcpy(&S, Bad.data() + H.e_shoff + sizeof S, sizeof S);
  S.sh_offset = Bad.size() + 10;
  std::memcpy(Bad.data() + H.e_shoff + sizeof S, &S, sizeof S);
  auto M = hashes(Bad);
  EXPECT_EQ(M.size(), 1u);
  EXPECT_TRUE(M.count("j"));
}

TEST(TypeCache, SaveLoadFindByChipCodeAndName) {
  std::string P = tempPath("roundtrip/tensor-types.tsv");
  std::filesystem::remove_all(std::filesystem::path(P).parent_path());
  TensorTypes T;
  T.Types = {tensorTypeMetrics()[0]};
  T.Pipes = {tensorPipeMetrics()[0], tensorPipeMetrics()[1]};
  {
    TensorTypeCache C;
    EXPECT_EQ(C.load(P), ""); // no file yet: empty
    EXPECT_EQ(C.size(), 0u);
    C.put("GH100", 0x1234, "_Z4gemmPf", T);
    C.put("GH100", 0x99, "_Z4fillPf", TensorTypes{});
    EXPECT_EQ(C.save(), ""); // creates the directory
  }
  TensorTypeCache C;
  ASSERT_EQ(C.load(P), "");
  EXPECT_EQ(C.size(), 2u);
  const TensorTypes *F = C.find("GH100", 0x1234, "_Z4gemmPf");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Types, T.Types);
  EXPECT_EQ(F->Pipes, T.Pipes);
  const TensorTypes *Empty = C.find("GH100", 0x99, "_Z4fillPf");
  ASSERT_NE(Empty, nullptr);
  EXPECT_TRUE(Empty->Types.empty() && Empty->Pipes.empty());
  EXPECT_EQ(C.find("GH100", 0x1235, "_Z4gemmPf"), nullptr); // other code
  EXPECT_EQ(C.find("GA100", 0x1234, "_Z4gemmPf"), nullptr); // other chip
  EXPECT_EQ(C.find("GH100", 0x1234, "_Z4gemmPd"), nullptr); // other name
  std::filesystem::remove_all(std::filesystem::path(P).parent_path());
}

TEST(TypeCache, SaveMergesOtherRunsAndErases) {
  std::string P = tempPath("merge.tsv");
  std::filesystem::remove(P);
  TensorTypeCache A, B;
  ASSERT_EQ(A.load(P), "");
  ASSERT_EQ(B.load(P), "");
  A.put("GH100", 1, "a", TensorTypes{});
  B.put("GH100", 2, "b", TensorTypes{});
  ASSERT_EQ(A.save(), "");
  ASSERT_EQ(B.save(), ""); // keeps A's entry
  TensorTypeCache C;
  ASSERT_EQ(C.load(P), "");
  EXPECT_EQ(C.size(), 2u);
  C.erase("GH100", 1, "a");
  ASSERT_EQ(C.save(), "");
  TensorTypeCache D;
  ASSERT_EQ(D.load(P), "");
  EXPECT_EQ(D.size(), 1u);
  EXPECT_NE(D.find("GH100", 2, "b"), nullptr);
  std::filesystem::remove(P);
}

TEST(TypeCache, MalformedLinesAreSkippedAndCounted) {
  std::string P = tempPath("bad.tsv");
  {
    std::ofstream O(P);
    O << "# comment\n"
      << "GH100\t00000000000000ff\t" << tensorTypeMetrics()[1] << "\t-\t_Z1kv\n"
      << "GH100\tnothex!!nothex!!\t-\t-\t_Z1kv\n"            // bad hash
      << "GH100\t00000000000000ff\tnot_a_metric\t-\t_Z1jv\n" // unknown type
      << "GH100\t00000000000000ff\t-\t-\n"                   // 4 fields
      << "\n";
  }
  TensorTypeCache C;
  ASSERT_EQ(C.load(P), "");
  EXPECT_EQ(C.size(), 1u);
  EXPECT_EQ(C.skippedLines(), 3u);
  const TensorTypes *F = C.find("GH100", 0xff, "_Z1kv");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->Types, std::set<std::string>{tensorTypeMetrics()[1]});
  std::filesystem::remove(P);
}

TEST(TypeCache, UnwritablePlaceIsAnErrorNotACrash) {
  TensorTypeCache C;
  ASSERT_EQ(C.load("/proc/hroof-no-such-dir/tensor-types.tsv"), "");
  C.put("GH100", 1, "a", TensorTypes{});
  EXPECT_NE(C.save(), "");
}

TEST(TypeCache, DefaultPathFollowsXdgThenHome) {
  const char *OldX = std::getenv("XDG_CACHE_HOME");
  std::string SaveX = OldX ? OldX : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(defaultTypeCachePath(), "/tmp/xdg/hroof/tensor-types.tsv");
  unsetenv("XDG_CACHE_HOME");
  const char *Home = std::getenv("HOME");
  if (Home && *Home)
    EXPECT_EQ(defaultTypeCachePath(), std::string(Home) + "/.cache/hroof/tensor-types.tsv");
  if (OldX)
    setenv("XDG_CACHE_HOME", SaveX.c_str(), 1);
}
