// Experiment kind "export-replay" (docs/experiments.md "`export-replay`"): for each topology (a
// `topo gen` expression) × collective × MSCCL profile, build the optimal pipeline schedule (seed
// 004), check it with the pipeline checker, lower it with the exporter (export/msccl_program.h),
// write the XML text (export/msccl_xml.h) and replay that text with the independent checker
// (proofs_check/msccl_replay.h). The experiment layer is the only place both are included;
// they stay independent of each other.
//
// params:
//   "topologies": ["twocluster(2,4,10,1)", ...]  or "cases": [{"topology": ..., "label": ...}]
//   "collectives": ["allgather", "reduce-scatter", "allreduce", "broadcast"]
//     (broadcast is exported root-specific, root = rank 0)
//   "profiles": ["executor", "rccl", "legacy", "mscclpp"]   (default ["executor"]; "mscclpp":
//     the MSCCL++ execution plan (export/mscclpp_plan.h) replayed by proofs_check/mscclpp_replay.h;
//     its columns: nchunksperloop = output chunks per GPU, channels = memory channel entries per
//     GPU, steps_per_block = operations per block; broadcast is a row with limit "no broadcast")
//   "max_tbs": 64, "max_channels": 32, "max_chunks": 256   (the exporter's limits, as the CLI's)
// Columns: the row's tb is the achieved ratio (exact, shard units per unit bandwidth) and
// lower_bound the schedule's optimal ratio; extras nchunksperloop, channels, blocks_per_gpu
// (max over GPUs), steps_per_block (max), optimal_ratio, achieved_ratio, exact (yes when the
// integer chunks achieve the optimum), replay_ok, violations, limit (the runtime limit that
// could not be met, with " >= N" the smallest value that would work when an option value
// helps; such a row has empty export
// columns and is not a failure), export_seconds and replay_seconds (time columns).
// A file the replay rejects is a row with verified = no, so the run fails (an exporter bug).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "export/mscclpp_plan.h"
#include "graphs/expression.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/mscclpp_replay.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::experiments {
namespace {

using json = nlohmann::json;

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6f", s);
  return buf;
}

MscclProfile ReplayProfile(MscclExportProfile p) {
  switch (p) {
    case MscclExportProfile::kRccl:
      return MscclProfile::kRccl;
    case MscclExportProfile::kLegacy:
      return MscclProfile::kLegacy;
    case MscclExportProfile::kExecutor:
      break;
  }
  return MscclProfile::kExecutor;
}

const char* const kColumns[] = {
    "profile",       "nchunksperloop", "channels",      "blocks_per_gpu", "steps_per_block",
    "optimal_ratio", "achieved_ratio", "exact",         "replay_ok",      "violations",
    "limit",         "export_seconds", "replay_seconds"};

struct Limits {
  int max_tbs = 64;
  int max_channels = 32;
  std::int64_t max_chunks = 256;
};

// What an exported and replayed file contributes to its row.
struct ExportFigures {
  std::int64_t chunks = 0;
  int channels = 0, blocks = 0, steps = 0;
  Rational optimal, achieved;
  const ReplayResult* replay = nullptr;
  double export_seconds = 0, replay_seconds = 0;
};

template <typename Set>
void FillRow(const ExportFigures& f, ExperimentRow* row, Set set) {
  row->tb = f.achieved;
  row->verified = f.replay->ok ? Verified::kYes : Verified::kNo;
  set("nchunksperloop", std::to_string(f.chunks));
  set("channels", std::to_string(f.channels));
  set("blocks_per_gpu", std::to_string(f.blocks));
  set("steps_per_block", std::to_string(f.steps));
  set("optimal_ratio", ToString(f.optimal));
  set("achieved_ratio", ToString(f.achieved));
  set("exact", f.achieved == f.optimal ? "yes" : "no");
  set("replay_ok", f.replay->ok ? "yes" : "no");
  set("violations", std::to_string(f.replay->violations_total));
  set("export_seconds", Seconds(f.export_seconds));
  set("replay_seconds", Seconds(f.replay_seconds));
}

// The runtime's limits cannot be met: a result, not a failure of the experiment.
template <typename Set>
void LimitRow(const ExportLimitError& e, double export_seconds, ExperimentRow* row, Set set) {
  row->verified = Verified::kNotApplicable;
  set("limit", e.needed() > 0 ? e.limit() + " >= " + std::to_string(e.needed()) : e.limit());
  set("export_seconds", Seconds(export_seconds));
}

// The MSCCL++ plan of the schedule, replayed from its JSON text; fills the row as RunCase.
template <typename Set>
void RunMscclpp(const Topology& g, const PipelineSchedule& s, const std::vector<int>& rank,
                const std::string& expr, const Limits& limits, ExperimentRow* row, Set set) {
  MscclppExportOptions o;
  o.max_tbs = limits.max_tbs;
  o.max_chunks = limits.max_chunks;
  const auto te = std::chrono::steady_clock::now();
  try {
    const MscclppExportResult r = ExportPipelineToMscclppPlan(g, s, rank, o, expr);
    const std::string text = r.plan.dump(1);
    const double export_seconds = SecondsSince(te);
    const auto tr = std::chrono::steady_clock::now();
    const ReplayResult replay = ReplayMscclppPlan(text, expr, MscclppReplayOptions{});
    const double replay_seconds = SecondsSince(tr);
    FillRow({r.output_chunks, r.channels_per_gpu, r.blocks_per_gpu, r.max_ops_per_block,
             r.optimal_ratio, r.achieved_ratio, &replay, export_seconds, replay_seconds},
            row, set);
  } catch (const ExportLimitError& e) {
    LimitRow(e, SecondsSince(te), row, set);
  }
}

