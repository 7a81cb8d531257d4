// BFB schedule generation times (seed 000 Table 6, BFB column: hypercube N = 4..1024 and
// n×n 2-D torus up to 50×50; the paper reports 52.7 s and 61.1 s for the largest two).
// For each topology:
//   flat   = SolveBfbFlatPlan: all LPs (3) solved exactly in int64 and each (u, t) certified
//            (x feasible with load <= U·B, witness J with U_J = U, Thm 19);
//   base   = SolveBfbPlan, the Rational per-cell path (one mpq per x), in the same process,
//            and the ratio base/flat; the CLP-only float solve for N <= kClpBaselineMaxNodes;
//   then building the compact sends, the checker on them (BFB property on), writing the
//   "steps-compact" and "steps" JSON texts (time, size), and reading + checking the compact
//   text again (what `collsynth verify` does).
//   usage: bfb_bench [--quick] [--threads T] [--no-base]
//
// With --cell-flow [Google Benchmark flags]: the max flow inside the BFB cell engine
// (solvers/bfb/bfb_cell.h), its Dinic (BfbCellDinic) against LEMON Preflow (first phase; the
// second only when the flow is read) on every real cell network (u, t) of Q_8, the 16×16
// torus, the generalized Kautz graph Π_{4,256}, a 16×16 torus with link bandwidths 1..4 and
// DGX-1 (8 GPUs, NVLink bandwidths 1 and 2); the same Dinkelbach calls through both, then
// per topology the ratio LEMON / Dinic of the mean times (docs/performance.md).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/json_io.h"
#include "core/stopwatch.h"
#include "graphs/generators/switch_topologies.h"
#include "graphs/topology.h"
#include "proofs_check/step_checker.h"
#include "schedules/compact_schedule.h"
#include "solvers/backends/lemon_graph.h"
#include "solvers/backends/lp_backend.h"
#include "solvers/bfb/bfb_cell.h"
#include "solvers/bfb/bfb_schedule.h"
#include "tests/solvers/bfb_test_topologies.h"

#ifdef COLLSYNTH_HAVE_GOOGLE_BENCHMARK
#include <benchmark/benchmark.h>
#endif

#include <map>
#include <memory>
#include <random>
#include <vector>

namespace {

using namespace collsynth;
using Clock = std::chrono::steady_clock;

constexpr int kClpBaselineMaxNodes = 256;

void Run(const Topology& g, const char* paper_seconds, unsigned threads, bool base) {
  BfbOptions o;
  o.threads = threads;
  auto t0 = Clock::now();
  BfbFlatPlan plan = SolveBfbFlatPlan(g, o);
  const double flat = SecondsSince(t0);
  double base_s = -1, clp = -1;
  bool agree = true;
  if (base) {
    auto t1 = Clock::now();
    BfbPlan ref = SolveBfbPlan(g, o);
    base_s = SecondsSince(t1);
    agree = ref.step_tb == plan.step_tb && ref.step_u_max == plan.step_u_max;
    if (g.num_nodes() <= kClpBaselineMaxNodes) {
      auto t2 = Clock::now();
      for (const auto& step : ref.cells)
        for (const BfbCell& c : step)
          if (!c.problem.sources.empty()) SolveLpWithClp(BuildBfbLp(c.problem));
      clp = SecondsSince(t2);
    }
  }
  auto t3 = Clock::now();
  CompactStepSchedule s = *BfbFlatAllgatherSends(g, plan);
  const double build = SecondsSince(t3);
  auto t4 = Clock::now();
  StepCheckOptions co;
  co.check_bfb = true;
  StepCheckReport rep = CheckStepSchedule(g, s, co);
  const double check = SecondsSince(t4);
  auto t5 = Clock::now();
  std::string compact_text = CompactStepScheduleToText(s, g);
  const double write_compact = SecondsSince(t5);
  auto t6 = Clock::now();
  std::string json_text = StepsJsonTextFromCompact(s, g);
  const double write_json = SecondsSince(t6);
  json_text = std::string();
  auto t7 = Clock::now();
  StepCheckReport rep2 = CheckStepSchedule(
      g, CompactStepScheduleFromJson(ParseJsonText(compact_text, "c"), g, "c"), co);
  const double reread = SecondsSince(t7);
  Rational tb(0);
  for (const Rational& x : plan.step_tb) tb += x;
  std::printf(
      "%-14s N=%5d D=%3d cells=%7lld certified=%7lld flows=%7lld flat=%7.3fs base=%s ratio=%s "
      "clp=%s "
      "agree=%s sends=%8zu build=%6.3fs check=%6.3fs(%s) compact=%6.3fs %6.1fMB json=%6.3fs "
      "%6.1fMB "
      "reread+check=%6.3fs(%s) T_B=%s paper=%ss\n",
      g.name().c_str(), g.num_nodes(), plan.diameter, static_cast<long long>(plan.num_subproblems),
      static_cast<long long>(plan.certified), static_cast<long long>(plan.flow_runs), flat,
      base_s < 0 ? "-" : (std::to_string(base_s).substr(0, 6) + "s").c_str(),
      base_s < 0 ? "-" : (std::to_string(base_s / flat).substr(0, 6) + "x").c_str(),
      clp < 0 ? "-" : (std::to_string(clp).substr(0, 6) + "s").c_str(), agree ? "yes" : "NO",
      s.num_sends(), build, check, rep.ok ? "ok" : "FAIL", write_compact, compact_text.size() / 1e6,
      write_json, StepsJsonTextFromCompact(s, g).size() / 1e6, reread, rep2.ok ? "ok" : "FAIL",
      ToString(tb).c_str(), paper_seconds);
  std::fflush(stdout);
}

// ---- --cell-flow: the cell engine's max flow, Dinic against LEMON Preflow ----
#ifdef COLLSYNTH_HAVE_GOOGLE_BENCHMARK

// LEMON Preflow behind the engine's max-flow interface: the graph and the capacity map are
// kept between calls (cleared and refilled), the Preflow is made per call (its elevator is
// sized by the graph); first phase for the value and the cut, second phase only when a flow
// is read (the engine reads flows only after a feasible test).
class LemonCellFlow final : public BfbCellMaxFlow<std::int64_t> {
 public:
  using Digraph = lemon::SmartDigraph;
  void Reset(int nodes) override {
    preflow_.reset();
    graph_.clear();
    nodes_.clear();
    arcs_.clear();
    for (int v = 0; v < nodes; ++v) nodes_.push_back(graph_.addNode());
  }
  int AddArc(int from, int to, const std::int64_t& capacity) override {
    arcs_.push_back(graph_.addArc(nodes_[from], nodes_[to]));
    capacity_[arcs_.back()] = capacity;
    return static_cast<int>(arcs_.size()) - 1;
  }
  std::int64_t Run(int s, int t, const std::int64_t&) override {
    preflow_ = std::make_unique<lemon::Preflow<Digraph, Digraph::ArcMap<std::int64_t>>>(
        graph_, capacity_, nodes_[s], nodes_[t]);
    preflow_->init();
    preflow_->startFirstPhase();
    second_phase_ = false;
    return preflow_->flowValue();
  }
  bool SourceSide(int v) const override { return preflow_->minCut(nodes_[v]); }
  std::int64_t Flow(int arc) const override {
    if (!second_phase_) {
      preflow_->startSecondPhase();
      second_phase_ = true;
    }
    return preflow_->flow(arcs_[arc]);
  }

