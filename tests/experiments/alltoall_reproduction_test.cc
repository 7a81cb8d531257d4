// The "alltoall-reproduction" experiment kind (experiments/alltoall_reproduction.cc): seed 002
// (TopoOpt) §5.4-5.5's α and Figures 14-15, Basu, Zhao et al.'s genkautz bound and the simulated
// naive-vs-optimal gap. The expected values are closed forms (the bidirectional ring: λ* = 8/N²,
// average distance N/4·N/(N-1)) or computed here by a breadth-first search of our own, not read
// off the kind.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <queue>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "core/rational.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"
#include "graphs/expression.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;
using ::collsynth::testing::RunExperimentKind;

std::vector<ExperimentRow> RunKind(const nlohmann::json& params) {
  return RunExperimentKind("alltoall-reproduction", params);
}

const ExperimentRow* Find(const std::vector<ExperimentRow>& rows, const std::string& instance,
                          const std::string& algorithm, const std::string& part) {
  for (const ExperimentRow& r : rows) {
    if (r.instance == instance && r.algorithm == algorithm && Extra(r, "part") == part) return &r;
  }
  return nullptr;
}

// Average hop distance over ordered pairs of a direct-connect topology, by BFS from each node.
Rational AverageDistance(const Topology& g) {
  std::int64_t sum = 0, pairs = 0;
  for (int s = 0; s < g.num_nodes(); ++s) {
    std::vector<int> dist(g.num_nodes(), -1);
    std::queue<int> q;
    dist[s] = 0;
    q.push(s);
    while (!q.empty()) {
      const int u = q.front();
      q.pop();
      for (int e : g.OutLinks(u)) {
        const int v = g.link(e).to;
        if (dist[v] < 0) {
          dist[v] = dist[u] + 1;
          q.push(v);
        }
      }
    }
    for (int t = 0; t < g.num_nodes(); ++t) {
      if (t != s) sum += dist[t], ++pairs;
    }
  }
  return Rational(sum) / pairs;
}

TEST(AlltoallReproductionExperiment, RingClosedFormsAndTheClaimHolds) {
  const auto rows = RunKind({{"routing", {{{"topology", "torus(8)"}}}}, {"baselines", {"ecmp"}}});
  // Bidirectional ring of 8: λ* = 8/N² = 1/8, T* = 8; distances 1,1,2,2,3,3,4: L̄ = 16/7;
  // α = T*·(16 links)/(56 pairs) = 16/7 = L̄.
  const ExperimentRow* opt = Find(rows, "torus(8)", "optimal", "routing");
  ASSERT_NE(opt, nullptr);
  EXPECT_EQ(opt->verified, Verified::kYes);
  EXPECT_EQ(*opt->tb, Rational(8));
  EXPECT_EQ(*opt->lower_bound, Rational(8));
  EXPECT_EQ(Extra(*opt, "alpha"), "16/7");
  EXPECT_EQ(Extra(*opt, "avg_shortest_path"), "16/7");
  EXPECT_EQ(Extra(*opt, "claim_holds"), "yes");
  EXPECT_EQ(Extra(*opt, "saturates_all"), "yes");
  EXPECT_EQ(Extra(*opt, "load_spread"), "0");
  // ECMP on the ring: every link carries 56·(16/7)/16 = 8; the flow-weighted path CDF is the
  // distance distribution 2/7, 4/7, 6/7, 1 (the antipode's two paths both have 4 hops).
  const ExperimentRow* ecmp = Find(rows, "torus(8)", "ecmp", "routing");
  ASSERT_NE(ecmp, nullptr);
  EXPECT_EQ(Extra(*ecmp, "min_load"), "8");
  EXPECT_EQ(Extra(*ecmp, "max_load"), "8");
  EXPECT_EQ(Extra(*ecmp, "claim_holds"), "n/a");
  std::vector<std::string> cdf;
  for (const ExperimentRow& r : rows) {
    if (r.algorithm == "ecmp" && Extra(r, "part") == "path_cdf") {
      cdf.push_back(Extra(r, "value") + ":" + Extra(r, "cdf"));
    }
  }
  EXPECT_EQ(cdf, (std::vector<std::string>{"1:2/7", "2:4/7", "3:6/7", "4:1"}));
}

TEST(AlltoallReproductionExperiment, SelectPermsCounterexampleToAlphaEqualsPathLength) {
  const std::string expr = "selectperms(32,4)";
  const auto rows =
      RunKind({{"routing", {{{"topology", expr}}}}, {"baselines", {"ecmp", "topoopt-forwarding"}}});
  const Topology g = EvaluateTopologyExpression(expr);
  const Rational shortest = AverageDistance(g);
  const ExperimentRow* opt = Find(rows, expr, "optimal", "routing");
  ASSERT_NE(opt, nullptr);
  EXPECT_EQ(Extra(*opt, "avg_shortest_path"), ToString(shortest));
  // α = T*·Σc/Σd with 128 unit links and 32·31 pairs.
  const Rational alpha = *opt->tb * 128 / (32 * 31);
  EXPECT_EQ(Extra(*opt, "alpha"), ToString(alpha));
  EXPECT_GT(alpha, shortest);  // the certified optimum cannot reach L̄
  EXPECT_EQ(Extra(*opt, "claim_holds"), "no");
  EXPECT_EQ(Extra(*opt, "shortest_paths_only"), "no");
  // The naive routings use shortest paths only (tax = L̄) and are no faster than T*.
  for (const char* naive : {"ecmp", "topoopt-forwarding"}) {
    const ExperimentRow* r = Find(rows, expr, naive, "routing");
    ASSERT_NE(r, nullptr) << naive;
    EXPECT_EQ(Extra(*r, "bandwidth_tax"), ToString(shortest)) << naive;
    EXPECT_GE(*r->tb, *opt->tb) << naive;
  }
  // Each CDF ends at 1; the load CDF's weights count the 128 links.
  std::map<std::string, std::string> last;
  Rational links = 0;
  for (const ExperimentRow& r : rows) {
    const std::string part = Extra(r, "part");
    if (part == "path_cdf" || part == "load_cdf") last[r.algorithm + part] = Extra(r, "cdf");
    if (part == "load_cdf" && r.algorithm == "optimal") links += ParseRational(Extra(r, "weight"));
  }
  for (const auto& [key, value] : last) EXPECT_EQ(value, "1") << key;
  EXPECT_EQ(links, Rational(1));
}

