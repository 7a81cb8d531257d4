#include "cli/export_common.h"

#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "export/msccl_program.h"
#include "graphs/input_error.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

using nlohmann::json;

// node id -> rank from --ranks FILE: a JSON array of compute node names in rank order, or an
// object {name: rank}; it must be a bijection of the compute nodes onto 0..N-1.
std::vector<int> ReadRanks(const Topology& g, const std::string& path) {
  json j = ParseJsonText(ReadTextFile(path), path);
  const int n = g.num_compute();
  std::vector<int> rank(g.num_nodes(), -1);
  std::vector<int> node_of_rank(n, -1);
  auto assign = [&](const std::string& name, long long r, const std::string& item) {
    auto v = g.FindNode(name);
    if (!v) throw InputError(path, item, "no node named '" + name + "' in the topology");
    if (!g.IsCompute(*v)) throw InputError(path, item, "'" + name + "' is a switch, not a GPU");
    if (r < 0 || r >= n)
      throw InputError(path, item,
                       "rank " + std::to_string(r) + " outside 0.." + std::to_string(n - 1));
    if (rank[*v] >= 0) throw InputError(path, item, "'" + name + "' is given two ranks");
    if (node_of_rank[r] >= 0)
      throw InputError(path, item, "rank " + std::to_string(r) + " is given twice");
    rank[*v] = static_cast<int>(r);
    node_of_rank[r] = *v;
  };
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (!j[i].is_string())
        throw InputError(path, "[" + std::to_string(i) + "]", "not a node name");
      assign(j[i].get<std::string>(), static_cast<long long>(i), "[" + std::to_string(i) + "]");
    }
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!it.value().is_number_integer())
        throw InputError(path, it.key(), "the rank is not an integer");
      assign(it.key(), it.value().get<long long>(), it.key());
    }
  } else {
    throw InputError(path, "", "expected an array of node names or an object {name: rank}");
  }
  for (int r = 0; r < n; ++r) {
    if (node_of_rank[r] < 0)
      throw InputError(path, "", "rank " + std::to_string(r) + " has no node");
  }
  return rank;
}

}  // namespace

bool ReadVerifiedInput(const std::string& topology, const std::string& schedule,
                       const std::string& ranks, VerifiedInput* in) {
  in->g = ReadTopologyFile(topology);
  std::optional<CheckedSchedule> checked = LoadCheckedSchedule(in->g, schedule, "exported");
  if (!checked) return false;
  in->schedule = std::move(*checked);
  in->file = in->schedule.file;
  in->format = in->schedule.format;
  in->rank = ranks.empty() ? DefaultRanks(in->g) : ReadRanks(in->g, ranks);
  return true;
}

std::string OutputPath(const std::string& out, const std::string& generated_name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!out.empty() && (out.back() == '/' || fs::is_directory(out, ec))) {
    return (fs::path(out) / generated_name).string();
  }
  return out;
}

std::string RoutesPath(const std::string& path, const std::string& ext) {
  if (path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0) {
    return path.substr(0, path.size() - ext.size()) + ".routes.json";
  }
  return path + ".routes.json";
}

}  // namespace collsynth::cli
