//===- ProfileSchema.cpp - the profile key table as JSON, for Python ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// hroof-profile-schema OUT.json writes share/hroof/profile-schema.json at
// build time from the one key table (hroof/ProfileKeys.h) and the counter
// layout (hroof/CounterLayout.h), so that Python readers of profiles
// (case-studies/, test/report/; scripts/profile_schema.py loads it) use the
// keys the runtime writes:
//   {"schema": "hroof-profile-schema/1", "format_version": 1,
//    "objects": {OBJECT: {KEY: {"type": T, "meaning": M}}},
//    "count_keys": ["flops.f64", ...], "thread_count_keys": N}
//===----------------------------------------------------------------------===//
#include "hroof/ProfileKeys.h"
#include "hroof/StaticModel.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: hroof-profile-schema OUT.json\n");
    return 2;
  }
  namespace pk = hroof::profile_keys;
  nlohmann::json Objects = nlohmann::json::object();
  for (const pk::ProfileKeyInfo &K : pk::ProfileKeyTable) {
    if (Objects[K.Object].contains(K.Key)) {
      std::fprintf(stderr, "hroof-profile-schema: %s.%s twice in the key table\n", K.Object,
                   K.Key);
      return 1;
    }
    Objects[K.Object][K.Key] = {{"type", K.Type}, {"meaning", K.Meaning}};
  }
  nlohmann::json Counts = nlohmann::json::array();
  for (int I = 0; I < hroof::NumCounters; ++I)
    Counts.push_back(hroof::counterName(I));
  nlohmann::json Out = {{"schema", "hroof-profile-schema/1"},
                        {"format_version", pk::FormatVersion},
                        {"objects", Objects},
                        {"count_keys", Counts},
                        {"thread_count_keys", hroof::NumThreadCounters}};
  std::ofstream F(Argv[1]);
  F << Out.dump(1) << "\n";
  if (!F) {
    std::fprintf(stderr, "hroof-profile-schema: cannot write '%s'\n", Argv[1]);
    return 1;
  }
  return 0;
}
