// Re-synthesis after a failure (docs/repair.md, docs/performance.md "Repair after failed links"):
// a plain schedule made on the intact fattree(K), three agg-core links failed (both directions,
// chosen by a seeded draw), then one more on top. For each failure set: the repair
// (RepairPipelineSchedule) of the schedule before it, against a fresh plain synthesis
// (BuildPipelineSchedule) of the same degraded topology in the same process; both checked by the
// pipeline checker. Prints times, the ratio repair/fresh, both ratios (they must be equal: the
// repair is certified at the optimum) and what the repair changed.
//   build/repair_bench [--k K] [--failures F] [--seed S]   (defaults 16, 3, 1)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/stopwatch.h"
#include "graphs/expression.h"
#include "graphs/failed_links.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/repair.h"

namespace collsynth {
namespace {

bool IsAgg(const std::string& name) {
  return name[0] == 'p' && name.find('a') != std::string::npos;
}

// `count` agg -> core links (ids of g) not in `failed`, drawn by rng; each with its reverse.
void FailAggCore(const Topology& g, int count, std::mt19937& rng, std::vector<int>* failed) {
  std::vector<int> candidates;
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    if (IsAgg(g.node(l.from).name) && g.node(l.to).name.rfind("core", 0) == 0) {
      candidates.push_back(e);
    }
  }
  std::shuffle(candidates.begin(), candidates.end(), rng);
  for (int e : candidates) {
    if (count == 0) break;
    if (std::find(failed->begin(), failed->end(), e) != failed->end()) continue;
    failed->push_back(e);
    failed->push_back(*g.FindLink(g.link(e).to, g.link(e).from));
    --count;
  }
}

bool Certified(const Topology& g, const PipelineSchedule& s) {
  PipelineCheckReport rep = CheckPipelineSchedule(g, s);
  return rep.ok && rep.verdict == PipelineVerdict::kOptimalCertified;
}

// One failure set: repair `old` for g against a fresh synthesis of g; returns the repaired one.
// `*ok` is cleared when a schedule is not certified or the ratios differ (the cross-check).
PipelineSchedule RepairAgainstFresh(const std::string& label, const Topology& g,
                                    PipelineSchedule old, bool* ok) {
  PipelineBuildResult fresh;
  const double fresh_s = SecondsToRun([&] { fresh = BuildPipelineSchedule(g, {}); });
  RepairResult rep;
  const double repair_s = SecondsToRun([&] { rep = RepairPipelineSchedule(g, std::move(old)); });
  const RepairStats& st = rep.stats;
  std::printf(
      "%s: fresh %.2f s, repair %.2f s (ratio repair/fresh %.3f; optimum %.2f s, reroute+pack "
      "%.2f s, fallback %.2f s)\n"
      "  ratio fresh %s, repaired %s (was %s), method %s%s%s, targets %d, optimum computed %d\n"
      "  trees %lld old: %lld kept, %lld rerouted, %lld replaced by %lld; routes %lld broken, "
      "%lld removed, %lld added\n"
      "  checker: fresh %s, repaired %s\n",
      label.c_str(), fresh_s, repair_s, repair_s / fresh_s, st.optimum_seconds, st.repair_seconds,
      st.fresh_seconds, ToString(fresh.schedule.ratio).c_str(),
      ToString(rep.schedule.ratio).c_str(), ToString(rep.old_ratio).c_str(),
      RepairMethodName(rep.method), rep.why_fresh.empty() ? "" : ": ", rep.why_fresh.c_str(),
      st.attempts, st.optimum_computed, static_cast<long long>(st.trees_old),
      static_cast<long long>(st.trees_kept), static_cast<long long>(st.trees_rerouted),
      static_cast<long long>(st.trees_replaced), static_cast<long long>(st.trees_added),
      static_cast<long long>(st.routes_broken), static_cast<long long>(st.routes_removed),
      static_cast<long long>(st.routes_added),
      Certified(g, fresh.schedule) ? "certified" : "NOT CERTIFIED",
      Certified(g, rep.schedule) ? "certified" : "NOT CERTIFIED");
  std::fflush(stdout);
  *ok = *ok && Certified(g, fresh.schedule) && Certified(g, rep.schedule) &&
        fresh.schedule.ratio == rep.schedule.ratio;
  return std::move(rep.schedule);
}

int Main(int argc, char** argv) {
  int k = 16, failures = 3;
  unsigned seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--k")) k = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--failures")) failures = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--seed")) seed = static_cast<unsigned>(std::atoi(argv[i + 1]));
  }
  const std::string expr = "fattree(" + std::to_string(k) + ")";
  TopologyWithFailures t{EvaluateTopologyExpression(expr), {}};
  PipelineBuildResult intact;
  const double intact_s = SecondsToRun([&] { intact = BuildPipelineSchedule(t.intact, {}); });
  std::printf("%s intact: plain synthesis %.2f s, ratio %s, %zu trees\n", expr.c_str(), intact_s,
              ToString(intact.schedule.ratio).c_str(), intact.schedule.trees.size());
  std::mt19937 rng(seed);
  bool ok = true;
  FailAggCore(t.intact, failures, rng, &t.failed);
  PipelineSchedule repaired =
      RepairAgainstFresh(expr + " " + std::to_string(failures) + " agg-core links failed",
                         DegradedTopology(t), std::move(intact.schedule), &ok);
  FailAggCore(t.intact, 1, rng, &t.failed);
  RepairAgainstFresh(expr + " one more failed", DegradedTopology(t), std::move(repaired), &ok);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace collsynth

int main(int argc, char** argv) { return collsynth::Main(argc, argv); }
