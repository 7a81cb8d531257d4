// The generator families (DGX-1, an A100-style GPU box pair, two-cluster,
// a torus, a hypercube, fat-tree k=4) × every collective × every profile: the optimal
// pipeline schedule (built in process) is exported by the CLI binary, whose written file the
// replay checker accepted (exit 0, and again by `collsynth replay`), and the load accounting
// holds: the bytes per physical link in the side file equal the schedule's own loads (from
// its routes, independent of the exporter) whenever the chunks are exact, and the side
// file's worst link per phase sums to the achieved ratio the exporter reports.
// The same for MSCCL++ plans (SweepFamilyMscclpp): the families (and a
// one-way ring) × {allgather, reduce-scatter, allreduce} × {out-of-place, in-place with 2
// pieces} exported by `export mscclpp`, whose written plan the independent plan replay
// accepted, within the executor's limits, with the same load accounting.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "core/json_io.h"
#include "core/rational.h"
#include "graphs/expression.h"
#include "graphs/topology_io.h"
#include "schedules/pipeline_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

using json = nlohmann::json;
// (phase, from name, to name) -> load in shards.
using LinkLoads = std::map<std::tuple<int, std::string, std::string>, Rational>;

// The schedule's loads from its routes: every route carries multiplicity/k shards over each
// link of its path (reversed for reduce-scatter, whose data flows child -> parent).
void AddScheduleLoads(const Topology& g, const PipelineSchedule& s, int phase, LinkLoads* out) {
  for (const PipelineTree& t : s.trees) {
    for (const PipelineTreeEdge& e : t.edges) {
      for (const PipelineRoute& r : e.routes) {
        const Rational share = Rational(r.multiplicity) / Rational(s.k);
        for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
          int a = r.path[i], b = r.path[i + 1];
          if (s.collective == Collective::kReduceScatter) std::swap(a, b);
          (*out)[{phase, g.node(a).name, g.node(b).name}] += share;
        }
      }
    }
  }
}

LinkLoads ScheduleLoads(const Topology& g, const PipelineSchedule& s) {
  LinkLoads loads;
  if (s.phases.empty()) {
    AddScheduleLoads(g, s, 0, &loads);
  } else {
    for (std::size_t p = 0; p < s.phases.size(); ++p) {
      AddScheduleLoads(g, s.phases[p], static_cast<int>(p), &loads);
    }
  }
  return loads;
}

