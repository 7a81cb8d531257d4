// Experiment kind "link-utilisation" (seed 001, MultiTree): on 2D tori and meshes, MultiTree
// against the baselines its paper compares with, RING (the unidirectional ring allreduce over a
// Hamiltonian cycle of the grid) and 2D-RING (solvers/baselines/two_d_ring.h), and the
// workbench's BFB allreduce, every step schedule checked by proofs_check (the 2D-ring line by
// line), with the link-level numbers a schedule-level tool can compute:
//   tl, tb (shard units (M/N)/b), lower_bound = ratio*(G^T) + ratio*(G) (seed 004 bound (1)
//   per phase): the least T_B of any reduce-scatter-then-allgather schedule, which every row
//   here is (2D-ring line by line); 2(N-1)/B on the regular tori,
//   data_per_node_per_phase — the shards a node sends in one phase (half the allreduce): the
//     paper's "2D-ring transmits 2N(N-1) data while flat ring communicates N²-1" (§I, §II-C),
//   avg_link_utilisation — data carried / (Σ_e b_e · T_B), the paper's "only 25% link
//     utilization rate in a 4×4 2D Torus" for ring all-reduce (§I),
//   step_utilisation — per step, data carried / (Σ_e b_e · that step's time), run-length
//     encoded ("1/4*30" = thirty steps at 1/4), the "links under-utilized / fully utilize the
//     links" statements of §IV-B and §VI,
//   tb_ratio_vs_multitree — T_B over MultiTree's T_B on the same topology.
// params: "topologies": ["torus(4,4)", "mesh(4,4)", ...] (2-D grids, first dimension even for
// RING), "algorithms": ["ring", "2dring", "torus", "multitree", "bfb"]. One task per topology.
// "torus" is the workbench's traditional torus baseline as an allreduce (reduce-scatter then
// allgather dimension by dimension, solvers/baselines/torus_baseline.h): the hierarchical 2-D
// scheme that sends N²-1 shards per phase, for contrast with 2D-RING's 2N(N-1). "pipeline" is
// seed 004's optimal pipeline allreduce (collective_compare.h, checked by the pipeline
// checker): a fluid schedule, so only tb (the optimum) and no step or utilisation columns.
// A (topology, algorithm) pair the algorithm cannot run on (2D-ring on a mesh larger than 2×2)
// gives a row with verified n/a and the reason in `note`.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/algorithm_registry.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "solvers/baselines/baseline_structure.h"
#include "solvers/pipeline/allgather_optimum.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

// Per step t, per link e: data (g's shard units) from a step schedule.
std::vector<std::vector<Rational>> ScheduleLoads(const Topology& g, const StepSchedule& s,
                                                 int steps) {
  std::vector<std::vector<Rational>> loads(steps, std::vector<Rational>(g.num_links()));
  for (const StepSend& send : s.sends) {
    Rational amount(0);
    for (const Interval& iv : send.chunk) amount += iv.hi - iv.lo;
    loads[send.step - 1][*g.FindLink(send.from, send.to)] += amount;
  }
  return loads;
}

struct LoadStats {
  Rational tb, total, utilisation;
  std::string per_step;  // run-length encoded per-step utilisation
};

LoadStats Summarise(const Topology& g, const std::vector<std::vector<Rational>>& loads) {
  LoadStats st;
  Rational capacity(0);
  for (const Link& l : g.links()) capacity += l.bandwidth;
  std::vector<std::pair<Rational, int>> runs;
  for (const auto& step : loads) {
    Rational time(0), data(0);
    for (int e = 0; e < g.num_links(); ++e) {
      data += step[e];
      Rational t = step[e] / g.link(e).bandwidth;
      if (t > time) time = t;
    }
    if (time == 0) continue;  // an empty step (never produced here)
    st.tb += time;
    st.total += data;
    Rational u = data / (capacity * time);
    if (!runs.empty() && runs.back().first == u) {
      ++runs.back().second;
    } else {
      runs.emplace_back(u, 1);
    }
  }
  st.utilisation = st.tb == 0 ? Rational(0) : st.total / (capacity * st.tb);
  for (const auto& [u, count] : runs) {
    st.per_step += (st.per_step.empty() ? "" : " ") + ToString(u) + "*" + std::to_string(count);
  }
  return st;
}

ExperimentRow BaseRow(const std::string& expr, const Topology& g, const std::string& algorithm) {
  ExperimentRow row;
  row.instance = expr;
  row.algorithm = algorithm;
  row.collective = Collective::kAllreduce;
  row.nodes = g.num_compute();
  row.tb_unit = "(M/N)/b";
  return row;
}

