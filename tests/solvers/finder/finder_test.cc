// Topology finder (seed 000 §5.4, App. G): Table 5 and Table 4 rows, frontier shape,
// the precomputed generalized Kautz table against the BFB solver, and real schedules for
// sampled frontier entries whose checker (T_L, T_B) must equal the prediction exactly.
#include "solvers/finder/finder.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "graphs/expression.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/finder/finder_base_table.h"
#include "solvers/finder/finder_bfb_value.h"
#include "solvers/finder/finder_schedule.h"
#include "test_util.h"
#include "theory/expansion_bounds.h"

namespace collsynth {
namespace {

TopologyFinder& Engine() {
  static TopologyFinder f;
  return f;
}

bool Names(const FinderCandidate& c, const std::string& e) {
  return c.topology == e ||
         std::find(c.alternatives.begin(), c.alternatives.end(), e) != c.alternatives.end();
}

// Table 5 (d = 4): OurBestTopo per N, allreduce T_L (= 2 x allgather T_L), all BW optimal.
TEST(Finder, Table5BestTopologiesDegree4) {
  struct Row {
    int n;
    const char* expr;
    int allreduce_tl;
  };
  const Row rows[] = {{5, "complete(5)", 2},        {6, "degree(complete(3),2)", 4},
                      {7, "circulant(7,2,3)", 4},   {8, "bipartite(4)", 4},
                      {9, "hamming(2,3)", 4},       {10, "degree(biring(2,5),2)", 4},
                      {11, "circulant(11,2,3)", 4}, {12, "circulant(12,2,3)", 4}};
  for (const Row& r : rows) {
    SCOPED_TRACE(r.expr);
    FinderResult f = Engine().Find(r.n, 4);
    ASSERT_FALSE(f.frontier.empty());
    // The BW-optimal end of the frontier reaches the listed T_L (and nothing beats it: it is
    // Moore optimal for N >= 6, T_L*(N, 4) = 2).
    const FinderCandidate& last = f.frontier.back();
    EXPECT_TRUE(last.bw_optimal);
    EXPECT_EQ(2 * last.tl, r.allreduce_tl);
    EXPECT_EQ(f.frontier.size(), 1u);  // Moore and BW optimal at once: a one-point frontier
    EXPECT_TRUE(Names(last, r.expr)) << "frontier names " << last.topology;
  }
}

// Table 4 (N = 1024, d = 4), allreduce values halved to allgather.
TEST(Finder, Table4ParetoFrontier1024) {
  FinderResult f = Engine().Find(1024, 4);
  ASSERT_GE(f.frontier.size(), 3u);
  EXPECT_EQ(f.moore_steps, 5);                        // lower-bound row: 10α
  EXPECT_EQ(f.tb_lower_bound, Rational(1023, 1024));  // 1.998 M/B allreduce
  // Π_{4,1024}: 10α, 2.664 M/B.
  EXPECT_EQ(f.frontier.front().topology, "genkautz(4,1024)");
  EXPECT_EQ(f.frontier.front().tl, 5);
  EXPECT_EQ(f.frontier.front().tb, Rational(341, 256));
  EXPECT_TRUE(f.frontier.front().moore_optimal);
  // L^3(C(16,{3,4})): 12α, 2.039 M/B = 2·261/256.
  bool found_l3 = false;
  for (const auto& c : f.frontier) {
    if (c.tl == 6) {
      EXPECT_LE(c.tb, Rational(261, 256));
      found_l3 |= Names(c, "line(line(line(circulant(16,3,4))))") && c.tb == Rational(261, 256);
    }
  }
  EXPECT_TRUE(found_l3);
  // (UniRing(1,4) □ UniRing(1,8))^□2: 40α, BW optimal. The frontier's BW-optimal end is at
  // least as good.
  EXPECT_TRUE(f.frontier.back().bw_optimal);
  EXPECT_LE(f.frontier.back().tl, 20);
  // The frontier is a staircase.
  for (std::size_t i = 1; i < f.frontier.size(); ++i) {
    EXPECT_LT(f.frontier[i - 1].tl, f.frontier[i].tl);
    EXPECT_GT(f.frontier[i - 1].tb, f.frontier[i].tb);
  }
  // Best for α = 10 µs, M/B = 1 MB / 100 Gbps: L^3(C(16,{3,4})) at 291.0 µs, within 10% of
  // the 267.6 µs lower bound (Table 4's last column).
  FinderWorkload w;
  const FinderCandidate& best = BestForWorkload(f, w);
  EXPECT_EQ(best.tl, 6);
  EXPECT_EQ(best.tb, Rational(261, 256));
  EXPECT_NEAR(static_cast<double>(AllreduceTime(best, w)) * 1e6, 291.0, 0.05);
  EXPECT_NEAR(static_cast<double>(AllreduceTime(f.frontier.front(), w)) * 1e6, 323.5, 0.1);
}

// The (UniRing(1,4) □ UniRing(1,8))^□2 row by the theorems directly.
TEST(Finder, Table4ProductPowerRow) {
  bool found = false;
  for (const auto& c : Engine().Candidates(32, 2)) {
    if (c.method == FinderMethod::kProduct && c.tl == 10) found = true;
  }
  EXPECT_TRUE(found);  // UniRing(1,4) □ UniRing(1,8): T_L 3 + 7
}

// Figure 13's shape at d = 4: GenKautz wins most N at 1 MB, Circulant most at 100 MB.
TEST(Finder, Figure13Shape) {
  std::map<std::string, int> small, large;
  FinderWorkload w1, w100;
  w100.size_bytes = Rational(100 << 20);
  for (int n = 5; n <= 2000; n += 7) {
    FinderResult f = Engine().Find(n, 4);
    ++small[BestForWorkload(f, w1).Label()];
    ++large[BestForWorkload(f, w100).Label()];
  }
  auto top = [](const std::map<std::string, int>& m) {
    return std::max_element(m.begin(), m.end(),
                            [](auto& a, auto& b) { return a.second < b.second; })
        ->first;
  };
  EXPECT_EQ(top(small), "GenKautz");
  EXPECT_EQ(top(large), "Circulant");
}

// The precomputed Π_{d,m} table against GenerateBfbSchedule + the step checker on samples.
TEST(Finder, GenKautzTableMatchesBfbSolver) {
  // d in {2, 4, 8, 16}, d+2 <= m <= 2000: 1997 + 1995 + 1991 + 1983 entries, every one present.
  EXPECT_EQ(GenKautzTableSize(), 7966);
  for (int d : {2, 4, 8, 16}) {
    for (int m = d + 2; m <= 2000; ++m)
      ASSERT_TRUE(LookupGenKautzTable(d, m).has_value()) << d << " " << m;
    EXPECT_FALSE(LookupGenKautzTable(d, d + 1).has_value());
    EXPECT_FALSE(LookupGenKautzTable(d, 2001).has_value());
  }
  std::mt19937_64 rng(testing::TestSeed());
  const int degrees[] = {2, 4, 8, 16};
  for (int it = 0; it < 6; ++it) {
    int d = degrees[it % 4];
    int m = d + 2 + static_cast<int>(rng() % 120);
    SCOPED_TRACE("genkautz(" + std::to_string(d) + "," + std::to_string(m) + ") seed " +
                 std::to_string(testing::TestSeed()));
    auto t = LookupGenKautzTable(d, m);
    ASSERT_TRUE(t.has_value());
    Topology g =
        EvaluateTopologyExpression("genkautz(" + std::to_string(d) + "," + std::to_string(m) + ")");
    BfbOptions o;
    o.certificates = false;
    BfbResult r = GenerateBfbSchedule(g, o);
    StepCheckReport rep = CheckStepSchedule(g, r.schedule);
    ASSERT_TRUE(rep.ok);
    EXPECT_EQ(rep.tl, t->diameter);
    EXPECT_EQ(rep.tb, t->tb_shard);
  }
}

// Thm 10 cross-check inside the database: L(Π_{d,m}) ≅ Π_{d,dm}, so the line-graph formula on
// the table's Π_{d,m} must give the table's Π_{d,dm}.
TEST(Finder, GenKautzLineGraphConsistentWithTable) {
  for (int d : {2, 4}) {
    for (int m = d + 2; d * m <= 2000; m += 5) {
      auto a = LookupGenKautzTable(d, m), b = LookupGenKautzTable(d, d * m);
      ASSERT_TRUE(a && b);
      EXPECT_EQ(b->diameter, a->diameter + 1) << d << "," << m;
      // T_B (M/B): T_B(L) = T_B + 1/m.
      EXPECT_EQ(b->tb_shard * d / (d * m), a->tb_shard * d / m + Rational(1, m)) << d << "," << m;
    }
  }
}

// Real schedules for sampled frontier entries: the checker's (T_L, T_B) equals the finder's.
TEST(Finder, SampledFrontierSchedulesMatchPrediction) {
  struct Sample {
    int n, d;
  };
  const Sample samples[] = {{6, 4},   {10, 4},  {64, 4},   {96, 4}, {100, 4}, {128, 2},
                            {144, 4}, {256, 4}, {1024, 4}, {72, 8}, {240, 8}};
  int built = 0;
  for (const Sample& s : samples) {
    FinderResult f = Engine().Find(s.n, s.d);
    for (const auto& c : f.frontier) {
      // Keep the test fast: skip large generative bases (BFB on N ~ 1000 takes seconds).
      if (c.method == FinderMethod::kBfb && c.nodes > 300) continue;
      if (c.method == FinderMethod::kProduct && c.nodes > 300) continue;
      SCOPED_TRACE(c.topology);
      FinderSchedule fs = BuildFinderSchedule(c);
      StepCheckReport rep = CheckStepSchedule(fs.topology, fs.schedule);
      ASSERT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
      EXPECT_EQ(rep.tl, c.tl);
      EXPECT_EQ(ShardTbToMOverB(fs.topology, rep.tb), c.tb)
          << ToString(ShardTbToMOverB(fs.topology, rep.tb)) << " vs " << ToString(c.tb);
      ++built;
    }
  }
  EXPECT_EQ(built, 30);  // every frontier entry of the samples below the size cut
}

TEST(Finder, RejectsBadInput) {
  EXPECT_THROW(FindTopologies(1, 4), std::invalid_argument);
  EXPECT_THROW(FindTopologies(10, 0), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

bool EveryLinkHasItsReverse(const Topology& g) {
  std::map<std::pair<int, int>, Rational> bw;
  for (const Link& l : g.links()) bw[{l.from, l.to}] += l.bandwidth * l.multiplicity;
  for (const auto& [e, b] : bw) {
    auto it = bw.find({e.second, e.first});
    if (it == bw.end() || it->second != b) return false;
  }
  return true;
}

// Figure 13's "best bidirectional topology known": every frontier topology of the
// bidirectional finder is bidirectional, none is faster than the unidirectional best, and
// App. F's bidir(G) of a reverse-symmetric degree-2 candidate keeps G's (T_L, T_B).
TEST(Finder, BidirectionalModeFindsOnlyBidirectionalTopologies) {
  FinderOptions o;
  o.bidirectional = true;
  TopologyFinder bi(o);
  for (std::int64_t n : {8, 12, 16, 24, 48}) {
    const FinderResult r = bi.Find(n, 4);
    ASSERT_FALSE(r.frontier.empty()) << n;
    for (const auto& c : r.frontier) {
      EXPECT_TRUE(EveryLinkHasItsReverse(EvaluateTopologyExpression(c.topology))) << c.topology;
    }
    const FinderWorkload w;
    EXPECT_GE(AllreduceTime(BestForWorkload(r, w), w),
              AllreduceTime(BestForWorkload(Engine().Find(n, 4), w), w))
        << n;
  }
  EXPECT_EQ(bi.Find(16, 4).frontier.front().topology, "circulant(16,3,4)");
  // N = 768 = 3·2^8: bidir(K(2,8)), K(2,8) = L^8(K_3) (Moore optimal, T_L 9 by Cor 10.1).
  const FinderResult r768 = bi.Find(768, 4);
  const FinderCandidate& top = r768.frontier.front();
  EXPECT_EQ(top.tl, 9);
  EXPECT_EQ(top.method, FinderMethod::kBidir);
  EXPECT_EQ(top.expansions.substr(0, 1), "B");
  EXPECT_TRUE(Names(top, "bidir(kautz(2,8))")) << top.topology;
  EXPECT_EQ(top.tb, LineGraphPowerBfb(BandwidthOptimalBase(3, 2, 1, "K"), 8).bandwidth);
  // The unidirectional finder never proposes bidir(...).
  for (const auto& c : Engine().Find(768, 4).frontier)
    EXPECT_EQ(c.topology.find("bidir("), std::string::npos);
}

}  // namespace
}  // namespace collsynth
