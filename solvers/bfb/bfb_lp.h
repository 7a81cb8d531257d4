// BFB load balancing for one receiver u and one comm step t: the linear program (3) of
// seed 000 §6.1 and its heterogeneous form (13) of App. D.3, solved exactly and certified.
//
// Problem. Sources ("jobs") v ∈ N_t^-(u) must each deliver a whole shard to u through
// in-links (w, u) ("processors") allowed for v, i.e. with d(v, w) = t − 1. Choose
// x_{v,(w,u)} >= 0 with Σ_w x = 1 per v minimizing
//     U = max_w  α_w + load_w / B_w,      load_w = Σ_v x_{v,(w,u)}   (shard units).
// With α = 0 and unit bandwidth this is LP (3); with per-link α and B it is LP (13) with
// M/N = 1 (times in shard units over bandwidth units).
//
// Exactness and certificate (seed 000 App. D, Thm 19). U is feasible iff the bipartite
// network s→v (capacity 1), v→w (capacity m+1), w→sink ((U − α_w)·B_w) has a flow of value
// m = #sources; a min cut otherwise yields a source set J with
//     U_J = (|J| + Σ_{w∈N(J)} α_w B_w) / Σ_{w∈N(J)} B_w  >  U,
// a lower bound for every schedule. So U* = max(max_w α_w, max_J U_J), and the algorithm is
// the Dinkelbach iteration U := U_J over exact max flows, run by the one BFB cell engine
// (solvers/bfb/bfb_cell.h: int64 when every value fits, BigInt otherwise). The optimum comes
// with the exact x (from the integral scaled flow) and the maximizing J (or the sender whose α
// alone sets U). With α = 0, B = 1 this is Thm 19's U = max_J |J| / |N(J)|.
// An optional CLP solve of the LP supplies a starting value (a hint: it is reconstructed
// with ClosestFraction and then certified like any other guess; no float reaches x or U).
//
// Sources with identical allowed sender sets are merged into one flow node (capacity =
// their count) and split back exactly, so the network has at most min(m, 2^d) job nodes.
// Complexity: O(iterations · maxflow(m + d nodes, Σ|allowed| arcs)); iterations are 1-2 on
// symmetric topologies. Precondition: every source has at least one allowed sender; all
// B_w > 0, α_w >= 0 (std::logic_error otherwise: a caller fault). Exact Rational throughout.
#ifndef COLLSYNTH_SOLVERS_BFB_BFB_LP_H_
#define COLLSYNTH_SOLVERS_BFB_BFB_LP_H_

#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth {

// One LP (3)/(13) instance; node ids are the caller's (Topology ids in bfb_schedule).
struct BfbSubproblem {
  int receiver = -1;                      // u
  int step = 0;                           // t
  std::vector<int> sources;               // v ∈ N_t^-(u)
  std::vector<int> senders;               // w ∈ N^-(u), one per in-link (w, u)
  std::vector<Rational> bandwidth;        // B_{w,u} per sender; empty = all 1
  std::vector<Rational> alpha;            // α_{w,u} per sender; empty = all 0
  std::vector<std::vector<int>> allowed;  // per source: indices into senders
};

struct BfbLpOptions {
  // Start from CLP's LP optimum (reconstructed) instead of the all-sources lower bound.
  bool use_clp_hint = false;
  // App. D.3: a link whose α alone sets U although it carries nothing is removed and the
  // LP re-solved (repeatedly). Only matters when some α > 0.
  bool remove_unused_expensive_links = true;
};

struct BfbLpResult {
  Rational value;  // U_{u,t}, exact optimum
  std::vector<std::vector<Rational>>
      x;                       // x[i][k]: share of sources[i] sent by senders[allowed[i][k]]
  std::vector<Rational> load;  // per sender: Σ_v x
  std::vector<bool> removed;   // per sender: removed by the App. D.3 rule
  // Certificate of optimality: value == U_J for J = witness_sources with N(J) =
  // witness_senders, or value == α of witness_alpha_sender (>= 0 then; J empty).
  std::vector<int> witness_sources;  // indices into sources
  std::vector<int> witness_senders;  // indices into senders
  int witness_alpha_sender = -1;
  int flow_runs = 0;                             // max-flow computations made
  LpOutcome clp_outcome = LpOutcome::kBadInput;  // when the CLP hint was requested
  std::optional<double> clp_value;               // CLP's (floating) optimum, when requested
};

// Solves one instance exactly (see the header comment).
BfbLpResult SolveBfbSubproblem(const BfbSubproblem& p, const BfbLpOptions& options = {});

// LP (3)/(13) for CLP: columns x_{i,k} in (i, k) order, then U; rows: one per sender
// (load_w − B_w·U <= −α_w B_w), one per source (Σ_k x = 1). Minimize U.
LpProblem BuildBfbLp(const BfbSubproblem& p);

// U_J for a set of source indices J (N(J) taken over senders not in `removed`, if given).
Rational WitnessValue(const BfbSubproblem& p, const std::vector<int>& j);

// VerifyBfbLpResult, the independent check of a result, is declared in
// solvers/bfb/bfb_cell_certificate.h (included below) with the other BFB cell certificates.

}  // namespace collsynth

#include "solvers/bfb/bfb_cell_certificate.h"  // IWYU pragma: export

#endif  // COLLSYNTH_SOLVERS_BFB_BFB_LP_H_
