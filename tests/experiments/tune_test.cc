// `tune` (experiments/tune.h, docs/tune.md): the winner is the true minimum over the candidates,
// re-simulated here independently; the lower bound LB(M) is below every candidate's time and has
// its closed form on one switch; each candidate's height is the checker's; NCCL's schemes are
// candidates on GPU boxes; `--export`'s byte ranges are disjoint and covering, its files replay
// and its index agrees with the report; and the CLI's rows are reproduced by `collsynth
// simulate` on the written files with the reported P.
#include "experiments/tune.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/input_error.h"
#include "graphs/expression.h"
#include "proofs_check/nccl_tuner_table.h"
#include "proofs_check/pipeline_checker.h"
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

// On GPU boxes NCCL's schemes are candidates (hierarchical, the double binary tree, the
// rail-aware ring, which the id order cannot route on gpuboxes), each checked; a single switch
// has no boxes, and hierarchical is skipped with the reason.
TEST(Tune, GpuBoxesHaveNcclsSchemesAsCandidates) {
  const Topology g = EvaluateTopologyExpression("gpuboxes(2,2,300,25,2)");
  const TuneCandidates cands = BuildTuneCandidates(g, Collective::kAllgather, "test");
  for (const char* name : {"hierarchical", "routed-double-binary-tree", "routed-ring"}) {
    SCOPED_TRACE(name);
    const auto it = std::find_if(cands.list.begin(), cands.list.end(),
                                 [&](const TuneCandidate& c) { return c.algorithm == name; });
    ASSERT_NE(it, cands.list.end());
    ASSERT_TRUE(it->pipeline.has_value());
    EXPECT_TRUE(CheckPipelineSchedule(g, *it->pipeline).ok);
  }
  ExpectTrueMinimumAboveTheBound(g, Collective::kAllgather, "1us");
  const TuneCandidates star = BuildTuneCandidates(Star(4), Collective::kAllgather, "test");
  const auto skipped = std::find_if(star.skipped.begin(), star.skipped.end(),
                                    [](const auto& s) { return s.first == "hierarchical"; });
  ASSERT_NE(skipped, star.skipped.end());
  EXPECT_NE(skipped->second.find("needs GPU boxes"), std::string::npos) << skipped->second;
}

// The double binary tree on gpuboxes(6, 8, ..., 8): 2G = 16 trees per root, each of N - 1 = 47
// edges of 2 links: 48·16·47·2 = 72192 transfers per chunk, past 2^16 and 16 times direct's
// 48·47·2, so tune lists it under skipped; the others stay candidates.
TEST(Tune, HeavyRoutedBaselineIsSkippedWithItsWork) {
  const Topology g = EvaluateTopologyExpression("gpuboxes(6,8,300,25,8)");
  const TuneCandidates cands = BuildTuneCandidates(g, Collective::kAllgather, "test");
  const auto skipped = std::find_if(cands.skipped.begin(), cands.skipped.end(), [](const auto& s) {
    return s.first == "routed-double-binary-tree";
  });
  ASSERT_NE(skipped, cands.skipped.end());
  EXPECT_NE(skipped->second.find(std::to_string(48 * 16 * 47 * 2) + " transfers"),
            std::string::npos)
      << skipped->second;
  for (const char* name : {"direct", "hierarchical", "routed-ring"}) {
    EXPECT_TRUE(std::any_of(cands.list.begin(), cands.list.end(), [&](const TuneCandidate& c) {
      return c.algorithm == name;
    })) << name;
  }
}

// One switch, N nodes, links of 1 unit = 10^9 B/s, α per link: D_α = 2α, the bandwidth term
// is ratio*·(M/N)/b with ratio* = N - 1 (bound (1)), and the α-β term 2α + (N-1)·(M/N)/b (the
// N - 1 shards a node receives all come from distance 2α through its one in-link), so
// LB = 2α + (N-1)/N · M / 10^9.
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
    EXPECT_EQ(row.alpha_beta_bound, Rational(2, 1000000) + bandwidth);
    EXPECT_EQ(row.lower_bound, Rational(2, 1000000) + bandwidth);
    // Reduce-scatter: v's N - 1 contributions leave through its one out-link, then travel 2α.
    const TuneRow rs = TuneSize(g, cands, m, Collective::kReduceScatter, kSweep, Rational(bytes));
    EXPECT_EQ(rs.alpha_beta_bound, Rational(2, 1000000) + bandwidth);
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

