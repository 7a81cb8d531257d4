#include "experiments/tune.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>

#include "core/input_error.h"
#include "experiments/algorithm_registry.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "simulate/chunk_choice.h"
#include "simulate/pipeline_simulation.h"
#include "simulate/simulation_model.h"
#include "simulate/simulation_run.h"
#include "solvers/baselines/routed_baselines.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace collsynth {
namespace {

bool HasSwitch(const Topology& g) { return g.num_compute() != g.num_nodes(); }

// The certified ratio bound a pipeline check found: its cut ratio when the checker accepted
// the cut (a lower bound on every schedule's T_B, seed 004 (1)/(6)/(7)).
// An allreduce's phases count too: an allreduce of M bytes computes an allgather and a
// reduce-scatter of shard M/N (docs/tune.md "The lower bound"), so their certified bounds bound
// it as well.
void KeepBound(const PipelineCheckReport& r, TuneCandidates& out) {
  if (!r.ok) return;
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    const PipelineCheckReport& phase = r.phases[i];
    if (!phase.cut_ratio || phase.certified_by.empty()) continue;
    if (!out.bandwidth_bound || *phase.cut_ratio > *out.bandwidth_bound) {
      out.bandwidth_bound = *phase.cut_ratio;
      out.bandwidth_bound_by =
          (i == 0 ? "reduce-scatter phase: " : "allgather phase: ") + phase.certified_by;
    }
  }
  if (!r.cut_ratio || r.certified_by.empty()) return;
  if (!out.bandwidth_bound || *r.cut_ratio > *out.bandwidth_bound) {
    out.bandwidth_bound = *r.cut_ratio;
    out.bandwidth_bound_by = r.certified_by;
  }
}

// A pipeline schedule `s` with its check report `r`: a candidate, or skipped with the checker's
// first error.
void AddChecked(const PipelineCheckReport& r, const std::string& name, PipelineSchedule s,
                TuneCandidates& out) {
  if (!r.ok) {
    out.skipped.push_back({name, "failed the checker: " + r.errors.at(0)});
    return;
  }
  KeepBound(r, out);
  TuneCandidate c;
  c.algorithm = name;
  c.height_hops = r.height_hops;
  c.pipeline = std::move(s);
  out.list.push_back(std::move(c));
}

// The least simulated time of `s` over the P of `sweep` (the smallest P among equal times), as
// `simulate --chunks-sweep` chooses it, with two savings that cannot change the choice:
// * a P is not simulated when P·α_min > the best time so far (or equals it with a larger P):
//   chunk j of a route enters its first link only after chunk j - 1 has left it and reaches
//   the link α after that (simulate/route_transfers.cc, docs/simulate.md "Pipeline schedules"),
//   so P chunks take at least P·α_min;
// * the best P is not simulated a second time.
// The sweep is cut to its longest prefix within the simulator's work bound (kMaxSimulatedTransfers
// summed over the list, as `simulate` checks it); InputError when even its first P is above it.
std::pair<std::int64_t, Rational> SweepPipeline(const PipelineSchedule& s, const Topology& g,
                                                SimulationModel model,
                                                const std::vector<std::int64_t>& sweep,
                                                const Rational& alpha_min) {
  std::uint64_t work = 0;
  std::optional<std::pair<std::int64_t, Rational>> best;
  for (std::int64_t p : sweep) {
    model.chunks = p;
    work += PipelineTransferCount(s, model);
    if (work > kMaxSimulatedTransfers) {
      if (best) break;
      throw InputError("<args>", "--chunks-sweep",
                       "P = " + std::to_string(p) + " gives more than " +
                           std::to_string(kMaxSimulatedTransfers) +
                           " transfers (routes x P x hops), above the simulator's limit");
    }
    if (best) {
      const Rational floor = alpha_min * p;
      if (floor > best->second || (floor == best->second && p > best->first)) continue;
    }
    Rational t = BuildPipelineSimulation(s, g, model).Run().completion;
    if (!best || t < best->second || (t == best->second && p < best->first)) {
      best = std::make_pair(p, std::move(t));
    }
  }
  return *best;
}

}  // namespace

Rational TuneLeastLatency(const Topology& g, const SimulationModel& model) {
  const std::vector<Rational> alpha = LinkLatencies(g, model);
  if (alpha.empty()) return Rational(0);
  return *std::min_element(alpha.begin(), alpha.end());
}

std::string PlainBaselineTooLarge(const Topology& g) {
  if (g.num_compute() <= kTunePlainPipelineMaxCompute) return "";
  return "more than " + std::to_string(kTunePlainPipelineMaxCompute) +
         " compute nodes (a plain schedule has N(N - 1) tree edges)";
}

