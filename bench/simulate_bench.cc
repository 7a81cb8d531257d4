// Simulator benchmark (docs/performance.md "Simulator"): `collsynth simulate`'s engine on the two
// reference instances, build and run times and events per second, with the run's result
// cross-checked against the closed forms it must satisfy (exit 1 otherwise):
//   - a 64-GPU cluster (8 boxes of 8, A100-style as in pipeline_bench) optimal allgather
//     pipeline schedule with P = 64 chunks, α = 0 (target < 1 s): T_B*·M/N <= time <=
//     (P + H - 1)/P · ratio·M/N (docs/simulate.md);
//   - a 32 × 32 torus (1,024 nodes) BFB allgather, synchronous, α = 1 µs (target < 10 s):
//     time = T_L·α + T_B·M/N exactly.
// Usage: simulate_bench [--quick] [--boxes B] [--chunks P] [--side S]
//   (--quick: 1 box, P = 4, 4 × 4 torus: the smoke run)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include "core/stopwatch.h"
#include "graphs/generators/seed000_generators.h"
#include "proofs_check/step_checker.h"
#include "simulate/pipeline_simulation.h"
#include "simulate/step_simulation.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

// Boxes of 8 GPUs, NVSwitch per box (300 per GPU), one NIC per GPU (a switch, 25), NICs to 2
// leaf switches (25); the same cluster as bench/pipeline_bench.cc.
Topology GpuCluster(int boxes) {
  Topology g("gpu" + std::to_string(boxes) + "x8");
  for (int b = 0; b < boxes; ++b) {
    for (int i = 0; i < 8; ++i) g.AddCompute("b" + std::to_string(b) + "g" + std::to_string(i));
  }
  std::vector<int> sw, leaf;
  for (int b = 0; b < boxes; ++b) sw.push_back(g.AddSwitch("b" + std::to_string(b) + "sw"));
  for (int l = 0; l < 2; ++l) leaf.push_back(g.AddSwitch("leaf" + std::to_string(l)));
  for (int b = 0; b < boxes; ++b) {
    for (int i = 0; i < 8; ++i) {
      int v = b * 8 + i;
      int nic = g.AddSwitch("b" + std::to_string(b) + "nic" + std::to_string(i));
      g.AddDuplexLink(v, sw[b], 300);
      g.AddDuplexLink(v, nic, 25);
      g.AddDuplexLink(nic, leaf[i % 2], 25);
    }
  }
  return g;
}

// The deepest chain of links from a root (store-and-forward hops).
int DeepestChain(const PipelineSchedule& s) {
  int worst = 0;
  for (const PipelineTree& t : s.trees) {
    std::vector<std::vector<const PipelineTreeEdge*>> out(1 << 20);
    for (const PipelineTreeEdge& e : t.edges) out[e.from].push_back(&e);
    std::function<void(int, int)> walk = [&](int v, int depth) {
      worst = std::max(worst, depth);
      for (const PipelineTreeEdge* e : out[v]) {
        int hops = 0;
        for (const PipelineRoute& r : e->routes) hops = std::max(hops, int(r.path.size()) - 1);
        walk(e->to, depth + hops);
      }
    };
    walk(t.root, 0);
  }
  return worst;
}

const Rational kGB(1000000000);

bool Cluster(int boxes, std::int64_t p) {
  Topology g = GpuCluster(boxes);
  PipelineBuildResult built;
  const double t_schedule =
      SecondsToRun([&] { built = BuildPipelineSchedule(g, PipelineOptions{}); });
  SimulationModel m;
  m.size = Rational(1 << 30);
  m.chunks = p;
  double t_build = 0, t_run = 0;
  FlowSimulationResult r;
  int transfers = 0;
  t_build = SecondsToRun([&] {
    FlowSimulation sim = BuildPipelineSimulation(built.schedule, g, m);
    transfers = sim.num_transfers();
    t_run = SecondsToRun([&] { r = sim.Run(); });
  });
  t_build -= t_run;
  const int n = g.num_compute();
  const Rational lower = built.optimal_ratio * m.size / (n * kGB);
  const int h = DeepestChain(built.schedule);
  const Rational upper = Rational(p + h - 1, p) * built.schedule.ratio * m.size / (n * kGB);
  const bool ok = r.completion >= lower && r.completion <= upper;
  std::printf(
      "cluster %s (N = %d, %d links) pipeline allgather P = %lld, M = 1 GiB: schedule %.3f s, "
      "build %.3f s, run %.3f s, %d transfers, %lld events, %.3g events/s; time %s s = %.6f x "
      "T_B* (bound (P+H-1)/P = %.6f, H = %d): %s\n",
      g.name().c_str(), n, g.num_links(), static_cast<long long>(p), t_schedule, t_build, t_run,
      transfers, static_cast<long long>(r.events), r.events / t_run, ToString(r.completion).c_str(),
      (r.completion / lower).convert_to<double>(), Rational(p + h - 1, p).convert_to<double>(), h,
      ok ? "ok" : "OUT OF BOUNDS");
  return ok;
}

bool TorusBfb(int side) {
  Topology g = Torus({side, side});
  BfbOptions o;
  o.certificates = false;
  BfbResult bfb;
  const double t_schedule = SecondsToRun([&] { bfb = GenerateBfbSchedule(g, o); });
  StepCheckReport check = CheckStepSchedule(g, bfb.schedule);
  SimulationModel m;
  m.size = Rational(1 << 30);
  m.default_alpha = Rational(1, 1000000);
  double t_build = 0, t_run = 0;
  FlowSimulationResult r;
  int transfers = 0;
  t_build = SecondsToRun([&] {
    FlowSimulation sim = BuildStepSimulation(bfb.schedule, g, m);
    transfers = sim.num_transfers();
    t_run = SecondsToRun([&] { r = sim.Run(); });
  });
  t_build -= t_run;
  const Rational expected =
      check.tl * m.default_alpha + check.tb * m.size / (g.num_compute() * kGB);
  const bool ok = check.ok && r.completion == expected;
  std::printf(
      "torus %dx%d BFB allgather sync, M = 1 GiB, alpha = 1 us: schedule %.3f s, build %.3f s, "
      "run %.3f s, %d transfers (sends + step barriers), %lld events, %.3g events/s; time %s s "
      "(T_L alpha + T_B M/N: %s)\n",
      side, side, t_schedule, t_build, t_run, transfers, static_cast<long long>(r.events),
      r.events / t_run, ToString(r.completion).c_str(), ok ? "equal" : "DIFFERENT");
  return ok;
}

}  // namespace
}  // namespace collsynth

int main(int argc, char** argv) {
  int boxes = 8, side = 32;
  std::int64_t chunks = 64;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      boxes = 1, side = 4, chunks = 4;
    } else if (!std::strcmp(argv[i], "--boxes") && i + 1 < argc) {
      boxes = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--chunks") && i + 1 < argc) {
      chunks = std::atoll(argv[++i]);
    } else if (!std::strcmp(argv[i], "--side") && i + 1 < argc) {
      side = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: simulate_bench [--quick] [--boxes B] [--chunks P] [--side S]\n");
      return 2;
    }
  }
  bool ok = collsynth::Cluster(boxes, chunks);
  ok = collsynth::TorusBfb(side) && ok;
  return ok ? 0 : 1;
}
