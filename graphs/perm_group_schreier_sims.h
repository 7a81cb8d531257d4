// Permutation groups by a base and strong generating set (BSGS), and set-wise stabilisers
// (docs/symmetry.md, "Failed links: the set-wise stabiliser").
//
// SchreierSimsGroup: the deterministic Schreier–Sims algorithm in the form of Knuth, "Efficient
// representation of perm groups", Combinatorica 11 (1991) (one transversal table per base point,
// every Schreier generator sifted; see also Seress, "Permutation Group Algorithms" (2003) §4.2).
// The base is every point, in the order: `base_prefix` first, then the other points ascending;
// levels whose basic orbit is a single point cost nothing but a slot. The transversal of level k
// stores, for each point x of the basic orbit Δ_k = b_k^{G^(k)} (G^(k) = the pointwise stabiliser
// of b_0..b_{k-1}), an element u_k(x) ∈ G^(k) with u_k(x)(b_k) = x and its inverse. Then every
// g ∈ G is uniquely u_0(x_0) ∘ u_1(x_1) ∘ ... (the last applies first), |G| = Π |Δ_k| (an exact
// BigInt), and membership is a sift. Cost: O(n^2 · Σ|Δ_k| · |S|) permutation products of n
// points in the worst case, memory 2·n·Σ|Δ_k| ints, both bounded by `max_work` (point images
// computed, each product costs n): when it is spent the group is marked incomplete and nothing
// but complete() may be asked.
//
// SetStabiliser: the subgroup K = {g ∈ G : g(F) = F} for a set F of ordered pairs of points (the
// failed links (u, v) of a topology: an automorphism of the intact topology that maps F onto
// itself is an automorphism of the degraded one, and conversely for those of the intact group).
// Backtrack search over the base (Butler, "Fundamental Algorithms for Permutation Groups", LNCS
// 559 (1991), ch. 10): K^(k) = K ∩ G^(k) is built from the deepest nontrivial level up; at level
// k every x ∈ Δ_k not yet in the orbit of b_k under the elements found (nor in the orbit of a
// point proven unreachable) is decided by a depth-first search over the elements
// u_k(x) ∘ u_{k'}(x') ∘ ... with pruning: after each choice, every point whose image is then
// determined (fixed by the rest of the stabiliser chain) must keep its (out, in) degree in F,
// and every pair of F whose two ends are determined must map into F. An element found is added
// to K's generators (each checked to map F onto F); the orbit of b_k under them is then K^(k)'s
// orbit, so the generators found generate K and |K| = Π |b_k^{K^(k)}|. The search is exponential
// in the worst case; `max_work` bounds it (point images computed), and a spent budget reports
// complete = false with the generators found so far (all in K: a subgroup, never a wrong
// element). Preconditions: permutations of 0..n-1 (PermutationProblem in graphs/symmetry.h).
#ifndef COLLSYNTH_GRAPHS_PERM_GROUP_SCHREIER_SIMS_H_
#define COLLSYNTH_GRAPHS_PERM_GROUP_SCHREIER_SIMS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/rational.h"
#include "graphs/failed_links.h"

namespace collsynth {

inline constexpr std::int64_t kDefaultGroupWork = 2'000'000'000;

class SchreierSimsGroup {
 public:
  using Perm = std::vector<int>;

  SchreierSimsGroup(int n, const std::vector<Perm>& generators,
                    const std::vector<int>& base_prefix = {},
                    std::int64_t max_work = kDefaultGroupWork);

  int n() const { return n_; }
  // False when the budget ran out: the tables are then partial and nothing else may be asked.
  bool complete() const { return complete_; }
  std::int64_t work() const { return work_; }

  // |G| = Π |Δ_k|. Precondition: complete().
  BigInt Order() const;
  // Whether p ∈ G, by sifting. O(n · levels). Precondition: complete().
  bool Contains(const Perm& p) const;
  // Base points b_0..b_{n-1} and the basic orbits Δ_k (points in the order found).
  const std::vector<int>& base() const { return base_; }
  const std::vector<int>& BasicOrbit(int k) const { return levels_[k].orbit; }
  // u_k(x) and its inverse (precondition: x ∈ Δ_k).
  const Perm& Transversal(int k, int x) const;
  const Perm& InverseTransversal(int k, int x) const;
  // The smallest k such that G^(k) fixes point x (0 when G does).
  int FixLevel(int x) const { return fix_level_[x]; }
  // Every strong generator (those of all levels).
  std::vector<Perm> StrongGenerators() const;

 private:
  struct Level {
    std::vector<int> orbit;                // Δ_k
    std::vector<int> index;                // point -> position in reps (−1: not in Δ_k)
    std::vector<Perm> reps, inverse_reps;  // u_k(x), u_k(x)^-1 in orbit order
    std::vector<Perm> generators;          // strong generators placed at this level
  };
  struct BudgetSpent {};

  Perm Compose(const Perm& a, const Perm& b);  // a ∘ b, counts work
  bool SiftsThrough(Perm g, int k);            // g ∈ G^(k) per the current tables
  // Sifts g from level k; count_work() before each product.
  template <typename CountWork>
  bool Sift(Perm g, int k, const CountWork& count_work) const;
  void Insert(const Perm& g, int k);
  void Update(const Perm& g, int k);
  const Perm& identity() const;

  int n_ = 0;
  std::int64_t max_work_ = 0, work_ = 0, stored_ints_ = 0;
  bool complete_ = true;
  Perm identity_;
  std::vector<int> base_;
  std::vector<Level> levels_;
  std::vector<int> fix_level_;
};

struct SetStabiliserResult {
  std::vector<std::vector<int>> generators;  // elements of K; generate K when complete
  bool complete = true;  // false: the budget ran out (the generators generate a subgroup of K)
  BigInt order = 1;      // |⟨generators⟩| (= |K| when complete)
  std::int64_t work = 0;
  std::int64_t search_nodes = 0;
};

// K = {g ∈ G : g(F) = F} for the pairs F (ordered pairs of points of G's domain, repeats
// ignored). G must be complete() (else complete = false and no generators).
SetStabiliserResult PairSetStabiliser(const SchreierSimsGroup& group,
                                      const std::vector<std::pair<int, int>>& pairs,
                                      std::int64_t max_work = kDefaultGroupWork);

struct FailedLinkStabiliser {
  bool group_complete = true;  // the BSGS of ⟨generators⟩ was built within the budget
  BigInt group_order = 0;      // |⟨generators⟩| when group_complete, else 0
  SetStabiliserResult stabiliser;
};

// The automorphisms in ⟨generators⟩ (automorphisms of t.intact, checked by the caller) that map
// the failed links of t onto themselves: automorphisms of DegradedTopology(t). The base starts
// with the failed links' ends (so the search prunes early). `max_work` bounds each of the two
// phases (the group, the search).
FailedLinkStabiliser StabiliseFailedLinks(const TopologyWithFailures& t,
                                          const std::vector<std::vector<int>>& generators,
                                          std::int64_t max_work = kDefaultGroupWork);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_PERM_GROUP_SCHREIER_SIMS_H_
