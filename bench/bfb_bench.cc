// BFB schedule generation times (seed 000 Table 6, BFB column: hypercube N = 4..1024 and
// n×n 2-D torus up to 50×50; the paper reports 52.7 s and 61.1 s for the largest two).
// For each topology: the exact certified solve (all LPs (3) with Thm 19 witnesses), then
// building the sends, the independent checker, and writing the "steps" JSON (time, size).
// Baseline measured in the same process: the same LPs solved by CLP alone (floating point,
// no certificate) for N <= kClpBaselineMaxNodes, reported as a ratio to the exact path.
//   usage: bfb_bench [--quick] [--threads T]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "graphs/topology.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/step_schedule.h"
#include "solvers/bfb_schedule.h"
#include "solvers/lp_backend.h"
#include "tests/solvers/bfb_test_topologies.h"

namespace {

using namespace collsynth;
using Clock = std::chrono::steady_clock;

constexpr int kClpBaselineMaxNodes = 256;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void Run(const Topology& g, const char* paper_seconds, unsigned threads) {
  BfbOptions o;
  o.threads = threads;
  auto t0 = Clock::now();
  BfbPlan plan = SolveBfbPlan(g, o);
  double solve = Since(t0);
  double clp = -1;
  if (g.num_nodes() <= kClpBaselineMaxNodes) {
    auto t1 = Clock::now();
    for (const auto& step : plan.cells)
      for (const BfbCell& c : step)
        if (!c.problem.sources.empty()) SolveLpWithClp(BuildBfbLp(c.problem));
    clp = Since(t1);
  }
  auto t2 = Clock::now();
  StepSchedule s;
  s.sends = BfbAllgatherSends(plan);
  double build = Since(t2);
  auto t3 = Clock::now();
  StepCheckOptions co;
  co.check_bfb = true;
  StepCheckReport rep = CheckStepSchedule(g, s, co);
  double check = Since(t3);
  auto t4 = Clock::now();
  std::string text = StepScheduleToJson(s, g).dump();
  double write = Since(t4);
  Rational tb(0);
  for (const Rational& x : plan.step_tb) tb += x;
  std::printf("%-16s N=%5d D=%3d subproblems=%7lld flows=%7lld exact_solve=%8.3fs clp_only=%s "
              "ratio=%s sends=%9zu build=%6.3fs check=%7.3fs(%s) json=%7.3fs %8.1f MB T_B=%s paper=%ss\n",
              g.name().c_str(), g.num_nodes(), plan.diameter, static_cast<long long>(plan.num_subproblems),
              static_cast<long long>(plan.flow_runs), solve,
              clp < 0 ? "      -" : (std::to_string(clp).substr(0, 7) + "s").c_str(),
              clp < 0 ? "   -" : std::to_string(clp / solve).substr(0, 6).c_str(), s.sends.size(), build,
              check, rep.ok ? "ok" : "FAIL", write, text.size() / 1e6, ToString(tb).c_str(), paper_seconds);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = static_cast<unsigned>(std::atoi(argv[++i]));
  }
  using namespace collsynth::bfb_test;
  const char* hyper_paper[] = {"", "", "<0.01", "<0.01", "<0.01", "0.03", "0.17", "", "", "", "52.7"};
  for (int dim = 2; dim <= (quick ? 6 : 10); ++dim) {
    if (dim > 6 && dim < 10) continue;  // Table 6 rows: 4..64 and 1024
    Run(Hypercube(dim), hyper_paper[dim], threads);
  }
  const int torus_rows[] = {2, 3, 4, 5, 6, 50};
  const char* torus_paper[] = {"<0.01", "<0.01", "<0.01", "0.01", "0.03", "61.1"};
  for (int k = 0; k < 6; ++k) {
    if (quick && torus_rows[k] > 6) continue;
    Run(Torus({torus_rows[k], torus_rows[k]}), torus_paper[k], threads);
  }
  return 0;
}
