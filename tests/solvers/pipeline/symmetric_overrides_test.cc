// A symmetric part plus overrides (solvers/pipeline/symmetric_overrides.h, the checker's
// proofs_check/symmetric_overrides_check.h, docs/symmetry.md "Failed links: a symmetric part
// plus overrides"): on fat-trees with seeded random failed aggregation-core links, the compact
// file's verdict and ratio equal the plain checker's on its expansion, which runs over the degraded
// topology only, and a certified ratio equals the degraded topology's exact optimum
// (Dinkelbach); the file survives its JSON round trip; the mutants the checker must reject are
// rejected with their kind; a torus (no switches) gets no overrides, with the reason.
#include "solvers/pipeline/symmetric_overrides.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "graphs/expression.h"
#include "graphs/failed_links.h"
#include "graphs/properties.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/symmetric_pipeline.h"
#include "test_util.h"

namespace collsynth {
namespace {

using K = PipelineViolationKind;

// Whether v is a switch with no compute neighbour (a fat-tree's aggregation and core switches).
bool InnerSwitch(const Topology& g, int v) {
  if (!g.IsSwitch(v)) return false;
  for (int e : g.OutLinks(v)) {
    if (g.IsCompute(g.link(e).to)) return false;
  }
  return true;
}

// `count` duplex links between inner switches (a fat-tree's aggregation-core links) drawn with
// `seed`, keeping g strongly connected. (An edge-aggregation link would raise the optimum: the
// hosts under that edge switch lose a k/2-th of their way out, docs/symmetry.md.)
std::vector<int> RandomSwitchFailures(const Topology& g, int count, unsigned seed) {
  std::vector<int> candidates;
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    if (l.from < l.to && InnerSwitch(g, l.from) && InnerSwitch(g, l.to) && g.FindLink(l.to, l.from))
      candidates.push_back(e);
  }
  std::mt19937 rng(seed);
  std::shuffle(candidates.begin(), candidates.end(), rng);
  std::vector<int> failed;
  for (int e : candidates) {
    if (count == 0) break;
    std::vector<int> next = failed;
    next.push_back(e);
    next.push_back(*g.FindLink(g.link(e).to, g.link(e).from));
    if (!CheckStronglyConnected(DegradedTopology({g, next})).strongly_connected) continue;
    failed = std::move(next);
    --count;
  }
  return failed;
}

bool Has(const PipelineCheckReport& r, K kind) {
  return std::any_of(r.violations.begin(), r.violations.end(),
                     [&](const PipelineViolation& v) { return v.kind == kind; });
}

struct Case {
  TopologyWithFailures t;
  Topology g;  // degraded
  SymmetricPipelineSchedule s;
  SymmetricOverridesResult result;
};

// Whether some route of the intact schedule's expansion crosses a failed link.
bool FailuresHitRoutes(const TopologyWithFailures& t, const SymmetricPipelineSchedule& s) {
  std::vector<char> failed(static_cast<std::size_t>(t.intact.num_links()), 0);
  for (int l : t.failed) failed[l] = 1;
  const PipelineSchedule e = ExpandSymmetricPipelineSchedule(s, t.intact);
  std::vector<PipelineSchedule> parts =
      e.phases.empty() ? std::vector<PipelineSchedule>{e} : e.phases;
  for (const PipelineSchedule& p : parts) {
    const bool rs = p.collective == Collective::kReduceScatter;
    for (const PipelineTree& tree : p.trees) {
      for (const PipelineTreeEdge& edge : tree.edges) {
        for (const PipelineRoute& r : edge.routes) {
          for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
            const auto l = rs ? t.intact.FindLink(r.path[i + 1], r.path[i])
                              : t.intact.FindLink(r.path[i], r.path[i + 1]);
            if (failed[*l]) return true;
          }
        }
      }
    }
  }
  return false;
}