// Each candidate's height in the report is the checker's: height_hops equals a fresh check of
// the written winner, and with one latency α on every link height_alpha = α · height_hops
// (the α-height is the hop height weighted by the links' latencies); step schedules have none.
TEST(Tune, CandidatesReportTheCheckersHeight) {
  Topology g = EvaluateTopologyExpression("fattree(4)");
  TuneCandidates cands = BuildTuneCandidates(g, Collective::kAllgather, "test");
  const SimulationModel m = Model("500ns");
  MeasureTuneAlphaHeights(g, m, cands);
  int pipelines = 0;
  for (const TuneCandidate& c : cands.list) {
    SCOPED_TRACE(c.algorithm);
    ASSERT_EQ(c.pipeline.has_value(), c.height_hops.has_value());
    if (!c.pipeline) continue;
    if (!c.symmetric) {
      EXPECT_EQ(*c.height_hops, CheckPipelineSchedule(g, *c.pipeline).height_hops);
    }
    EXPECT_EQ(*c.height_alpha, Rational(*c.height_hops, 2000000));
    ++pipelines;
  }
  EXPECT_GE(pipelines, 2);
  const std::string topo = testing::TempPath("tune_heights_ft4.json");
  ASSERT_EQ(testing::RunCli({"topo", "gen", "fattree(4)", "-o", topo}).exit_code, 0);
  const std::string dir = testing::TempPath("tune_heights");
  auto r = testing::RunCli({"tune", topo, "--sizes", "1KB", "-o", dir, "--alpha", "1us",
                            "--chunks-sweep", "1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json row = nlohmann::json::parse(r.out)["sizes"][0];
  for (const nlohmann::json& c : row["candidates"]) {
    if (c["height_hops"].is_null()) continue;
    EXPECT_EQ(ParseRational(c["height_alpha"].get<std::string>()),
              Rational(c["height_hops"].get<std::int64_t>(), 1000000))
        << c.dump();
  }
  auto v = testing::RunCli({"verify", topo, row["schedule"], "--json"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(row["height_hops"], nlohmann::json::parse(v.out)["height_hops"]);
}

// The byte ranges of an exported set: adjacent sizes with the same winner merge; the ranges
// are disjoint and cover [0, ∞) (checked here byte by byte at the boundaries); each tuned size
// lies in its range; a boundary is the geometric mean of its neighbours (1 KB and 16 KB:
// 4096); unsorted or fractional sizes are refused.
TEST(Tune, ByteRangesAreDisjointCoveringAndKeepEachSize) {
  const std::vector<Rational> bytes = {Rational(1024), Rational(2048), Rational(16384),
                                       Rational(1000000), Rational(1 << 30)};
  const std::vector<std::string> winners = {"direct", "direct", "pipeline", "pipeline", "direct"};
  const std::vector<TuneByteRange> ranges = TuneByteRanges(bytes, winners);
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].min_bytes, 0);
  EXPECT_EQ(*ranges[0].max_bytes, 5792);  // floor(sqrt(2048 · 16384)) = floor(5792.6...)
  EXPECT_EQ(ranges[1].min_bytes, 5793);
  EXPECT_EQ(*ranges[1].max_bytes, 32768000);  // sqrt(10^6 · 2^30) = 32768000 exactly
  EXPECT_FALSE(ranges[2].max_bytes.has_value());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    for (std::size_t k = ranges[i].first; k <= ranges[i].last; ++k) {
      EXPECT_GE(bytes[k], ranges[i].min_bytes);
      if (ranges[i].max_bytes) {
        EXPECT_LE(bytes[k], *ranges[i].max_bytes);
      }
      EXPECT_EQ(winners[k], winners[ranges[i].first]);
    }
    if (i > 0) {
      EXPECT_EQ(ranges[i].first, ranges[i - 1].last + 1);
      EXPECT_EQ(ranges[i].min_bytes, *ranges[i - 1].max_bytes + 1);
      EXPECT_NE(winners[ranges[i].first], winners[ranges[i - 1].last]);
    }
  }
  EXPECT_EQ(TuneByteRanges({Rational(1024), Rational(16384)}, {"a", "b"})[0].max_bytes, 4096);
  EXPECT_THROW(TuneByteRanges({Rational(2048), Rational(1024)}, {"a", "b"}), InputError);
  EXPECT_THROW(TuneByteRanges({Rational(3, 2)}, {"a"}), InputError);
}

// The index check that guards every written index accepts a well-formed one and rejects each
// mutant: a gap, an overlap, a first range not from 0, an unbounded range before the last, a
// bounded last range, a tuned size outside its range, a size that is not a number.
TEST(Tune, ExportIndexCheckRejectsGapsOverlapsAndStraySizes) {
  const nlohmann::json good = nlohmann::json::parse(R"({"ranges": [
      {"min_bytes": 0, "max_bytes": 4096, "bytes": ["1024"]},
      {"min_bytes": 4097, "max_bytes": 32768000, "bytes": ["16384", "1000000"]},
      {"min_bytes": 32768001, "max_bytes": null, "bytes": ["1073741824"]}]})");
  EXPECT_EQ(CheckTuneExportIndex(good), "");
  auto mutant = [&](const std::string& pointer, const nlohmann::json& value) {
    nlohmann::json j = good;
    j[nlohmann::json::json_pointer(pointer)] = value;
    return CheckTuneExportIndex(j);
  };
  EXPECT_NE(mutant("/ranges/1/min_bytes", 4098), "");       // a gap
  EXPECT_NE(mutant("/ranges/1/min_bytes", 4096), "");       // an overlap
  EXPECT_NE(mutant("/ranges/0/min_bytes", 1), "");          // 0 .. 0 not covered
  EXPECT_NE(mutant("/ranges/1/max_bytes", nullptr), "");    // unbounded in the middle
  EXPECT_NE(mutant("/ranges/2/max_bytes", 1LL << 40), "");  // the last is bounded
  EXPECT_NE(mutant("/ranges/1/bytes/1", "40000000"), "");   // above its range
  EXPECT_NE(mutant("/ranges/2/bytes/0", "4096"), "");       // below its range
  EXPECT_NE(mutant("/ranges/0/bytes/0", "1KB"), "");        // not a number
  EXPECT_NE(mutant("/ranges/0/max_bytes", 100), "");        // 1024 no longer inside
  EXPECT_NE(CheckTuneExportIndex(nlohmann::json::parse(R"({"ranges": []})")), "");
}

