// Pipeline-schedule benchmark (docs/performance.md "Pipeline schedules"): end-to-end time (optimum
// + edge splitting + arborescence packing + the independent check) on the reference topologies,
// with the paper's binary search as the in-process baseline for the optimum (Dinkelbach is the
// default). Prints absolute times, max-flow counts per stage and ratios.
// On switch topologies the paper's pair-by-pair Algorithm 1 (SplittingOptions::whole_switches
// = false) is the in-process baseline of the whole-switch splitting.
//   build/bench/pipeline_bench [--scale] [--growth] [--only NAME] [--no-baseline]
//   [--baseline-large]
//   (--scale adds 16x16 and 32x32 torus, 16x8 cluster, fat-tree k = 12; --growth also 24x24 /
//   48x48 tori and 8-D / 10-D hypercubes; the arc-by-arc packing and pairwise splitting
//   baselines run on the small cases, and on the large ones with --baseline-large: 32x32
//   takes ~10 min, fat-tree 12 ~5 min)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "graphs/generators/switch_topologies.h"
#include "graphs/topology.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth {
namespace {

double Time(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Process CPU time (all threads): on a shared, loaded machine it is steadier than wall time.
double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

Topology Torus(int a, int b) {
  Topology g("torus" + std::to_string(a) + "x" + std::to_string(b));
  for (int i = 0; i < a * b; ++i) g.AddCompute("t" + std::to_string(i));
  for (int x = 0; x < a; ++x) {
    for (int y = 0; y < b; ++y) {
      g.AddDuplexLink(x * b + y, ((x + 1) % a) * b + y, 1);
      g.AddDuplexLink(x * b + y, x * b + (y + 1) % b, 1);
    }
  }
  return g;
}

Topology Hypercube(int d) {
  Topology g("hypercube" + std::to_string(d));
  for (int i = 0; i < (1 << d); ++i) g.AddCompute("h" + std::to_string(i));
  for (int i = 0; i < (1 << d); ++i) {
    for (int k = 0; k < d; ++k) {
      if (i < (i ^ (1 << k))) g.AddDuplexLink(i, i ^ (1 << k), 1);
    }
  }
  return g;
}

// A100-style cluster: boxes of 8 GPUs, NVSwitch per box (300 per GPU), one NIC per GPU
// (a switch, 25), NICs to 2 leaf switches (25). 8 boxes: 64 + 8 + 64 + 2 = 138 nodes.
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

void Run(const Topology& g, double reference_seconds, bool arc_by_arc_baseline) {
  double t_bs = 0, t_dk = 0;
  AllgatherOptimum bs, dk;
  t_bs = Time([&] { bs = ComputeAllgatherOptimum(g, OptimumMethod::kBinarySearch); });
  t_dk = Time([&] { dk = ComputeAllgatherOptimum(g, OptimumMethod::kDinkelbach); });
  PipelineBuildResult built;
  PipelineCheckReport rep;
  double cpu0 = CpuSeconds();
  double t_build = Time([&] { built = BuildPipelineSchedule(g, PipelineOptions{}); });
  double t_check = Time([&] { rep = CheckPipelineSchedule(g, built.schedule); });
  double total = t_build + t_check, cpu = CpuSeconds() - cpu0;
  const PipelineStats& s = built.stats;
  std::printf("%-12s V=%4d N=%4d E=%5d ratio*=%s U=%s k=%s %s\n", g.name().c_str(), g.num_nodes(),
              g.num_compute(), g.num_links(), ToString(dk.ratio).c_str(), ToString(dk.U).c_str(),
              ToString(dk.k).c_str(), rep.ok ? PipelineVerdictName(rep.verdict) : "CHECK FAILED");
  std::printf(
      "  optimum: binary search %.3fs (%d tests, %lld flows) vs Dinkelbach %.3fs (%d tests, "
      "%lld flows): %.1fx; agree=%s\n",
      t_bs, bs.tests, static_cast<long long>(bs.max_flow_calls), t_dk, dk.tests,
      static_cast<long long>(dk.max_flow_calls), t_bs / t_dk, bs.ratio == dk.ratio ? "yes" : "NO");
  std::printf(
      "  end to end %.3fs wall (%.3fs CPU) = optimum %.3fs (%lld flows) + splitting %.3fs (%lld "
      "flows, %lld "
      "splits) + packing %.3fs (%lld flows, %lld trees) + check %.3fs\n",
      total, cpu, s.optimum_seconds, static_cast<long long>(s.optimum_max_flows),
      s.splitting_seconds, static_cast<long long>(s.splitting_max_flows),
      static_cast<long long>(s.split_operations), s.packing_seconds,
      static_cast<long long>(s.packing_max_flows), static_cast<long long>(s.trees), t_check);
  if (g.num_switches() > 0) {
    std::printf("  splitting: %lld of %d switches split off whole (%lld rooted min cuts)\n",
                static_cast<long long>(s.split_whole_switches), g.num_switches(),
                static_cast<long long>(s.split_rooted_cuts));
  }
  std::printf(
      "  packing: %lld condition-(3) checks (%lld rejected, %.3fs) certified %lld tree arcs (batch "
      "mode); Theorem-12 flows and proposals %.3fs\n",
      static_cast<long long>(s.packing_condition_checks),
      static_cast<long long>(s.packing_rejected_proposals), s.packing_check_seconds,
      static_cast<long long>(s.packing_batch_arcs), s.packing_seconds - s.packing_check_seconds);
  if (arc_by_arc_baseline) {
    // Same process, same topology: Algorithm 2 arc by arc (one Theorem-12 flow per arc).
    PipelineOptions plain;
    plain.packing.batch_certify = false;
    PipelineBuildResult b2;
    double t2 = Time([&] { b2 = BuildPipelineSchedule(g, plain); });
    std::printf(
        "  baseline arc-by-arc packing: build %.3fs (packing %.3fs, %lld flows) vs batch build "
        "%.3fs "
        "(packing %.3fs): packing %.1fx faster\n",
        t2, b2.stats.packing_seconds, static_cast<long long>(b2.stats.packing_max_flows), t_build,
        s.packing_seconds, b2.stats.packing_seconds / s.packing_seconds);
  }
  if (arc_by_arc_baseline && g.num_switches() > 0) {
    // Same process, same topology: Algorithm 1 pair by pair (Theorem 8 for every pair).
    PipelineOptions pairwise;
    pairwise.splitting.whole_switches = false;
    PipelineBuildResult b3;
    double t3 = Time([&] { b3 = BuildPipelineSchedule(g, pairwise); });
    std::printf(
        "  baseline pairwise splitting: build %.3fs (splitting %.3fs, %lld flows, %lld splits) vs "
        "whole-switch build %.3fs (splitting %.3fs): splitting %.1fx faster, end to end %.1fx\n",
        t3, b3.stats.splitting_seconds, static_cast<long long>(b3.stats.splitting_max_flows),
        static_cast<long long>(b3.stats.split_operations), t_build, s.splitting_seconds,
        b3.stats.splitting_seconds / s.splitting_seconds, t3 / t_build);
  }
  if (reference_seconds > 0) {
    std::printf("  vs reference implementation's %.0fs (docs/performance.md): %.0fx faster\n",
                reference_seconds, reference_seconds / total);
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace collsynth

int main(int argc, char** argv) {
  using namespace collsynth;
  // --scale adds the large cases; --only NAME runs one case (torus4, torus8, hypercube6,
  // gpu8, torus16, gpu16, torus32, fattree8, fattree12, and the --growth cases).
  bool scale = false, baseline = true, baseline_large = false, growth = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--scale") == 0)
      scale = true;
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (std::strcmp(argv[i], "--no-baseline") == 0)
      baseline = false;
    else if (std::strcmp(argv[i], "--growth") == 0)
      scale = growth = true;
    else if (std::strcmp(argv[i], "--baseline-large") == 0)
      baseline_large = true;
  }
  struct Case {
    const char* name;
    bool large;
    std::function<Topology()> make;
    double reference_seconds;
  };
  const std::vector<Case> cases = {
      {"torus4", false, [] { return Torus(4, 4); }, 0},
      {"torus8", false, [] { return Torus(8, 8); }, 61},
      {"hypercube6", false, [] { return Hypercube(6); }, 45},
      {"gpu8", false, [] { return GpuCluster(8); }, 349},
      {"torus16", true, [] { return Torus(16, 16); }, 0},
      {"gpu16", true, [] { return GpuCluster(16); }, 0},
      {"torus32", true, [] { return Torus(32, 32); }, 0},
      {"fattree8", false, [] { return FatTree(8); }, 0},
      {"fattree12", true, [] { return FatTree(12); }, 0},
      // Growth with N (--only NAME or --growth): 24x24, 48x48 tori, 8-D and 10-D hypercubes.
      {"torus24", true, [] { return Torus(24, 24); }, -1},
      {"torus48", true, [] { return Torus(48, 48); }, -1},
      {"hypercube8", true, [] { return Hypercube(8); }, -1},
      {"hypercube10", true, [] { return Hypercube(10); }, -1},
  };
  for (const Case& c : cases) {
    if (only.empty() ? ((c.large && !scale) || (c.reference_seconds < 0 && !growth))
                     : only != c.name)
      continue;
    Run(c.make(), c.reference_seconds, baseline && (!c.large || baseline_large));
  }
  return 0;
}
