// Mutation tests: a generator corrupts valid schedules of several topologies and
// the checkers must reject every mutant for the right reason (the expected violation kind at
// the mutated send / tree / route / link). Unmutated schedules pass. Mutation sites are drawn
// from TestSeed() so a failure can be replayed with COLLSYNTH_SEED.
#include <gtest/gtest.h>

#include <climits>
#include <deque>
#include <functional>
#include <random>

#include "fixtures/schedule_fixtures.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "schedules/compact_schedule.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::Send;
using testing::Whole;

constexpr int kMutantsPerKind = 12;

struct StepCase {
  std::string name;
  Topology g;
  StepSchedule s;
  // Every send forwards data its sender first got at the previous step (BFB / ring shape), so
  // moving it one step earlier must break it; for other schedules only such sends qualify.
  std::function<bool(const StepSend&)> shift_breaks;
};

std::vector<int> Distances(const Topology& g, int source) {
  std::vector<int> d(g.num_nodes(), -1);
  std::deque<int> q{source};
  d[source] = 0;
  while (!q.empty()) {
    int u = q.front();
    q.pop_front();
    for (int e : g.OutLinks(u)) {
      int w = g.link(e).to;
      if (d[w] < 0) {
        d[w] = d[u] + 1;
        q.push_back(w);
      }
    }
  }
  return d;
}

std::vector<StepCase> StepCases() {
  std::vector<StepCase> cases;
  auto always = [](const StepSend& e) { return e.step >= 2; };
  cases.push_back({"k22_figure1", testing::K22(), testing::K22Figure1(), always});
  cases.push_back({"ring6", testing::Ring(6, false), testing::RingAllgather(6), always});
  cases.push_back(
      {"bidir_ring7_bfb", testing::Ring(7, true), testing::BidirectionalRingBfb(7), always});
  cases.push_back(
      {"bidir_ring6_bfb", testing::Ring(6, true), testing::BidirectionalRingBfb(6), always});
  cases.push_back({"hypercube3_bfb", testing::Hypercube(3), testing::HypercubeBfb(3), always});
  // Torus 3x3: only the x-phase ring sends forward what arrived one step before.
  cases.push_back({"torus3x3_dims", testing::Torus(3, 3), testing::TorusDimensionByDimension(3, 3),
                   [](const StepSend& e) { return e.step == 2; }});
  return cases;
}

bool Has(const StepCheckReport& r, StepViolationKind kind,
         const std::function<bool(const StepViolation&)>& where) {
  for (const StepViolation& v : r.violations) {
    if (v.kind == kind && where(v)) return true;
  }
  return false;
}

std::string Describe(const StepCheckReport& r) {
  std::string s = "ok=" + std::to_string(r.ok) + " violations:";
  for (std::size_t i = 0; i < r.violations.size() && i < 5; ++i)
    s += "\n  " + r.violations[i].message;
  return s;
}

StepCheckOptions Big() {
  StepCheckOptions o;
  o.max_errors = 1 << 20;
  return o;
}

TEST(StepMutationTest, UnmutatedSchedulesPass) {
  for (StepCase& c : StepCases()) {
    StepCheckReport r = CheckStepSchedule(c.g, c.s);
    EXPECT_TRUE(r.ok) << c.name << ": " << Describe(r);
  }
}