// The intact schedule, `failures` random aggregation-core failures (from `seed`, the next
// seeds when `need_broken` and no route crosses them: a fat-tree's schedule may leave a core
// unused) and the overrides. The producer's count of broken edges is checked against the
// expansion of the intact schedule.
Case Build(const std::string& expr, int failures, unsigned seed,
           Collective c = Collective::kAllgather, bool need_broken = false) {
  Case out;
  out.t.intact = EvaluateTopologyExpression(expr);
  SymmetricPipelineResult built = BuildSymmetricPipelineSchedule(out.t.intact, c);
  EXPECT_TRUE(built.schedule.has_value()) << expr << ": " << built.why;
  if (!built.schedule) return out;
  for (unsigned next = seed; next < seed + 20; ++next) {
    out.t.failed = RandomSwitchFailures(out.t.intact, failures, next);
    if (!need_broken || FailuresHitRoutes(out.t, *built.schedule)) break;
  }
  out.g = DegradedTopology(out.t);
  const bool hit = FailuresHitRoutes(out.t, *built.schedule);
  out.result = AddFailureOverrides(out.t, out.g, *built.schedule);
  if (out.result.schedule) out.s = *out.result.schedule;
  EXPECT_EQ(out.result.stats.edges_broken > 0, hit) << expr;
  return out;
}

// The compact check, the plain check of the expansion (on the degraded topology), and the
// optimum of the degraded topology agree.
void ExpectAgrees(const Case& c, const std::string& what) {
  ASSERT_TRUE(c.result.schedule.has_value()) << what << ": " << c.result.why;
  const PipelineCheckReport compact = CheckSymmetricPipelineSchedule(c.g, c.s);
  ASSERT_TRUE(compact.ok) << what << ": " << compact.errors[0];
  const PipelineSchedule expanded = ExpandSymmetricPipelineSchedule(c.s, c.g);
  const PipelineCheckReport plain = CheckPipelineSchedule(c.g, expanded);
  ASSERT_TRUE(plain.ok) << what << ": " << plain.errors[0];
  EXPECT_EQ(compact.ratio, plain.ratio) << what;
  EXPECT_EQ(compact.verdict, plain.verdict) << what;
  EXPECT_EQ(compact.height_hops, plain.height_hops) << what;
  EXPECT_EQ(c.s.ratio, plain.ratio) << what;
  if (c.s.collective == Collective::kAllreduce) return;
  const AllgatherOptimum opt =
      ComputeAllgatherOptimum(c.s.collective == Collective::kReduceScatter ? c.g.Transpose() : c.g);
  EXPECT_GE(plain.ratio, opt.ratio) << what;  // no schedule beats the optimum
  EXPECT_EQ(c.result.certified, plain.verdict == PipelineVerdict::kOptimalCertified) << what;
  if (c.result.certified) {
    EXPECT_EQ(plain.ratio, opt.ratio) << what;
  }
}

TEST(SymmetricOverridesTest, FatTreesWithRandomSwitchFailuresAgreeWithThePlainChecker) {
  const std::uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("COLLSYNTH_SEED=" + std::to_string(seed));
  for (int failures : {1, 2, 3}) {
    Case c = Build("fattree(6)", failures, static_cast<unsigned>(seed + failures));
    ExpectAgrees(c, "fattree(6), " + std::to_string(failures) + " failed");
    ASSERT_TRUE(c.s.overrides.has_value());
    EXPECT_EQ(c.s.overrides->failed_links.size(), c.t.failed.size());
  }
  Case c8 = Build("fattree(8)", 5, static_cast<unsigned>(seed));
  ExpectAgrees(c8, "fattree(8), 5 failed");
}

TEST(SymmetricOverridesTest, ReduceScatterAndAllreduceAgreeWithThePlainChecker) {
  const std::uint64_t seed = testing::TestSeed();
  SCOPED_TRACE("COLLSYNTH_SEED=" + std::to_string(seed));
  ExpectAgrees(Build("fattree(6)", 2, static_cast<unsigned>(seed), Collective::kReduceScatter),
               "reduce-scatter");
  ExpectAgrees(Build("fattree(6)", 2, static_cast<unsigned>(seed), Collective::kAllreduce),
               "allreduce");
}

TEST(SymmetricOverridesTest, JsonRoundTripKeepsTheOverrides) {
  Case c = Build("fattree(6)", 2, 7, Collective::kAllgather, true);
  ASSERT_TRUE(c.result.schedule.has_value());
  const std::string text = SymmetricPipelineScheduleToJsonText(c.s, c.g);
  const SymmetricPipelineSchedule back =
      SymmetricPipelineScheduleFromJson(nlohmann::json::parse(text), c.g, "t.json");
  EXPECT_EQ(SymmetricPipelineScheduleToJsonText(back, c.g), text);
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(c.g, back);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.ratio, c.s.ratio);
}