void SweepFamily(const std::string& expr, const std::string& tag) {
  const Topology g = EvaluateTopologyExpression(expr);
  const std::string topo = TempPath("family-" + tag + ".json");
  WriteTopologyFile(g, topo);
  int root = -1;
  for (int v = 0; v < g.num_nodes() && root < 0; ++v) {
    if (g.IsCompute(v)) root = v;  // rank 0 (ranks follow the topology's compute order)
  }
  for (Collective coll : {Collective::kAllgather, Collective::kReduceScatter,
                          Collective::kAllreduce, Collective::kBroadcast}) {
    const std::string cname = CollectiveName(coll);
    PipelineOptions opt;
    opt.collective = coll;
    if (coll == Collective::kBroadcast) opt.root = root;
    const PipelineBuildResult built = BuildPipelineSchedule(g, opt);
    const std::string sched = TempPath("family-" + tag + "-" + cname + ".json");
    WriteTextFile(sched, PipelineScheduleToJsonText(built.schedule, g));
    const LinkLoads expected = ScheduleLoads(g, built.schedule);
    for (const std::string profile : {"executor", "rccl", "legacy"}) {
      SCOPED_TRACE(expr + " " + cname + " " + profile);
      const std::string out = TempPath("family-" + tag + "-" + cname + "-" + profile + ".xml");
      std::vector<std::string> args = {
          "export", "msccl",           topo,    sched, "-o", out, "--profile",
          profile,  "--root-specific", "--json"};
      // The legacy runtime sizes its scratch buffer from maxBytes (docs/export.md).
      if (profile == "legacy") args.insert(args.end(), {"--max-bytes", "134217728"});
      CliResult r = RunCli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const json j = json::parse(r.out);
      EXPECT_EQ(j["ngpus"], g.num_compute());
      EXPECT_EQ(j["collective"], cname);
      const Rational optimal = ParseRational(j["optimal_ratio"].get<std::string>());
      const Rational achieved = ParseRational(j["achieved_ratio"].get<std::string>());
      EXPECT_EQ(optimal, built.optimal_ratio);
      const json routes = json::parse(ReadTextFile(j["routes_file"].get<std::string>()));
      LinkLoads side;
      std::map<int, Rational> worst;  // per phase
      for (const json& l : routes["link_loads"]) {
        const int phase = l["phase"].get<int>();
        const Rational load = ParseRational(l["load"].get<std::string>());
        side[{phase, l["from"].get<std::string>(), l["to"].get<std::string>()}] += load;
        const Rational& w = worst[phase];
        const Rational ratio = load / ParseRational(l["bandwidth"].get<std::string>());
        if (ratio > w) worst[phase] = ratio;
      }
      Rational sum = 0;
      for (const auto& [phase, w] : worst) sum += w;
      EXPECT_EQ(sum, achieved);
      if (j["exact_chunks"].get<bool>()) {
        EXPECT_FALSE(expected.empty());
        EXPECT_EQ(side, expected);
        EXPECT_EQ(achieved, optimal);
      } else {
        EXPECT_GT(achieved, optimal);
      }
      // The independent replay of the written file, and its bytes per GPU pair equal the side
      // file's transfers.
      CliResult replay = RunCli({"replay", out, "--profile", profile, "--json"});
      ASSERT_EQ(replay.exit_code, 0) << replay.out << replay.err;
      std::map<std::pair<int, int>, std::int64_t> sent, replayed;
      for (const json& t : routes["transfers"]) {
        sent[{t[0].get<int>(), t[1].get<int>()}] += t[4].get<std::int64_t>();
      }
      const json report = json::parse(replay.out);
      EXPECT_EQ(report["ok"], true);
      for (const json& b : report["bytes_per_pair"]) {
        replayed[{b["src"].get<int>(), b["dst"].get<int>()}] = b["chunks"].get<std::int64_t>();
      }
      EXPECT_EQ(sent, replayed);
    }
  }
}

TEST(ExportFamilySweep, Dgx1) { SweepFamily("dgx1(1)", "dgx1"); }
TEST(ExportFamilySweep, GpuBoxes) { SweepFamily("gpuboxes(2,4,300,25,2)", "gpuboxes"); }
TEST(ExportFamilySweep, TwoCluster) { SweepFamily("twocluster(2,4,10,1)", "twocluster"); }
TEST(ExportFamilySweep, Torus) { SweepFamily("torus(3,3)", "torus"); }
TEST(ExportFamilySweep, Hypercube) { SweepFamily("hypercube(3)", "hypercube"); }
TEST(ExportFamilySweep, FatTree4) { SweepFamily("fattree(4)", "fattree4"); }
// The families above are symmetric, so their reduce-scatter loads are the same in both
// directions of a link; on a one-way ring only the data direction has links.
TEST(ExportFamilySweep, OneWayRingLoadsAreInTheDataDirection) {
  SweepFamily("uniring(1,6)", "uniring");
}

