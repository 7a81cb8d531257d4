// Choosing P (simulate/chunk_choice.h, docs/simulate.md): on a path the simulated time is the
// closed form (P + d - 1)(α + M/(P·b)), minimised at the integer next to sqrt((d - 1)·M/(b·α)).
#include "simulate/chunk_choice.h"

#include <gtest/gtest.h>

#include "core/input_error.h"

namespace collsynth {
namespace {

TEST(ChunkChoiceTest, PathPicksTheMinimumOfTheClosedForm) {
  // c0 -> c1 -> ... -> c4 (d = 4 links), b = 1 byte/s, α = 1 s, M = 36 bytes (broadcast):
  // T(P) = (P + 3)(1 + 36/P) = P + 39 + 108/P, least over integers at P = 10: 299/5.
  Topology g("path");
  for (int i = 0; i < 5; ++i) g.AddCompute("c" + std::to_string(i));
  PipelineSchedule s;
  s.collective = Collective::kBroadcast;
  s.root = 0;
  s.k = 1;
  PipelineTree t;
  t.root = 0;
  t.multiplicity = 1;
  for (int i = 0; i < 4; ++i) {
    g.AddDuplexLink(i, i + 1, 1);
    PipelineTreeEdge e;
    e.from = i;
    e.to = i + 1;
    e.routes.push_back(PipelineRoute{{i, i + 1}, 1});
    t.edges.push_back(e);
  }
  s.trees.push_back(t);
  SimulationModel m;
  m.size = 36;
  m.bytes_per_unit = 1;
  m.default_alpha = 1;
  std::vector<std::int64_t> candidates;
  for (int p = 1; p <= 16; ++p) candidates.push_back(p);
  ChunkChoice c = ChooseChunkCount(s, g, m, candidates);
  EXPECT_EQ(c.best, 10);
  EXPECT_EQ(c.best_time, Rational(299, 5));
  ASSERT_EQ(c.times.size(), 16u);
  for (const auto& [p, time] : c.times) EXPECT_EQ(time, p + 39 + Rational(108, p)) << p;
}

TEST(ChunkChoiceTest, ParsesListsAndRefusesBadEntries) {
  EXPECT_EQ(ParseChunkList("--chunks-sweep", "1,2,64", 100), (std::vector<std::int64_t>{1, 2, 64}));
  // A repeated P is simulated once, where it first appears.
  EXPECT_EQ(ParseChunkList("--chunks-sweep", "4,1,4,2,1,4", 100),
            (std::vector<std::int64_t>{4, 1, 2}));
  for (const std::string bad : {"", "1,,2", "0", "2,1/2", "101", "x"}) {
    EXPECT_THROW(ParseChunkList("--chunks-sweep", bad, 100), InputError) << bad;
  }
}

}  // namespace
}  // namespace collsynth
