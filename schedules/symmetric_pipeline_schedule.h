// SymmetricPipelineSchedule: the "pipeline-symmetric" schedule format (docs/formats.md
// "Symmetric pipeline schedule JSON", docs/symmetry.md): a pipeline schedule
// (schedules/pipeline_schedule.h) stored as the trees of one representative root per orbit of a
// group H of automorphisms, plus, for every compute node s, the element g_s of H that maps its
// representative r to s. The expanded schedule gives s the trees g_s(T) for T in r's trees (edges
// and route paths mapped node by node, the same multiplicities). Size O(N·m + trees of the
// representatives) instead of Θ(N²) tree edges.
//
// Case 1 (the default): H is given by m pairwise commuting generators (node permutations, entry v =
// image of node v) with declared orders n_i (gen_i^{n_i} = identity); g_s = gen_0^{e_0} ∘
// gen_1^{e_1} ∘ ... ∘ gen_{m-1}^{e_{m-1}} for the exponents e of s (0 <= e_i < n_i). The checker
// (proofs_check/symmetric_pipeline_checker.h) accepts the schedule only when H acts regularly
// on every root orbit (then the expansion is H-invariant and the per-link-orbit load sums bound
// every link, docs/symmetry.md "When one group element per root is enough", case 1).
// Case 2 (`stabiliser_invariant`, docs/symmetry.md "Case 2: groups that do not act regularly"):
// any generators of a group Γ of automorphisms; g_s is a word in them (GroupWord in
// graphs/permutation_group.h), and the checker accepts the schedule only when each
// representative's trees are invariant under its stabiliser Γ_r (then any g_s with g_s(r) = s
// gives the same expansion, which is Γ-invariant).
//
// Data type, its JSON contract (docs/formats.md, "Symmetric pipeline schedule JSON") and the
// expansion; no checking beyond what reading needs (node names exist, permutations are
// permutations, sizes agree). Allgather, reduce-scatter (trees on G^T as in the plain format)
// and allreduce (`phases`: reduce-scatter then allgather, each symmetric).
#ifndef COLLSYNTH_SCHEDULES_SYMMETRIC_PIPELINE_SCHEDULE_H_
#define COLLSYNTH_SCHEDULES_SYMMETRIC_PIPELINE_SCHEDULE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/permutation_group.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

struct SymmetricRepresentative {
  int root = -1;                    // compute node id
  std::vector<PipelineTree> trees;  // every tree has root == `root`; multiplicities sum to k
};

struct SymmetricRoot {
  int node = -1;                        // compute node id
  int representative = -1;              // index into SymmetricPipelineSchedule::representatives
  std::vector<std::int64_t> exponents;  // case 1: one per generator, 0 <= e_i < orders[i]
  GroupWord word;                       // case 2: g_s as a word, 0 <= e < orders[j] per letter
};

// Overrides (docs/symmetry.md "Failed links: a symmetric part plus overrides", docs/formats.md):
// the symmetric part is a schedule of the topology G' = (the topology read) + `failed_links`
// (the intact topology, whose automorphisms the generators are); the overrides replace what the
// failures break, so that the expansion runs on the topology read alone. Case 1 only.
struct SymmetricFailedLink {  // a link of G' that the topology read lacks
  int from = -1, to = -1;
  Rational bandwidth;
  std::int64_t multiplicity = 1;
};
struct SymmetricRouteOverride {  // root's tree `tree` (its representative's index), edge from -> to
  int root = -1;
  std::size_t tree = 0;
  int from = -1, to = -1;             // the expanded tree's edge (node ids)
  std::vector<PipelineRoute> routes;  // replace all of that edge's routes
};
struct SymmetricRootReplacement {  // root's trees, explicit (instead of g_s of its
                                   // representative's)
  int root = -1;
  std::vector<PipelineTree> trees;
};
struct SymmetricOverrides {
  std::vector<SymmetricFailedLink> failed_links;
  std::vector<SymmetricRouteOverride> routes;
  std::vector<SymmetricRootReplacement> replaced_roots;
};

// The reader's bound on group.generators (at most log2(N) <= 31 are ever needed).
inline constexpr std::size_t kMaxSymmetricGenerators = 64;
// The reader's bound on the letters of one root's word (case 2): expanding costs the word's
// length per node of every tree, so a long word must not multiply the expansion's work.
inline constexpr std::size_t kMaxSymmetricWordLength = 4096;

