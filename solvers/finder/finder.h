// Topology finder (seed 000 §5.4, Appendix G): the Pareto frontier of allgather (T_L, T_B)
// over topologies with N nodes and degree d built from a database of base topologies and the
// expansions of §5 (Table 3), ranked by the theorems' exact formulas, and the best choice for
// a workload (α, M, B).
//
// Bases (BFB allgather schedules, exact values; T_L = diameter by Thm 15):
//   complete K_m, K_{d,d}, Hamming H(n,q), directed circulant C(d+2,{1..d}), UniRing, BiRing
//   (Table 9, App. E.1: BW optimal); circulant C(n,{m,m+1}) with m of Thm 22 (Conjecture 1,
//   proven for k = 2; offsets repeated for d = 4j); distance-regular graphs of Table 7,
//   Johnson and odd graphs (App. E.3, Thm 18: BW optimal); Kautz K(d,n) (Cor 10.1 from
//   K_{d+1}); generalized Kautz Π_{d,m} (T_B from BFB: precomputed table
//   solvers/finder/finder_base_table.h for d ∈ {2,4,8,16}, m <= 2000, computed on the fly
//   (solvers/finder/finder_bfb_value.h) for small m otherwise).
// Expansions (theory/expansion_bounds.h): line graph L(G) of an optimal BFB schedule with
//   |N^+(u)| > 1 and no multi-links (Thm 10, exact, stays optimal BFB); degree G*n without
//   self-loops (Thm 11); Cartesian power G^□n (Thm 12); Cartesian product of simple factors
//   with BW-optimal BFB schedules (Thm 13: BW optimal, T_L = Σ D(G_i)). Small expanded
//   topologies (N <= direct_bfb_max_nodes) also get their own optimal BFB value computed
//   directly, which can beat the theorem (e.g. BiRing(2,5)*2: T_L 2 instead of 3, Table 5).
// Search: bottom-up over (N, d) with memoisation; at every intermediate (N, d) candidates
//   dominated in (T_L, T_B) by one with at least the same expansion eligibility are pruned
//   (the paper's "prune candidates with inferior performance"); ties are kept as
//   alternatives. Only exact values are used: Thm 1's upper bound (non-BFB line graphs) is not.
// Units: T_L in comm steps (α); T_B as an exact Rational in units of M/B, B = d·b a node's
//   egress bandwidth (seed 000 §3). Allreduce = reduce-scatter + allgather, each with the
//   allgather's T_L and T_B (Thm 3/4): time 2·(T_L·α + T_B·M/B), Table 4's convention.
// Complexity: memoised; all N <= 2000 for d ∈ {2,4,8,16} take a few seconds in total.
// Preconditions: N >= 2, 1 <= d <= 64 (std::invalid_argument otherwise).
#ifndef COLLSYNTH_SOLVERS_FINDER_FINDER_H_
#define COLLSYNTH_SOLVERS_FINDER_FINDER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/rational.h"

namespace collsynth {

// How the schedule behind a candidate is built.
enum class FinderMethod {
  kBfb,      // BFB schedule generated directly on the topology (solvers/bfb/bfb_schedule.h)
  kLine,     // Thm 10: line-graph expansion of the operand's schedule
  kDegree,   // Thm 11: degree expansion of the operand's schedule
  kPower,    // Thm 12: Cartesian power expansion of the operand's schedule
  kProduct,  // Thm 13: BFB schedule generated on the product (its value is proven)
  kBidir,    // App. F: G ∪ G^T of a reverse-symmetric operand, half the shard each way
};
const char* FinderMethodName(FinderMethod m);

struct FinderCandidate {
  std::string topology;                   // a `topo gen` expression
  std::vector<std::string> alternatives;  // other expressions with the same (T_L, T_B)
  std::int64_t nodes = 0;
  int degree = 0;
  std::int64_t tl = 0;         // allgather steps
  Rational tb;                 // allgather, units of M/B
  bool bw_optimal = false;     // tb == (N-1)/N (Cor 6.1)
  bool moore_optimal = false;  // Def. 12
  FinderMethod method = FinderMethod::kBfb;
  // The candidates this one expands (empty for kBfb); for kProduct the factors.
  std::vector<std::shared_ptr<const FinderCandidate>> operands;
  int power = 0;            // n for kDegree / kPower
  std::string base_family;  // "GenKautz", "Circulant", "DistReg", "Complete", ...
  std::string expansions;   // outermost first: "L", "LP", "C", "D", ...
  std::string derivation;   // theorem chain
  // Eligibility for further expansion.
  bool bfb_optimal = false;  // the schedule is the optimal BFB schedule of the topology
  bool self_loops = false;
  bool multi_links = false;
  // G ≅ G^T (Table 9's "Reverse-Symmetric" column; kept by L, *n, □): App. F applies.
  bool reverse_symmetric = false;

