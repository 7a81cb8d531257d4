// BFB schedules for a whole topology (seed 000 §6, App. D): allgather by solving the load
// balancing LP (3) (or (13) with per-link α) exactly for every receiver u and step
// t = 1..D(G) (solvers/bfb/bfb_lp.h), in parallel over u; reduce-scatter through the transpose
// graph (App. A Cor. 3.1) or, when a reverse-symmetry isomorphism f: V(G^T) → V(G) is known,
// through Thm 4; allreduce as reduce-scatter followed by allgather.
//
// The fractions x_{v,(w,u),t} become consecutive sub-intervals of v's shard [0, 1) (in BFB
// every w at distance t−1 from v holds the whole shard, §6.1). T_L = D(G) (Thm 15) and
// T_B = Σ_t max_{links (w,u)} load/B in shard units (eq. (4); with unit links it equals
// Σ_t max_u U_{u,t}). Each (u, t) keeps its certificate (U and the witness J of Thm 19).
//
// Complexity: N BFS (O(N·E)) for the distance matrix (N^2 16-bit entries, so N <= kMaxBfbNodes),
// then one small exact max flow per (u, t) (solvers/bfb/bfb_lp.h). Preconditions (InputError
// otherwise): a switchless (direct-connect) topology, strongly connected, at least two
// compute nodes; link_alpha, when given, has one value >= 0 per link. Exact Rational.
// The library never prints; callers run the step checker (proofs_check/step_checker.h).
#ifndef COLLSYNTH_SOLVERS_BFB_BFB_SCHEDULE_H_
#define COLLSYNTH_SOLVERS_BFB_BFB_SCHEDULE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/collective.h"
#include "schedules/compact_schedule.h"
#include "schedules/step_schedule.h"
#include "solvers/bfb/bfb_lp.h"

