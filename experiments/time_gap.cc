#include "experiments/time_gap.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/algorithm_registry.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "experiments/time_vs_size.h"
#include "experiments/tune.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"

namespace collsynth {

Rational TimeGapTarget(const Rational& bytes) {
  const Rational kb(1024), mb256(std::int64_t{1} << 28);
  return (bytes <= kb || bytes >= mb256) ? Rational(5, 4) : Rational(2);
}

namespace {

// max(H·α_min, D_α, α_min + R·shard/b) for a schedule of height H and ratio at least R.
Rational HeightTerm(std::int64_t h, const Rational& alpha_min, const Rational& diameter,
                    const Rational& ratio, const Rational& shard_per_unit) {
  const Rational height = alpha_min * h;
  const Rational bandwidth = alpha_min + ratio * shard_per_unit;
  return std::max(std::max(height, diameter), bandwidth);
}

}  // namespace

TreeTimeBound TreeScheduleTimeBound(const Topology& g, Collective collective,
                                    const SimulationModel& model,
                                    const std::optional<Rational>& ratio_star,
                                    std::int64_t height_lb, HeightRatioBounds* bounds,
                                    std::int64_t max_height) {
  const Rational star = ratio_star.value_or(Rational(0));
  const Rational shard_per_unit =
      ShardBytes(model, collective, g.num_compute()) / model.bytes_per_unit;
  const TuneAlphaEccentricities ecc = TuneAlphaEccentricity(g, model);
  TreeTimeBound out;
  if (collective == Collective::kAllreduce) {
    Rational two_phase = 0;
    for (std::size_t i = 0; i < ecc.out.size(); ++i) {
      const Rational both = ecc.in[i] + ecc.out[i];
      two_phase = std::max(two_phase, both);
    }
    const Rational bandwidth = star * shard_per_unit;
    out.seconds = std::max(two_phase, bandwidth);
    out.by = two_phase >= bandwidth ? "two-phase alpha (reduce into each root, then out)"
                                    : "bandwidth (ratio*)";
    return out;
  }
  Rational diameter = 0;
  for (const Rational& d : ecc.out) diameter = std::max(diameter, d);
  const Rational alpha_min = TuneLeastLatency(g, model);
  // A schedule of height H has ratio >= R(H) (both bounds are certified); above max_height, or
  // where no bound was computed, ratio* alone. Once R(H) = ratio*, taller heights only add.
  std::int64_t h = std::max<std::int64_t>(height_lb, 1);
  for (; h <= max_height && bounds != nullptr; ++h) {
    const std::optional<HeightRatioBounds::Bound> b = bounds->At(h);
    if (b && b->no_schedule) continue;
    const Rational ratio = b ? std::max(star, b->ratio) : star;
    const Rational t = HeightTerm(h, alpha_min, diameter, ratio, shard_per_unit);
    if (!out.height_hops || t < out.seconds) {
      out.seconds = t;
      out.height_hops = h;
      out.by = "height-ratio trade-off at height " + std::to_string(h);
    }
    if (ratio == star) return out;
  }
  const Rational t = HeightTerm(h, alpha_min, diameter, star, shard_per_unit);
  if (!out.height_hops || t < out.seconds) {
    out.seconds = t;
    out.height_hops = h;
    out.by = "ratio* at height " + std::to_string(h);
  }
  return out;
}

namespace experiments {
namespace {

struct GapParams {
  std::vector<MessageSize> sizes;
  SimulationModel model;
  std::string chunks = "1,2,4,8,16,32,64";
  std::int64_t height_bounds_max_compute = 32;
};

std::string Us(const Rational& seconds) { return ToString(seconds * 1000000); }
std::string UsDecimal(const Rational& seconds) { return FormatDecimal(seconds * 1000000, 3); }

// Why a row misses its target, in terms of the tree bound (docs/tune.md "Targets").
std::string MissReason(const TuneRow& row, const TreeTimeBound& tree, const Rational& target,
                       const TuneCandidates& cands) {
  const Rational tree_over_lb = tree.seconds / row.lower_bound;
  std::string out;
  if (tree.seconds > target * row.lower_bound) {
    out = "every tree schedule takes at least " + FormatDecimal(tree_over_lb, 3) + " LB (" +
          tree.by + ")";
    for (const TuneEntry& e : row.entries) {
      if (cands.list[e.candidate].steps) {
        out += "; " + e.algorithm + ", the one step schedule, takes " +
               FormatDecimal(e.time / row.lower_bound, 3) + " LB";
      }
    }
    return out;
  }
  return "not explained by a certified bound: tree schedules may take " +
         FormatDecimal(tree_over_lb, 3) + " LB (" + tree.by + "), no candidate does";
}

std::vector<ExperimentRow> RunCase(const std::string& topology, const std::string& label,
                                   Collective collective, const GapParams& p) {
  const SteadyClock::time_point t0 = SteadyClock::now();
  const Topology g = EvaluateTopologyExpression(topology);
  TuneCandidates cands = BuildTuneCandidates(g, collective, topology);
  MeasureTuneAlphaHeights(g, p.model, cands);
  const std::int64_t height_lb = PipelineHeightLowerBound(g, collective, g.ComputeNodes());
  std::unique_ptr<HeightRatioBounds> bounds;
  if (collective != Collective::kAllreduce && g.num_compute() <= p.height_bounds_max_compute) {
    bounds = std::make_unique<HeightRatioBounds>(g, collective);
  }
  std::vector<ExperimentRow> rows;
  for (const MessageSize& size : p.sizes) {
    const TuneRow row = TuneSize(g, cands, p.model, collective, p.chunks, size.bytes);
    SimulationModel model = p.model;
    model.size = size.bytes;
    TreeTimeBound tree = TreeScheduleTimeBound(g, collective, model, cands.bandwidth_bound,
                                               height_lb, bounds.get(), height_lb + 8);
    if (row.lower_bound > tree.seconds) tree = {row.lower_bound, std::nullopt, "LB"};
    const TuneEntry& best = row.entries[row.best];
    const TuneCandidate& winner = cands.list[best.candidate];
    const Rational gap = best.time / row.lower_bound;
    const Rational target = TimeGapTarget(size.bytes);
    ExperimentRow r;
    r.instance = label.empty() ? topology : label;
    r.algorithm = best.algorithm;
    r.collective = collective;
    r.nodes = g.num_compute();
    r.verified = Verified::kYes;  // every candidate passed its checker (BuildTuneCandidates)
    r.extra = {{"size", size.label},
               {"size_bytes", ToString(size.bytes)},
               {"chunks", std::to_string(best.chunks)},
               {"time_us", Us(best.time)},
               {"time_us_decimal", UsDecimal(best.time)},
               {"lower_bound_us", Us(row.lower_bound)},
               {"lower_bound_us_decimal", UsDecimal(row.lower_bound)},
               {"alpha_bound_us", Us(row.alpha_bound)},
               {"gap", ToString(gap)},
               {"gap_decimal", FormatDecimal(gap, 3)},
               {"target", ToString(target)},
               {"meets_target", gap <= target ? "yes" : "no"},
               {"height_hops", winner.height_hops ? std::to_string(*winner.height_hops) : ""},
               {"height_lower_bound_hops", std::to_string(height_lb)},
               {"tree_bound_us", Us(tree.seconds)},
               {"tree_bound_over_lb_decimal", FormatDecimal(tree.seconds / row.lower_bound, 3)},
               {"tree_bound_by", tree.by},
               {"gap_to_tree_bound_decimal", FormatDecimal(best.time / tree.seconds, 3)},
               {"candidates", std::to_string(row.entries.size())},
               {"reason", gap <= target ? "" : MissReason(row, tree, target, cands)}};
    r.wall_seconds = SecondsSince(t0);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params j(in);
  std::vector<Collective> collectives = {Collective::kAllgather, Collective::kReduceScatter,
                                         Collective::kAllreduce};
  if (j.Has("collectives") || j.Has("collective")) collectives = ReadCollectives(j);
  auto p = std::make_shared<GapParams>();
  p->sizes = ReadMessageSizes(j);
  const LinkParams link = ReadLinkParams(j, "1");
  p->model.default_alpha = link.alpha_seconds;
  p->model.bytes_per_unit = link.bytes_per_unit;
  if (j.Has("chunks")) {
    p->chunks.clear();
    for (std::int64_t v : j.Ints("chunks", {}, 1, std::int64_t{1} << 24)) {
      p->chunks += (p->chunks.empty() ? "" : ",") + std::to_string(v);
    }
    if (p->chunks.empty())
      throw j.Error("chunks", "must be a non-empty array of positive integers");
  }
  p->height_bounds_max_compute =
      j.Int("height_bounds_max_compute", p->height_bounds_max_compute, 0, std::int64_t{1} << 30);
  const std::vector<Params> cases = j.Objects("cases");
  if (cases.empty()) throw j.Error("cases", "must be a non-empty array");
  std::vector<ExperimentTask> tasks;
  for (const Params& cj : cases) {
    const std::string topology = cj.Topology("topology");
    const std::string label = cj.String("label", "");
    for (Collective collective : collectives) {
      tasks.push_back({topology + " " + CollectiveName(collective),
                       [=] { return RunCase(topology, label, collective, *p); }});
    }
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("time-gap", &MakeTasks,
                                         {"size",
                                          "size_bytes",
                                          "chunks",
                                          "time_us",
                                          "time_us_decimal",
                                          "lower_bound_us",
                                          "lower_bound_us_decimal",
                                          "alpha_bound_us",
                                          "gap",
                                          "gap_decimal",
                                          "target",
                                          "meets_target",
                                          "height_hops",
                                          "height_lower_bound_hops",
                                          "tree_bound_us",
                                          "tree_bound_over_lb_decimal",
                                          "tree_bound_by",
                                          "gap_to_tree_bound_decimal",
                                          "candidates",
                                          "reason"});

}  // namespace
}  // namespace experiments
}  // namespace collsynth