// The paper's printed value this row corresponds to, when there is one.
std::string PaperValue(const Grid& grid, const std::string& algorithm, bool torus) {
  if (grid.dims.size() != 2 || grid.dims[0] != grid.dims[1] || !torus) return "";
  const std::int64_t n = grid.dims[0];
  if (algorithm == "grid:ring") {
    std::string v = "data/node/phase N^2-1 = " + std::to_string(n * n - 1) + " (§I, §II-C)";
    if (n == 4) v += "; 25% link utilization in a 4x4 torus (§I)";
    return v;
  }
  if (algorithm == "grid:2dring") {
    return "data/node/phase 2N(N-1) = " + std::to_string(2 * n * (n - 1)) +
           " (§I, §II-C); utilizes all the links (§II-C)";
  }
  return "";
}

std::vector<ExperimentRow> RunTopology(const std::string& expr,
                                       const std::vector<std::string>& algorithms) {
  const Topology g = EvaluateTopologyExpression(expr);
  const Grid grid = InferGrid(g, {}, expr);
  const bool torus = expr.rfind("torus(", 0) == 0;
  std::vector<ExperimentRow> rows;
  // RS then AG: each phase at least its allgather optimum ratio* (seed 004 (1)), on G^T for RS.
  const Rational bound =
      ComputeAllgatherOptimum(g.Transpose()).ratio + ComputeAllgatherOptimum(g).ratio;
  std::optional<Rational> multitree_tb;
  for (const std::string& a : algorithms) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::string name = *CanonicalAlgorithm(a);
    ExperimentRow row = BaseRow(expr, g, a);
    std::string note;
    std::optional<LoadStats> st;
    try {
      const AlgorithmRun run = RunAlgorithm(g, {name, expr}, Collective::kAllreduce);
      row.verified = run.verified;
      if (run.pipeline_report) {
        row.tb = run.tb;
        note = "fluid pipeline schedule (seed 004): T_B only; certified optimal: " +
               std::string(CertifyRun(run, std::nullopt).certified ? "yes" : "no");
      } else if (run.two_d_ring) {
        row.tl = run.tl;
        st = Summarise(g, TwoDRingLinkLoads(g, *run.two_d_ring));
        note = "checked line by line: " + std::to_string(run.two_d_ring->lines.size()) +
               " ring allreduces of half the data (not one RS+AG schedule on the grid)";
      } else {
        row.tl = run.tl;
        st = Summarise(g, ScheduleLoads(g, *run.step, run.step_report->tl));
        if (st->tb != *run.tb) row.verified = Verified::kNo;  // the loads must be the checker's
      }
    } catch (const InputError& e) {
      note = "not run: " + e.item() + ": " + e.problem();
    }
    if (st) {
      row.tb = st->tb;
      if (name == "baseline:multitree") multitree_tb = st->tb;
    }
    row.wall_seconds = SecondsSince(t0);
    const Rational half_total =
        st ? st->total / (Rational(2) * Rational(g.num_compute())) : Rational(0);
    row.extra = {{"data_per_node_per_phase", st ? ToString(half_total) : ""},
                 {"avg_link_utilisation", st ? ToString(st->utilisation) : ""},
                 {"avg_link_utilisation_pct", st ? FormatDecimal(st->utilisation * 100, 2) : ""},
                 {"step_utilisation", st ? st->per_step : ""},
                 {"tb_ratio_vs_multitree", ""},
                 {"paper_value", PaperValue(grid, name, torus)},
                 {"note", note}};
    rows.push_back(std::move(row));
  }
  for (ExperimentRow& row : rows) {
    row.lower_bound = bound;
    if (multitree_tb && row.tb) row.extra[4].second = FormatDecimal(*row.tb / *multitree_tb, 3);
  }
  return rows;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params p(in);
  const std::vector<std::string> topologies = p.Topologies("topologies");
  const std::vector<std::string> algorithms = p.Strings("algorithms");
  for (const char* key : {"topologies", "algorithms"}) {
    if (p.Strings(key).empty()) throw p.Error(key, "must be a non-empty array of strings");
  }
  for (const std::string& a : algorithms) {
    const auto [name, problem] = AcceptAlgorithm(
        a, {{"grid:ring", "grid:2dring", "baseline:torus", "baseline:multitree", "bfb", "pipeline"},
            false});
    if (!name) throw p.Error("algorithms", problem);
  }
  std::vector<ExperimentTask> tasks;
  for (const std::string& t : topologies) {
    tasks.push_back({t, [t, algorithms] { return RunTopology(t, algorithms); }});
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("link-utilisation", &MakeTasks,
                                         {"data_per_node_per_phase", "avg_link_utilisation",
                                          "avg_link_utilisation_pct", "step_utilisation",
                                          "tb_ratio_vs_multitree", "paper_value", "note"});

}  // namespace
}  // namespace collsynth::experiments
