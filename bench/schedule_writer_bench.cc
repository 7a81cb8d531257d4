// Schedule and topology writers (docs/performance.md "Writers: one streaming JSON writer"): each
// format written by its streaming writer (the one collsynth uses) against the nlohmann baseline,
// building the document's JSON tree and dump()ing it, in the same process on the same data. Both
// texts are compared byte for byte where the contract says they are equal (pipeline, steps,
// topology as a parsed document); the compact forms have no tree writer in the project, so the
// baseline builds the same document as an nlohmann::ordered_json tree. Inputs: the BFB allgather of
// hypercube(D) (steps-compact; steps from the compact form, as `bfb` writes it; steps from the
// StepSchedule, as `baseline`, `schedule expand` and `bfb
// --chunks` write it), the pipeline allgather of a GPU cluster (pipeline), fattree(K)
// (topology).
// Times are process CPU seconds (steadier than wall time on the shared machine), the best of
// --reps runs.
//   usage: schedule_writer_bench [--dim D] [--boxes B] [--fattree K] [--reps R] [--streamed-only]
//   (defaults D = 10 (1024 nodes, 1,077,248 sends), B = 64 (512 GPUs), K = 32, R = 3)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>

#include "core/json_io.h"
#include "graphs/expression.h"
#include "graphs/topology.h"
#include "graphs/topology_io.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "tests/fixtures/json_tree_writers.h"

namespace {

using namespace collsynth;

double Cpu() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Best CPU time of `reps` runs of f; f returns the text, kept in *text.
double Best(int reps, const std::function<std::string()>& f, std::string* text) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    std::string().swap(*text);
    const double t0 = Cpu();
    *text = f();
    best = std::min(best, Cpu() - t0);
  }
  return best;
}

bool mismatch = false;       // a writer disagreed with its baseline: exit 1
bool streamed_only = false;  // --streamed-only: no baseline (for profiling the writers)

void Row(const char* format, const char* what, int reps,
         const std::function<std::string()>& streamed, const std::function<std::string()>& dom,
         bool same_bytes) {
  std::string a, b;
  const double ts = Best(reps, streamed, &a);
  if (streamed_only) {
    std::printf("%-22s %-34s %8.1f MB  streamed %7.3f s\n", format, what, a.size() / 1e6, ts);
    return;
  }
  const double td = Best(reps, dom, &b);
  const char* equal =
      same_bytes ? (a == b ? "identical" : "DIFFERENT")
                 : (ParseJsonText(a, "a") == ParseJsonText(b, "b") ? "same document" : "DIFFERENT");
  if (std::strcmp(equal, "DIFFERENT") == 0) mismatch = true;
  std::printf("%-22s %-34s %8.1f MB  streamed %7.3f s  tree+dump %7.3f s  (%5.1fx)  %s\n", format,
              what, a.size() / 1e6, ts, td, td / ts, equal);
  std::fflush(stdout);
}

// The "steps-compact" document as an insertion-ordered JSON tree (the baseline).
std::string CompactTreeDump(const CompactStepSchedule& c, const Topology& g) {
  nlohmann::ordered_json j;
  for (auto it = c.extra.begin(); it != c.extra.end(); ++it) j[it.key()] = it.value();
  j["format"] = "steps-compact";
  j["collective"] = CollectiveName(c.collective);
  if (c.root) j["root"] = g.node(*c.root).name;
  if (c.rs_steps) j["rs_steps"] = *c.rs_steps;
  if (c.claimed_tl) j["tl"] = *c.claimed_tl;
  if (c.claimed_tb) j["tb"] = ToString(*c.claimed_tb);
  auto& nodes = j["nodes"] = nlohmann::ordered_json::array();
  for (int v = 0; v < g.num_nodes(); ++v) nodes.push_back(g.node(v).name);
  auto& steps = j["steps"] = nlohmann::ordered_json::array();
  for (const CompactStep& cs : c.steps) {
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      nlohmann::ordered_json flat = nlohmann::ordered_json::array();
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        flat.push_back(cs.source[i]);
        flat.push_back(cs.interval_begin[i + 1] - cs.interval_begin[i]);
        for (auto q = cs.interval_begin[i]; q < cs.interval_begin[i + 1]; ++q) {
          flat.push_back(cs.lo[q]);
          flat.push_back(cs.hi[q]);
        }
      }
      links.push_back({cs.from[r], cs.to[r], std::move(flat)});
    }
    steps.push_back({{"step", cs.step}, {"den", cs.denominator}, {"links", std::move(links)}});
  }
  return j.dump() + "\n";
}

// Without the line breaks the streaming compact writers put before each step, link record
// or send (names and strings are escaped, so every '\n' is one of those).
std::string WithoutLineBreaks(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\n'), s.end());
  return s + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  int dim = 10, boxes = 64, fattree = 32, reps = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--streamed-only")) streamed_only = true;
    if (i + 1 == argc) break;
    if (!std::strcmp(argv[i], "--dim"))
      dim = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--boxes"))
      boxes = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--fattree"))
      fattree = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps"))
      reps = std::atoi(argv[++i]);
  }
  {
    const Topology g = EvaluateTopologyExpression("hypercube(" + std::to_string(dim) + ")");
    BfbOptions o;
    const CompactStepSchedule c = *BfbFlatAllgatherSends(g, SolveBfbFlatPlan(g, o));
    const std::string what = g.name() + ", " + std::to_string(c.num_sends()) + " sends";
    Row(
        "steps-compact", what.c_str(), reps,
        [&] { return WithoutLineBreaks(CompactStepScheduleToText(c, g)); },
        [&] { return CompactTreeDump(c, g); }, true);
    const StepSchedule s = StepsFromCompact(c);
    Row(
        "steps (from compact)", what.c_str(), reps, [&] { return StepsJsonTextFromCompact(c, g); },
        [&] { return StepScheduleToJson(s, g).dump() + "\n"; }, false);
    Row(
        "steps (StepSchedule)", what.c_str(), reps, [&] { return StepScheduleToJsonText(s, g); },
        [&] { return StepScheduleToJson(s, g).dump(); }, true);
  }
  {
    const Topology g =
        EvaluateTopologyExpression("gpuboxes(" + std::to_string(boxes) + ",8,300,25,8)");
    const PipelineSchedule s = BuildPipelineSchedule(g, PipelineOptions{}).schedule;
    const std::string what = g.name() + ", " + std::to_string(s.trees.size()) + " trees";
    Row(
        "pipeline", what.c_str(), reps, [&] { return PipelineScheduleToJsonText(s, g); },
        [&] { return PipelineScheduleToJson(s, g).dump(); }, true);
  }
  {
    const Topology g = EvaluateTopologyExpression("fattree(" + std::to_string(fattree) + ")");
    const std::string what = g.name() + ", " + std::to_string(g.num_links()) + " links";
    Row(
        "topology", what.c_str(), reps, [&] { return WriteTopologyJson(g); },
        [&] { return TopologyToJson(g).dump() + "\n"; }, false);
  }
  return mismatch ? 1 : 0;
}
