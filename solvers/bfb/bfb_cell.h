// The exact optimum of one BFB cell (receiver u, comm step t): seed 000 §6.1 LP (3) and its
// heterogeneous form App. D.3 LP (13) with M/N = 1, in integer form. The one engine behind
// SolveBfbSubproblem (bfb_lp.h), the flat plan (bfb_schedule.h) and the topology finder's
// value (solvers/finder/finder_bfb_value.h). Its certificates are checked by the separate
// bfb_cell_certificate.h, which never calls this engine.
//
// Problem. Groups g of c_g identical sources (sources with the same allowed in-links L_g)
// must each deliver one whole shard to u over in-links k ∈ L_g; in-link k has bandwidth B_k
// and latency α_k. U* = the least U such that shares x >= 0 (Σ_k x = 1 per source) give
// α_k + load_k / B_k <= U on every active in-link. Integer form: bandwidth[k] = B_k·S and
// alpha_bw[k] = α_k·B_k·S for a common scale S >= 1 (`scale`).
//
// Method (seed 000 App. D, Thm 19). U = p/q is feasible iff the network
//   s → g (capacity c_g·q·S),  g → k for k ∈ L_g (capacity Σ_g c_g·q·S + 1: unbounded),
//   k → sink (capacity max(0, p·bandwidth[k] − q·alpha_bw[k]); 0 for a removed in-link)
// carries Σ_g c_g·q·S. Otherwise the groups J on the source side of a minimum cut have
//   U_J = (|J|·S + Σ_{k ∈ N(J)} alpha_bw[k]) / Σ_{k ∈ N(J)} bandwidth[k]  >  U,
// a lower bound for every assignment. Solve is Dinkelbach's iteration U := U_J from a lower
// bound until the flow is feasible; the flow (units of 1/(q·S) shard) is the assignment, the
// last J (or the start's witness) the optimality certificate.
// Max flow: Dinic's algorithm on arrays reused between calls (BfbCellDinic); measured against
// LEMON Preflow on real cell networks in bench/bfb_bench.cc (docs/performance.md).
//
// Number type Int: std::int64_t when every capacity and the total stay below 2^62 (callers
// check with the bounds they know; bfb_schedule's flat path and the finder by their input
// limits, bfb_lp by BfbCellFitsInt64), otherwise BigInt (GMP, exact at any size).
// Complexity: per Test one max flow on (#groups + d + 2) nodes and (#groups + Σ|L_g| + d)
// arcs; Solve makes at most #groups + 1 tests (each raises |J| or stops), usually 1-2.
// Failure policy: an impossible state (a minimum cut that does not raise U, an empty
// neighbourhood, a split that runs out) is std::logic_error, as is malformed input.
#ifndef COLLSYNTH_SOLVERS_BFB_BFB_CELL_H_
#define COLLSYNTH_SOLVERS_BFB_BFB_CELL_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/rational.h"

namespace collsynth {

// One cell in integer form (see the header comment).
template <typename Int>
struct BfbCellNetwork {
  std::vector<Int> count;      // per group: c_g > 0
  std::vector<int> begin{0};   // per group + 1: L_g = link[begin[g] .. begin[g + 1])
  std::vector<int> link;       // in-link indices, increasing within a group
  std::vector<Int> bandwidth;  // per in-link: B_k·S > 0
  std::vector<Int> alpha_bw;   // per in-link: α_k·B_k·S >= 0; empty = all 0
  std::vector<char> active;    // per in-link: 0 = removed (App. D.3); empty = all active
  Int scale = 1;               // S

  int num_groups() const { return static_cast<int>(count.size()); }
  int num_links() const { return static_cast<int>(bandwidth.size()); }
  bool is_active(int k) const { return active.empty() || active[k] != 0; }
  const Int& alpha(int k) const { return alpha_bw.empty() ? zero_ : alpha_bw[k]; }
  // Removes every group (keeps the in-links).
  void ClearGroups() {
    count.clear();
    begin.assign(1, 0);
    link.clear();
  }
  // Appends a group of `c` sources; its in-links are then added with AddGroupLink.
  void AddGroup(const Int& c) {
    count.push_back(c);
    begin.push_back(begin.back());
  }
  void AddGroupLink(int k) {
    link.push_back(k);
    ++begin.back();
  }

 private:
  Int zero_ = 0;
};

// U = num / den with den > 0.
template <typename Int>
struct BfbCellValue {
  Int num = 0;
  Int den = 1;
};

// The small max flow the engine runs (Dinic's algorithm, buffers reused between calls). An
// interface so that bench/bfb_bench.cc can time LEMON Preflow on the same calls.
template <typename Int>
class BfbCellMaxFlow {
 public:
  virtual ~BfbCellMaxFlow() = default;
  virtual void Reset(int nodes) = 0;
  // Returns the arc id (dense, in insertion order).
  virtual int AddArc(int from, int to, const Int& capacity) = 0;
  // Maximum flow value; `bound` is an upper bound on it (the capacity leaving s).
  virtual Int Run(int s, int t, const Int& bound) = 0;
  // After Run: v on the source side of a minimum cut.
  virtual bool SourceSide(int v) const = 0;
  // After Run: the flow on an arc.
  virtual Int Flow(int arc) const = 0;
};

// Dinic's algorithm (blocking flows on BFS levels); the source side returned is the set
// reachable from s in the final residual network (the minimal minimum cut). O(V^2 E).
template <typename Int>
class BfbCellDinic final : public BfbCellMaxFlow<Int> {
 public:
  void Reset(int nodes) override;
  int AddArc(int from, int to, const Int& capacity) override;
  Int Run(int s, int t, const Int& bound) override;
  bool SourceSide(int v) const override { return level_[v] >= 0; }
  Int Flow(int arc) const override { return cap_[arc ^ 1]; }

