// The "flows" schedule (docs/formats.md "Flows schedule JSON"): an all-to-all routing as, per
// ordered pair (s, t) of compute nodes with a demand, a list of paths s -> ... -> t with exact
// rational shares of d_st (summing to 1), the demand (uniform or a matrix), the relay rule and
// the claimed time T = max_e load_e / b_e (in demand units per unit bandwidth: M/N for the
// uniform all-to-all, as `collsynth optimum --collective alltoall` reports T* = 1/λ*). Data,
// reader and writer only; the checker is proofs_check/flow_checker.h, the producer of the
// optimal flow solvers/alltoall/alltoall_paths.h.
//
// Reader: every problem of the document's shape is an InputError naming the item
// ("flows[3].paths[1].path[2]: unknown node 'x'"): unknown keys, a wrong type, a node name that
// is not in the topology, a number that is not an exact rational, and the limits (docs/formats.md
// "Flows schedule JSON", "Limits"): each rational (share, time, demand amount) at most
// kMaxFlowRationalDigits digits in numerator and denominator, each path at most as many nodes
// as the topology has, at most kMaxFlowPaths paths in a file. What the reader accepts may still
// be wrong (a share sum that is not 1, a path over a missing link, a wrong T): the checker's.
// Writer: streamed through core/json_writer.h (keys in the order documented). Cost: O(size).
#ifndef COLLSYNTH_SCHEDULES_FLOW_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_FLOW_SCHEDULE_H_

#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/json_writer.h"
#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"
#include "schedules/collective.h"

namespace collsynth {

// Limits of the reader (docs/formats.md "Flows schedule JSON").
inline constexpr std::size_t kMaxFlowRationalDigits = 100;
inline constexpr std::size_t kMaxFlowPaths = std::size_t{1} << 24;

// One path of a pair: node ids from the source to the destination, and its share of d_st.
struct FlowPath {
  std::vector<int> nodes;
  Rational share;
};

// The paths of one ordered pair.
struct PairFlows {
  int from = -1;
  int to = -1;
  std::vector<FlowPath> paths;
};

struct FlowSchedule {
  Collective collective = Collective::kAlltoall;
  bool relay = true;    // compute nodes other than the source may forward
  bool uniform = true;  // the demand is UniformDemand (written as "uniform")
  DemandMatrix demand;  // the matrix (UniformDemand(g) when uniform)
  Rational time;        // the claimed T = max_e load_e / b_e
  // Optional dual certificate ("lengths"): ℓ_e >= 0 per link id (absent links 0). With it the
  // checker proves T >= Σ d_st dist_ℓ(s, t) / Σ_e b_e ℓ_e for every routing of the demand
  // (schedules/alltoall_flow.h), so a file whose T meets that bound is certified optimal.
  std::optional<std::vector<Rational>> lengths;
  std::vector<PairFlows> flows;
};

FlowSchedule FlowScheduleFromJson(const nlohmann::json& doc, const Topology& g,
                                  const std::string& file);
// Pieces of the reader shared with the "flows-symmetric" reader
// (schedules/symmetric_flow_schedule.h), each an InputError(file, item, ...) on bad input: an exact
// rational within the limits above; refusal of keys outside `keys` (`expected` lists them in the
// message); a required member; a node name; one `flows` entry {from, to, paths} (adds its paths to
// *paths_read, refusing more than kMaxFlowPaths in all); the `lengths` array as (link id, length)
// entries (each link once).
Rational FlowRationalFromJson(const nlohmann::json& v, const std::string& file,
                              const std::string& item);
void FlowOnlyKeys(const nlohmann::json& x, std::initializer_list<const char*> keys,
                  const std::string& file, const std::string& item, const char* expected);
const nlohmann::json& FlowMember(const nlohmann::json& x, const char* key, const std::string& file,
                                 const std::string& item);
int FlowNodeFromJson(const nlohmann::json& v, const Topology& g, const std::string& file,
                     const std::string& item);
PairFlows FlowPairFromJson(const nlohmann::json& x, const Topology& g, const std::string& file,
                           const std::string& item, std::size_t* paths_read);
std::vector<std::pair<int, Rational>> FlowLengthEntriesFromJson(const nlohmann::json& x,
                                                                const Topology& g,
                                                                const std::string& file);

// Writes the document (one line per pair after the header) to `out`, streamed.
void WriteFlowSchedule(std::ostream& out, const FlowSchedule& s, const Topology& g);
// The member "flows": [...] of both formats (one line per pair), through `w`.
void WriteFlowPairs(JsonWriter& w, const JsonStrings& names, const std::vector<PairFlows>& flows);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_FLOW_SCHEDULE_H_