TEST(StepMutationTest, EveryMutantRejectedForTheRightReason) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  // Kinds 3-5 apply only to eligible sends: count them so that a broken eligibility test,
  // which would silently skip a kind everywhere, fails here.
  int shifted = 0, off_link = 0, impostors = 0;
  for (StepCase& c : StepCases()) {
    SCOPED_TRACE(c.name + " seed " + std::to_string(seed));
    const int n = static_cast<int>(c.s.sends.size());
    std::uniform_int_distribution<int> pick(0, n - 1);
    StepCheckReport base = CheckStepSchedule(c.g, c.s);
    for (int m = 0; m < kMutantsPerKind; ++m) {
      // 1. Drop a send: its receiver misses that chunk of that shard (no schedule here
      // delivers an element twice).
      {
        int i = pick(rng);
        StepSend dropped = c.s.sends[i];
        StepSchedule mut = c.s;
        mut.sends.erase(mut.sends.begin() + i);
        StepCheckReport r = CheckStepSchedule(c.g, mut, Big());
        EXPECT_TRUE(Has(r, StepViolationKind::kMissing,
                        [&](const StepViolation& v) {
                          return v.node == dropped.to && v.source == dropped.source;
                        }))
            << "drop " << i << ": " << Describe(r);
      }
      // 2. Shrink a chunk to the lower half of its first interval: the receiver misses the
      // upper half.
      {
        int i = pick(rng);
        StepSchedule mut = c.s;
        Interval& in = mut.sends[i].chunk[0];
        Rational mid = (in.lo + in.hi) / 2;
        Rational old_hi = in.hi;
        in.hi = mid;
        StepCheckReport r = CheckStepSchedule(c.g, mut, Big());
        EXPECT_TRUE(Has(r, StepViolationKind::kMissing,
                        [&](const StepViolation& v) {
                          return v.node == mut.sends[i].to && v.source == mut.sends[i].source &&
                                 v.interval && v.interval->lo >= mid && v.interval->hi <= old_hi;
                        }))
            << "shrink " << i << ": " << Describe(r);
      }
      // 3. Shift a send one step earlier: its sender does not hold the data yet.
      {
        std::vector<int> eligible;
        for (int i = 0; i < n; ++i) {
          if (c.shift_breaks(c.s.sends[i])) eligible.push_back(i);
        }
        if (!eligible.empty()) {
          int i = eligible[std::uniform_int_distribution<int>(0, eligible.size() - 1)(rng)];
          StepSchedule mut = c.s;
          --mut.sends[i].step;
          StepCheckReport r = CheckStepSchedule(c.g, mut, Big());
          ++shifted;
          EXPECT_TRUE(Has(r, StepViolationKind::kNotHeld,
                          [&](const StepViolation& v) { return v.send_index == i; }))
              << "shift " << i << ": " << Describe(r);
        }
      }
      // 4. A send on a missing link: redirect it to a node its sender is not linked to.
      {
        int i = pick(rng);
        StepSchedule mut = c.s;
        int from = mut.sends[i].from;
        for (int w = 0; w < c.g.num_nodes(); ++w) {
          if (w != from && !c.g.FindLink(from, w)) {
            mut.sends[i].to = w;
            break;
          }
        }
        if (mut.sends[i].to != c.s.sends[i].to) {
          StepCheckReport r = CheckStepSchedule(c.g, mut, Big());
          ++off_link;
          EXPECT_TRUE(Has(r, StepViolationKind::kMissingLink,
                          [&](const StepViolation& v) { return v.send_index == i; }))
              << "missing link " << i << ": " << Describe(r);
        }
      }
      // 5. A send from a node that does not hold the data yet: another in-neighbour of the
      // receiver that is at least `step` hops from the source (in these schedules a node gets
      // a shard no earlier than its distance from the owner).
      {
        int i = pick(rng);
        const StepSend& e = c.s.sends[i];
        std::vector<int> d = Distances(c.g, e.source);
        int impostor = -1;
        for (int l : c.g.InLinks(e.to)) {
          int u = c.g.link(l).from;
          if (u != e.from && u != e.source && d[u] >= e.step) {
            impostor = u;
            break;
          }
        }
        if (impostor >= 0) {
          StepSchedule mut = c.s;
          mut.sends[i].from = impostor;
          StepCheckReport r = CheckStepSchedule(c.g, mut, Big());
          ++impostors;
          EXPECT_TRUE(
              Has(r, StepViolationKind::kNotHeld,
                  [&](const StepViolation& v) { return v.send_index == i && v.node == impostor; }))
              << "impostor " << i << ": " << Describe(r);
        }
      }
    }
    // 6. Wrong claims.
    StepSchedule mut = c.s;
    mut.claimed_tb = base.tb + Rational(1, 7);
    EXPECT_TRUE(Has(CheckStepSchedule(c.g, mut), StepViolationKind::kWrongTb,
                    [](const StepViolation&) { return true; }));
    mut.claimed_tb = base.tb;
    mut.claimed_tl = base.tl + 1;
    EXPECT_TRUE(Has(CheckStepSchedule(c.g, mut), StepViolationKind::kWrongTl,
                    [](const StepViolation&) { return true; }));
  }
  EXPECT_GT(shifted, 0);
  EXPECT_GT(off_link, 0);
  EXPECT_GT(impostors, 0);
}

