// libFuzzer target: the options of `collsynth simulate` on small valid schedules, through the
// library functions the command runs (simulate/simulation_run.h). The input is one JSON object;
// every member is optional and a member of the wrong JSON type is left out:
//   "schedule": integer, picks a fixture (fuzz_common.h ValidSchedules(); at or past their count:
//               the MSCCL XML `export msccl` writes for the pipeline fixture of that index
//               minus the count, default options);
//   "size", "chunks", "alpha", "gamma", "bandwidth_unit", "switch_model", "mode",
//   "chunks_sweep" (pipelines only), "profile", "fifo_depth" (MSCCL XML only): strings, as on
//               the command line; "root": integer (MSCCL XML);
//   "latencies": array, element i becomes the `latency` field of link i of the fixture's
//               topology as JSON, read by the topology reader (graphs/link_latency.h).
// Contract: InputError and SimulationTimeResolutionError (the CLI maps both to exit 2) are the
// expected failures; an MSCCL XML the replay rejects under the fuzzed profile is exit 1. Any
// other exception is a finding, as are: a completion time below 0; with a sweep, a best P that
// is not in the list, or whose simulated time is not the least of the sweep or differs from the
// final run's.
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "fuzz/fuzz_common.h"
#include "graphs/link_latency.h"
#include "graphs/rank_map.h"
#include "graphs/topology_io.h"
#include "proofs_check/msccl_replay.h"
#include "simulate/msccl_simulation.h"
#include "simulate/simulation_run.h"
#include "tests/fixtures/json_tree_writers.h"

namespace {

using namespace collsynth;
using nlohmann::json;

// The text of `export msccl` (default options, executor profile) for pipeline fixture `index`,
// or "" when it is not a pipeline or the exporter refuses it (broadcast without
// --root-specific is exported with it).
const std::string& FixtureXml(std::size_t index) {
  static std::map<std::size_t, std::string> cache;
  auto it = cache.find(index);
  if (it != cache.end()) return it->second;
  std::string text;
  const fuzz::ValidSchedule& v = fuzz::ValidSchedules()[index];
  if (v.pipeline) {
    const Topology& g = fuzz::FixedTopology(v.topology_index);
    MscclExportOptions o;
    o.root_specific = true;
    try {
      const MscclExportResult r =
          ExportPipelineToMscclProgram(g, *v.pipeline, DefaultRanks(g), o, v.name);
      text = MscclXmlText(r.program, o.profile);
    } catch (const std::exception& e) {
      fuzz::Fail("fixture " + v.name + " does not export to MSCCL XML: " + e.what());
    }
  }
  return cache.emplace(index, std::move(text)).first->second;
}

void SetString(const json& doc, const char* key, std::string* out) {
  auto it = doc.find(key);
  if (it != doc.end() && it->is_string()) *out = it->get<std::string>();
}

void CheckRun(const SimulationRun& run, bool swept) {
  fuzz::Require(run.result.completion >= 0, "negative completion time");
  if (!swept) return;
  fuzz::Require(!run.sweep.empty(), "a sweep without entries");
  bool found = false;
  for (const auto& [p, t] : run.sweep) {
    if (p == run.model.chunks) {
      found = true;
      fuzz::Require(t == run.result.completion,
                    "the best P's sweep time differs from its final simulation");
    }
  }
  fuzz::Require(found, "the best P is not in the sweep");
  for (const auto& [p, t] : run.sweep) {
    fuzz::Require(run.result.completion <= t, "the best P is not the fastest of the sweep");
  }
}

void RunOne(const json& doc) {
  const std::vector<fuzz::ValidSchedule>& fixtures = fuzz::ValidSchedules();
  const std::size_t pick = fuzz::PickIndex(doc, 2 * fixtures.size());
  const bool xml = pick >= fixtures.size();
  const fuzz::ValidSchedule& v = fixtures[xml ? pick - fixtures.size() : pick];
  const Topology& g = fuzz::FixedTopology(v.topology_index);

  SimulationOptions o;
  o.size = "1MB";
  SetString(doc, "size", &o.size);
  SetString(doc, "chunks", &o.chunks);
  SetString(doc, "alpha", &o.alpha);
  SetString(doc, "gamma", &o.gamma);
  SetString(doc, "bandwidth_unit", &o.bandwidth_unit);
  SetString(doc, "switch_model", &o.switch_model);
  SetString(doc, "mode", &o.mode);
  std::string sweep, profile = "executor", fifo_depth = "0";
  SetString(doc, "chunks_sweep", &sweep);
  SetString(doc, "profile", &profile);
  SetString(doc, "fifo_depth", &fifo_depth);
  int root = 0;
  if (auto it = doc.find("root"); it != doc.end() && it->is_number_integer()) {
    const std::int64_t r = it->get<std::int64_t>();
    if (r < -(1 << 30) || r > (1 << 30)) return;  // CLI11 refuses what does not fit an int
    root = static_cast<int>(r);
  }

  // As `simulate` reads the topology: the latencies come from the topology JSON's links.
  json topology = TopologyToJson(g);
  if (auto it = doc.find("latencies"); it != doc.end() && it->is_array()) {
    json& links = topology["links"];
    for (std::size_t i = 0; i < it->size() && i < links.size(); ++i) {
      links[i]["latency"] = (*it)[i];
    }
  }

  SimulationModel model = ParseSimulationOptions(o);
  const Topology read = TopologyFromJson(topology, "fuzz-topology.json");
  model.link_latency = LinkLatenciesFromJson(topology, read, "fuzz-topology.json");
  fuzz::Require(read.num_links() == g.num_links(), "the topology JSON round trip lost links");

  if (xml) {
    const std::string& text = FixtureXml(pick - fixtures.size());
    if (text.empty()) return;
    const ReplayOptions ro = ParseMscclSimulationOptions(profile, fifo_depth, root);
    if (!ReplayMscclXml(text, "fuzz.xml", ro).ok) return;  // exit 1
    const msccl::Algo algo = ReadMscclProgram(text, "fuzz.xml", ro);
    MscclRouting routing;
    routing.node_of_rank = DefaultRankMap(g).node_of_rank;
    CheckRun(SimulateMscclProgram(algo, g, std::move(routing), std::move(model), ro.fifo_depth,
                                  "fuzz.xml"),
             false);
  } else if (v.pipeline) {
    CheckRun(SimulatePipelineSchedule(*v.pipeline, g, std::move(model), sweep), !sweep.empty());
  } else {
    CheckRun(SimulateStepSchedule(*v.steps, g, std::move(model)), false);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::optional<json> input = fuzz::ParseOptionsInput(data, size);
  if (!input) return 0;
  try {
    RunOne(*input);
  } catch (const InputError&) {
    // bad input: exit 2
  } catch (const SimulationTimeResolutionError&) {
    // the inputs' digits: exit 2 (cli/simulate_command.cc)
  } catch (const std::exception& e) {
    if (!fuzz::Ignored(e.what()))
      fuzz::Fail(std::string("exception other than InputError: ") + e.what());
  } catch (...) {
    fuzz::Fail("non-standard exception");
  }
  return 0;
}
