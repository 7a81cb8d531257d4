// Symmetric pipeline schedules (docs/symmetry.md): on every symmetric family at small size the
// symmetric build reaches the exact optimum ratio* of the plain build, and its expansion passes
// the plain checker with the same ratio and verdict.
#include "solvers/pipeline/symmetric_pipeline.h"

#include <gtest/gtest.h>

#include "fixtures/schedule_fixtures.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

using ::collsynth::testing::ExpandSymmetricForTest;

void ExpectSymmetricOptimal(const std::string& expr, Collective c = Collective::kAllgather) {
  SCOPED_TRACE(expr);
  Topology g = EvaluateTopologyExpression(expr);
  SymmetricPipelineResult sym = BuildSymmetricPipelineSchedule(g, c);
  ASSERT_TRUE(sym.schedule.has_value()) << sym.why;
  PipelineOptions o;
  o.collective = c;
  PipelineBuildResult plain = BuildPipelineSchedule(g, o);
  EXPECT_EQ(sym.optimal_ratio, plain.optimal_ratio);
  EXPECT_EQ(sym.schedule->ratio, plain.schedule.ratio);
  // The symmetric checker (no expansion) and the plain checker on the expansion agree.
  PipelineCheckReport srep = CheckSymmetricPipelineSchedule(g, *sym.schedule);
  EXPECT_TRUE(srep.ok) << (srep.errors.empty() ? "" : srep.errors[0]);
  EXPECT_EQ(srep.ratio, plain.schedule.ratio);
  EXPECT_EQ(srep.verdict, PipelineVerdict::kOptimalCertified);
  PipelineCheckReport rep =
      CheckPipelineSchedule(g, ExpandSymmetricForTest(*sym.schedule, g.num_nodes()));
  EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
  EXPECT_EQ(rep.ratio, plain.schedule.ratio);
  EXPECT_EQ(rep.verdict, PipelineVerdict::kOptimalCertified);
  // Height (docs/formats.md "Height"): measured on the representatives it is the expansion's,
  // the producers' claim is what the checkers measure, and every schedule is at least as tall
  // as the bound. (The symmetric path is not yet never taller than the plain one: on 5 of the
  // families below it is 1 to 4 links taller, docs/performance.md "Height".)
  EXPECT_EQ(srep.height_hops, rep.height_hops);
  EXPECT_EQ(srep.height_lower_bound_hops, rep.height_lower_bound_hops);
  EXPECT_EQ(SymmetricPipelineScheduleHeightHops(*sym.schedule), srep.height_hops);
  PipelineCheckReport prep = CheckPipelineSchedule(g, plain.schedule);
  EXPECT_EQ(PipelineScheduleHeightHops(plain.schedule), prep.height_hops);
  EXPECT_EQ(prep.height_lower_bound_hops, rep.height_lower_bound_hops);
  EXPECT_GE(srep.height_hops, srep.height_lower_bound_hops);
  EXPECT_GE(prep.height_hops, prep.height_lower_bound_hops);
}

TEST(SymmetricPipeline, TorusHypercubeCirculantReachTheOptimum) {
  for (const char* e :
       {"torus(3,3)", "torus(4,4)", "torus(2,3,4)", "hypercube(3)", "hamming(2,3)",
        "dcirculant(7,1,2)", "circulant(8,1,3)", "complete(5)", "twistedtorus(3,4,1)",
        "bipartite(3)", "uniring(2,5)", "biring(2,5)", "shiftedring(6)", "totientperms(9)",
        "kautz(2,3)", "debruijn(2,3)", "dragonfly(3,1,1)"}) {
    ExpectSymmetricOptimal(e);
  }
}

TEST(SymmetricPipeline, SwitchTopologiesReachTheOptimum) {
  for (const char* e :
       {"fattree(4)", "fattree(6)", "gpuboxes(4,4,300,25,2)", "gpuboxes(3,8,300,25,8)",
        "twocluster(3,2,10,5)", "dgx1(2)", "gpuboxes(3,6,300,25,4)"}) {
    ExpectSymmetricOptimal(e);
  }
}

// Allreduce: RS + AG, each symmetric; the same ratio and verdict as the plain allreduce, whose
// certificates ((6) without switches, (7) by single-node cuts) the symmetric one reproduces from
// one cut per orbit.
TEST(SymmetricPipeline, AllreduceMatchesThePlainAllreduce) {
  for (const char* expr : {"torus(3,4)", "hypercube(3)", "fattree(4)", "gpuboxes(3,4,300,25,2)",
                           "twocluster(3,2,10,5)"}) {
    SCOPED_TRACE(expr);
    Topology g = EvaluateTopologyExpression(expr);
    SymmetricPipelineResult sym = BuildSymmetricPipelineSchedule(g, Collective::kAllreduce);
    ASSERT_TRUE(sym.schedule.has_value()) << sym.why;
    PipelineOptions o;
    o.collective = Collective::kAllreduce;
    PipelineBuildResult plain = BuildPipelineSchedule(g, o);
    PipelineCheckReport prep = CheckPipelineSchedule(g, plain.schedule);
    PipelineCheckReport srep = CheckSymmetricPipelineSchedule(g, *sym.schedule);
    EXPECT_TRUE(srep.ok) << (srep.errors.empty() ? "" : srep.errors[0]);
    EXPECT_EQ(sym.schedule->ratio, plain.schedule.ratio);
    EXPECT_EQ(srep.ratio, prep.ratio);
    EXPECT_EQ(srep.verdict, prep.verdict);
    EXPECT_EQ(srep.certified_by, prep.certified_by);
    EXPECT_EQ(srep.cut_ratio, prep.cut_ratio);
  }
}