// One export target: an MSCCL XML profile, or the MSCCL++ plan.
struct Target {
  bool mscclpp = false;
  MscclExportProfile profile = MscclExportProfile::kExecutor;
  std::string Name() const { return mscclpp ? "mscclpp" : MscclExportProfileName(profile); }
};

ExperimentRow RunCase(const std::string& expr, const std::string& label, Collective collective,
                      const Target& target, const Limits& limits) {
  const MscclExportProfile profile = target.profile;
  const auto t0 = std::chrono::steady_clock::now();
  const Topology g = EvaluateTopologyExpression(expr);
  ExperimentRow row;
  row.instance = label.empty() ? expr : label;
  row.algorithm = "pipeline";
  row.collective = collective;
  row.nodes = g.num_compute();
  row.tb_unit = "(M/N)/b";
  const std::vector<int> rank = DefaultRanks(g);
  PipelineOptions popt;
  popt.collective = collective;
  for (int v = 0; v < g.num_nodes(); ++v) {
    if (rank[v] == 0) popt.root = v;
  }
  if (collective != Collective::kBroadcast) popt.root = -1;
  const PipelineBuildResult built = BuildPipelineSchedule(g, popt);
  const PipelineCheckReport rep = CheckPipelineSchedule(g, built.schedule);
  std::vector<std::pair<std::string, std::string>> cols;
  for (const char* c : kColumns) cols.emplace_back(c, "");
  auto set = [&](const std::string& name, const std::string& value) {
    for (auto& [n, v] : cols) {
      if (n == name) v = value;
    }
  };
  set("profile", target.Name());
  row.lower_bound = rep.ratio;
  set("optimal_ratio", ToString(rep.ratio));
  if (!rep.ok) {
    row.verified = Verified::kNo;
    row.extra = cols;
    row.wall_seconds = SecondsSince(t0);
    return row;
  }
  if (target.mscclpp) {
    if (collective == Collective::kBroadcast) {
      row.verified = Verified::kNotApplicable;
      set("limit", "no broadcast (MSCCL++ plans have none)");
    } else {
      RunMscclpp(g, built.schedule, rank, expr, limits, &row, set);
    }
    row.extra = cols;
    row.wall_seconds = SecondsSince(t0);
    return row;
  }
  MscclExportOptions o;
  o.profile = profile;
  o.root_specific = collective == Collective::kBroadcast;
  o.max_tbs = limits.max_tbs;
  o.max_channels = limits.max_channels;
  o.max_chunks = limits.max_chunks;
  const auto te = std::chrono::steady_clock::now();
  try {
    const MscclExportResult r = ExportPipelineToMscclProgram(g, built.schedule, rank, o, expr);
    const std::string xml = MscclXmlText(r.program, profile);
    const double export_seconds = SecondsSince(te);
    ReplayOptions ro;
    ro.profile = ReplayProfile(profile);
    ro.root = r.root_rank < 0 ? 0 : r.root_rank;
    const auto tr = std::chrono::steady_clock::now();
    const ReplayResult replay = ReplayMscclXml(xml, expr, ro);
    const double replay_seconds = SecondsSince(tr);
    FillRow({r.program.nchunksperloop, r.program.nchannels, r.blocks_per_gpu, r.max_steps_per_block,
             r.optimal_ratio, r.achieved_ratio, &replay, export_seconds, replay_seconds},
            &row, set);
  } catch (const ExportLimitError& e) {
    LimitRow(e, SecondsSince(te), &row, set);
  }
  row.extra = cols;
  row.wall_seconds = SecondsSince(t0);
  return row;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params p(in);
  struct Case {
    std::string topology, label;
  };
  std::vector<Case> cases;
  for (const Params& c : p.Objects("cases")) {
    cases.push_back({c.Topology("topology"), c.String("label", "")});
  }
  for (const auto& t : p.Topologies("topologies")) cases.push_back({t, ""});
  if (cases.empty()) throw p.Error("cases", "no topologies given (cases or topologies)");
  std::vector<Collective> collectives;
  for (const auto& name : p.Strings("collectives")) {
    const std::optional<Collective> c = ParseCollective(name);
    if (!c) throw p.Error("collectives", "unknown collective '" + name + "'");
    collectives.push_back(*c);
  }
  if (collectives.empty()) throw p.Error("collectives", "no collectives given");
  std::vector<Target> profiles;
  for (const auto& name : p.Strings("profiles")) {
    Target t;
    if (name == "mscclpp") {
      t.mscclpp = true;
    } else {
      try {
        t.profile = ParseMscclExportProfile(name);
      } catch (const std::invalid_argument&) {
        throw p.Error("profiles", "'" + name + "' is not executor, rccl, legacy or mscclpp");
      }
    }
    profiles.push_back(t);
  }
  if (profiles.empty()) profiles.push_back(Target{});
  Limits limits;
  limits.max_tbs = static_cast<int>(p.Int("max_tbs", limits.max_tbs, 1, INT32_MAX));
  limits.max_channels = static_cast<int>(p.Int("max_channels", limits.max_channels, 1, INT32_MAX));
  limits.max_chunks = p.Int("max_chunks", limits.max_chunks, 1, INT64_MAX);
  std::vector<ExperimentTask> tasks;
  for (const auto& c : cases) {
    for (Collective coll : collectives) {
      for (const Target& prof : profiles) {
        tasks.push_back({c.topology + " " + CollectiveName(coll) + " " + prof.Name(), [=] {
                           return std::vector<ExperimentRow>{
                               RunCase(c.topology, c.label, coll, prof, limits)};
                         }});
      }
    }
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("export-replay", &MakeTasks,
                                         {std::begin(kColumns), std::end(kColumns)});

}  // namespace
}  // namespace collsynth::experiments