 private:
  Digraph graph_;
  Digraph::ArcMap<std::int64_t> capacity_{graph_};
  std::vector<Digraph::Node> nodes_;
  std::vector<Digraph::Arc> arcs_;
  std::unique_ptr<lemon::Preflow<Digraph, Digraph::ArcMap<std::int64_t>>> preflow_;
  mutable bool second_phase_ = false;
};

// Every nonempty cell (u, t) of g as the flat plan builds it: sources grouped by their
// allowed in-links (sorted masks), integer bandwidths, S = 1.
std::vector<BfbCellNetwork<std::int64_t>> CellNetworks(const Topology& g) {
  const int n = g.num_nodes();
  std::vector<std::vector<int>> dist(n, std::vector<int>(n, -1));  // dist[v][x] = d(v, x)
  for (int v = 0; v < n; ++v) {
    std::vector<int> queue{v};
    dist[v][v] = 0;
    for (std::size_t h = 0; h < queue.size(); ++h)
      for (int e : g.OutLinks(queue[h])) {
        const int y = g.link(e).to;
        if (dist[v][y] < 0) {
          dist[v][y] = dist[v][queue[h]] + 1;
          queue.push_back(y);
        }
      }
  }
  std::vector<BfbCellNetwork<std::int64_t>> cells;
  for (int u = 0; u < n; ++u) {
    std::vector<int> senders;
    std::vector<std::int64_t> bandwidth;
    for (int e : g.InLinks(u)) {
      if (g.link(e).from == u) continue;
      senders.push_back(g.link(e).from);
      bandwidth.push_back(ToInt64(Numerator(g.link(e).bandwidth)));
    }
    std::map<int, std::map<std::uint64_t, std::int64_t>> by_step;  // t -> mask -> count
    for (int v = 0; v < n; ++v) {
      if (v == u) continue;
      const int t = dist[v][u];
      std::uint64_t mask = 0;
      for (std::size_t k = 0; k < senders.size(); ++k)
        if (dist[v][senders[k]] + 1 == t) mask |= std::uint64_t{1} << k;
      ++by_step[t][mask];
    }
    for (const auto& [t, groups] : by_step) {
      BfbCellNetwork<std::int64_t> net;
      net.bandwidth = bandwidth;
      for (const auto& [mask, count] : groups) {
        net.AddGroup(count);
        for (std::uint64_t m = mask; m; m &= m - 1) net.AddGroupLink(__builtin_ctzll(m));
      }
      cells.push_back(std::move(net));
    }
  }
  return cells;
}

Topology HeterogeneousTorus(int k) {
  Topology unit = bfb_test::Torus({k, k});
  Topology g("torus_16_16_B1-4");
  for (int v = 0; v < unit.num_nodes(); ++v) g.AddCompute(unit.node(v).name);
  std::mt19937 rng(15);
  for (const Link& l : unit.links())
    g.AddLink(l.from, l.to, Rational(1 + static_cast<int>(rng() % 4)));
  return g;
}

struct CellCase {
  std::string name;
  std::vector<BfbCellNetwork<std::int64_t>> cells;
};

std::vector<CellCase>& CellCases() {
  static std::vector<CellCase> cases = [] {
    std::vector<CellCase> c;
    c.push_back({"Q_8", CellNetworks(bfb_test::Hypercube(8))});
    c.push_back({"torus_16x16", CellNetworks(bfb_test::Torus({16, 16}))});
    c.push_back({"genkautz_4_256", CellNetworks(bfb_test::GeneralizedKautz(4, 256))});
    c.push_back({"torus_16x16_B1-4", CellNetworks(HeterogeneousTorus(16))});
    c.push_back({"dgx1", CellNetworks(Dgx1(1))});
    return c;
  }();
  return cases;
}

template <bool kLemon>
void BM_CellFlow(benchmark::State& state) {
  const CellCase& c = CellCases()[state.range(0)];
  std::unique_ptr<BfbCellMaxFlow<std::int64_t>> flow;
  if (kLemon) flow = std::make_unique<LemonCellFlow>();
  BfbCellSolver<std::int64_t> solver(std::move(flow));
  std::int64_t check = 0;
  for (auto _ : state) {
    for (const auto& net : c.cells) {
      BfbCellOptimum<std::int64_t> opt = solver.Solve(net);
      check += opt.value.num;
      benchmark::DoNotOptimize(opt.flow.data());
    }
  }
  state.SetLabel(
      c.name + " cells=" + std::to_string(c.cells.size()) + " flows/pass=" +
      std::to_string(solver.flow_runs() / std::max<std::int64_t>(1, state.iterations())));
  benchmark::DoNotOptimize(check);
}

// Records each run's mean real and CPU time per iteration, then prints LEMON / Dinic per topology.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration)
        times_[r.benchmark_name()] = {r.GetAdjustedRealTime(), r.GetAdjustedCPUTime()};
    ConsoleReporter::ReportRuns(runs);
  }
  void PrintRatios() const {
    for (std::size_t i = 0; i < CellCases().size(); ++i) {
      const std::string arg = "/" + std::to_string(i);
      auto d = times_.find("BM_CellFlow<false>" + arg), l = times_.find("BM_CellFlow<true>" + arg);
      if (d == times_.end() || l == times_.end()) continue;
      // Times in the runs' unit (ms); CPU time is the steadier one on a shared machine.
      std::printf(
          "%-18s cells=%6zu  real: dinic=%9.3f ms lemon=%9.3f ms lemon/dinic=%.2fx  "
          "cpu: dinic=%9.3f ms lemon=%9.3f ms lemon/dinic=%.2fx\n",
          CellCases()[i].name.c_str(), CellCases()[i].cells.size(), d->second.first,
          l->second.first, l->second.first / d->second.first, d->second.second, l->second.second,
          l->second.second / d->second.second);
    }
  }

 private:
  std::map<std::string, std::pair<double, double>> times_;  // real, cpu
};