struct SymmetricPipelineSchedule {
  Collective collective = Collective::kAllgather;  // allgather, reduce-scatter or allreduce
  Rational ratio;  // claimed: max over links of load / (k · b_e) of the expansion
  Rational U;
  BigInt k;
  std::vector<std::vector<int>> generators;  // node permutations (node ids)
  std::vector<std::int64_t> orders;          // one per generator
  // Case 2 of docs/symmetry.md (`group.action` "stabiliser-invariant"): the generators need not
  // commute or act regularly; each representative's trees are invariant under its stabiliser
  // and each root's g_s is a word (SymmetricRoot::word). False: case 1, exponents.
  bool stabiliser_invariant = false;
  std::vector<SymmetricRepresentative> representatives;
  std::vector<SymmetricRoot> roots;  // every compute node once (representatives: exponents 0)
  std::optional<std::vector<int>> bottleneck_cut;                 // as in PipelineSchedule
  std::optional<std::vector<std::vector<int>>> single_node_cuts;  // allreduce, as there
  std::vector<SymmetricPipelineSchedule> phases;  // allreduce only: reduce-scatter, allgather
  std::optional<std::int64_t> height_hops;        // claimed height, as in PipelineSchedule
  // Failed links (above): the symmetric part lives on the topology plus overrides.failed_links.
  // Not in an allreduce's top level (each phase carries its own).
  std::optional<SymmetricOverrides> overrides;
  nlohmann::json extra = nlohmann::json::object();  // producer metadata, passed through
};

// The producers' height claim (PipelineTreeHeightHops): the tallest representative tree (a
// tree's images under automorphisms are as tall as it is); an allreduce: the sum of its
// phases'. O(size of the representatives' trees · log).
std::int64_t SymmetricPipelineScheduleHeightHops(const SymmetricPipelineSchedule& s);

// Reading: InputError(file, item, problem) for anything malformed (unknown node, a generator
// that is not a permutation of the topology's nodes, an order < 1 or above 2^31, exponents of the
// wrong count or outside [0, n_i), a tree whose root is not its representative, ...). Whether the
// generators are automorphisms, commute and act regularly is the checker's business.
SymmetricPipelineSchedule SymmetricPipelineScheduleFromJson(const nlohmann::json& j,
                                                            const Topology& g,
                                                            const std::string& file);
nlohmann::json SymmetricPipelineScheduleToJson(const SymmetricPipelineSchedule& s,
                                               const Topology& g);
// The same document as text (what `collsynth pipeline` writes).
std::string SymmetricPipelineScheduleToJsonText(const SymmetricPipelineSchedule& s,
                                                const Topology& g);

// The permutation g_s for `exponents` (precondition: sizes agree with s.generators and the
// generators are permutations; std::logic_error otherwise). O(V · m): each power gen_i^{e_i}
// is read off gen_i's cycles, whatever e_i. With no generators the result is empty (the
// identity; the schedule does not know the number of nodes).
std::vector<int> SymmetricGroupElement(const SymmetricPipelineSchedule& s,
                                       const std::vector<std::int64_t>& exponents);

// The plain "pipeline" schedule the symmetric one stands for: for every root s, the images
// g_s(T) of its representative's trees; ratio, U, k and the certificates copied (phases
// expanded for allreduce). `extra` gets "expanded_from": "pipeline-symmetric". Time and memory
// Θ(N · size of the representatives' trees) — what the compact format avoids; for
// `collsynth schedule expand` and the commands that need per-rank programs.
// Trees are listed root by root in the order of `roots` (each root's trees in its
// representative's order; a replaced root's explicit trees instead, a route override's routes
// in place of the edge's mapped ones); a tree's root is mapped like every other node, so a g_s with
// g_s(r) != s shows in the expansion (and its check) as it is. Preconditions as the reader
// guarantees them (std::logic_error otherwise). Time O(V · m + N · (m + size of the
// representative's trees)).
PipelineSchedule ExpandSymmetricPipelineSchedule(const SymmetricPipelineSchedule& s,
                                                 const Topology& g);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_SYMMETRIC_PIPELINE_SCHEDULE_H_