// MSCCL++ plans of the same schedules.
void SweepFamilyMscclpp(const std::string& expr, const std::string& tag) {
  const Topology g = EvaluateTopologyExpression(expr);
  const std::string topo = TempPath("pp-family-" + tag + ".json");
  WriteTopologyFile(g, topo);
  for (Collective coll :
       {Collective::kAllgather, Collective::kReduceScatter, Collective::kAllreduce}) {
    const std::string cname = CollectiveName(coll);
    PipelineOptions opt;
    opt.collective = coll;
    const PipelineBuildResult built = BuildPipelineSchedule(g, opt);
    const std::string sched = TempPath("pp-family-" + tag + "-" + cname + ".json");
    WriteTextFile(sched, PipelineScheduleToJsonText(built.schedule, g));
    const LinkLoads expected = ScheduleLoads(g, built.schedule);
    for (const std::vector<std::string>& mode :
         {std::vector<std::string>{}, std::vector<std::string>{"--inplace", "--pieces", "2"}}) {
      SCOPED_TRACE(expr + " " + cname + (mode.empty() ? "" : " in-place, 2 pieces"));
      const std::string out = TempPath("pp-family-" + tag + "-" + cname + ".plan.json");
      std::vector<std::string> args = {"export", "mscclpp", topo, sched, "-o", out, "--json"};
      args.insert(args.end(), mode.begin(), mode.end());
      CliResult r = RunCli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const json j = json::parse(r.out);
      EXPECT_EQ(j["replay"], "accepted");
      EXPECT_EQ(j["ngpus"], g.num_compute());
      EXPECT_EQ(j["collective"], cname);
      EXPECT_LE(j["max_ops_per_block"].get<int>(), 64);
      EXPECT_LE(j["max_channels_per_block"].get<int>(), 16);
      EXPECT_LE(j["blocks_per_gpu"].get<int>(), 64);
      const Rational optimal = ParseRational(j["optimal_ratio"].get<std::string>());
      const Rational achieved = ParseRational(j["achieved_ratio"].get<std::string>());
      EXPECT_EQ(optimal, built.optimal_ratio);
      const json plan = json::parse(ReadTextFile(j["file"].get<std::string>()));
      EXPECT_EQ(plan["collective"], coll == Collective::kReduceScatter ? "reducescatter" : cname);
      const json routes = json::parse(ReadTextFile(j["routes_file"].get<std::string>()));
      LinkLoads side;
      std::map<int, Rational> worst;  // per phase
      for (const json& l : routes["link_loads"]) {
        const int phase = l["phase"].get<int>();
        const Rational load = ParseRational(l["load"].get<std::string>());
        side[{phase, l["from"].get<std::string>(), l["to"].get<std::string>()}] += load;
        const Rational ratio = load / ParseRational(l["bandwidth"].get<std::string>());
        if (ratio > worst[phase]) worst[phase] = ratio;
      }
      Rational sum = 0;
      for (const auto& [phase, w] : worst) sum += w;
      EXPECT_EQ(sum, achieved);
      if (j["exact_chunks"].get<bool>()) {
        EXPECT_FALSE(expected.empty());
        EXPECT_EQ(side, expected);
        EXPECT_EQ(achieved, optimal);
      } else {
        EXPECT_GT(achieved, optimal);
      }
      // One put per side-file transfer, each moving its chunks once.
      std::int64_t puts = 0;
      for (const json& gpu : plan["gpus"]) {
        for (const json& tb : gpu["threadblocks"]) {
          for (const json& op : tb["ops"]) puts += op["name"] == "put" ? 1 : 0;
        }
      }
      EXPECT_EQ(puts, static_cast<std::int64_t>(routes["transfers"].size()));
      // The replay of the written plan again (`collsynth replay` detects plans): the chunks it
      // counts per GPU pair are the side file's.
      CliResult replay = RunCli({"replay", out, "--json"});
      ASSERT_EQ(replay.exit_code, 0) << replay.out << replay.err;
      std::map<std::pair<int, int>, std::int64_t> sent, replayed;
      for (const json& t : routes["transfers"]) {
        sent[{t[0].get<int>(), t[1].get<int>()}] += t[4].get<std::int64_t>();
      }
      const json report = json::parse(replay.out);
      for (const json& b : report["bytes_per_pair"]) {
        replayed[{b["src"].get<int>(), b["dst"].get<int>()}] = b["chunks"].get<std::int64_t>();
      }
      EXPECT_EQ(sent, replayed);
    }
  }
}

TEST(ExportMscclppFamilySweep, Dgx1) { SweepFamilyMscclpp("dgx1(1)", "dgx1"); }
TEST(ExportMscclppFamilySweep, GpuBoxes) {
  SweepFamilyMscclpp("gpuboxes(2,4,300,25,2)", "gpuboxes");
}
TEST(ExportMscclppFamilySweep, TwoCluster) {
  SweepFamilyMscclpp("twocluster(2,4,10,1)", "twocluster");
}
TEST(ExportMscclppFamilySweep, Torus) { SweepFamilyMscclpp("torus(3,3)", "torus"); }
TEST(ExportMscclppFamilySweep, Hypercube) { SweepFamilyMscclpp("hypercube(3)", "hypercube"); }
TEST(ExportMscclppFamilySweep, FatTree4) { SweepFamilyMscclpp("fattree(4)", "fattree4"); }
TEST(ExportMscclppFamilySweep, OneWayRing) { SweepFamilyMscclpp("uniring(1,6)", "uniring"); }

}  // namespace
}  // namespace collsynth::testing