// A send moved outside the schedule's steps (step 0, T + 1 with T the claimed tl,
// a huge step under the claimed tl, a negative step) is rejected naming that send, in the
// "steps" form and in the "steps-compact" form.
TEST(StepMutationTest, SendOutsideTheStepsRejected) {
  std::mt19937_64 rng(testing::TestSeed());
  for (StepCase& c : StepCases()) {
    const StepCheckReport base = CheckStepSchedule(c.g, c.s);
    ASSERT_TRUE(base.ok) << c.name;
    std::uniform_int_distribution<int> pick(0, static_cast<int>(c.s.sends.size()) - 1);
    for (int m = 0; m < kMutantsPerKind; ++m) {
      for (int bad : {0, base.tl + 1, INT32_MAX, -1 - m}) {
        SCOPED_TRACE(c.name + " step " + std::to_string(bad));
        const int i = pick(rng);
        StepSchedule mut = c.s;
        mut.claimed_tl = base.tl;  // T
        mut.sends[i].step = bad;
        StepCheckReport r = CheckStepSchedule(c.g, mut, Big());
        EXPECT_TRUE(Has(r, StepViolationKind::kStepOutOfRange, [&](const StepViolation& v) {
          return v.send_index == i && v.step == bad;
        })) << Describe(r);
        auto compact = CompactFromSteps(mut);
        ASSERT_TRUE(compact.has_value());
        StepCheckReport rc = CheckStepSchedule(c.g, *compact, Big());
        EXPECT_TRUE(Has(rc, StepViolationKind::kStepOutOfRange, [&](const StepViolation& v) {
          return v.step == bad && v.source == mut.sends[i].source;
        })) << Describe(rc);
      }
    }
  }
}

// Reduce-scatter mutants (Thm 3: checked as the reversed allgather) keep their reasons in the
// reduce-scatter's own orientation: a dropped send loses a contribution.
TEST(StepMutationTest, ReduceScatterMutantsRejected) {
  std::mt19937_64 rng(testing::TestSeed());
  Topology g = testing::Hypercube(3);
  StepSchedule rs = testing::Reverse(testing::HypercubeBfb(3));
  rs.collective = Collective::kReduceScatter;
  ASSERT_TRUE(CheckStepSchedule(g, rs).ok);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(rs.sends.size()) - 1);
  for (int m = 0; m < kMutantsPerKind; ++m) {
    int i = pick(rng);
    StepSend dropped = rs.sends[i];
    StepSchedule mut = rs;
    mut.sends.erase(mut.sends.begin() + i);
    StepCheckReport r = CheckStepSchedule(g, mut, Big());
    // The sender's own contribution no longer reaches the owner.
    EXPECT_TRUE(Has(r, StepViolationKind::kMissing, [&](const StepViolation& v) {
      return v.node == dropped.from && v.source == dropped.source;
    })) << Describe(r);
    // Shifting a send one step later: its receiver has already forwarded the partial.
    mut = rs;
    if (mut.sends[i].step < 3 && mut.sends[i].to != mut.sends[i].source) {
      ++mut.sends[i].step;
      r = CheckStepSchedule(g, mut, Big());
      EXPECT_TRUE(Has(r, StepViolationKind::kNotHeld, [&](const StepViolation& v) {
        return v.send_index == i;
      })) << Describe(r);
    }
  }
}