// A replaced root whose explicit trees are its expanded ones (overrides applied) is the same
// schedule: accepted with the same ratio and height.
TEST(SymmetricOverridesTest, ReplacedRootWithItsOwnTreesIsAccepted) {
  Case c = Build("fattree(6)", 1, 3, Collective::kAllgather, true);
  ASSERT_TRUE(c.result.schedule.has_value());
  ASSERT_FALSE(c.s.overrides->routes.empty());
  const int root = c.s.overrides->routes[0].root;
  const PipelineSchedule expanded = ExpandSymmetricPipelineSchedule(c.s, c.g);
  SymmetricPipelineSchedule m = c.s;
  SymmetricRootReplacement rep{root, {}};
  for (const PipelineTree& t : expanded.trees) {
    if (t.root == root) rep.trees.push_back(t);
  }
  auto& routes = m.overrides->routes;
  routes.erase(std::remove_if(routes.begin(), routes.end(),
                              [&](const SymmetricRouteOverride& o) { return o.root == root; }),
               routes.end());
  m.overrides->replaced_roots.push_back(rep);
  const PipelineCheckReport r = CheckSymmetricPipelineSchedule(c.g, m);
  ASSERT_TRUE(r.ok) << r.errors[0];
  EXPECT_EQ(r.ratio, c.s.ratio);
  // Replaced twice, or replaced and rerouted.
  SymmetricPipelineSchedule twice = m;
  twice.overrides->replaced_roots.push_back(rep);
  EXPECT_TRUE(Has(CheckSymmetricPipelineSchedule(c.g, twice), K::kBadOverride));
  SymmetricPipelineSchedule both = m;
  both.overrides->routes.push_back(c.s.overrides->routes[0]);
  EXPECT_TRUE(Has(CheckSymmetricPipelineSchedule(c.g, both), K::kBadOverride));
  // A replaced root whose trees do not sum to k.
  SymmetricPipelineSchedule short_k = m;
  short_k.overrides->replaced_roots.back().trees.back().multiplicity += 1;
  EXPECT_TRUE(Has(CheckSymmetricPipelineSchedule(c.g, short_k, 1000), K::kRootSum));
}

class SymmetricOverridesMutantTest : public ::testing::Test {
 protected:
  void SetUp() override {
    c_ = Build("fattree(6)", 2, 11, Collective::kAllgather, true);
    ASSERT_TRUE(c_.result.schedule.has_value()) << c_.result.why;
    ASSERT_GE(c_.s.overrides->routes.size(), 2u);
    ASSERT_TRUE(CheckSymmetricPipelineSchedule(c_.g, c_.s).ok);
  }
  PipelineCheckReport Check(const SymmetricPipelineSchedule& s) const {
    return CheckSymmetricPipelineSchedule(c_.g, s, 100);
  }
  Case c_;
};

TEST_F(SymmetricOverridesMutantTest, RouteThroughAFailedLinkLeftUnOverridden) {
  SymmetricPipelineSchedule m = c_.s;
  m.overrides->routes.erase(m.overrides->routes.begin());
  const PipelineCheckReport r = Check(m);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r, K::kFailedLinkUsed));
}

TEST_F(SymmetricOverridesMutantTest, DuplicateOverride) {
  SymmetricPipelineSchedule m = c_.s;
  m.overrides->routes.push_back(m.overrides->routes.front());
  EXPECT_TRUE(Has(Check(m), K::kBadOverride));
}

// The override moved to another root: the edge is in g_s'(T), not in g_s(T) (a wrong group
// element for the override).
TEST_F(SymmetricOverridesMutantTest, OverrideUnderTheWrongGroupElement) {
  SymmetricPipelineSchedule m = c_.s;
  SymmetricRouteOverride& o = m.overrides->routes.front();
  for (const SymmetricRoot& r : m.roots) {
    if (r.node != o.root && r.node != o.from) {
      o.root = r.node;
      break;
    }
  }
  const PipelineCheckReport r = Check(m);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r, K::kBadOverride));
}

