// The "flows-symmetric" schedule (docs/formats.md "Symmetric flows schedule JSON", the theory in
// docs/alltoall.md): the uniform all-to-all routing of a topology with a group H of automorphisms
// acting regularly on the compute nodes, stored as the paths of ONE source r (with exact shares,
// as in the plain "flows" format, schedules/flow_schedule.h) plus, for every compute node s, the
// exponent vector of the element g_s of H with g_s(r) = s. H is given by m pairwise commuting
// generators (node permutations, entry v = index of the image of node v) and declared orders n_i;
// g_s = gen_0^{e_0} ∘ ... ∘ gen_{m-1}^{e_{m-1}} (the last applied first). The plain schedule it
// stands for gives s the paths g_s(P) for the paths P of r, with the same shares. Optional dual
// certificate: one length per link orbit of H, written as a length on one (any) link of the orbit
// (the H-invariant length function ℓ: every link of the orbit has that length).
//
// Size O(N·m + r's paths + link orbits) instead of Θ(N²) pairs. Data, reader, writer and the
// expansion to the plain "flows" schedule; the checker (without expanding) is
// proofs_check/symmetric_flow_checker.h, the producer solvers/alltoall/symmetric_alltoall.h.
//
// Reader: InputError(file, item, problem) for anything malformed: unknown keys, a generator that
// is not a permutation of the topology's nodes, more than kMaxSymmetricFlowGenerators generators,
// an order outside [1, 2^31], exponents of the wrong count or outside [0, n_i), a source listed
// twice or not a compute node, a pair whose `from` is not `root`, the plain format's path, share
// and length limits. Whether the generators are automorphisms, commute and act regularly, and
// whether the lengths are H-invariant, is the checker's. Cost O(size of the file).
#ifndef COLLSYNTH_SCHEDULES_SYMMETRIC_FLOW_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_SYMMETRIC_FLOW_SCHEDULE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/flow_schedule.h"

namespace collsynth {

// At most log2(N) <= 31 commuting generators of order >= 2 can act regularly on N <= 2^31 nodes.
inline constexpr std::size_t kMaxSymmetricFlowGenerators = 64;

struct SymmetricFlowSource {
  int node = -1;                        // a compute node
  std::vector<std::int64_t> exponents;  // one per generator, 0 <= e_i < orders[i]
};

struct SymmetricFlowSchedule {
  Collective collective = Collective::kAlltoall;  // the only one
  bool relay = true;                              // compute nodes other than the source may forward
  Rational time;  // the claimed T = max_e load_e / b_e of the expansion (uniform demand)
  std::vector<std::vector<int>> generators;  // node permutations
  std::vector<std::int64_t> orders;          // one per generator
  int root = -1;                             // the source r whose paths are given
  std::vector<SymmetricFlowSource> sources;  // every compute node once (r with exponents 0)
  // Optional dual certificate: (link id, length) entries, at most one link per orbit expected.
  std::optional<std::vector<std::pair<int, Rational>>> lengths;
  std::vector<PairFlows> flows;  // the pairs (r, t), from == root
};

SymmetricFlowSchedule SymmetricFlowScheduleFromJson(const nlohmann::json& doc, const Topology& g,
                                                    const std::string& file);
// Writes the document (one line per pair and per source) to `out`, streamed.
void WriteSymmetricFlowSchedule(std::ostream& out, const SymmetricFlowSchedule& s,
                                const Topology& g);

// The plain "flows" schedule (uniform demand) it stands for: the pairs of source s are the pairs
// of r mapped by g_s, in the order of `sources`; the lengths are ℓ(e) = the listed length of the
// orbit of e (0 when none listed); the claimed time copied. Preconditions as the reader
// guarantees them. Θ(N · size of r's paths) — what the compact format avoids; for small cases
// (`schedule expand`, `simulate`, `export`).
FlowSchedule ExpandSymmetricFlowSchedule(const SymmetricFlowSchedule& s, const Topology& g);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_SYMMETRIC_FLOW_SCHEDULE_H_