int RunCellFlowBenchmarks(int argc, char** argv) {
  for (int i = 0; i < static_cast<int>(CellCases().size()); ++i) {
    benchmark::RegisterBenchmark("BM_CellFlow<false>", BM_CellFlow<false>)
        ->Arg(i)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_CellFlow<true>", BM_CellFlow<true>)
        ->Arg(i)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  return 0;
}
#else
int RunCellFlowBenchmarks(int, char**) {
  std::fprintf(stderr, "bfb_bench: built without Google Benchmark (--cell-flow unavailable)\n");
  return 2;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--cell-flow")) {
      for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
      return RunCellFlowBenchmarks(argc - 1, argv);
    }
  }
  bool quick = false, base = true;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--no-base")) base = false;
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = static_cast<unsigned>(std::atoi(argv[++i]));
  }
  using namespace collsynth::bfb_test;
  const char* hyper_paper[] = {"",     "", "<0.01", "<0.01", "<0.01", "0.03",
                               "0.17", "", "",      "",      "52.7"};
  for (int dim = 2; dim <= (quick ? 6 : 10); ++dim) {
    if (dim > 6 && dim < 10) continue;  // Table 6 rows: 4..64 and 1024
    Run(Hypercube(dim), hyper_paper[dim], threads, base);
  }
  const int torus_rows[] = {2, 3, 4, 5, 6, 50};
  const char* torus_paper[] = {"<0.01", "<0.01", "<0.01", "0.01", "0.03", "61.1"};
  for (int k = 0; k < 6; ++k) {
    if (quick && torus_rows[k] > 6) continue;
    Run(Torus({torus_rows[k], torus_rows[k]}), torus_paper[k], threads, base);
  }
  return 0;
}
