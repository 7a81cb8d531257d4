// Case 2 of docs/symmetry.md ("Case 2: groups that do not act regularly"): the symmetric
// pipeline built on the whole declared group (SymmetricPipelineOptions::whole_group). Its ratio,
// verdict and certificate equal the plain path's; its expansion (written here from the format's
// definition, and by ExpandSymmetricPipelineSchedule, the `schedule expand` path) passes the
// plain checker; its representatives are the whole group's orbits; and the case-2 checker
// rejects the mutants named in docs/symmetry.md.
#include <gtest/gtest.h>

#include <set>

#include "fixtures/schedule_fixtures.h"
#include "graphs/expression.h"
#include "graphs/perm_group_schreier_sims.h"
#include "graphs/symmetry.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth {
namespace {

using ::collsynth::testing::ExpandSymmetricForTest;
using K = PipelineViolationKind;

SymmetricPipelineResult BuildWhole(const Topology& g, Collective c = Collective::kAllgather) {
  SymmetricPipelineOptions o;
  o.whole_group = true;
  return BuildSymmetricPipelineSchedule(g, c, o);
}

// dragonfly(3,1,1) with the automorphisms the search finds added to the declared ones (the
// declared generators leave the router pairs r, a-1-r apart: two terminal orbits).
Topology DragonflyWithFoundAutomorphisms() {
  Topology g = EvaluateTopologyExpression("dragonfly(3,1,1)");
  g.set_automorphisms(FindAutomorphisms(g, g.automorphisms()).generators);
  return g;
}

void ExpectMatchesPlain(const Topology& g, const std::string& name,
                        Collective c = Collective::kAllgather) {
  SCOPED_TRACE(name + " " + CollectiveName(c));
  SymmetricPipelineResult sym = BuildWhole(g, c);
  ASSERT_TRUE(sym.schedule.has_value()) << sym.why;
  const SymmetricPipelineSchedule& phase =
      sym.schedule->phases.empty() ? *sym.schedule : sym.schedule->phases.back();
  EXPECT_TRUE(phase.stabiliser_invariant);
  // One representative per orbit of the whole declared group.
  std::size_t orbits = 0;
  for (const std::vector<int>& o : ComputeOrbits(g, g.automorphisms())) {
    orbits += g.IsCompute(o.front());
  }
  EXPECT_EQ(phase.representatives.size(), orbits);
  PipelineOptions o;
  o.collective = c;
  PipelineBuildResult plain = BuildPipelineSchedule(g, o);
  PipelineCheckReport prep = CheckPipelineSchedule(g, plain.schedule);
  EXPECT_EQ(sym.optimal_ratio, plain.optimal_ratio);
  EXPECT_EQ(sym.schedule->ratio, plain.schedule.ratio);
  PipelineCheckReport srep = CheckSymmetricPipelineSchedule(g, *sym.schedule);
  ASSERT_TRUE(srep.ok) << (srep.errors.empty() ? "" : srep.errors[0]);
  EXPECT_EQ(srep.ratio, prep.ratio);
  EXPECT_EQ(srep.verdict, prep.verdict);
  EXPECT_EQ(srep.verdict, PipelineVerdict::kOptimalCertified);
  EXPECT_EQ(srep.certified_by, prep.certified_by);
  EXPECT_EQ(srep.cut_ratio, prep.cut_ratio);
  for (const PipelineSchedule& expanded : {ExpandSymmetricForTest(*sym.schedule, g.num_nodes()),
                                           ExpandSymmetricPipelineSchedule(*sym.schedule, g)}) {
    PipelineCheckReport rep = CheckPipelineSchedule(g, expanded);
    EXPECT_TRUE(rep.ok) << (rep.errors.empty() ? "" : rep.errors[0]);
    EXPECT_EQ(rep.ratio, prep.ratio);
    EXPECT_EQ(rep.verdict, prep.verdict);
    EXPECT_EQ(rep.certified_by, prep.certified_by);
    EXPECT_EQ(rep.height_hops, srep.height_hops);
  }
}

TEST(SymmetricWholeGroup, MatchesThePlainPath) {
  ExpectMatchesPlain(DragonflyWithFoundAutomorphisms(), "dragonfly(3,1,1) + found");
  // torus(3,3) and gpuboxes(3,4,300,25,2): groups acting regularly (the shortcut, no
  // Schreier-Sims); the others do not.
  for (const char* e : {"dragonfly(3,1,1)", "biring(2,5)", "circulant(8,1,3)", "kautz(2,2)",
                        "fattree(4)", "complete(5)", "torus(3,3)", "gpuboxes(3,4,300,25,2)"}) {
    ExpectMatchesPlain(EvaluateTopologyExpression(e), e);
  }
}

TEST(SymmetricWholeGroup, ReduceScatterAndAllreduceMatchThePlainPath) {
  const Topology g = EvaluateTopologyExpression("fattree(4)");
  ExpectMatchesPlain(g, "fattree(4)", Collective::kReduceScatter);
  ExpectMatchesPlain(g, "fattree(4)", Collective::kAllreduce);
}

// The whole group's orbits, not the regular subgroup's: dragonfly(3,1,1) has one terminal
// orbit under the automorphisms the search finds; case 1 keeps a regular subgroup with more.
TEST(SymmetricWholeGroup, DragonflyHasOneTerminalOrbit) {
  const Topology g = DragonflyWithFoundAutomorphisms();
  SymmetricPipelineResult whole = BuildWhole(g);
  ASSERT_TRUE(whole.schedule.has_value()) << whole.why;
  EXPECT_EQ(whole.schedule->representatives.size(), 1u);
  SymmetricPipelineResult regular = BuildSymmetricPipelineSchedule(g, Collective::kAllgather);
  ASSERT_TRUE(regular.schedule.has_value()) << regular.why;
  EXPECT_GT(regular.schedule->representatives.size(), 1u);
  // |Γ| from the producer equals an independent Schreier-Sims order; |Γr| · |Γ_r| = |Γ|.
  std::vector<std::vector<int>> gens = whole.schedule->generators;
  SchreierSimsGroup group(g.num_nodes(), gens);
  ASSERT_TRUE(group.complete());
  EXPECT_EQ(BigInt(whole.group_order), group.Order());
}

// A schedule whose representatives have a nontrivial stabiliser, for the mutants.
struct Built {
  Topology g;
  SymmetricPipelineSchedule s;
};

Built BuildForMutants(const std::string& expr) {
  Built b{EvaluateTopologyExpression(expr), {}};
  SymmetricPipelineResult r = BuildWhole(b.g);
  if (!r.schedule) throw std::runtime_error(r.why);
  b.s = *r.schedule;
  return b;
}

bool HasKind(const PipelineCheckReport& r, K kind) {
  for (const PipelineViolation& v : r.violations) {
    if (v.kind == kind) return true;
  }
  return false;
}

TEST(SymmetricWholeGroup, TheUnmutatedScheduleIsAccepted) {
  Built b = BuildForMutants("biring(2,5)");
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(b.g, b.s);
  EXPECT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0]);
  ASSERT_TRUE(r.symmetric.has_value());
  EXPECT_TRUE(r.symmetric->stabiliser_invariant);
  // The reflection fixing the representative is a nontrivial element of Γ_r.
  EXPECT_GE(r.symmetric->stabiliser_generators.value_or(0), 1);
}