TEST(SymmetricPipeline, ReduceScatterReachesTheOptimum) {
  ExpectSymmetricOptimal("torus(3,4)", Collective::kReduceScatter);
  ExpectSymmetricOptimal("fattree(4)", Collective::kReduceScatter);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// Executors split each shard into k pieces: the integer search over the trees found keeps k as
// small as the plain path's (Proposition 3's least k) where the balancing trees exist.
TEST(SymmetricPipeline, SmallKOnToriAndHypercubes) {
  for (const char* expr : {"torus(4,4)", "torus(6,6)", "hypercube(4)"}) {
    SCOPED_TRACE(expr);
    Topology g = EvaluateTopologyExpression(expr);
    SymmetricPipelineResult sym = BuildSymmetricPipelineSchedule(g, Collective::kAllgather);
    ASSERT_TRUE(sym.schedule.has_value()) << sym.why;
    PipelineOptions o;
    PipelineBuildResult plain = BuildPipelineSchedule(g, o);
    EXPECT_EQ(sym.schedule->k, plain.schedule.k);
  }
  // 3-D: the six direction orbits balance with six trees of equal weight (k = 6; the plain
  // path's k is 3), instead of the LP vertex's large denominators.
  Topology t3 = EvaluateTopologyExpression("torus(3,3,3)");
  SymmetricPipelineResult sym = BuildSymmetricPipelineSchedule(t3, Collective::kAllgather);
  ASSERT_TRUE(sym.schedule.has_value()) << sym.why;
  EXPECT_EQ(sym.schedule->k, 6);
}

TEST(SymmetricPipeline, GroupKeepsTheGeneratorsThatActRegularly) {
  std::string why;
  // circulant: rotation kept (order 8), the reflection i -> -i fixes node 0 and is dropped.
  Topology c = EvaluateTopologyExpression("circulant(8,1,3)");
  std::optional<RegularGroup> h = ChooseRegularGroup(c, &why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->generators.size(), 1u);
  EXPECT_EQ(h->orders, std::vector<std::int64_t>({8}));
  EXPECT_EQ(h->representatives, std::vector<int>({0}));
  // Two link orbits: the +1 and +3 chords, in both directions (4 orbits of 8 links).
  EXPECT_EQ(h->link_orbit_size.size(), 4u);
  // fattree(4): pods x edge switches x hosts, Z_4 x Z_2 x Z_2 (order 16 = hosts).
  Topology f = EvaluateTopologyExpression("fattree(4)");
  h = ChooseRegularGroup(f, &why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->order, 16);
  EXPECT_EQ(h->generators.size(), 3u);
  // dgx1(2): two compute orbits per the table in docs/topologies.md.
  h = ChooseRegularGroup(EvaluateTopologyExpression("dgx1(2)"), &why);
  ASSERT_TRUE(h.has_value()) << why;
  EXPECT_EQ(h->representatives.size(), 2u);
  EXPECT_EQ(h->order, 8);
}

TEST(SymmetricPipeline, NoRegularGroupFallsBackWithAReason) {
  Topology f = EvaluateTopologyExpression("fattree(4)");
  // Keep only generators that fix every host (aggregation index, core rotation).
  std::vector<std::vector<int>> fixing;
  for (const std::vector<int>& p : f.automorphisms()) {
    bool fixes_hosts = true;
    for (int v : f.ComputeNodes()) fixes_hosts = fixes_hosts && p[v] == v;
    if (fixes_hosts) fixing.push_back(p);
  }
  ASSERT_FALSE(fixing.empty());
  f.set_automorphisms(fixing);
  SymmetricPipelineResult r = BuildSymmetricPipelineSchedule(f, Collective::kAllgather);
  EXPECT_FALSE(r.schedule.has_value());
  EXPECT_EQ(r.why,
            "no declared automorphisms generate a group acting regularly on the compute nodes");
  Topology plain = EvaluateTopologyExpression("torus(3,3)");
  plain.set_automorphisms({});
  r = BuildSymmetricPipelineSchedule(plain, Collective::kAllgather);
  EXPECT_EQ(r.why, "the topology declares no automorphisms");
}

TEST(SymmetricPipeline, AWrongAutomorphismIsRejected) {
  Topology g = EvaluateTopologyExpression("torus(3,3)");
  std::vector<int> swap01(g.num_nodes());
  for (int v = 0; v < g.num_nodes(); ++v) swap01[v] = v;
  std::swap(swap01[0], swap01[1]);  // not an automorphism of the 3x3 torus
  g.set_automorphisms({g.automorphisms()[0], swap01});
  std::string why;
  EXPECT_THROW(ChooseRegularGroup(g, &why), std::invalid_argument);
}

}  // namespace
}  // namespace collsynth
