#include "experiments/pareto.h"

#include <algorithm>
#include <stdexcept>

#include "core/input_error.h"
#include "experiments/tune.h"
#include "proofs_check/height_bound_check.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "solvers/baselines/routed_baselines.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth {
namespace {

// Keeps the candidate when the checker accepts it, with the checker's figures.
void Keep(const PipelineCheckReport& r, HeightCandidate c, HeightCandidates& out) {
  if (!r.ok) {
    out.skipped.push_back({c.algorithm, "failed the checker: " +
                                            (r.errors.empty() ? std::string("?") : r.errors[0])});
    return;
  }
  if (r.cut_ratio && !r.certified_by.empty() &&
      (!out.ratio_lower_bound || *r.cut_ratio > *out.ratio_lower_bound)) {
    out.ratio_lower_bound = *r.cut_ratio;
    out.ratio_lower_bound_by = r.certified_by;
  }
  out.height_lower_bound_hops = r.height_lower_bound_hops;
  c.ratio = r.ratio;
  c.height_hops = r.height_hops;
  c.verdict = PipelineVerdictName(r.verdict);
  out.list.push_back(std::move(c));
}

void KeepPipeline(const Topology& g, const std::string& name, PipelineSchedule s,
                  HeightCandidates& out) {
  PipelineCheckReport r = CheckPipelineSchedule(g, s);
  HeightCandidate c;
  c.algorithm = name;
  c.pipeline = std::move(s);
  Keep(r, std::move(c), out);
}

bool Better(const HeightCandidate& a, const HeightCandidate& b) {  // ratio, then height
  return a.ratio != b.ratio ? a.ratio < b.ratio : a.height_hops < b.height_hops;
}

// The column generation's candidates (HeightCandidateOptions::max_height, cg_heights), after
// the others: their certified ratio lower bound and heights decide where the scan stops.
void AddColumnGeneration(const Topology& g, Collective collective,
                         const HeightCandidateOptions& options, HeightCandidates& out) {
  const std::string name = "height-column-generation";
  HeightCgOptions o = options.cg;
  o.collective = collective;
  if (g.num_compute() > o.max_compute) {  // before the height bound's BFS from every root
    out.skipped.push_back({name, std::to_string(g.num_compute()) +
                                     " compute nodes, more than the limit " +
                                     std::to_string(o.max_compute)});
    return;
  }
  HeightColumnGeneration cg(g, o);
  // The height lower bound (allreduce: the sum of its phases').
  std::int64_t from = 0;
  for (Collective phase : {Collective::kReduceScatter, Collective::kAllgather}) {
    if (collective == phase || collective == Collective::kAllreduce)
      from += PipelineHeightLowerBound(g, phase, g.ComputeNodes());
  }
  std::int64_t to = from + options.cg_heights - 1;
  if (options.max_height) {
    from = to = *options.max_height;
  } else if (out.ratio_lower_bound) {
    for (const HeightCandidate& c : out.list) {
      if (c.ratio == *out.ratio_lower_bound) to = std::min(to, c.height_hops - 1);
    }
  }
  for (std::int64_t h = from; h <= to; ++h) {
    HeightCgResult r = cg.At(h);
    if (!r.schedule) {
      out.skipped.push_back({name, "height " + std::to_string(h) + ": " + r.why});
      if (r.too_large) return;
      continue;
    }
    const std::size_t before = out.list.size();
    KeepPipeline(g, name, std::move(*r.schedule), out);
    if (out.list.size() > before && out.ratio_lower_bound &&
        out.list.back().ratio == *out.ratio_lower_bound) {
      return;
    }
  }
}

}  // namespace

HeightCandidates BuildHeightCandidates(const Topology& g, Collective collective,
                                       const std::string& file,
                                       const HeightCandidateOptions& options) {
  if (collective == Collective::kBroadcast) {
    throw InputError("<args>", "--collective",
                     "height choices take allgather, reduce-scatter or allreduce");
  }
  HeightCandidates out;
  MinHeightOptions dag = options.dag;
  dag.collective = collective;
  MinHeightResult m = BuildShortestPathDagSchedule(g, dag);
  if (m.schedule) {
    KeepPipeline(g, "shortest-path-dag", std::move(*m.schedule), out);
  } else {
    out.skipped.push_back({"shortest-path-dag", m.why});
  }
  if (options.baselines && !PlainBaselineTooLarge(g).empty()) {
    for (const std::string& name : RoutedBaselineNames()) {
      out.skipped.push_back({name, PlainBaselineTooLarge(g)});
    }
  } else if (options.baselines) {
    for (const std::string& name : RoutedBaselineNames()) {
      RoutedBaselineOptions o;
      o.name = name;
      o.collective = collective;
      try {
        KeepPipeline(g, name, BuildRoutedBaseline(g, o, file), out);
      } catch (const InputError& e) {
        out.skipped.push_back({name, e.what()});
      }
    }
  }
  if (options.plain_pipeline) {
    if (g.num_compute() <= kTunePlainPipelineMaxCompute) {
      PipelineOptions po;
      po.collective = collective;
      PipelineSchedule s = BuildPipelineSchedule(g, po).schedule;
      s.height_hops = PipelineScheduleHeightHops(s);
      for (PipelineSchedule& phase : s.phases)
        phase.height_hops = PipelineScheduleHeightHops(phase);
      KeepPipeline(g, "pipeline", std::move(s), out);
    } else {
      out.skipped.push_back({"pipeline", "more than " +
                                             std::to_string(kTunePlainPipelineMaxCompute) +
                                             " compute nodes (the symmetric path serves them)"});
    }
  }
  if (options.symmetric_pipeline) {
    if (g.automorphisms().empty()) {
      out.skipped.push_back({"pipeline-symmetric", "the topology declares no automorphisms"});
    } else {
      SymmetricPipelineResult sym = BuildSymmetricPipelineSchedule(g, collective);
      if (sym.schedule) {
        SymmetricPipelineSchedule& s = *sym.schedule;
        s.height_hops = SymmetricPipelineScheduleHeightHops(s);
        for (SymmetricPipelineSchedule& phase : s.phases)
          phase.height_hops = SymmetricPipelineScheduleHeightHops(phase);
        PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, s);
        HeightCandidate c;
        c.algorithm = "pipeline-symmetric";
        c.symmetric = std::move(s);
        Keep(r, std::move(c), out);
      } else {
        out.skipped.push_back({"pipeline-symmetric", sym.why});
      }
    }
  }
  if (options.column_generation) AddColumnGeneration(g, collective, options, out);
  return out;
}

