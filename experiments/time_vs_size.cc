#include "experiments/time_vs_size.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "core/input_error.h"
#include "experiments/algorithm_registry.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "simulate/chunk_choice.h"
#include "simulate/flow_simulation.h"
#include "simulate/pipeline_simulation.h"
#include "simulate/simulation_model.h"
#include "simulate/step_simulation.h"
#include "simulate/tree_allreduce_simulation.h"

namespace collsynth::experiments {

std::vector<int> FastestPerSize(const std::vector<std::vector<std::optional<Rational>>>& times) {
  std::size_t sizes = 0;
  for (const auto& a : times) sizes = std::max(sizes, a.size());
  std::vector<int> out(sizes, -1);
  for (std::size_t s = 0; s < sizes; ++s) {
    for (std::size_t a = 0; a < times.size(); ++a) {
      if (s >= times[a].size() || !times[a][s]) continue;
      if (out[s] < 0 || *times[a][s] < *times[out[s]][s]) out[s] = static_cast<int>(a);
    }
  }
  return out;
}

std::vector<Crossover> FindCrossovers(const std::vector<int>& fastest) {
  std::vector<Crossover> out;
  int last = -1;
  for (std::size_t s = 0; s < fastest.size(); ++s) {
    if (fastest[s] < 0) continue;
    if (last >= 0 && fastest[s] != last) out.push_back({s, last, fastest[s]});
    last = fastest[s];
  }
  return out;
}

std::vector<MessageSize> ReadMessageSizes(const Params& j) {
  std::vector<MessageSize> out;
  for (const std::string& text : j.Strings("sizes")) {
    try {
      out.push_back({text, ParseQuantity("sizes", text, SizeUnits(), "B", false)});
    } catch (const InputError& e) {
      throw j.Error("sizes", e.problem());
    }
  }
  if (out.empty()) throw j.Error("sizes", "must not be empty");
  return out;
}

LinkParams ReadLinkParams(const Params& j, const std::string& default_alpha_us) {
  const Rational alpha_us = j.Exact("alpha_us", default_alpha_us);
  const Rational gbps = j.Exact("link_gbps", "8");
  if (alpha_us < 0 || gbps <= 0) {
    throw j.Error("alpha_us", "alpha_us must be >= 0 and link_gbps > 0");
  }
  return {alpha_us / 1000000, gbps * 1000000000 / 8};
}

namespace {

using nlohmann::json;

struct Case {
  std::string topology, label;
  std::vector<std::string> algorithms;
  std::map<std::string, std::string> paper_us;  // size label -> printed µs
  std::string series;                           // topology family (plot group), optional
};

struct SizeParams {
  std::vector<MessageSize> sizes;
  Rational alpha_seconds, bytes_per_unit;
  std::vector<std::int64_t> chunks{1};
  std::uint64_t max_transfers = std::uint64_t{1} << 22;
};

// One algorithm's checked schedule (step / pipeline) or checked trees (tree:dbtree) and the
// row fields every size shares: instance, algorithm, collective, nodes, tl, tb, verified.
struct Built {
  AlgorithmRun run;
  ExperimentRow row;
};

Built BuildAlgorithm(const Topology& g, const Case& c, const std::string& algorithm,
                     Collective collective) {
  Built b;
  b.run = RunAlgorithm(g, {*CanonicalAlgorithm(algorithm), c.topology}, collective);
  b.row.instance = c.label.empty() ? c.topology : c.label;
  b.row.algorithm = algorithm;
  b.row.collective = b.run.collective;
  b.row.nodes = g.num_compute();
  b.row.tb_unit = "(M/N)/b";
  b.row.verified = b.run.verified;
  b.row.tl = b.run.tl;  // none for tree:dbtree (a model)
  b.row.tb = b.run.tb;
  return b;
}

std::vector<ExperimentRow> RunCase(const Case& c, Collective collective, const SizeParams& p) {
  const Topology g = EvaluateTopologyExpression(c.topology);
  SimulationModel model;
  model.bytes_per_unit = p.bytes_per_unit;
  model.default_alpha = p.alpha_seconds;
  const std::size_t n_sizes = p.sizes.size();
  std::vector<std::vector<std::optional<Rational>>> times;
  std::vector<std::vector<ExperimentRow>> rows;
  for (const std::string& algorithm : c.algorithms) {
    const auto t0 = std::chrono::steady_clock::now();
    Built b = BuildAlgorithm(g, c, algorithm, collective);
    // A pipeline schedule's height, as the checker measured it (docs/formats.md "Height").
    std::vector<std::pair<std::string, std::string>> heights;
    if (b.run.pipeline && b.run.pipeline_report && b.run.pipeline_report->ok) {
      const Rational alpha_us =
          PipelineHeightAlpha(g, *b.run.pipeline, LinkLatencies(g, model)) * 1000000;
      heights = {{"height_hops", std::to_string(b.run.pipeline_report->height_hops)},
                 {"height_alpha_us", ToString(alpha_us)}};
    }
    times.emplace_back(n_sizes);
    rows.emplace_back();
    for (std::size_t s = 0; s < n_sizes; ++s) {
      const auto ts = std::chrono::steady_clock::now();
      ExperimentRow row = b.row;
      row.extra.emplace_back("series", c.series.empty() ? algorithm : c.series + " " + algorithm);
      model.size = p.sizes[s].bytes;
      row.extra.emplace_back("size", p.sizes[s].label);
      row.extra.emplace_back("size_bytes", ToString(p.sizes[s].bytes));
      std::optional<Rational> t;
      std::string best_chunks, time_p1;
      if (b.row.verified == Verified::kNo) {
        // Not simulated: the runner fails the run on this row anyway.
      } else if (b.run.step) {
        model.chunks = 1;
        t = BuildStepSimulation(*b.run.step, g, model).Run().completion;
      } else if (b.run.trees) {
        for (std::int64_t q : p.chunks) {
          model.chunks = q;
          if (TreeAllreduceTransferCount(*b.run.trees, model) > p.max_transfers) continue;
          Rational tq = BuildTreeAllreduceSimulation(*b.run.trees, g, model).Run().completion;
          if (q == 1) time_p1 = FormatDecimal(tq * 1000000, 3);
          if (!t || tq < *t) {
            t = tq;
            best_chunks = std::to_string(q);
          }
        }
      } else {
        std::vector<std::int64_t> candidates;
        for (std::int64_t q : p.chunks) {
          model.chunks = q;
          if (PipelineTransferCount(*b.run.pipeline, model) <= p.max_transfers) {
            candidates.push_back(q);
          }
        }
        if (!candidates.empty()) {
          const ChunkChoice choice = ChooseChunkCount(*b.run.pipeline, g, model, candidates);
          t = choice.best_time;
          best_chunks = std::to_string(choice.best);
          if (choice.times.front().first == 1) {
            time_p1 = FormatDecimal(choice.times.front().second * 1000000, 3);
          }
        }
      }
      times.back()[s] = t;
      const Rational us = t ? *t * 1000000 : Rational(0);
      row.extra.emplace_back("time_us", t ? ToString(us) : "");
      row.extra.emplace_back("time_us_decimal", t ? FormatDecimal(us, 3) : "");
      row.extra.emplace_back("best_chunks", best_chunks);
      row.extra.emplace_back("time_us_p1", time_p1);
      row.extra.insert(row.extra.end(), heights.begin(), heights.end());
      row.wall_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - (s == 0 ? t0 : ts))
              .count();
      rows.back().push_back(std::move(row));
    }
  }
  const std::vector<int> fastest = FastestPerSize(times);
  std::vector<ExperimentRow> out;
  for (std::size_t a = 0; a < rows.size(); ++a) {
    for (std::size_t s = 0; s < n_sizes; ++s) {
      ExperimentRow& row = rows[a][s];
      row.extra.emplace_back("fastest", fastest[s] == static_cast<int>(a) ? "yes" : "no");
      const auto it = c.paper_us.find(p.sizes[s].label);
      row.extra.emplace_back("paper_us", it == c.paper_us.end() ? "" : it->second);
      out.push_back(std::move(row));
    }
  }
  for (const Crossover& x : FindCrossovers(fastest)) {
    ExperimentRow row;
    row.instance = c.label.empty() ? c.topology : c.label;
    row.algorithm = "crossover";
    row.collective = collective;
    row.nodes = g.num_compute();
    row.extra.emplace_back("size", p.sizes[x.size].label);
    row.extra.emplace_back("size_bytes", ToString(p.sizes[x.size].bytes));
    std::size_t below = x.size - 1;
    while (below > 0 && fastest[below] < 0) --below;
    row.extra.emplace_back("size_below", p.sizes[below].label);
    row.extra.emplace_back("from", c.algorithms[x.from]);
    row.extra.emplace_back("to", c.algorithms[x.to]);
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Params j(in);
  const std::vector<Collective> collectives = ReadCollectives(j);
  auto params = std::make_shared<SizeParams>();
  params->sizes = ReadMessageSizes(j);
  const LinkParams link = ReadLinkParams(j, "0");
  params->alpha_seconds = link.alpha_seconds;
  params->bytes_per_unit = link.bytes_per_unit;
  if (j.Has("chunks")) {
    params->chunks = j.Ints("chunks");
    for (std::int64_t v : params->chunks) {
      if (v < 1) throw j.Error("chunks", "must be a non-empty array of positive integers");
    }
    if (params->chunks.empty()) {
      throw j.Error("chunks", "must be a non-empty array of positive integers");
    }
  }
  if (j.Has("max_transfers")) {
    params->max_transfers = static_cast<std::uint64_t>(j.Int("max_transfers", 1, 1, INT64_MAX));
  }
  const std::vector<Params> cases = j.Objects("cases");
  if (cases.empty()) throw j.Error("cases", "must be a non-empty array");
  std::vector<ExperimentTask> tasks;
  for (const Params& cj : cases) {
    if (!cj.Has("algorithms")) throw cj.Error("algorithms", "missing (an array of strings)");
    Case c{cj.Topology("topology"),
           cj.String("label", ""),
           cj.Strings("algorithms"),
           {},
           cj.String("series", "")};
    for (const auto& a : c.algorithms) {
      const auto [name, problem] = AcceptAlgorithm(a, {{"bfb", "pipeline", "tree:dbtree"}});
      if (!name) throw cj.Error("algorithms", problem);
      for (Collective collective : collectives) {
        if (*name == "tree:dbtree" && collective != Collective::kAllreduce) {
          throw cj.Error("algorithms", "tree:dbtree is an allreduce (reduce, then broadcast)");
        }
      }
    }
    for (const auto& [k, v] : cj.Members("paper_us")) {
      if (!v->is_string()) {
        throw cj.Error("paper_us." + k, "expected a string, got " + JsonTypePhrase(*v));
      }
      c.paper_us[k] = v->get<std::string>();
    }
    for (Collective collective : collectives) {
      tasks.push_back({c.topology + " " + CollectiveName(collective),
                       [c, collective, params] { return RunCase(c, collective, *params); }});
    }
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("time-vs-size", &MakeTasks,
                                         {"series", "size", "size_bytes", "time_us",
                                          "time_us_decimal", "best_chunks", "time_us_p1",
                                          "height_hops", "height_alpha_us", "fastest", "paper_us",
                                          "size_below", "from", "to"});

}  // namespace
}  // namespace collsynth::experiments
