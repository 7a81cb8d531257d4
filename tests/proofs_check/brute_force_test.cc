// Differential test: on tiny instances the interval-sweep step
// checker and the naive per-element, per-step brute-force simulator agree on validity, on
// which (source, node) pairs miss data, on which sends move data illegally, and on T_L / T_B
// (seed 000 Def. 6/7, Thm 3). Random schedules come from TestSeed().
#include <gtest/gtest.h>

#include <random>

#include "fixtures/schedule_fixtures.h"
#include "proofs_check/brute_force_simulator.h"
#include "proofs_check/step_checker.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::Whole;

// The checker's findings in the brute force's terms.
struct Findings {
  std::set<std::pair<int, int>> missing;
  std::set<int> not_held;
  std::set<int> bad_sends;
  std::set<int> reduced_twice_sources;  // shards with a contribution reduced twice
  std::set<int> out_of_range;
  bool bad_rs_steps = false;
};

Findings FromChecker(const StepCheckReport& r) {
  Findings f;
  for (const StepViolation& v : r.violations) {
    if (v.kind == StepViolationKind::kMissing) f.missing.insert({v.source, v.node});
    if (v.kind == StepViolationKind::kNotHeld) f.not_held.insert(v.send_index);
    if (v.kind == StepViolationKind::kMissingLink || v.kind == StepViolationKind::kBadSource) {
      f.bad_sends.insert(v.send_index);
    }
    // Without --no-duplicates only reduce-scatter phases report duplicates.
    if (v.kind == StepViolationKind::kDuplicate) f.reduced_twice_sources.insert(v.source);
    if (v.kind == StepViolationKind::kStepOutOfRange) f.out_of_range.insert(v.send_index);
    if (v.kind == StepViolationKind::kBadRsSteps) f.bad_rs_steps = true;
  }
  return f;
}

void ExpectAgree(const Topology& g, const StepSchedule& s, const std::string& what) {
  StepCheckOptions o;
  o.max_errors = 1 << 20;
  StepCheckReport c = CheckStepSchedule(g, s, o);
  BruteForceResult b = SimulateStepSchedule(g, s);
  Findings f = FromChecker(c);
  EXPECT_EQ(c.ok, b.valid) << what;
  EXPECT_EQ(c.tl, b.tl) << what;
  EXPECT_EQ(c.tb, b.tb) << what;
  EXPECT_EQ(f.missing, b.missing) << what;
  EXPECT_EQ(f.not_held, b.not_held) << what;
  EXPECT_EQ(f.bad_sends, b.bad_sends) << what;
  std::set<int> twice;
  for (const auto& [v, u] : b.reduced_twice) twice.insert(v);
  EXPECT_EQ(f.reduced_twice_sources, twice) << what;
  EXPECT_EQ(f.out_of_range, b.out_of_range) << what;
  EXPECT_EQ(f.bad_rs_steps, b.bad_rs_steps) << what;
}

// The papers' schedules: both methods accept them with the same T_L and T_B.
TEST(BruteForceTest, AgreesOnPaperSchedules) {
  ExpectAgree(testing::K22(), testing::K22Figure1(), "K22 Figure 1");
  ExpectAgree(testing::Ring(5, false), testing::RingAllgather(5), "ring 5");
  ExpectAgree(testing::Ring(6, true), testing::BidirectionalRingBfb(6), "bidir ring 6 (Figure 11)");
  ExpectAgree(testing::Hypercube(3), testing::HypercubeBfb(3), "hypercube 3 BFB");
  ExpectAgree(testing::Torus(3, 2), testing::TorusDimensionByDimension(3, 2), "torus 3x2");
  StepSchedule rs = testing::Reverse(testing::K22Figure1());
  rs.collective = Collective::kReduceScatter;
  ExpectAgree(testing::K22(), rs, "K22 reduce-scatter (Thm 3)");
  EXPECT_TRUE(SimulateStepSchedule(testing::K22(), rs).valid);
}

Topology RandomTopology(std::mt19937_64& rng, int n) {
  Topology g = testing::Nodes(n);
  std::bernoulli_distribution coin(0.5);
  std::uniform_int_distribution<int> bw(1, 3);
  for (int i = 0; i < n; ++i) g.AddLink(i, (i + 1) % n, Rational(bw(rng)));  // strongly connected
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j && coin(rng) && coin(rng)) g.AddLink(i, j, Rational(bw(rng), 2));
    }
  }
  return g;
}