TEST(SymmetricWholeGroup, AWrongWordIsRejected) {
  Built b = BuildForMutants("biring(2,5)");
  for (SymmetricRoot& root : b.s.roots) {
    if (root.node == b.s.representatives[root.representative].root) continue;
    root.word.clear();  // the identity: maps the representative to itself, not to the root
    break;
  }
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(b.g, b.s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasKind(r, K::kRootList));
}

// biring(2,5): the symmetrised set is one orbit of two trees under the reflection fixing the
// root (a path one way round and its mirror image). fattree(4): four trees under the
// aggregation and core rotations fixing a host; its generators commute but do not act
// regularly, so the checker's regular-action shortcut must not apply. Replacing the second
// tree by a copy of the first (same multiplicity) keeps every link orbit's load but not the
// invariance.
TEST(SymmetricWholeGroup, ATreeSetThatIsNotStabiliserInvariantIsRejected) {
  for (const char* e : {"biring(2,5)", "fattree(4)"}) {
    SCOPED_TRACE(e);
    Built b = BuildForMutants(e);
    SymmetricRepresentative& rep = b.s.representatives.at(0);
    ASSERT_GE(rep.trees.size(), 2u);
    ASSERT_EQ(rep.trees.at(0).multiplicity, rep.trees.at(1).multiplicity);
    rep.trees.at(1) = rep.trees.at(0);
    PipelineCheckReport r = CheckSymmetricPipelineSchedule(b.g, b.s);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(HasKind(r, K::kNotInvariant)) << (r.errors.empty() ? "" : r.errors[0]);
  }
}

TEST(SymmetricWholeGroup, AGeneratorThatIsNotAnAutomorphismIsRejected) {
  Built b = BuildForMutants("biring(2,5)");
  std::vector<int>& p = b.s.generators.back();
  std::swap(p[0], p[1]);  // still a permutation
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(b.g, b.s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasKind(r, K::kNotAutomorphism));
}

// Two representatives (the declared dragonfly group has two terminal orbits); dropping one
// and pointing its roots at the other leaves an orbit without a representative.
TEST(SymmetricWholeGroup, AMissingOrbitRepresentativeIsRejected) {
  Built b = BuildForMutants("dragonfly(3,1,1)");
  ASSERT_EQ(b.s.representatives.size(), 2u);
  b.s.representatives.pop_back();
  for (SymmetricRoot& root : b.s.roots) root.representative = 0;
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(b.g, b.s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasKind(r, K::kRootList));
  bool named = false;
  for (const std::string& e : r.errors) {
    named = named || e.find("no representative") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

TEST(SymmetricWholeGroup, AnOverloadedLinkOrbitIsRejected) {
  Built b = BuildForMutants("biring(2,5)");
  b.s.U = b.s.U * Rational(9, 10);  // every orbit's capacity U·b_O·|O| shrinks below its load
  b.s.ratio = b.s.ratio * Rational(9, 10);
  PipelineCheckReport r = CheckSymmetricPipelineSchedule(b.g, b.s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(HasKind(r, K::kOverloaded));
}

}  // namespace
}  // namespace collsynth