// A reduce-scatter send repeated (the same partial sent twice, or to a second
// neighbour) reduces a contribution twice: rejected without --no-duplicates. The allgather
// twin (an element received twice) stays valid unless --no-duplicates is asked for.
TEST(StepMutationTest, ReduceScatterContributionReducedTwiceRejected) {
  std::mt19937_64 rng(testing::TestSeed());
  Topology g = testing::Hypercube(3);
  StepSchedule ag = testing::HypercubeBfb(3);
  StepSchedule rs = testing::Reverse(ag);
  rs.collective = Collective::kReduceScatter;
  ASSERT_TRUE(CheckStepSchedule(g, rs).ok);
  std::uniform_int_distribution<int> pick(0, static_cast<int>(rs.sends.size()) - 1);
  for (int m = 0; m < kMutantsPerKind; ++m) {
    const int i = pick(rng);
    StepSchedule mut = rs;
    mut.sends.push_back(rs.sends[i]);
    const int copy = static_cast<int>(mut.sends.size()) - 1;
    StepCheckReport r = CheckStepSchedule(g, mut, Big());
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(Has(r, StepViolationKind::kDuplicate, [&](const StepViolation& v) {
      return (v.send_index == copy || v.send_index == i) && v.source == rs.sends[i].source;
    })) << Describe(r);
    StepSchedule ag_mut = ag;
    ag_mut.sends.push_back(ag.sends[i]);
    EXPECT_TRUE(CheckStepSchedule(g, ag_mut).ok);
    StepCheckOptions no_dup = Big();
    no_dup.check_no_duplicates = true;
    EXPECT_FALSE(CheckStepSchedule(g, ag_mut, no_dup).ok);
  }
}

// ---- Pipeline mutants --------------------------------------------------------------------

struct PipelineCase {
  std::string name;
  Topology g;
  PipelineSchedule s;
};

// Bidirectional ring of 5, each root sends both ways two hops: loads 2 per link, U = 2, k = 1,
// ratio 2 = (N-1)/B; S = {0,1,2,3} gives |S ∩ V_c| / B+(S) = 4/2 (certified).
PipelineSchedule RingPipeline(const Topology& g) {
  const int n = g.num_compute();
  PipelineSchedule p;
  p.U = 2;
  p.k = 1;
  p.ratio = 2;
  auto mod = [n](int x) { return ((x % n) + n) % n; };
  for (int r = 0; r < n; ++r) {
    PipelineTree t;
    t.root = r;
    t.multiplicity = 1;
    for (int dir : {1, -1}) {
      t.edges.push_back({r, mod(r + dir), {{{r, mod(r + dir)}, 1}}});
      t.edges.push_back({mod(r + dir), mod(r + 2 * dir), {{{mod(r + dir), mod(r + 2 * dir)}, 1}}});
    }
    p.trees.push_back(t);
  }
  p.bottleneck_cut = std::vector<int>{0, 1, 2, 3};
  return p;
}

std::vector<PipelineCase> PipelineCases() {
  std::vector<PipelineCase> cases;
  cases.push_back({"two_cluster_ag", testing::TwoCluster(), testing::TwoClusterPipeline()});
  PipelineSchedule rs = testing::TwoClusterPipeline();
  rs.collective = Collective::kReduceScatter;
  cases.push_back({"two_cluster_rs", testing::TwoCluster(), rs});
  Topology ring = testing::Ring(5, true);
  cases.push_back({"bidir_ring5", ring, RingPipeline(ring)});
  return cases;
}