std::vector<Interval> RandomChunk(std::mt19937_64& rng) {
  static const Rational kPoints[] = {Rational(0),    Rational(1, 4), Rational(1, 3), Rational(1, 2),
                                     Rational(2, 3), Rational(3, 4), Rational(1)};
  std::uniform_int_distribution<int> p(0, 6), count(1, 2);
  std::vector<Interval> chunk;
  for (int k = count(rng); k > 0; --k) {
    int a = p(rng), b = p(rng);
    if (a == b) b = a == 6 ? 0 : 6;
    chunk.push_back(Interval{kPoints[std::min(a, b)], kPoints[std::max(a, b)]});
  }
  return chunk;
}

// Flooding allgather: at each step every link forwards, with some probability, what its tail
// holds (whole shards, sometimes only a random part), so many schedules are valid and many are
// a piece short; a few sends of unheld data and off-link sends are mixed in.
StepSchedule Flood(std::mt19937_64& rng, const Topology& g, const std::vector<int>& sources) {
  StepSchedule s;
  const int n = g.num_nodes();
  std::uniform_int_distribution<int> node(0, n - 1), steps(2, 4);
  std::bernoulli_distribution often(0.8), rarely(0.03);
  std::vector<std::vector<char>> held(n, std::vector<char>(n, 0));
  for (int v : sources) held[v][v] = 1;
  const int t_max = steps(rng);
  for (int t = 1; t <= t_max; ++t) {
    std::vector<std::vector<char>> next = held;
    for (int l = 0; l < g.num_links(); ++l) {
      const int from = g.link(l).from, to = g.link(l).to;
      for (int v : sources) {
        if (!(held[from][v] ? often(rng) : rarely(rng))) continue;
        bool whole = often(rng);
        s.sends.push_back(
            {v, whole ? std::vector<Interval>{Whole()} : RandomChunk(rng), from, to, t});
        if (whole && held[from][v]) next[to][v] = 1;
      }
    }
    if (rarely(rng)) s.sends.push_back({node(rng), RandomChunk(rng), node(rng), node(rng), t});
    held = std::move(next);
  }
  return s;
}

StepSchedule RandomSchedule(std::mt19937_64& rng, const Topology& g, Collective collective) {
  std::vector<int> all = g.ComputeNodes();
  StepSchedule s;
  if (collective == Collective::kAllgather) {
    s = Flood(rng, g, all);
  } else if (collective == Collective::kBroadcast) {
    s = Flood(rng, g, {0});
    s.root = 0;
  } else {
    // Reduce-scatter: the reverse of a flood on G^T (Def. 7), whose links are G's reversed.
    StepSchedule on_transpose = Flood(rng, g.Transpose(), all);
    s = testing::Reverse(on_transpose);
    if (collective == Collective::kAllreduce) {
      int rs = 0;
      for (const StepSend& e : s.sends) rs = std::max(rs, e.step);
      for (StepSend e : Flood(rng, g, all).sends) {
        e.step += rs;
        s.sends.push_back(e);
      }
      s.rs_steps = rs;
    }
  }
  s.collective = collective;
  return s;
}

TEST(BruteForceTest, AgreesOnRandomSchedules) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  int valid = 0, invalid = 0;
  for (int iter = 0; iter < 120; ++iter) {
    const int n = 3 + iter % 3;
    Topology g = RandomTopology(rng, n);
    for (Collective collective : kAllCollectives) {
      StepSchedule s = RandomSchedule(rng, g, collective);
      // Thin the schedule at random so that some instances fail.
      std::bernoulli_distribution keep(0.9);
      StepSchedule thin = s;
      thin.sends.clear();
      for (const StepSend& e : s.sends) {
        if (keep(rng)) thin.sends.push_back(e);
      }
      // A send moved outside 1..T (step 0, or T + 1 under a claimed tl), and for
      // allreduce rs_steps moved past T.
      StepSchedule outside = s;
      if (!outside.sends.empty()) {
        int last = 0;
        for (const StepSend& e : outside.sends) last = std::max(last, e.step);
        std::uniform_int_distribution<int> pick(0, static_cast<int>(outside.sends.size()) - 1);
        const int i = pick(rng);
        outside.claimed_tl = last;
        outside.sends[i].step = iter % 2 ? 0 : last + 1;
        if (outside.rs_steps && iter % 3 == 0) outside.rs_steps = last + 1;
      }
      for (const StepSchedule* x : {&s, &thin, &outside}) {
        ExpectAgree(g, *x,
                    std::string(CollectiveName(collective)) + " iter " + std::to_string(iter) +
                        " seed " + std::to_string(seed));
        (SimulateStepSchedule(g, *x).valid ? valid : invalid)++;
      }
    }
  }
  // Both outcomes must be exercised for the comparison to mean anything.
  EXPECT_GT(valid, 50);
  EXPECT_GT(invalid, 50);
}

}  // namespace
}  // namespace collsynth
