// Baselines and expansions: absolute build times and the ratio to the step checker run on the
// same schedule in the same process (the checker is the baseline cost every CLI run pays).
// Usage: baselines_bench [scale]   (scale 1 = default sizes)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "core/stopwatch.h"
#include "graphs/generators/seed000_generators.h"
#include "proofs_check/step_checker.h"
#include "solvers/baselines/baselines.h"
#include "solvers/baselines/ring_baselines.h"
#include "solvers/bfb/schedule_expansion.h"

namespace {

void Report(const std::string& what, const collsynth::Topology& g,
            const std::function<collsynth::StepSchedule()>& build) {
  collsynth::StepSchedule s;
  double t_build = collsynth::SecondsToRun([&] { s = build(); });
  collsynth::StepCheckReport r;
  double t_check = collsynth::SecondsToRun([&] { r = collsynth::CheckStepSchedule(g, s); });
  std::printf(
      "%-34s N=%6d sends=%9zu build %8.3f s  check %8.3f s  build/check %6.2f  ok=%d T_L=%d "
      "T_B=%s\n",
      what.c_str(), g.num_nodes(), s.sends.size(), t_build, t_check, t_build / t_check,
      r.ok ? 1 : 0, r.tl, collsynth::ToString(r.tb).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace collsynth;
  int scale = argc > 1 ? std::atoi(argv[1]) : 1;
  for (const std::string name : {"multitree", "torus", "biring-bfb"}) {
    int side = 8 * scale;
    Topology g = name == "biring-bfb" ? BiRing(2, side * side) : Torus({side, side});
    BaselineOptions o;
    o.name = name;
    o.collective = Collective::kAllgather;
    Report(name + " " + g.name(), g, [&] { return BuildBaseline(g, o, "<bench>"); });
  }
  Topology ring = UniRing(1, 4 + 4 * scale);
  std::vector<int> order(ring.num_nodes());
  for (int i = 0; i < ring.num_nodes(); ++i) order[i] = i;
  StepSchedule a = UniRingAllgather(order);
  ExpandedSchedule p;
  collsynth::SecondsToRun([&] { p = CartesianPowerSchedule(ring, a, 3); });
  Report("power(uniring,3) schedule", p.topology,
         [&] { return CartesianPowerSchedule(ring, a, 3).schedule; });
  Topology k = CompleteBipartite(4);
  BaselineOptions mt;
  mt.name = "multitree";
  mt.collective = Collective::kAllgather;
  StepSchedule kb = BuildBaseline(k, mt, "<bench>");
  ExpandedSchedule l1 = LineGraphSchedule(k, kb);
  ExpandedSchedule l2 = LineGraphSchedule(l1.topology, l1.schedule);
  Report("line^3(K44) schedule", LineGraphSchedule(l2.topology, l2.schedule).topology,
         [&] { return LineGraphSchedule(l2.topology, l2.schedule).schedule; });
  return 0;
}
