// Heterogeneous BFB schedules (seed 000 App. D.3, LP (13)): links with their own latency
// α_{w,u} and bandwidth B_{w,u}. For every (u, t) the exact solver of solvers/bfb/bfb_lp.h
// minimizes U = max_w α_{w,u} + load_w / B_{w,u} (shard units over bandwidth units, i.e.
// M/N = 1), and applies the App. D.3 rule: a link whose α alone sets U although it carries
// nothing is removed and the LP solved again. Bandwidths come from the topology; α from a
// JSON file:
//   {"default_alpha": "0", "links": [{"from": "a", "to": "b", "alpha": "3/2"}, ...]}
// (rationals as strings or integers; α in the same time unit as "one shard over a
// bandwidth-1 link"). Complexity and preconditions: those of GenerateBfbSchedule; α >= 0.
#ifndef COLLSYNTH_SOLVERS_BFB_HETEROGENEOUS_BFB_H_
#define COLLSYNTH_SOLVERS_BFB_HETEROGENEOUS_BFB_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "solvers/bfb/bfb_schedule.h"

namespace collsynth {

// Per-link α (indexed by link id) from the JSON above; InputError(file, "links[i]", ...) for
// unknown nodes or links, negative or malformed values, duplicates.
std::vector<Rational> LinkAlphasFromJson(const nlohmann::json& j, const Topology& g,
                                         const std::string& file);

// GenerateBfbSchedule with options.link_alpha = link_alpha. The result's u_sum is
// Σ_t max_u U_{u,t} of LP (13) (latency included); tb is the pure bandwidth time.
BfbResult GenerateHeterogeneousBfbSchedule(const Topology& g,
                                           const std::vector<Rational>& link_alpha,
                                           BfbOptions options = {});

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_HETEROGENEOUS_BFB_H_
