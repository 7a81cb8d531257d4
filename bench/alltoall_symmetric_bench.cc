// The symmetric all-to-all optimum at cluster scale (docs/performance.md "Symmetric all-to-all"):
// per case, the time of each stage of `optimum --collective alltoall --symmetric -o` in process —
// the regular group (ChooseRegularGroup), the reduced LP in CLP, its exact re-solve, the root's
// paths, the compact check, then the written file read back and checked again without expanding
// (what the CLI's checked output does) — its size and the peak memory; against the baseline run
// in the same process, the full source-aggregated LP of alltoall_optimum.h (no symmetry) on the
// smallest case, fattree(8) (the full LP does not finish in minutes beyond it). Prints the ratio
// full LP / symmetric on the baseline case.
//   build/bench/alltoall_symmetric_bench [--only NAME] [--no-baseline]
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "core/stopwatch.h"
#include "graphs/expression.h"
#include "proofs_check/symmetric_flow_checker.h"
#include "schedules/alltoall_flow.h"
#include "schedules/symmetric_flow_schedule.h"
#include "solvers/alltoall/alltoall_optimum.h"
#include "solvers/alltoall/symmetric_alltoall.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth {
namespace {

double PeakMb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// The symmetric path end to end; its total seconds (-1 when not certified).
double RunSymmetric(const std::string& expr) {
  auto start = SteadyClock::now();
  const Topology g = EvaluateTopologyExpression(expr);
  const double build = SecondsSince(start);
  start = SteadyClock::now();
  std::string why;
  const std::optional<RegularGroup> h = ChooseRegularGroup(g, &why);
  const double group = SecondsSince(start);
  if (!h || h->representatives.size() != 1) {
    std::printf("%-28s no regular group on the compute nodes: %s\n", expr.c_str(), why.c_str());
    return -1;
  }
  const SymmetricAlltoallResult r = ComputeSymmetricAlltoall(
      g, {h->generators, h->orders, h->exponents, h->link_orbit, h->link_orbit_size});
  if (!r.certified) {
    std::printf("%-28s not certified: %s\n", expr.c_str(), r.why.c_str());
    return -1;
  }
  start = SteadyClock::now();
  std::ostringstream text;
  WriteSymmetricFlowSchedule(text, *r.schedule, g);
  const double write = SecondsSince(start);
  start = SteadyClock::now();
  const SymmetricFlowSchedule back =
      SymmetricFlowScheduleFromJson(ParseJsonText(text.str(), "bench"), g, "bench");
  const FlowCheckReport check = CheckSymmetricFlowSchedule(g, back);
  const double reread = SecondsSince(start);
  const bool ok = check.ok && check.optimal && *check.optimal && check.time == r.schedule->time;
  const double total =
      group + r.lp_seconds + r.exact_seconds + r.paths_seconds + r.check_seconds + write + reread;
  std::printf(
      "%-28s N=%-6d V=%-6d E=%-7d LP %dx%d  lambda*=%s %s | group %.2f  LP %.2f  exact %.2f  "
      "paths %.2f  check %.2f  write %.2f  re-read+check %.2f  total %.2f s (topology %.2f s)  "
      "file %.2f MB  peak %.0f MB\n",
      expr.c_str(), g.num_compute(), g.num_nodes(), g.num_links(), r.lp_columns, r.lp_rows,
      ToString(r.lambda).c_str(), ok ? "certified" : "RE-CHECK FAILED", group, r.lp_seconds,
      r.exact_seconds, r.paths_seconds, r.check_seconds, write, reread, total, build,
      static_cast<double>(text.str().size()) / 1e6, PeakMb());
  return ok ? total : -1;
}

// The baseline: the full LP (no symmetry used) on the same topology.
double RunFullLp(const std::string& expr) {
  const Topology g = EvaluateTopologyExpression(expr);
  AlltoallOptions o;
  o.regular_group = false;
  const auto start = SteadyClock::now();
  const AlltoallOptimum opt = ComputeAlltoallOptimum(g, UniformDemand(g), o);
  const double s = SecondsSince(start);
  std::printf("%-28s full LP %dx%d  lambda*=%s (%s, %s)  %.2f s  peak %.0f MB\n", expr.c_str(),
              opt.lp_columns, opt.lp_rows, ToString(opt.certificate.lambda).c_str(),
              ToString(opt.outcome).c_str(), opt.certified_by.c_str(), s, PeakMb());
  return s;
}

}  // namespace
}  // namespace collsynth

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line per stage even when killed by a timeout
  std::string only;
  bool baseline = true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (std::strcmp(argv[i], "--no-baseline") == 0) {
      baseline = false;
    }
  }
  const std::vector<std::string> cases = {"fattree(8)", "fattree(16)", "fattree(32)",
                                          "gpuboxes(2048,8,300,25,8)"};
  int status = 0;
  for (const std::string& c : cases) {
    if (!only.empty() && c != only) continue;
    const double sym = collsynth::RunSymmetric(c);
    if (sym < 0) status = 1;
    if (baseline && c == "fattree(8)") {
      const double full = collsynth::RunFullLp(c);
      if (sym > 0) std::printf("%-28s ratio full LP / symmetric: %.1f\n", c.c_str(), full / sym);
    }
  }
  if (!only.empty() && only.find('(') != std::string::npos &&
      std::find(cases.begin(), cases.end(), only) == cases.end()) {
    // any other expression, e.g. fattree(4) for the smoke run
    if (collsynth::RunSymmetric(only) < 0) status = 1;
  }
  return status;  // nonzero when a case was not certified or its re-check failed
}