bool Has(const PipelineCheckReport& r, PipelineViolationKind kind,
         const std::function<bool(const PipelineViolation&)>& where) {
  for (const PipelineViolation& v : r.violations) {
    if (v.kind == kind && where(v)) return true;
  }
  return false;
}

std::string Describe(const PipelineCheckReport& r) {
  std::string s = "ok=" + std::to_string(r.ok) + " violations:";
  for (std::size_t i = 0; i < r.violations.size() && i < 5; ++i)
    s += "\n  " + r.violations[i].message;
  return s;
}

std::string TreeItem(int t) { return "trees[" + std::to_string(t) + "]"; }
std::string EdgeItem(int t, int e) { return TreeItem(t) + ".edges[" + std::to_string(e) + "]"; }

// A path from a to b over existing links with switches inside (direct, or through one switch).
std::optional<std::vector<int>> SimplePath(const Topology& g, int a, int b) {
  if (g.FindLink(a, b)) return std::vector<int>{a, b};
  for (int l : g.OutLinks(a)) {
    int s = g.link(l).to;
    if (g.IsSwitch(s) && g.FindLink(s, b)) return std::vector<int>{a, s, b};
  }
  return std::nullopt;
}

TEST(PipelineMutationTest, UnmutatedSchedulesPassCertified) {
  for (PipelineCase& c : PipelineCases()) {
    PipelineCheckReport r = CheckPipelineSchedule(c.g, c.s);
    EXPECT_TRUE(r.ok) << c.name << ": " << Describe(r);
    EXPECT_TRUE(r.certified_optimal) << c.name;
  }
}

