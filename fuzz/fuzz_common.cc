#include "fuzz/fuzz_common.h"

#include <memory>
#include <variant>

#include "core/json_io.h"
#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "graphs/symmetry.h"
#include "graphs/topology_io.h"
#include "proofs_check/verify.h"
#include "schedules/schedule_file.h"

namespace collsynth::fuzz {

const char* FixedTopologyPath(int index) {
  static const char* const kPaths[kNumFixedTopologies] = {
      COLLSYNTH_SOURCE_DIR "/experiments/topologies/k22.json",
      COLLSYNTH_SOURCE_DIR "/fuzz/topologies/ring4.txt",
      COLLSYNTH_SOURCE_DIR "/experiments/topologies/two_cluster.json",
      COLLSYNTH_SOURCE_DIR "/fuzz/topologies/uniring3.txt",
  };
  return kPaths[index];
}

const Topology& FixedTopology(int index) {
  static std::unique_ptr<Topology> cache[kNumFixedTopologies];
  if (!cache[index]) {
    try {
      cache[index] = std::make_unique<Topology>(ReadTopologyFile(FixedTopologyPath(index)));
    } catch (const std::exception& e) {
      Fail(std::string("cannot read fixed topology: ") + e.what());
    }
  }
  return *cache[index];
}

ScheduleInput SplitScheduleInput(const std::uint8_t* data, std::size_t size) {
  int index = 0;
  std::size_t skip = 0;
  if (size > 0 && data[0] >= '0' && data[0] < '0' + kNumFixedTopologies) {
    index = data[0] - '0';
    skip = 1;
  }
  return ScheduleInput{&FixedTopology(index), index,
                       std::string(reinterpret_cast<const char*>(data) + skip, size - skip)};
}

const std::vector<ValidSchedule>& ValidSchedules() {
  static const std::vector<ValidSchedule> schedules = [] {
    // Pipeline schedules of every collective (on switches too: two_cluster), step schedules
    // synchronous and with a reduce-scatter phase, on bidirectional and unidirectional rings.
    static const char* const kFiles[] = {
        "pipeline/k22_allgather.json",         "pipeline/k22_allreduce.json",
        "pipeline/k22_broadcast.json",         "pipeline/ring4_reduce-scatter.json",
        "pipeline/two_cluster_allgather.json", "pipeline/two_cluster_reduce-scatter.json",
        "pipeline/ring4_allreduce.json",       "steps/k22_figure1.json",
        "steps/ring4_baseline_dbtree.json",    "steps/uniring3_bfb_allgather.json",
        "steps/k22_reduce_scatter.json",
    };
    std::vector<ValidSchedule> out;
    for (const char* name : kFiles) {
      const std::string path = std::string(COLLSYNTH_SOURCE_DIR "/tests/fuzz_corpus/") + name;
      try {
        const std::string text = ReadTextFile(path);
        const ScheduleInput in =
            SplitScheduleInput(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
        LoadedSchedule loaded = LoadScheduleText(*in.topology, in.text, name);
        const VerifyResult verified = VerifyLoadedSchedule(*in.topology, loaded);
        if (!verified.ok) Fail(std::string("fixture ") + name + " does not verify");
        ValidSchedule v;
        v.name = name;
        v.topology_index = in.topology_index;
        if (auto* p = std::get_if<PipelineSchedule>(&loaded.value)) {
          v.pipeline = std::move(*p);
        } else if (auto* st = std::get_if<StepSchedule>(&loaded.value)) {
          v.steps = std::move(*st);
        } else {
          Fail(std::string("fixture ") + name + " is neither a pipeline nor a steps schedule");
        }
        out.push_back(std::move(v));
      } catch (const std::exception& e) {
        Fail(std::string("cannot load fixture ") + name + ": " + e.what());
      }
    }
    return out;
  }();
  return schedules;
}

std::optional<nlohmann::json> ParseOptionsInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return std::nullopt;
  nlohmann::json doc =
      nlohmann::json::parse(reinterpret_cast<const char*>(data),
                            reinterpret_cast<const char*>(data) + size, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  return doc;
}

std::size_t PickIndex(const nlohmann::json& doc, std::size_t count) {
  auto it = doc.find("schedule");
  if (it == doc.end() || !it->is_number_unsigned()) return 0;
  return static_cast<std::size_t>(it->get<std::uint64_t>() % count);
}

std::string StepVerdicts(const StepCheckReport& r) {
  auto opt = [](const std::optional<bool>& b) { return b ? (*b ? "1" : "0") : "-"; };
  return std::string("ok=") + (r.ok ? "1" : "0") + " tl=" + std::to_string(r.tl) +
         " tb=" + ToString(r.tb) + " violations=" + std::to_string(r.num_violations) +
         " bw_optimal=" + opt(r.bandwidth_optimal) + " bfb=" + opt(r.bfb) +
         " no_duplicates=" + opt(r.no_duplicates);
}

void CheckTopology(const Topology& g) {
  const std::string json_text = WriteTopologyJson(g);
  Topology back;
  try {
    back = TopologyFromJson(ParseJsonText(json_text, "<roundtrip.json>"), "<roundtrip.json>");
  } catch (const std::exception& e) {
    Fail(std::string("the JSON writer's output does not read back: ") + e.what());
  }
  Require(WriteTopologyJson(back) == json_text, "JSON round trip is not lossless");
  // Edge lists carry no automorphisms (docs/formats.md): compare with g without them.
  Topology plain = g;
  plain.set_automorphisms({});
  const std::string plain_text = WriteTopologyJson(plain);

  std::string edges;
  bool refused = false;
  try {
    edges = WriteEdgeList(g);
  } catch (const InputError&) {
    refused = true;  // a documented refusal (e.g. a name the edge list cannot carry)
  }
  if (!refused) {
    Topology from_edges;
    try {
      from_edges = ParseEdgeList(edges, "<roundtrip.txt>");
    } catch (const std::exception& e) {
      Fail(std::string("the edge-list writer's output does not read back: ") + e.what());
    }
    Require(WriteTopologyJson(from_edges) == plain_text, "edge-list round trip is not lossless");
  }

  // Declared automorphisms (permutations, checked by the reader): the check names a node or
  // link when it fails; the orbits partition the nodes; the search on small inputs agrees with
  // the check on every generator it reports.
  for (const auto& p : g.automorphisms()) {
    AutomorphismCheck c = CheckAutomorphism(g, p);
    Require(c.ok == (c.node < 0 && c.link < 0), "CheckAutomorphism names nothing or too much");
  }
  std::size_t covered = 0;
  for (const auto& orbit : Orbits(g.num_nodes(), g.automorphisms())) covered += orbit.size();
  Require(covered == static_cast<std::size_t>(g.num_nodes()), "orbits do not partition the nodes");
  if (g.num_nodes() <= 64) {
    SymmetrySearchOptions options;
    options.max_work = 2'000'000;
    for (const auto& p : FindAutomorphisms(g, {}, options).generators)
      Require(CheckAutomorphism(g, p).ok, "FindAutomorphisms reported a non-automorphism");
  }

  CheckEulerian(g);
  CheckStronglyConnected(g);
  ComputeDegrees(g);
  if (g.num_nodes() <= 64) ComputeDistanceStats(g, 1);
}

}  // namespace collsynth::fuzz