TuneCandidates BuildTuneCandidates(const Topology& g, Collective collective,
                                   const std::string& file) {
  if (collective == Collective::kBroadcast)
    throw InputError("<args>", "--collective", "tune takes allgather, reduce-scatter or allreduce");
  TuneCandidates out;
  // The pipeline path: symmetric where it applies, plain up to a size.
  SymmetricPipelineResult sym = BuildSymmetricPipelineSchedule(g, collective);
  if (sym.schedule) {
    PipelineCheckReport r = CheckSymmetricPipelineSchedule(g, *sym.schedule);
    if (!r.ok) {
      out.skipped.push_back({"pipeline-symmetric", "failed the checker: " + r.errors.at(0)});
    } else {
      KeepBound(r, out);
      TuneCandidate c;
      c.algorithm = "pipeline-symmetric";
      c.height_hops = r.height_hops;
      c.pipeline = ExpandSymmetricPipelineSchedule(*sym.schedule, g);
      c.symmetric = std::move(*sym.schedule);
      out.list.push_back(std::move(c));
    }
  } else {
    out.skipped.push_back({"pipeline-symmetric", sym.why});
  }
  if (g.num_compute() <= kTunePlainPipelineMaxCompute) {
    experiments::AlgorithmRun run = experiments::RunAlgorithm(g, {"pipeline", file}, collective);
    AddChecked(*run.pipeline_report, "pipeline", std::move(*run.pipeline), out);
  } else {
    out.skipped.push_back({"pipeline", "more than " + std::to_string(kTunePlainPipelineMaxCompute) +
                                           " compute nodes (the symmetric path serves them)"});
  }
  // BFB (seed 000 §6): direct-connect topologies.
  if (HasSwitch(g)) {
    out.skipped.push_back({"bfb", "BFB schedules are for direct-connect topologies"});
  } else {
    try {
      experiments::AlgorithmRun run = experiments::RunAlgorithm(g, {"bfb", file, true}, collective);
      const StepCheckReport& r = *run.step_report;
      if (!r.ok) {
        out.skipped.push_back({"bfb", "failed the checker: " + r.errors.at(0)});
      } else {
        TuneCandidate c;
        c.algorithm = "bfb";
        run.step->claimed_tl = r.tl;
        run.step->claimed_tb = r.tb;
        c.steps = std::move(run.step);
        out.list.push_back(std::move(c));
      }
    } catch (const InputError& e) {
      out.skipped.push_back({"bfb", e.what()});
    } catch (const std::invalid_argument& e) {
      out.skipped.push_back({"bfb", e.what()});
    }
  }
  // Routed baselines; `direct` (the first) sets the work the others may take.
  std::uint64_t direct_transfers = 0;
  for (const std::string& name : RoutedBaselineNames()) {
    if (const std::string why = PlainBaselineTooLarge(g); !why.empty()) {
      out.skipped.push_back({name, why});
      continue;
    }
    RoutedBaselineOptions o;
    o.name = name;
    o.collective = collective;
    try {
      PipelineSchedule s = BuildRoutedBaseline(g, o, file);
      const std::uint64_t transfers = PipelineTransferCount(s, SimulationModel{});
      if (name == "direct") direct_transfers = transfers;
      if (transfers > kTuneRoutedBaselineTransfers &&
          transfers > kTuneRoutedBaselineWorkOverDirect * direct_transfers) {
        out.skipped.push_back({name, std::to_string(transfers) +
                                         " transfers per chunk, more than " +
                                         std::to_string(kTuneRoutedBaselineWorkOverDirect) +
                                         " times direct's and 2^16 (collsynth simulate runs it)"});
        continue;
      }
      const PipelineCheckReport r = CheckPipelineSchedule(g, s);  // before `s` is moved from
      AddChecked(r, name, std::move(s), out);
    } catch (const InputError& e) {
      out.skipped.push_back({name, e.what()});
    }
  }
  return out;
}

void MeasureTuneAlphaHeights(const Topology& g, const SimulationModel& model,
                             TuneCandidates& candidates) {
  const std::vector<Rational> alpha = LinkLatencies(g, model);
  for (TuneCandidate& c : candidates.list) {
    if (c.pipeline) c.height_alpha = PipelineHeightAlpha(g, *c.pipeline, alpha);
  }
}

