// Checker benchmark (docs/performance.md "Checkers"): verify a 1024-node hypercube
// recursive-doubling allgather with one send per (source, step, link), N(N-1) ≈ 10^6 sends.
// Baselines measured in the same process: JSON serialization + parsing of the schedule (what
// `collsynth verify` reads) and the brute-force simulator on a small hypercube. Usage:
// checker_bench [dim=10]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/stopwatch.h"
#include "proofs_check/brute_force_simulator.h"
#include "proofs_check/step_checker.h"
#include "schedules/step_schedule.h"
#include "tests/fixtures/json_tree_writers.h"

namespace {

using namespace collsynth;
using Clock = std::chrono::steady_clock;

Topology Hypercube(int dim) {
  Topology g("hypercube");
  const int n = 1 << dim;
  for (int v = 0; v < n; ++v) g.AddCompute("h" + std::to_string(v));
  for (int v = 0; v < n; ++v) {
    for (int b = 0; b < dim; ++b) g.AddLink(v, v ^ (1 << b), Rational(1));
  }
  return g;
}

StepSchedule RecursiveDoubling(int dim) {
  StepSchedule s;
  const int n = 1 << dim;
  s.sends.reserve(static_cast<std::size_t>(n) * (n - 1));
  for (int t = 1; t <= dim; ++t) {
    const int bit = 1 << (t - 1);
    for (int v = 0; v < n; ++v) {
      for (int m = 0; m < bit; ++m) {
        s.sends.push_back(StepSend{v ^ m, {Interval{Rational(0), Rational(1)}}, v, v ^ bit, t});
      }
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const int dim = argc > 1 ? std::atoi(argv[1]) : 10;
  Topology g = Hypercube(dim);
  auto t0 = Clock::now();
  StepSchedule s = RecursiveDoubling(dim);
  auto t1 = Clock::now();
  StepCheckReport r = CheckStepSchedule(g, s);
  auto t2 = Clock::now();
  std::string text = StepScheduleToJson(s, g).dump();
  auto t3 = Clock::now();
  nlohmann::json j = nlohmann::json::parse(text);
  auto t4 = Clock::now();
  StepSchedule back = StepScheduleFromJson(j, g, "<bench>");
  auto t5 = Clock::now();
  std::printf("hypercube dim %d: N = %d, %zu sends, %zu bytes of JSON\n", dim, 1 << dim,
              s.sends.size(), text.size());
  std::printf("  build schedule        %8.3f s\n", SecondsBetween(t0, t1));
  std::printf("  CheckStepSchedule     %8.3f s  (ok=%d, T_L=%d, T_B=%s)\n", SecondsBetween(t1, t2),
              r.ok, r.tl, ToString(r.tb).c_str());
  std::printf("  JSON dump (baseline)  %8.3f s\n", SecondsBetween(t2, t3));
  std::printf("  JSON parse (baseline) %8.3f s  (check / parse = %.2f)\n", SecondsBetween(t3, t4),
              SecondsBetween(t1, t2) / SecondsBetween(t3, t4));
  std::printf("  StepScheduleFromJson  %8.3f s  (%zu sends)\n", SecondsBetween(t4, t5),
              back.sends.size());
  std::printf("  verify total (parse + read + check) %8.3f s\n",
              SecondsBetween(t3, t5) + SecondsBetween(t1, t2));
  // Brute force vs checker on a small cube (the checker's speed-up over the naive method).
  const int small = 5;
  Topology gs = Hypercube(small);
  StepSchedule ss = RecursiveDoubling(small);
  auto b0 = Clock::now();
  StepCheckReport rs = CheckStepSchedule(gs, ss);
  auto b1 = Clock::now();
  BruteForceResult bf = SimulateStepSchedule(gs, ss);
  auto b2 = Clock::now();
  std::printf(
      "hypercube dim %d (%zu sends): checker %.4f s, brute force %.4f s, ratio %.1f (agree: %d)\n",
      small, ss.sends.size(), SecondsBetween(b0, b1), SecondsBetween(b1, b2),
      SecondsBetween(b1, b2) / SecondsBetween(b0, b1), rs.ok == bf.valid && rs.tb == bf.tb);
  return r.ok ? 0 : 1;
}