 private:
  bool Levels(int s, int t);
  Int Push(int v, int t, const Int& limit);
  std::vector<int> head_, to_, next_, it_, level_, queue_;
  std::vector<Int> cap_;
};

// The optimum of a cell.
template <typename Int>
struct BfbCellOptimum {
  BfbCellValue<Int> value;    // U*, lowest terms
  std::vector<char> witness;  // per group: in J (the certificate; may be all 0, see Solve)
  std::vector<Int> flow;      // per entry of network.link: flow at U*, units 1/flow_scale
  Int flow_scale = 1;         // value.den · S: each source's shares sum to this
};

template <typename Int>
class BfbCellSolver {
 public:
  // Uses `flow` for the max flows (default: BfbCellDinic).
  explicit BfbCellSolver(std::unique_ptr<BfbCellMaxFlow<Int>> flow = nullptr);

  // One max flow: is U = value feasible (value > 0)? When not, CutGroups() lists J.
  bool Test(const BfbCellNetwork<Int>& network, const BfbCellValue<Int>& value);
  // After an infeasible Test: per group, on the source side of the minimum cut.
  const std::vector<char>& CutGroups() const { return cut_; }
  // After a feasible Test: flow per entry of network.link (units of 1/(value.den·S)).
  void ArcFlows(const BfbCellNetwork<Int>& network, std::vector<Int>* out) const;

  // Dinkelbach from a lower bound `start` (> 0, and >= α_k of every active in-link, which
  // LP (13) charges whether used or not) certified by `start_witness` (the groups J with
  // U_J == start; all 0 when start is an α_k). Requires at least one group.
  BfbCellOptimum<Int> Solve(const BfbCellNetwork<Int>& network, BfbCellValue<Int> start,
                            std::vector<char> start_witness);
  // Solve from the larger of U_J for J = all groups and the largest active α_k (then the
  // optimum's witness is all 0 if that α is the optimum).
  BfbCellOptimum<Int> Solve(const BfbCellNetwork<Int>& network);

  std::int64_t flow_runs() const { return flow_runs_; }

 private:
  std::unique_ptr<BfbCellMaxFlow<Int>> flow_;
  std::vector<int> group_arc_;  // per entry of network.link: its arc id
  std::vector<char> cut_;
  std::int64_t flow_runs_ = 0;
};

// U_J for the groups with in_j[g] != 0, in lowest terms; std::logic_error when N(J) (over
// active in-links) is empty.
template <typename Int>
BfbCellValue<Int> BfbCellWitnessValue(const BfbCellNetwork<Int>& network,
                                      const std::vector<char>& in_j);

// a/b < c/d for positive denominators (exact; __int128 for int64).
template <typename Int>
bool BfbCellLess(const BfbCellValue<Int>& x, const BfbCellValue<Int>& y);

// Splits the optimum's flow onto the sources (north-west corner rule): for each group g in
// order, its members 0..c_g−1 in order, each takes flow_scale units from the group's in-links
// in link order. visit(g, member, entry, amount) is called once per (member, in-link) pair with
// amount > 0 (entry indexes network.link). std::logic_error when the flow runs out.
template <typename Int, typename Visit>
void SplitBfbCellFlow(const BfbCellNetwork<Int>& network, const BfbCellOptimum<Int>& optimum,
                      const Visit& visit) {
  std::vector<Int> left;
  for (int g = 0; g < network.num_groups(); ++g) {
    const int b = network.begin[g], e = network.begin[g + 1];
    left.assign(optimum.flow.begin() + b, optimum.flow.begin() + e);
    int r = 0;
    const int members = static_cast<int>(network.count[g]);
    for (int member = 0; member < members; ++member) {
      Int need = optimum.flow_scale;
      while (need > 0) {
        while (r < e - b && left[r] == 0) ++r;
        if (r >= e - b) throw std::logic_error("BFB cell: flow split ran out");
        const Int take = left[r] < need ? left[r] : need;
        visit(g, member, b + r, take);
        left[r] -= take;
        need -= take;
      }
    }
  }
}

// Whether `network` solved from any start can run on int64: every capacity, the total
// supply and the U_J numerators/denominators and their products stay below 2^62. `extra`
// is a further value p/q the caller will Test (e.g. a CLP hint); empty den = none.
bool BfbCellFitsInt64(const BfbCellNetwork<BigInt>& network,
                      const BfbCellValue<BigInt>& extra = {0, 0});

// The same network on int64 (precondition: BfbCellFitsInt64).
BfbCellNetwork<std::int64_t> BfbCellToInt64(const BfbCellNetwork<BigInt>& network);

extern template class BfbCellDinic<std::int64_t>;
extern template class BfbCellDinic<BigInt>;
extern template class BfbCellSolver<std::int64_t>;
extern template class BfbCellSolver<BigInt>;

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_BFB_CELL_H_