std::vector<TuneByteRange> TuneByteRanges(const std::vector<Rational>& bytes,
                                          const std::vector<std::string>& winners) {
  if (bytes.size() != winners.size()) throw std::logic_error("TuneByteRanges: one winner per size");
  const BigInt int64_max(std::numeric_limits<std::int64_t>::max());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (Denominator(bytes[i]) != 1 || bytes[i] < 1 || Numerator(bytes[i]) > int64_max) {
      throw InputError("<args>", "--sizes",
                       "an exported size must be a whole number of bytes from 1 to 2^63 - 1, not " +
                           ToString(bytes[i]));
    }
    if (i > 0 && bytes[i] <= bytes[i - 1]) {
      throw InputError("<args>", "--sizes",
                       "list the sizes in increasing order to export byte ranges (" +
                           ToString(bytes[i - 1]) + " then " + ToString(bytes[i]) + ")");
    }
  }
  std::vector<TuneByteRange> out;
  for (std::size_t i = 0; i < bytes.size();) {
    std::size_t j = i;
    while (j + 1 < bytes.size() && winners[j + 1] == winners[i]) ++j;
    TuneByteRange r;
    r.first = i;
    r.last = j;
    r.min_bytes = out.empty() ? 0 : *out.back().max_bytes + 1;
    if (j + 1 < bytes.size()) {
      const BigInt boundary = sqrt(BigInt(Numerator(bytes[j]) * Numerator(bytes[j + 1])));
      r.max_bytes = ToInt64(boundary);
    }
    out.push_back(r);
    i = j + 1;
  }
  return out;
}

std::optional<std::string> TuneNcclAlgorithm(Collective collective, const std::string& algorithm) {
  if (TuneNcclCollectiveName(collective).empty()) return std::nullopt;
  if (algorithm == "routed-ring") return std::string("ring");
  if (algorithm == "routed-double-binary-tree" && collective == Collective::kAllreduce) {
    return std::string("tree");
  }
  return std::nullopt;
}

std::string TuneNcclCollectiveName(Collective collective) {
  switch (collective) {
    case Collective::kAllgather:
      return "allgather";
    case Collective::kReduceScatter:
      return "reducescatter";
    case Collective::kAllreduce:
      return "allreduce";
    default:
      return "";
  }
}

std::optional<std::size_t> TuneNcclBest(const TuneRow& row, Collective collective) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < row.entries.size(); ++i) {
    if (!TuneNcclAlgorithm(collective, row.entries[i].algorithm)) continue;
    if (!best || row.entries[i].time < row.entries[*best].time) best = i;
  }
  return best;
}

std::string CheckTuneExportIndex(const nlohmann::json& index) {
  if (!index.is_object() || !index.contains("ranges") || !index["ranges"].is_array() ||
      index["ranges"].empty()) {
    return "no ranges";
  }
  const nlohmann::json& ranges = index["ranges"];
  std::int64_t next = 0;  // the least byte count not yet covered
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const nlohmann::json& r = ranges[i];
    const std::string item = "ranges[" + std::to_string(i) + "]";
    if (!r.contains("min_bytes") || !r["min_bytes"].is_number_integer() ||
        r["min_bytes"].get<std::int64_t>() != next) {
      return item + ".min_bytes: expected " + std::to_string(next) +
             " (the ranges must be disjoint and cover every byte count)";
    }
    const bool last = i + 1 == ranges.size();
    if (!r.contains("max_bytes") || (last != r["max_bytes"].is_null())) {
      return item + ".max_bytes: only the last range has no upper bound (null)";
    }
    std::optional<std::int64_t> max;
    if (!last) {
      if (!r["max_bytes"].is_number_integer() || r["max_bytes"].get<std::int64_t>() < next ||
          r["max_bytes"].get<std::int64_t>() == std::numeric_limits<std::int64_t>::max()) {
        return item + ".max_bytes: expected an integer from min_bytes to 2^63 - 2";
      }
      max = r["max_bytes"].get<std::int64_t>();
      next = *max + 1;
    }
    if (!r.contains("bytes") || !r["bytes"].is_array() || r["bytes"].empty()) {
      return item + ".bytes: the tuned sizes of the range are missing";
    }
    for (const nlohmann::json& b : r["bytes"]) {
      std::optional<Rational> v;
      try {
        if (b.is_string()) v = ParseRational(b.get<std::string>());
      } catch (const std::invalid_argument&) {
      }
      if (!v || *v < r["min_bytes"].get<std::int64_t>() || (max && *v > *max)) {
        return item + ".bytes: " + b.dump() + " is outside the range";
      }
    }
  }
  return "";
}

