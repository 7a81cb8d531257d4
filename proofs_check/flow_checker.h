// Checker of a "flows" schedule (schedules/flow_schedule.h, docs/formats.md "Flows schedule
// JSON"), written from the definition of an all-to-all routing, apart from any producer (it
// includes no solvers/ header):
// - demand: every pair (s, t) of the demand has exactly one entry in "flows", and every entry
//   is a pair of the demand (uniform: every ordered pair of distinct compute nodes);
// - shares: every share > 0, and the shares of a pair sum to exactly 1 (each pair's demand is
//   delivered exactly once);
// - paths: at least two nodes, the first the pair's source, the last its destination, no node
//   twice, consecutive nodes joined by a link of the topology; switches relay, compute nodes in
//   the middle of a path only when the schedule's relay is true;
// - time: the load of link e is Σ d_st · share over the paths that use e (exact), and the
//   achieved T = max_e load_e / b_e is computed here; it must equal the claimed "time".
// - lengths (optional dual certificate): every ℓ_e >= 0 and every demand pair connected; the
//   bound B = Σ d_st dist_ℓ(s, t) / Σ_e b_e ℓ_e, with dist_ℓ by the certificate checker's own
//   Dijkstra (AlltoallDualBound, proofs_check/alltoall_certificate_check.h), is a lower bound on
//   the T of every routing of the demand (weak duality); T = B proves the routing optimal.
// Verdict: "invalid" (any violation above but the time, a malformed "lengths" included), "wrong
// time" (a valid routing whose achieved T differs from the claim), "valid". Optimality is
// reported beside the verdict (`optimal`, `time_lower_bound`) when the file carries lengths;
// without them the checker only reports T, and `collsynth optimum --collective alltoall`
// compares it with the certified T* = 1/λ*.
// Limit: every exact sum (a pair's shares, a link's load) keeps a denominator below
// 10^kMaxFlowSumDigits; beyond, InputError (exit 2) naming the item, since sums of many
// unrelated denominators would grow without bound. Cost: O(total path length) rational
// additions plus O(V + E). Never prints.
#ifndef COLLSYNTH_PROOFS_CHECK_FLOW_CHECKER_H_
#define COLLSYNTH_PROOFS_CHECK_FLOW_CHECKER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/flow_schedule.h"

namespace collsynth {

inline constexpr int kMaxFlowSumDigits = 10000;

enum class FlowVerdict { kInvalid, kWrongTime, kValid };
// "invalid", "wrong time", "valid".
const char* FlowVerdictName(FlowVerdict v);

struct FlowCheckReport {
  bool ok = false;  // verdict == kValid
  FlowVerdict verdict = FlowVerdict::kInvalid;
  std::vector<std::string> errors;  // the first violations (at most max_errors)
  std::int64_t num_violations = 0;
  std::int64_t pairs = 0, paths = 0;
  // The achieved T = max_e load_e / b_e and a link attaining it (when the routing is valid).
  std::optional<Rational> time;
  std::string bottleneck_link;  // "a->b"
  Rational claimed_time;
  // With "lengths" and a valid routing: the certified lower bound B on T, and whether T = B.
  std::optional<Rational> time_lower_bound;
  std::optional<bool> optimal;
  // The exact load per link id (Σ d_st · share over the paths through it; when every path is
  // valid, else empty). The symmetric checker (symmetric_flow_checker.h) reads the root's.
  std::vector<Rational> loads;
  // "flows-symmetric" only: the link orbits of H and |H| (= N).
  std::optional<std::int64_t> link_orbits, group_order;
};

FlowCheckReport CheckFlowSchedule(const Topology& g, const FlowSchedule& s, int max_errors = 10);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_FLOW_CHECKER_H_
