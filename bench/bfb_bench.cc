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
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "graphs/topology.h"
#include "graphs/topology_io.h"
#include "schedules/compact_schedule.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/backends/lp_backend.h"
#include "tests/solvers/bfb_test_topologies.h"

namespace {

using namespace collsynth;
using Clock = std::chrono::steady_clock;

constexpr int kClpBaselineMaxNodes = 256;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void Run(const Topology& g, const char* paper_seconds, unsigned threads, bool base) {
  BfbOptions o;
  o.threads = threads;
  auto t0 = Clock::now();
  BfbFlatPlan plan = SolveBfbFlatPlan(g, o);
  const double flat = Since(t0);
  double base_s = -1, clp = -1;
  bool agree = true;
  if (base) {
    auto t1 = Clock::now();
    BfbPlan ref = SolveBfbPlan(g, o);
    base_s = Since(t1);
    agree = ref.step_tb == plan.step_tb && ref.step_u_max == plan.step_u_max;
    if (g.num_nodes() <= kClpBaselineMaxNodes) {
      auto t2 = Clock::now();
      for (const auto& step : ref.cells)
        for (const BfbCell& c : step)
          if (!c.problem.sources.empty()) SolveLpWithClp(BuildBfbLp(c.problem));
      clp = Since(t2);
    }
  }
  auto t3 = Clock::now();
  CompactStepSchedule s = *BfbFlatAllgatherSends(g, plan);
  const double build = Since(t3);
  auto t4 = Clock::now();
  StepCheckOptions co;
  co.check_bfb = true;
  StepCheckReport rep = CheckStepSchedule(g, s, co);
  const double check = Since(t4);
  auto t5 = Clock::now();
  std::string compact_text = CompactStepScheduleToText(s, g);
  const double write_compact = Since(t5);
  auto t6 = Clock::now();
  std::string json_text = StepsJsonTextFromCompact(s, g);
  const double write_json = Since(t6);
  json_text = std::string();
  auto t7 = Clock::now();
  StepCheckReport rep2 = CheckStepSchedule(g, CompactStepScheduleFromJson(ParseJsonText(compact_text, "c"), g, "c"), co);
  const double reread = Since(t7);
  Rational tb(0);
  for (const Rational& x : plan.step_tb) tb += x;
  std::printf(
      "%-14s N=%5d D=%3d cells=%7lld certified=%7lld flows=%7lld flat=%7.3fs base=%s ratio=%s clp=%s "
      "agree=%s sends=%8zu build=%6.3fs check=%6.3fs(%s) compact=%6.3fs %6.1fMB json=%6.3fs %6.1fMB "
      "reread+check=%6.3fs(%s) T_B=%s paper=%ss\n",
      g.name().c_str(), g.num_nodes(), plan.diameter, static_cast<long long>(plan.num_subproblems),
      static_cast<long long>(plan.certified), static_cast<long long>(plan.flow_runs), flat,
      base_s < 0 ? "-" : (std::to_string(base_s).substr(0, 6) + "s").c_str(),
      base_s < 0 ? "-" : (std::to_string(base_s / flat).substr(0, 6) + "x").c_str(),
      clp < 0 ? "-" : (std::to_string(clp).substr(0, 6) + "s").c_str(), agree ? "yes" : "NO", s.num_sends(), build,
      check, rep.ok ? "ok" : "FAIL", write_compact, compact_text.size() / 1e6, write_json,
      StepsJsonTextFromCompact(s, g).size() / 1e6, reread, rep2.ok ? "ok" : "FAIL", ToString(tb).c_str(),
      paper_seconds);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, base = true;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--no-base")) base = false;
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = static_cast<unsigned>(std::atoi(argv[++i]));
  }
  using namespace collsynth::bfb_test;
  const char* hyper_paper[] = {"", "", "<0.01", "<0.01", "<0.01", "0.03", "0.17", "", "", "", "52.7"};
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
