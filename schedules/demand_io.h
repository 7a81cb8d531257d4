// The demand-matrix file (docs/formats.md "Demand matrix"): a JSON object
//   {"format": "demand", "demand": [{"from": "a", "to": "b", "amount": "3/2"}, ...]}
// naming compute nodes of a topology, with exact rational amounts (JSON integers or strings
// "p", "p/q", finite decimals). Absent pairs ask 0. Every error is an InputError naming the
// file and the entry ("demand[3].amount"): unknown keys, a node that is missing or not a compute
// node, from == to, an amount that is not a rational > 0 (or whose numerator or denominator
// exceeds 10^9: the LP hint is solved in double), a pair given twice, no entry.
// O(size of the file + entries · log entries).
#ifndef COLLSYNTH_SCHEDULES_DEMAND_IO_H_
#define COLLSYNTH_SCHEDULES_DEMAND_IO_H_

#include <nlohmann/json.hpp>
#include <string>

#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"

namespace collsynth {

// Parses the text of a demand file for `g`; `file` names it in errors.
DemandMatrix ParseDemandText(const std::string& text, const std::string& file, const Topology& g);
// The entries of a demand array `list` (the value of the member `key`, which names the entries
// in errors: "KEY[3].amount"), with the same rules; what a "flows" schedule's demand uses.
DemandMatrix DemandFromJson(const nlohmann::json& list, const std::string& file,
                            const std::string& key, const Topology& g);
// Reads and parses the file at `path`.
DemandMatrix ReadDemandFile(const std::string& path, const Topology& g);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_DEMAND_IO_H_
