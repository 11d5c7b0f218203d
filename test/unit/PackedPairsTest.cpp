//===- PackedPairsTest.cpp - packed counter pairs (hroof/CounterLayout.h) -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// unpackPairs: the runtime's reading of the packed words that the exit flush
// adds two counters to with one atomic (docs/instrumentation.md, "Flush").
// The packed sums are built here as the GPU builds them: many flushes of
// (second << 32 | first), summed in u64 over slots, each field's total below
// 2^31 as the pass guarantees; the unpacked counters must equal the fields'
// sums, added to what the counters already hold.
//===----------------------------------------------------------------------===//
#include "hroof/CounterLayout.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace hroof;

TEST(PackedPairs, FieldsOfSummedWordsAreTheSumsOfTheFields) {
  std::mt19937_64 Rng(7);
  const uint8_t Pairs[] = {1, 34, 35, 38};
  uint64_t Packed[NumPackedWords] = {};
  uint64_t Want[NumCounters] = {}, C[NumCounters] = {};
  C[35] = Want[35] = 1000; // the unpacked atomics' share stays
  // 4096 flushes over 1024 slots, each below 2^31 / 4096 per field.
  std::vector<uint64_t> Slots(1024 * 2, 0);
  for (int F = 0; F < 4096; ++F) {
    for (int J = 0; J < 2; ++J) {
      uint64_t A = Rng() % (1u << 19), B = Rng() % (1u << 19);
      Slots[(F % 1024) * 2 + J] += (B << 32) | A;
      Want[Pairs[2 * J]] += A;
      Want[Pairs[2 * J + 1]] += B;
    }
  }
  for (size_t S = 0; S < 1024; ++S)
    for (int J = 0; J < 2; ++J)
      Packed[J] += Slots[S * 2 + J];
  ASSERT_TRUE(unpackPairs(Packed, Pairs, 2, C));
  for (int K = 0; K < NumCounters; ++K)
    EXPECT_EQ(C[K], Want[K]) << "counter " << K;
}

TEST(PackedPairs, RejectsTablesNamingCountersOutsideTheLayout) {
  uint64_t Packed[NumPackedWords] = {5};
  uint64_t C[NumCounters] = {};
  const uint8_t Bad[] = {1, uint8_t(NumCounters)};
  EXPECT_FALSE(unpackPairs(Packed, Bad, 1, C));
  EXPECT_FALSE(unpackPairs(Packed, Bad, NumPackedWords + 1, C));
  for (uint64_t V : C)
    EXPECT_EQ(V, 0u);
}

TEST(PackedPairs, SlotLayout) {
  EXPECT_EQ(NumPackedWords * 2 >= NumCounters, true);
  EXPECT_EQ(PackedSlotWords, NumCounters + NumPackedWords);
}