TuneAlphaEccentricities TuneAlphaEccentricity(const Topology& g, const SimulationModel& m) {
  const std::vector<Rational> alpha = LinkLatencies(g, m);
  const std::vector<int> compute = g.ComputeNodes();
  TuneAlphaEccentricities out;
  out.out.assign(compute.size(), Rational(0));
  out.from_at.resize(compute.size());
  std::vector<Rational> in(g.num_nodes(), Rational(0));
  std::vector<std::map<Rational, std::int64_t>> to_at(g.num_nodes());
  using Item = std::pair<Rational, int>;
  for (std::size_t i = 0; i < compute.size(); ++i) {
    const int r = compute[i];
    std::vector<std::optional<Rational>> dist(g.num_nodes());
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    dist[r] = Rational(0);
    heap.push({Rational(0), r});
    while (!heap.empty()) {
      auto [d, u] = heap.top();
      heap.pop();
      if (d != *dist[u]) continue;
      if (g.IsCompute(u) && u != r) {
        out.out[i] = std::max(out.out[i], d);
        in[u] = std::max(in[u], d);
        ++out.from_at[i][d];
        ++to_at[u][d];
      }
      for (int e : g.OutLinks(u)) {
        const int v = g.link(e).to;
        const Rational nd = d + alpha[e];
        if (!dist[v] || nd < *dist[v]) {
          dist[v] = nd;
          heap.push({nd, v});
        }
      }
    }
  }
  for (int v : compute) {
    out.in.push_back(in[v]);
    out.to_at.push_back(std::move(to_at[v]));
  }
  return out;
}

Rational TuneAlphaBetaBound(const Topology& g, const SimulationModel& model, Collective collective,
                            const TuneAlphaEccentricities& ecc) {
  if (collective == Collective::kBroadcast) return 0;
  const Rational shard = ShardBytes(model, collective, g.num_compute()) / model.bytes_per_unit;
  const std::vector<int> compute = g.ComputeNodes();
  Rational bound = 0;
  // Allreduce: both, as it computes an allgather and a reduce-scatter of shard M/N.
  for (const bool gather : {true, false}) {
    if (collective == (gather ? Collective::kReduceScatter : Collective::kAllgather)) continue;
    for (std::size_t i = 0; i < compute.size(); ++i) {
      const Rational capacity = gather ? g.InBandwidth(compute[i]) : g.OutBandwidth(compute[i]);
      if (capacity <= 0) continue;
      std::int64_t farther = 0;  // compute nodes at distance >= d
      const auto& at = gather ? ecc.to_at[i] : ecc.from_at[i];
      for (auto it = at.rbegin(); it != at.rend(); ++it) {
        farther += it->second;
        const Rational t = it->first + shard * farther / capacity;
        bound = std::max(bound, t);
      }
    }
  }
  return bound;
}

Rational TuneAlphaDiameter(const Topology& g, const SimulationModel& m) {
  const TuneAlphaEccentricities ecc = TuneAlphaEccentricity(g, m);
  Rational diameter = 0;
  for (const Rational& d : ecc.out) diameter = std::max(diameter, d);
  return diameter;
}

TuneRow TuneSize(const Topology& g, const TuneCandidates& candidates, SimulationModel model,
                 Collective collective, const std::string& chunks_sweep, const Rational& bytes) {
  model.size = bytes;
  TuneRow row;
  row.bytes = bytes;
  const TuneAlphaEccentricities ecc = TuneAlphaEccentricity(g, model);
  for (const Rational& d : ecc.out) row.alpha_bound = std::max(row.alpha_bound, d);
  row.alpha_beta_bound = TuneAlphaBetaBound(g, model, collective, ecc);
  row.lower_bound = std::max(row.alpha_bound, row.alpha_beta_bound);
  if (candidates.bandwidth_bound) {
    const Rational bandwidth = *candidates.bandwidth_bound *
                               ShardBytes(model, collective, g.num_compute()) /
                               model.bytes_per_unit;
    row.lower_bound = std::max(row.lower_bound, bandwidth);
  }
  const std::vector<std::int64_t> sweep =
      ParseChunkList("--chunks-sweep", chunks_sweep, std::int64_t{1} << 24);
  const Rational alpha_min = TuneLeastLatency(g, model);
  for (std::size_t i = 0; i < candidates.list.size(); ++i) {
    const TuneCandidate& c = candidates.list[i];
    try {
      if (c.steps) {
        SimulationRun run = SimulateStepSchedule(*c.steps, g, model);
        row.entries.push_back({c.algorithm, i, 1, run.result.completion});
        continue;
      }
      const auto [chunks, time] = SweepPipeline(*c.pipeline, g, model, sweep, alpha_min);
      row.entries.push_back({c.algorithm, i, chunks, time});
    } catch (const InputError& e) {
      row.skipped.push_back({c.algorithm, e.what()});
    }
  }
  if (row.entries.empty()) {
    throw InputError("<args>", "--sizes",
                     "no candidate could be simulated at " + ToString(bytes) + " bytes");
  }
  for (std::size_t i = 1; i < row.entries.size(); ++i) {
    if (row.entries[i].time < row.entries[row.best].time) row.best = i;
  }
  return row;
}

}  // namespace collsynth
