// Symmetric pipeline schedules at cluster scale (docs/performance.md "Symmetric pipeline
// schedules"): for each case, the time and peak memory of the symmetric build (group, optimum with
// one max-flow per orbit, column generation), its independent check, and the written size, against
// the in-process baseline "optimum stage" of the plain path (ComputeAllgatherOptimum with one
// max-flow per compute node: the floor of any exact method that does not use symmetry). Prints
// ratios total / optimum-stage. Peak memory is the process's (getrusage): run one case per process
// (--only NAME) for per-case figures.
//   build/bench/symmetric_bench [--only NAME] [--plain] [--no-baseline] [--growth]
//   (--plain also runs today's plain path on the cases where it finishes: fattree(16),
//    torus(32,32), the random Eulerian graph; --growth runs fat-trees k = 8..40 and square tori
//    16..128 instead, to show how time and memory grow with N)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "graphs/expression.h"
#include "graphs/topology.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth {
namespace {

double Time(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double PeakMb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// A random Eulerian digraph without symmetry: the union of `cycles` random Hamiltonian cycles.
Topology RandomEulerian(int n, int cycles, unsigned seed) {
  Topology g("random-eulerian(" + std::to_string(n) + ")");
  for (int v = 0; v < n; ++v) g.AddCompute("r" + std::to_string(v));
  std::mt19937 rng(seed);
  std::vector<int> order(n);
  for (int c = 0; c < cycles; ++c) {
    for (int v = 0; v < n; ++v) order[v] = v;
    std::shuffle(order.begin(), order.end(), rng);
    for (int v = 0; v < n; ++v) g.AddLink(order[v], order[(v + 1) % n], 1);
  }
  return g;
}

struct Case {
  std::string name;
  std::string expr;  // empty: the random graph
};

// Returns false when a symmetric schedule the case expects is missing or not certified.
bool Run(const Case& c, bool plain, bool baseline) {
  Topology g = c.expr.empty() ? RandomEulerian(2000, 3, 19) : EvaluateTopologyExpression(c.expr);
  std::printf("%s: %d compute + %d switches, %d links, %zu declared generators\n", c.name.c_str(),
              g.num_compute(), g.num_switches(), g.num_links(), g.automorphisms().size());
  double t_opt = 0;
  if (baseline) {
    AllgatherOptimum opt;
    t_opt = Time([&] { opt = ComputeAllgatherOptimum(g); });
    std::printf("  baseline optimum stage (one max-flow per compute node): %.3f s, ratio* %s\n",
                t_opt, ToString(opt.ratio).c_str());
  }
  bool ok = true;
  SymmetricPipelineResult sym;
  double t_build = Time([&] { sym = BuildSymmetricPipelineSchedule(g, Collective::kAllgather); });
  if (sym.schedule) {
    PipelineCheckReport rep;
    double t_check = Time([&] { rep = CheckSymmetricPipelineSchedule(g, *sym.schedule); });
    std::string text;
    double t_write = Time([&] { text = SymmetricPipelineScheduleToJsonText(*sym.schedule, g); });
    const double total = t_build + t_check + t_write;
    std::printf(
        "  symmetric: build %.3f s (group %.3f, optimum %.3f with %lld max-flows, trees %.3f in "
        "%d rounds, %d columns), check %.3f s (%s, ratio %s), write %.3f s (%.1f MB); total "
        "%.3f s, peak %.0f MB\n",
        t_build, sym.stats.group_seconds, sym.stats.optimum_seconds,
        static_cast<long long>(sym.stats.optimum_max_flows), sym.stats.packing_seconds,
        sym.stats.column_generation_rounds, sym.stats.columns, t_check,
        PipelineVerdictName(rep.verdict), ToString(rep.ratio).c_str(), t_write,
        static_cast<double>(text.size()) / 1e6, total, PeakMb());
    if (baseline && t_opt > 0) {
      std::printf("  ratio total / baseline optimum stage: %.2f\n", total / t_opt);
    }
    if (!rep.ok || rep.verdict != PipelineVerdict::kOptimalCertified) ok = false;
  } else {
    if (!c.expr.empty()) ok = false;
    std::printf("  symmetric: none after %.3f s (%s)\n", t_build, sym.why.c_str());
  }
  if (plain) {
    PipelineBuildResult r;
    PipelineOptions o;
    double t_plain = Time([&] { r = BuildPipelineSchedule(g, o); });
    PipelineCheckReport rep;
    double t_check = Time([&] { rep = CheckPipelineSchedule(g, r.schedule); });
    std::printf("  plain path: build %.3f s, check %.3f s (%s, ratio %s); peak %.0f MB\n", t_plain,
                t_check, PipelineVerdictName(rep.verdict), ToString(rep.ratio).c_str(), PeakMb());
    if (!rep.ok) ok = false;
  }
  return ok;
}

}  // namespace
}  // namespace collsynth

int main(int argc, char** argv) {
  using collsynth::Case;
  std::string only;
  bool plain = false, baseline = true, growth = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (!std::strcmp(argv[i], "--plain")) {
      plain = true;
    } else if (!std::strcmp(argv[i], "--no-baseline")) {
      baseline = false;
    } else if (!std::strcmp(argv[i], "--growth")) {
      growth = true;
    } else {
      std::fprintf(stderr,
                   "usage: symmetric_bench [--only NAME] [--plain] [--no-baseline] [--growth]\n");
      return 2;
    }
  }
  std::vector<Case> cases = {
      {"fattree16", "fattree(16)"},
      {"torus32x32", "torus(32,32)"},
      {"fattree24", "fattree(24)"},
      {"fattree32", "fattree(32)"},
      {"gpuboxes16k", "gpuboxes(2048,8,300,25,8)"},
      {"torus64x64", "torus(64,64)"},
      {"torus16x16x16", "torus(16,16,16)"},
      {"random2000", ""},
  };
  if (growth) {
    cases.clear();
    for (int k : {8, 16, 24, 32, 40}) {
      const std::string e = "fattree(" + std::to_string(k) + ")";
      cases.push_back({e, e});
    }
    for (int n : {16, 32, 64, 128}) {
      const std::string e = "torus(" + std::to_string(n) + "," + std::to_string(n) + ")";
      cases.push_back({e, e});
    }
  }
  bool failed = false;
  for (const Case& c : cases) {
    if (!only.empty() && c.name != only) continue;
    const bool small = c.name == "fattree16" || c.name == "torus32x32" || c.name == "random2000";
    if (!collsynth::Run(c, plain && small, baseline)) {
      std::printf("  FAILED\n");
      failed = true;
    }
  }
  return failed ? 1 : 0;
}