// `tune --export`: one replay-checked file per range, and an index that agrees with tune's
// JSON. Each file is replayed again here with `collsynth replay` and its byte range read from
// the file itself; the index's ranges are disjoint and covering, every tuned size is in the
// range of its winner, whose schedule is the row's.
void ExpectExportAgreesWithTune(const std::string& target) {
  SCOPED_TRACE(target);
  const std::string topo = testing::TempPath("tune_export_ft4.json");
  ASSERT_EQ(testing::RunCli({"topo", "gen", "fattree(4)", "-o", topo}).exit_code, 0);
  const std::string dir = testing::TempPath("tune_export_" + target);
  std::filesystem::remove_all(dir);
  auto r = testing::RunCli({"tune", topo, "--sizes", "1KB,16KB,1MB,256MB", "-o", dir, "--alpha",
                            "1us", "--chunks-sweep", "1,4,16", "--export", target, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  const nlohmann::json index =
      nlohmann::json::parse(testing::ReadWholeFile(dir + "/" + target + "-index.json"));
  EXPECT_EQ(report["export"]["ranges"], index["ranges"]);
  const nlohmann::json& ranges = index["ranges"];
  ASSERT_EQ(ranges.size(), report["ranges"].size());
  std::int64_t next = 0;
  std::size_t row = 0;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const nlohmann::json& x = ranges[i];
    EXPECT_EQ(x["min_bytes"].get<std::int64_t>(), next);
    EXPECT_EQ(x["max_bytes"].is_null(), i + 1 == ranges.size());
    EXPECT_EQ(x["algorithm"], report["ranges"][i]["algorithm"]);
    for (const nlohmann::json& b : x["bytes"]) {
      const nlohmann::json& size = report["sizes"][row++];
      EXPECT_EQ(size["bytes"], b);
      EXPECT_EQ(size["algorithm"], x["algorithm"]);
      EXPECT_EQ(size["schedule"], x["schedule"]);
      const std::int64_t v = std::stoll(b.get<std::string>());
      EXPECT_GE(v, x["min_bytes"].get<std::int64_t>());
      if (!x["max_bytes"].is_null()) {
        EXPECT_LE(v, x["max_bytes"].get<std::int64_t>());
      }
    }
    if (!x["max_bytes"].is_null()) next = x["max_bytes"].get<std::int64_t>() + 1;
    const std::string file = x["file"];
    auto replay = testing::RunCli({"replay", file, "--json"});
    EXPECT_EQ(replay.exit_code, 0) << file << ": " << replay.out << replay.err;
    const std::string text = testing::ReadWholeFile(file);
    const std::string max = x["max_bytes"].is_null() ? "0" : x["max_bytes"].dump();
    if (target == "msccl") {
      EXPECT_NE(text.find("minBytes=\"" + x["min_bytes"].dump() + "\" maxBytes=\"" + max + "\""),
                std::string::npos)
          << file;
    } else {
      const nlohmann::json plan = nlohmann::json::parse(text);
      EXPECT_EQ(plan["min_message_size"], x["min_bytes"]);
      if (!x["max_bytes"].is_null()) {
        EXPECT_EQ(plan["max_message_size"], x["max_bytes"]);
      }
    }
  }
  EXPECT_EQ(row, report["sizes"].size());
  // Sizes out of order cannot form ranges: exit 2 naming --sizes, nothing exported.
  auto bad =
      testing::RunCli({"tune", topo, "--sizes", "1MB,1KB", "-o", dir + "-bad", "--export", target});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--sizes"), std::string::npos) << bad.err;
}

TEST(Tune, ExportMscclWritesOneReplayedFilePerRangeAndAnAgreeingIndex) {
  ExpectExportAgreesWithTune("msccl");
}

TEST(Tune, ExportMscclppWritesOneReplayedFilePerRangeAndAnAgreeingIndex) {
  ExpectExportAgreesWithTune("mscclpp");
}

// `tune --export nccl-tuner`: the CSV, parsed as NCCL's example plugin parses it, selects at
// every tuned size the fastest candidate NCCL runs, re-derived here from the row's candidates
// (routed-ring as ring, routed-double-binary-tree as tree for allreduce only); the index agrees
// with tune's JSON and each NCCL winner's schedule was written and checked.
void ExpectNcclTableAgreesWithTune(const std::string& collective) {
  SCOPED_TRACE(collective);
  const std::string topo = testing::TempPath("tune_nccl_ft4.json");
  ASSERT_EQ(testing::RunCli({"topo", "gen", "fattree(4)", "-o", topo}).exit_code, 0);
  const std::string dir = testing::TempPath("tune_nccl_" + collective);
  std::filesystem::remove_all(dir);
  auto r = testing::RunCli({"tune", topo, "--sizes", "1KB,64KB,16MB", "-o", dir, "--alpha", "1us",
                            "--collective", collective, "--chunks-sweep", "1,4", "--export",
                            "nccl-tuner", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  const nlohmann::json index =
      nlohmann::json::parse(testing::ReadWholeFile(dir + "/nccl-tuner-index.json"));
  EXPECT_EQ(report["export"]["ranges"], index["ranges"]);
  EXPECT_EQ(CheckTuneExportIndex(index), "");
  const NcclTunerTable table =
      ParseNcclTunerTable(testing::ReadWholeFile(dir + "/nccl_tuner.conf"));
  ASSERT_TRUE(table.problems.empty()) << table.problems.front();
  const std::string nccl_coll = collective == "reduce-scatter" ? "reducescatter" : collective;
  int lines = 0;
  for (const nlohmann::json& row : report["sizes"]) {
    SCOPED_TRACE(row["size"].get<std::string>());
    std::string want, want_nccl;
    Rational least = -1;
    for (const nlohmann::json& c : row["candidates"]) {
      const std::string a = c["algorithm"];
      std::string name;
      if (a == "routed-ring") name = "ring";
      if (a == "routed-double-binary-tree" && collective == "allreduce") name = "tree";
      if (name.empty()) continue;
      const Rational t = ParseRational(c["time"].get<std::string>());
      if (least < 0 || t < least) {
        least = t;
        want = a;
        want_nccl = name;
      }
    }
    ASSERT_FALSE(want.empty());  // ring applies on a fat-tree
    EXPECT_EQ(row["nccl"]["algorithm"], want);
    EXPECT_EQ(row["nccl"]["nccl_algorithm"], want_nccl);
    EXPECT_EQ(ParseRational(row["nccl"]["time"].get<std::string>()), least);
    EXPECT_GE(least, ParseRational(row["time"].get<std::string>()));
    const std::uint64_t bytes = std::stoull(row["bytes"].get<std::string>());
    const NcclTunerConfig* c = NcclTunerLookup(table, nccl_coll, bytes, 16, 4);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->algorithm, want_nccl);
    EXPECT_EQ(c->protocol, "simple");
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + want + ".json"));
  }
  for (const nlohmann::json& x : index["ranges"]) lines += x["nccl_algorithm"].is_null() ? 0 : 1;
  EXPECT_EQ(static_cast<std::size_t>(lines), table.configs.size());
  // The whole byte range is covered: the plugin finds a line at 0 and at 2^64 - 1.
  EXPECT_NE(NcclTunerLookup(table, nccl_coll, 0, 16, 1), nullptr);
  EXPECT_NE(NcclTunerLookup(table, nccl_coll, kNcclTunerNoUpperBound, 16, 1), nullptr);
}

TEST(Tune, ExportNcclTunerTableSelectsTheFastestNcclAlgorithmAtEverySize) {
  ExpectNcclTableAgreesWithTune("allreduce");
  ExpectNcclTableAgreesWithTune("allgather");
}

}  // namespace
}  // namespace collsynth
