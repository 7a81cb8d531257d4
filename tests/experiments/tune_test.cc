// `tune` (experiments/tune.h, docs/tune.md): the winner is the true minimum over the candidates,
// re-simulated here independently; the lower bound LB(M) is below every candidate's time and has
// its closed form on one switch; and the CLI's rows are reproduced by `collsynth simulate` on
// the written files with the reported P.
#include "experiments/tune.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "graphs/expression.h"
#include "simulate/simulation_run.h"
#include "test_util.h"

namespace collsynth {
namespace {

Topology Star(int n) {
  Topology g("star");
  for (int i = 0; i < n; ++i) g.AddCompute("g" + std::to_string(i));
  const int s = g.AddSwitch("sw");
  for (int i = 0; i < n; ++i) g.AddDuplexLink(i, s, Rational(1));
  return g;
}

SimulationModel Model(const std::string& alpha) {
  SimulationOptions o;
  o.size = "1";
  o.alpha = alpha;
  return ParseSimulationOptions(o);
}

const char* kSweep = "1,2,4,8";

// Every candidate re-simulated at every P of the sweep, here: the least time is the winner's,
// and no time is below LB(M).
void ExpectTrueMinimumAboveTheBound(const Topology& g, Collective c, const std::string& alpha) {
  const TuneCandidates cands = BuildTuneCandidates(g, c, "test");
  ASSERT_GE(cands.list.size(), 2u);
  ASSERT_TRUE(cands.bandwidth_bound.has_value());
  for (const char* size : {"1KB", "1MB", "64MB"}) {
    SCOPED_TRACE(size);
    SimulationModel m = Model(alpha);
    const Rational bytes = ParseQuantity("--sizes", size, SizeUnits(), "B", false);
    const TuneRow row = TuneSize(g, cands, m, c, kSweep, bytes);
    Rational least = -1;
    for (const TuneCandidate& cand : cands.list) {
      SimulationModel mm = m;
      mm.size = bytes;
      Rational t;
      if (cand.steps) {
        t = SimulateStepSchedule(*cand.steps, g, mm).result.completion;
      } else {
        for (std::int64_t p : {1, 2, 4, 8}) {
          mm.chunks = p;
          const Rational tp = SimulatePipelineSchedule(*cand.pipeline, g, mm, "").result.completion;
          if (p == 1 || tp < t) t = tp;
        }
      }
      EXPECT_GE(t, row.lower_bound) << cand.algorithm;
      if (least < 0 || t < least) least = t;
    }
    EXPECT_EQ(row.entries[row.best].time, least);
    EXPECT_GE(row.lower_bound, row.alpha_bound);
  }
}

TEST(Tune, WinnerIsTheTrueMinimumAndNoCandidateBeatsTheBound) {
  ExpectTrueMinimumAboveTheBound(Star(8), Collective::kAllgather, "1us");
  ExpectTrueMinimumAboveTheBound(EvaluateTopologyExpression("fattree(4)"), Collective::kAllgather,
                                 "500ns");
  ExpectTrueMinimumAboveTheBound(EvaluateTopologyExpression("torus(3,3)"),
                                 Collective::kReduceScatter, "1us");
  ExpectTrueMinimumAboveTheBound(Star(4), Collective::kAllreduce, "1us");
}

// One switch, N nodes, links of 1 unit = 10^9 B/s, α per link: D_α = 2α, and the bandwidth term
// is ratio*·(M/N)/b with ratio* = N - 1 (bound (1)), so LB = max(2α, (N-1)/N · M / 10^9).
TEST(Tune, LowerBoundOnOneSwitchHasItsClosedForm) {
  const int n = 8;
  Topology g = Star(n);
  const TuneCandidates cands = BuildTuneCandidates(g, Collective::kAllgather, "test");
  ASSERT_TRUE(cands.bandwidth_bound.has_value());
  EXPECT_EQ(*cands.bandwidth_bound, Rational(n - 1));
  SimulationModel m = Model("1us");
  EXPECT_EQ(TuneAlphaDiameter(g, m), Rational(2, 1000000));
  for (std::int64_t bytes : {1024, 1 << 20}) {
    const TuneRow row = TuneSize(g, cands, m, Collective::kAllgather, kSweep, Rational(bytes));
    const Rational bandwidth = Rational(n - 1) * Rational(bytes, n) / Rational(1000000000);
    EXPECT_EQ(row.lower_bound, std::max(Rational(2, 1000000), bandwidth));
  }
}

// The CLI: each row's schedule file, simulated with the row's P, gives the row's time exactly.
TEST(Tune, CliRowsAreReproducedBySimulate) {
  const std::string topo = testing::TempPath("tune_ft4.json");
  ASSERT_EQ(testing::RunCli({"topo", "gen", "fattree(4)", "-o", topo}).exit_code, 0);
  const std::string dir = testing::TempPath("tune_out");
  auto r = testing::RunCli({"tune", topo, "--sizes", "1KB,1MB,256MB", "-o", dir, "--alpha", "1us",
                            "--chunks-sweep", "1,4,16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  ASSERT_EQ(report["sizes"].size(), 3u);
  for (const nlohmann::json& row : report["sizes"]) {
    const std::string file = row["schedule"];
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    auto sim = testing::RunCli({"simulate", topo, file, "--size", row["size"], "--alpha", "1us",
                                "--chunks", std::to_string(row["chunks"].get<int>()), "--json"});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    EXPECT_EQ(nlohmann::json::parse(sim.out)["completion_time"], row["time"]) << row.dump();
    EXPECT_GE(row["candidates"].size(), 3u);
  }
  // 1 KB on a fat-tree: the lowest schedule (direct, height = the diameter) wins.
  EXPECT_EQ(report["sizes"][0]["algorithm"], "direct");
  auto bad = testing::RunCli({"tune", topo, "--sizes", "1KB,zero", "-o", dir});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--sizes"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace collsynth