TEST(PipelineMutationTest, EveryMutantRejectedForTheRightReason) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  for (PipelineCase& c : PipelineCases()) {
    SCOPED_TRACE(c.name + " seed " + std::to_string(seed));
    const bool reversed = c.s.collective == Collective::kReduceScatter;
    std::uniform_int_distribution<int> pick_tree(0, static_cast<int>(c.s.trees.size()) - 1);
    auto pick_edge = [&](const PipelineTree& t) {
      return std::uniform_int_distribution<int>(0, static_cast<int>(t.edges.size()) - 1)(rng);
    };
    auto check = [&](const PipelineSchedule& s) { return CheckPipelineSchedule(c.g, s, 1 << 20); };
    for (int m = 0; m < kMutantsPerKind; ++m) {
      const int ti = pick_tree(rng);
      const PipelineTree& tree = c.s.trees[ti];
      const int ei = pick_edge(tree);
      const PipelineTreeEdge& edge = tree.edges[ei];
      // A tree that misses a node: drop the edge into it.
      {
        PipelineSchedule mut = c.s;
        mut.trees[ti].edges.erase(mut.trees[ti].edges.begin() + ei);
        PipelineCheckReport r = check(mut);
        EXPECT_TRUE(Has(r, PipelineViolationKind::kMissingNode,
                        [&](const PipelineViolation& v) {
                          return v.item == TreeItem(ti) && v.node == edge.to;
                        }))
            << "drop edge " << ei << ": " << Describe(r);
      }
      // A tree with a cycle: re-hang a node that has children below one of its children.
      {
        int x = -1, y = -1, edge_into_x = -1;
        for (int j = 0; j < static_cast<int>(tree.edges.size()) && x < 0; ++j) {
          for (const PipelineTreeEdge& f : tree.edges) {
            if (f.from == tree.edges[j].to) {
              x = tree.edges[j].to;
              y = f.to;
              edge_into_x = j;
              break;
            }
          }
        }
        ASSERT_GE(x, 0) << "every tree here has depth >= 2";
        auto path = SimplePath(c.g, reversed ? x : y, reversed ? y : x);
        ASSERT_TRUE(path);
        if (reversed) std::reverse(path->begin(), path->end());
        PipelineSchedule mut = c.s;
        mut.trees[ti].edges[edge_into_x] = {y, x, {{*path, mut.trees[ti].multiplicity}}};
        PipelineCheckReport r = check(mut);
        EXPECT_TRUE(Has(r, PipelineViolationKind::kCycle, [&](const PipelineViolation& v) {
          return v.item == TreeItem(ti);
        })) << Describe(r);
      }
      // A route through a compute node: extend it past its head and back.
      {
        PipelineSchedule mut = c.s;
        std::vector<int>& path = mut.trees[ti].edges[ei].routes[0].path;
        const int head = path.back();
        for (int l : (reversed ? c.g.InLinks(head) : c.g.OutLinks(head))) {
          int w = reversed ? c.g.link(l).from : c.g.link(l).to;
          if (reversed ? c.g.FindLink(head, w).has_value() : c.g.FindLink(w, head).has_value()) {
            path.push_back(w);
            path.push_back(head);
            break;
          }
        }
        PipelineCheckReport r = check(mut);
        EXPECT_TRUE(Has(r, PipelineViolationKind::kRouteThroughCompute,
                        [&](const PipelineViolation& v) {
                          return v.item == EdgeItem(ti, ei) + ".routes[0]" && v.node == head;
                        }))
            << Describe(r);
      }
      // A route over a missing link.
      {
        PipelineSchedule mut = c.s;
        std::vector<int>& path = mut.trees[ti].edges[ei].routes[0].path;
        int z = -1;
        for (int w = 0; w < c.g.num_nodes() && z < 0; ++w) {
          bool linked = reversed ? c.g.FindLink(w, path[0]).has_value()
                                 : c.g.FindLink(path[0], w).has_value();
          if (w != path[0] && !linked) z = w;
        }
        ASSERT_GE(z, 0);
        path = {path.front(), z, path.back()};
        PipelineCheckReport r = check(mut);
        EXPECT_TRUE(Has(r, PipelineViolationKind::kMissingLink, [&](const PipelineViolation& v) {
          return v.item == EdgeItem(ti, ei) + ".routes[0]";
        })) << Describe(r);
      }
      // Route multiplicities that do not add up.
      {
        PipelineSchedule mut = c.s;
        mut.trees[ti].edges[ei].routes[0].multiplicity += 1;
        PipelineCheckReport r = check(mut);
        EXPECT_TRUE(Has(r, PipelineViolationKind::kRouteMultiplicity,
                        [&](const PipelineViolation& v) { return v.item == EdgeItem(ti, ei); }))
            << Describe(r);
      }
      // A root whose trees do not sum to k: a second copy of one tree.
      {
        PipelineSchedule mut = c.s;
        mut.trees.push_back(mut.trees[ti]);
        PipelineCheckReport r = check(mut);
        EXPECT_TRUE(Has(r, PipelineViolationKind::kRootSum, [&](const PipelineViolation& v) {
          return v.node == tree.root;
        })) << Describe(r);
      }
    }
    // A link loaded above U·b_e: U just below the heaviest load / b_e (= ratio · k).
    {
      PipelineSchedule mut = c.s;
      mut.U = c.s.ratio * Rational(c.s.k) * Rational(99, 100);
      PipelineCheckReport r = check(mut);
      EXPECT_TRUE(Has(r, PipelineViolationKind::kOverloaded, [](const PipelineViolation&) {
        return true;
      })) << Describe(r);
      EXPECT_FALSE(Has(r, PipelineViolationKind::kWrongRatio,
                       [](const PipelineViolation&) { return true; }));
    }
    // A wrong claimed ratio.
    {
      PipelineSchedule mut = c.s;
      mut.ratio += Rational(1, 3);
      PipelineCheckReport r = check(mut);
      EXPECT_TRUE(Has(r, PipelineViolationKind::kWrongRatio, [](const PipelineViolation&) {
        return true;
      })) << Describe(r);
    }
  }
}

}  // namespace
}  // namespace collsynth