  // Figure 13's label: the expansion letters if any, else the base family.
  std::string Label() const { return expansions.empty() ? base_family : expansions; }
};

struct FinderOptions {
  // Expanded candidates up to this size also get their BFB value computed directly.
  int direct_bfb_max_nodes = 64;
  // Generalized Kautz bases outside the precomputed table are computed up to this size.
  int genkautz_direct_max_nodes = 64;
  int max_alternatives = 6;
  // Bidirectional topologies only (every link's reverse is a link: Figure 13's "best
  // bidirectional topology known"): the bidirectional bases (complete, K_{d,d}, Hamming,
  // BiRing, circulant, distance-regular, Johnson, odd; UniRing only at N = 2), degree
  // expansion, Cartesian power and product of bidirectional candidates (each keeps the
  // property), no line graphs, plus App. F's G ∪ G^T (`bidir(G)`, same T_L and T_B in M/B) for
  // every reverse-symmetric candidate G the unidirectional finder keeps at (N, d/2), d even.
  // Only candidates kept by that finder's pruning are seen, so this is the best bidirectional
  // topology *known to the finder*, not a proven optimum.
  bool bidirectional = false;
};

// Workload: α in seconds, M in bytes, B in bits per second (exact).
struct FinderWorkload {
  Rational alpha = Rational(1, 100000);               // 10 µs
  Rational size_bytes = Rational(1 << 20);            // 1 MB
  Rational bandwidth_bps = Rational(100000000000LL);  // 100 Gbps
};

// Allreduce time 2·(T_L·α + T_B·M/B) in seconds.
Rational AllreduceTime(const FinderCandidate& c, const FinderWorkload& w);

struct FinderResult {
  std::int64_t nodes = 0;
  int degree = 0;
  std::vector<FinderCandidate> frontier;  // increasing T_L, decreasing T_B
  std::int64_t moore_steps = 0;           // T_L*(N, d)
  Rational tb_lower_bound;                // (N-1)/N
};

// The engine: memoises every (N, d) it has solved, so sweeps over N share sub-results.
// Not thread safe.
class TopologyFinder {
 public:
  explicit TopologyFinder(FinderOptions options = {});
  FinderResult Find(std::int64_t nodes, int degree);
  // Every non-dominated candidate kept at (N, d) (with expansion eligibility), for tests.
  const std::vector<FinderCandidate>& Candidates(std::int64_t nodes, int degree);

 private:
  std::vector<FinderCandidate> Compute(std::int64_t nodes, int degree);
  void Bases(std::int64_t nodes, int degree, std::vector<FinderCandidate>* out);
  std::optional<FinderCandidate> BestProduct(std::int64_t nodes, int degree);
  FinderOptions options_;
  std::unique_ptr<TopologyFinder> unidirectional_;  // App. F operands (bidirectional mode)
  std::map<std::pair<std::int64_t, int>, std::vector<FinderCandidate>> memo_;
  std::map<std::pair<std::int64_t, int>, std::optional<FinderCandidate>> product_memo_;
};

// Diameter of the circulant C(n, {±a_j}) by one BFS from 0 (vertex transitive), -1 when
// disconnected. O(n·k).
int CirculantDiameter(std::int64_t n, const std::vector<std::int64_t>& offsets);

// One-shot convenience: a fresh engine.
FinderResult FindTopologies(std::int64_t nodes, int degree, const FinderOptions& options = {});

// The frontier entry with the least allreduce time (ties: smaller T_L).
const FinderCandidate& BestForWorkload(const FinderResult& r, const FinderWorkload& w);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_FINDER_FINDER_H_
