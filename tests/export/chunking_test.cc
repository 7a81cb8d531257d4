// Rational weights -> integer chunks (export/chunking.h).
#include "export/chunking.h"

#include <gtest/gtest.h>

namespace collsynth {
namespace {

TEST(Chunking, LcmOfDenominators) {
  EXPECT_EQ(LcmOfDenominators({Rational(1, 2), Rational(1, 3), Rational(3, 4)}), BigInt(12));
  EXPECT_EQ(LcmOfDenominators({}), BigInt(1));
  EXPECT_EQ(LcmOfDenominators({Rational(2), Rational(5, 10)}), BigInt(2));
}

TEST(Chunking, LargestRemainderGivesUnitsToLargestFractions) {
  // 4 · (1/2, 1/3, 1/6) = (2, 4/3, 2/3): floors (2, 1, 0), one unit left for the largest
  // remainder 2/3.
  EXPECT_EQ(LargestRemainder({Rational(1, 2), Rational(1, 3), Rational(1, 6)}, 4),
            (std::vector<std::int64_t>{2, 1, 1}));
  // Ties go to the lower index: 3 · (1/2, 1/2) = (3/2, 3/2).
  EXPECT_EQ(LargestRemainder({Rational(1, 2), Rational(1, 2)}, 3),
            (std::vector<std::int64_t>{2, 1}));
  // A small weight may get nothing.
  EXPECT_EQ(LargestRemainder({Rational(99, 100), Rational(1, 100)}, 2),
            (std::vector<std::int64_t>{2, 0}));
  EXPECT_THROW(LargestRemainder({Rational(1, 2)}, 4), std::invalid_argument);
  EXPECT_THROW(LargestRemainder({Rational(3, 2), Rational(-1, 2)}, 4), std::invalid_argument);
}

TEST(Chunking, ExactWhenTheLcmFitsTheBudget) {
  WeightChunking c =
      ChunkWeightGroups({{Rational(1, 3), Rational(2, 3)}, {Rational(1, 2), Rational(1, 2)}}, 6);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.chunks_per_shard, 6);
  EXPECT_EQ(c.exact_chunks_per_shard, BigInt(6));
  EXPECT_EQ(c.counts[0], (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(c.counts[1], (std::vector<std::int64_t>{3, 3}));
}

TEST(Chunking, RoundsToTheBudgetWhenTheLcmDoesNot) {
  WeightChunking c =
      ChunkWeightGroups({{Rational(1, 3), Rational(2, 3)}, {Rational(1, 2), Rational(1, 2)}}, 5);
  EXPECT_FALSE(c.exact);
  EXPECT_EQ(c.chunks_per_shard, 5);
  EXPECT_EQ(c.exact_chunks_per_shard, BigInt(6));
  // 5/3 = 1 + 2/3, 10/3 = 3 + 1/3: the unit goes to the first.
  EXPECT_EQ(c.counts[0], (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(c.counts[1], (std::vector<std::int64_t>{3, 2}));
  EXPECT_THROW(ChunkWeightGroups({{Rational(1)}}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