TEST_F(SymmetricOverridesMutantTest, WrongExponentsOfARoot) {
  SymmetricPipelineSchedule m = c_.s;
  for (SymmetricRoot& r : m.roots) {
    if (r.exponents[0] == 0 && r.node != m.representatives[0].root) {
      r.exponents[0] = 1;
      break;
    }
  }
  EXPECT_TRUE(Has(Check(m), K::kRootList));
}

TEST_F(SymmetricOverridesMutantTest, MissingRoot) {
  SymmetricPipelineSchedule m = c_.s;
  m.roots.pop_back();
  EXPECT_TRUE(Has(Check(m), K::kRootList));
}

TEST_F(SymmetricOverridesMutantTest, NewRouteThroughAFailedLink) {
  SymmetricPipelineSchedule m = c_.s;
  // Restore the old route (g_s of the representative's) of one override: it crosses F.
  const SymmetricRouteOverride& o = c_.s.overrides->routes.front();
  const PipelineSchedule intact = ExpandSymmetricPipelineSchedule(
      [&] {
        SymmetricPipelineSchedule plain = c_.s;
        plain.overrides.reset();
        return plain;
      }(),
      c_.g);
  for (const PipelineTree& t : intact.trees) {
    if (t.root != o.root) continue;
    for (const PipelineTreeEdge& e : t.edges) {
      if (e.from == o.from && e.to == o.to) m.overrides->routes.front().routes = e.routes;
    }
    break;  // tree 0 of the root (fat-trees get one tree per root)
  }
  const PipelineCheckReport r = Check(m);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r, K::kMissingLink));
}

// An override whose route is a walk that goes back and forth between its edge and aggregation
// switch 30 times (a walk may repeat links; each pass loads them): the edge -> aggregation link
// gets 30 more than it had, above U·b_e = 53.
TEST_F(SymmetricOverridesMutantTest, ExplicitRouteThatOverloadsALink) {
  SymmetricPipelineSchedule m = c_.s;
  std::vector<int>& path = m.overrides->routes.front().routes.front().path;
  ASSERT_GE(path.size(), 4u);
  std::vector<int> walk = {path[0], path[1]};
  for (int i = 0; i < 30; ++i) {
    walk.push_back(path[2]);
    walk.push_back(path[1]);
  }
  walk.insert(walk.end(), path.begin() + 2, path.end());
  path = walk;
  const PipelineCheckReport r = Check(m);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(Has(r, K::kOverloaded)) << (r.errors.empty() ? "" : r.errors[0]);
  // The same schedule expanded: the plain checker finds the overload too.
  const PipelineCheckReport plain =
      CheckPipelineSchedule(c_.g, ExpandSymmetricPipelineSchedule(m, c_.g));
  EXPECT_FALSE(plain.ok);
  EXPECT_EQ(r.ratio, plain.ratio);
}

TEST_F(SymmetricOverridesMutantTest, FailedLinkThatIsALinkOfTheTopology) {
  SymmetricPipelineSchedule m = c_.s;
  const Link& l = c_.g.link(0);
  m.overrides->failed_links.push_back({l.from, l.to, l.bandwidth, l.multiplicity});
  EXPECT_TRUE(Has(Check(m), K::kBadOverride));
}

TEST_F(SymmetricOverridesMutantTest, ClaimedRatioMustBeTheChangedSchedules) {
  SymmetricPipelineSchedule m = c_.s;
  m.ratio += Rational(1, 7);
  EXPECT_TRUE(Has(Check(m), K::kWrongRatio));
}

// No switches: nothing can be rerouted (whole-root replacements are not made by the producer).
TEST(SymmetricOverridesTest, TorusGetsNoOverridesAndSaysWhy) {
  TopologyWithFailures t;
  t.intact = EvaluateTopologyExpression("torus(3,3)");
  t.failed = {0};
  const Topology g = DegradedTopology(t);
  SymmetricPipelineResult built = BuildSymmetricPipelineSchedule(t.intact, Collective::kAllgather);
  ASSERT_TRUE(built.schedule.has_value());
  const SymmetricOverridesResult r = AddFailureOverrides(t, g, *built.schedule);
  EXPECT_FALSE(r.schedule.has_value());
  EXPECT_NE(r.why.find("no path through switches"), std::string::npos) << r.why;
}

}  // namespace
}  // namespace collsynth