std::vector<std::size_t> ParetoFront(const HeightCandidates& c) {
  std::vector<std::size_t> order(c.list.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const HeightCandidate &x = c.list[a], &y = c.list[b];
    return x.height_hops != y.height_hops ? x.height_hops < y.height_hops : x.ratio < y.ratio;
  });
  std::vector<std::size_t> front;
  for (std::size_t i : order) {
    if (front.empty() || c.list[i].ratio < c.list[front.back()].ratio) front.push_back(i);
  }
  return front;
}

std::optional<std::size_t> MinHeightChoice(const HeightCandidates& c) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < c.list.size(); ++i) {
    if (!best || Better(c.list[i], c.list[*best])) best = i;
  }
  return best;
}

std::optional<std::size_t> BestRatioAtHeight(const HeightCandidates& c, std::int64_t max_height) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < c.list.size(); ++i) {
    if (c.list[i].height_hops > max_height) continue;
    if (!best || Better(c.list[i], c.list[*best])) best = i;
  }
  return best;
}

HeightRatioBounds::HeightRatioBounds(const Topology& g, Collective collective,
                                     HeightBoundOptions options)
    : g_(g), collective_(collective), options_(options) {
  if (collective == Collective::kBroadcast) {
    throw std::invalid_argument(
        "ratio bounds at a height cover allgather, reduce-scatter and "
        "allreduce");
  }
}

std::optional<HeightRatioBounds::Bound> HeightRatioBounds::Phase(Collective phase, std::int64_t h) {
  const auto key = std::make_pair(phase, h);
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  std::optional<Bound> out;
  const HeightBoundResult r = CertifyRatioAtHeight(g_, phase, h, options_);
  if (r.certificate) {
    // The figure is the checker's, recomputed here from the certificate alone.
    const HeightBoundReport check = CheckHeightBoundCertificate(g_, *r.certificate);
    if (check.ok) {
      out = Bound{check.bound, check.no_schedule};
    } else {
      why_ =
          "height " + std::to_string(h) + ": the certificate failed its check: " + check.violation;
    }
  } else {
    why_ = "height " + std::to_string(h) + ": " + r.why;
  }
  cache_.emplace(key, out);
  return out;
}

std::optional<HeightRatioBounds::Bound> HeightRatioBounds::At(std::int64_t h) {
  if (collective_ != Collective::kAllreduce) return Phase(collective_, h);
  // Allreduce: its height and ratio are the sums of the phases'; a split (h1, h - h1) covers
  // every schedule whose phases have heights <= h1 and <= h - h1 (the bounds fall with h).
  // No phase needs to be taller than TallestUsefulHeight (solvers/pipeline/height_bound.h): a
  // split with h1 above it covers no more schedules than (tallest, h - tallest), so only the
  // splits with both parts at most `tallest` are tried (at most tallest + 1 of them, whatever h).
  const std::int64_t tallest = TallestUsefulHeight(g_);
  h = std::min(h, 2 * tallest);
  std::optional<Bound> best;
  for (std::int64_t h1 = std::max<std::int64_t>(0, h - tallest); h1 <= std::min(h, tallest); ++h1) {
    const std::optional<Bound> rs = Phase(Collective::kReduceScatter, h1);
    if (!rs) return std::nullopt;
    if (rs->no_schedule) continue;
    const std::optional<Bound> ag = Phase(Collective::kAllgather, h - h1);
    if (!ag) return std::nullopt;
    if (ag->no_schedule) continue;
    const Rational sum = rs->ratio + ag->ratio;
    if (!best || best->no_schedule || sum < best->ratio) best = Bound{sum, false};
  }
  if (!best) best = Bound{Rational(0), true};
  return best;
}

std::int64_t HeightRatioBounds::LeastHeightAtRatio(const Rational& ratio, std::int64_t from,
                                                   std::int64_t up_to) {
  std::int64_t h = from;
  for (; h < up_to; ++h) {
    const std::optional<Bound> b = At(h);
    if (!b || (!b->no_schedule && b->ratio <= ratio)) break;
  }
  return h;
}

}  // namespace collsynth