namespace collsynth {

inline constexpr int kMaxBfbNodes = 8192;

struct BfbOptions {
  // Allgather, reduce-scatter or allreduce (schedules/collective.h); broadcast is not a BFB
  // collective (GenerateBfbSchedule throws std::invalid_argument).
  Collective collective = Collective::kAllgather;
  bool use_clp_hint = false;  // start each exact solve from CLP's optimum (bfb_lp.h)
  unsigned threads = 0;       // 0 = the thread budget (core/thread_pool.h)
  // Per link id: α_{w,u} in the same time unit as shard/bandwidth (App. D.3, LP (13)).
  // Empty = α = 0 everywhere (LP (3) with the topology's bandwidths).
  std::vector<Rational> link_alpha;
  bool remove_unused_expensive_links = true;
  // Reduce-scatter by Thm 4 with this isomorphism f: V(G^T) → V(G) (f[x] for node id x);
  // it is validated (InputError when it is not an isomorphism). Empty = Cor. 3.1.
  std::vector<int> reverse_isomorphism;
  std::string file = "<topology>";  // for InputError messages
  bool certificates = true;         // put per-(u,t) U and J into schedule.extra
  // Use SolveBfbFlatPlan when it applies (same schedule, certified the same way, faster).
  bool flat = true;
  // With the flat path: also fill BfbResult::schedule.sends (Rationals); false leaves only
  // BfbResult::compact (what the CLI writes and checks).
  bool materialize_sends = true;
};

// One solved (u, t) instance.
struct BfbCell {
  BfbSubproblem problem;
  BfbLpResult lp;
};

// The solved LPs of an allgather on one graph.
struct BfbPlan {
  int diameter = 0;
  int num_nodes = 0;
  std::vector<std::vector<BfbCell>> cells;  // cells[t-1][u]
  std::vector<Rational> step_u_max;         // max_u U_{u,t}: the (13) objective per step
  std::vector<Rational> step_tb;            // max_{(w,u)} load/B per step (shard units)
  std::int64_t flow_runs = 0;
  std::int64_t num_subproblems = 0;
};

// Solves every (u, t) LP of the BFB allgather on g.
BfbPlan SolveBfbPlan(const Topology& g, const BfbOptions& options);

// The allgather sends of a plan (steps 1..D), in (t, u, v) order.
std::vector<StepSend> BfbAllgatherSends(const BfbPlan& plan);

// The fast path of SolveBfbPlan, in flat storage (no Rational per share): LP (3) with
// integer link bandwidths <= 2^20, no α, no CLP hint, in-degree <= 64. Per receiver u and
// step t: U = value_num/value_den, each source's nonzero shares as integer numerators over
// the cell's scale L (x = num / L, in in-link order) and the witness J of Thm 19. Each cell
// is solved by the BFB cell engine (bfb_cell.h: exact Dinkelbach over a small int64 max flow,
// sources with equal allowed sets merged) and then certified exactly from the stored data
// alone by bfb_cell_certificate.h: every share is on an allowed in-link, each source's shares
// sum to L, every in-link's load is <= U·B·L, and U_J = |J| / Σ_{N(J)} B equals U
// (std::logic_error otherwise). Distances come from one BFS
// per node on G^T. Parallel over u.
struct BfbFlatReceiver {
  std::vector<std::int32_t>
      cell_begin;                   // D + 1: sources of step t are [cell_begin[t-1], cell_begin[t])
  std::vector<std::int64_t> scale;  // per step: L
  std::vector<std::int64_t> value_num;  // per step: U = value_num / value_den (lowest terms)
  std::vector<std::int64_t> value_den;
  std::vector<std::uint64_t> witness_links;  // per step: N(J) as bits over u's in-links
  std::vector<std::int32_t> source;          // per source entry: node v (increasing within a step)
  std::vector<char> in_witness;              // per source entry: v ∈ J
  std::vector<std::int32_t>
      share_begin;  // per source entry (+1): [share_begin[i], share_begin[i+1])
  // k of the share's in-link (w, u): index into u's in-links without self-loops, in
  // Topology::InLinks order (the same indexing as witness_links).
  std::vector<std::int32_t> share_link;
  std::vector<std::int64_t> share_num;  // x · L > 0
};

struct BfbFlatPlan {
  int diameter = 0;
  int num_nodes = 0;
  std::vector<BfbFlatReceiver> receivers;  // per u
  std::vector<Rational> step_u_max;        // as in BfbPlan
  std::vector<Rational> step_tb;
  std::int64_t flow_runs = 0;
  std::int64_t num_subproblems = 0;
  std::int64_t certified = 0;  // cells certified (== num_subproblems)
};

// True when SolveBfbFlatPlan applies to (g, options).
bool BfbFlatPlanApplies(const Topology& g, const BfbOptions& options);
// The flat plan; std::logic_error when !BfbFlatPlanApplies (InputError on bad input).
BfbFlatPlan SolveBfbFlatPlan(const Topology& g, const BfbOptions& options);
// Its allgather sends, steps 1..D, one common denominator per step (lcm of the cells' L);
// nullopt when that denominator would overflow int64.
std::optional<CompactStepSchedule> BfbFlatAllgatherSends(const Topology& g,
                                                         const BfbFlatPlan& plan);
// Certificates in the format of BfbCertificatesJson.
nlohmann::json BfbFlatCertificatesJson(const Topology& g, const BfbFlatPlan& plan);

struct BfbResult {
  StepSchedule schedule;  // collective, sends, claimed_tl/tb, extra (certificates)
  int tl = 0;             // comm steps
  Rational tb;            // shard units (Σ of phases for allreduce)
  Rational u_sum;         // Σ_t max_u U_{u,t} (eq. (4)/(13) objective; includes α)
  std::optional<Rational> tb_lower_bound;  // (N−1)/(d·b) per phase on a d-regular graph
  std::optional<bool> bandwidth_optimal;
  std::string reduce_scatter_method;  // "", "transpose (Cor. 3.1)" or "isomorphism (Thm 4)"
  std::int64_t flow_runs = 0;
  std::int64_t num_subproblems = 0;
  // The same schedule in compact form, when the flat fast path produced it (then
  // schedule.sends is filled from it only if options.materialize_sends).
  std::optional<CompactStepSchedule> compact;
};

// Whole pipeline: plan(s), sends, claims and certificates in schedule.extra.
BfbResult GenerateBfbSchedule(const Topology& g, const BfbOptions& options);

// Certificates of a plan as JSON: [{"u", "t", "U", "J", "N_J"}] (node names), or an
// "alpha_link" for α-dominated instances.
nlohmann::json BfbCertificatesJson(const Topology& g, const BfbPlan& plan);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_BFB_SCHEDULE_H_