// An ecmp routing too large to list is measured from its exact loads: on a topology small
// enough to list, forcing that path (ecmp_max_paths = 1) gives the same cells as the checked
// schedule, verified n/a instead of yes.
TEST(AlltoallReproductionExperiment, EcmpLoadsWithoutASchedulesMatchTheCheckedSchedule) {
  for (const bool relay : {true, false}) {
    const std::string expr = relay ? "selectperms(16,4)" : "fattree(4)";
    const nlohmann::json topo = {{{"topology", expr}, {"relay", relay}}};
    const auto listed = RunKind({{"routing", topo}, {"baselines", {"ecmp"}}});
    const auto loads = RunKind({{"routing", topo}, {"baselines", {"ecmp"}}, {"ecmp_max_paths", 1}});
    std::vector<const ExperimentRow*> a, b;
    for (const ExperimentRow& r : listed) {
      if (r.algorithm == "ecmp") a.push_back(&r);
    }
    for (const ExperimentRow& r : loads) {
      if (r.algorithm == "ecmp") b.push_back(&r);
    }
    ASSERT_EQ(a.size(), b.size()) << expr;
    ASSERT_GT(a.size(), 2u) << expr;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i]->verified, Verified::kYes);
      EXPECT_EQ(b[i]->verified, Verified::kNotApplicable);
      EXPECT_EQ(a[i]->tb, b[i]->tb) << expr << " row " << i;
      for (const auto& [name, value] : a[i]->extra) {
        if (name != "note") {
          EXPECT_EQ(Extra(*b[i], name), value) << expr << " " << name;
        }
      }
    }
    EXPECT_NE(Extra(*b[0], "note"), "");
  }
}

TEST(AlltoallReproductionExperiment, GenKautzFractionOfTheDistanceBound) {
  const auto rows = RunKind({{"genkautz", {{{"d", 2}, {"n", {12}}}}}});
  ASSERT_EQ(rows.size(), 1u);
  const ExperimentRow& r = rows[0];
  const Rational shortest = AverageDistance(EvaluateTopologyExpression("genkautz(2,12)"));
  const Rational bound = Rational(11) * shortest / 2;
  EXPECT_EQ(Extra(r, "bound"), ToString(bound));
  EXPECT_EQ(Extra(r, "fraction"), ToString(bound / *r.tb));
  EXPECT_LE(bound, *r.tb);  // a lower bound on the certified T*
  EXPECT_EQ(Extra(r, "lambda"), ToString(1 / *r.tb));
}

TEST(AlltoallReproductionExperiment, SimulatedTimesRespectTheFlowBound) {
  const auto rows = RunKind({{"time",
                              {{"topologies", {{{"topology", "fattree(4)"}, {"relay", false}}}},
                               {"baselines", {"direct"}},
                               {"sizes", {1 << 20}},
                               {"alpha", "0"},
                               {"chunks", 1}}}});
  ASSERT_EQ(rows.size(), 2u);
  for (const ExperimentRow& r : rows) {
    // Without latency the time is at least T·(M/N)/b: M/N = 2^16 bytes, b = 10^9 bytes/s.
    const Rational floor_us = *r.tb * (1 << 16) / 1000;
    EXPECT_GE(ParseRational(Extra(r, "time_us")), floor_us) << r.algorithm;
  }
  const ExperimentRow* opt = Find(rows, "fattree(4)", "optimal", "time");
  const ExperimentRow* direct = Find(rows, "fattree(4)", "direct", "time");
  ASSERT_NE(opt, nullptr);
  ASSERT_NE(direct, nullptr);
  EXPECT_EQ(*opt->tb, Rational(15));  // k = 4 fat-tree: N - 1 = 15 blocks through each host link
  EXPECT_EQ(Extra(*opt, "gap"), "1");
  EXPECT_GT(ParseRational(Extra(*direct, "gap")), Rational(1));
}

TEST(AlltoallReproductionExperiment, BadParametersAreInputErrors) {
  const ExperimentKindFn* kind = FindExperimentKind("alltoall-reproduction");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = {{"baselines", {"spray"}}};
  EXPECT_THROW((*kind)(in), InputError);
  in.params = {{"time", {{"alpha", "-1"}}}};
  EXPECT_THROW((*kind)(in), InputError);
  in.params = {{"routing", {{{"topology", "nosuch(3)"}}}}};
  EXPECT_THROW((*kind)(in), InputError);
}

}  // namespace
}  // namespace collsynth::experiments
