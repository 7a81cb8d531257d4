// Group algebra on permutations of the nodes (docs/symmetry.md): powers of a permutation in
// O(1) per node, group elements gen_0^{e_0} ∘ ... ∘ gen_{m-1}^{e_{m-1}} applied to a node, the
// order of a permutation and whether two commute. A permutation is a vector p with p[v] the
// image of node v (precondition: PermutationProblem(p, n) in graphs/symmetry.h is empty).
// The producers (the symmetric pipeline builder, the expansion of a "pipeline-symmetric"
// schedule) use these; proofs_check/ keeps its own independent code for the same relations.
#ifndef COLLSYNTH_GRAPHS_PERMUTATION_GROUP_H_
#define COLLSYNTH_GRAPHS_PERMUTATION_GROUP_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace collsynth {

// Powers of one permutation p in O(1) per node: its cycles laid out one after the other, so
// p^e(v) is the node (e mod length) places after v on v's cycle, whatever e >= 0. O(V) set-up.
class PermutationPowers {
 public:
  explicit PermutationPowers(const std::vector<int>& p);
  int Apply(int v, std::int64_t e) const;

 private:
  std::vector<int> nodes_, start_, length_, position_;
};

// g(v) for g = gen_0^{e_0} ∘ ... ∘ gen_{m-1}^{e_{m-1}} (the last applies first), one entry of
// `generators` per generator, `exponents` of the same size (>= 0). O(m). The expansion and the
// producers that map a representative's sets to other roots use it.
int ApplyGroupElement(const std::vector<PermutationPowers>& generators, int v,
                      const std::vector<std::int64_t>& exponents);

// A word in the generators: g = gen_{j_0}^{e_0} ∘ gen_{j_1}^{e_1} ∘ ... (the last applies first),
// one (j, e) pair per letter, e >= 0. The element g_s of a root in a schedule built on a group
// that does not act regularly (docs/symmetry.md, "Case 2").
using GroupWord = std::vector<std::pair<int, std::int64_t>>;

// g(v) for the word g (generator indices in range: precondition). O(word length).
int ApplyGroupWord(const std::vector<PermutationPowers>& generators, int v, const GroupWord& word);

// The order of permutation p (the lcm of its cycle lengths), or 0 when it exceeds
// `max_order`. O(V).
std::int64_t PermutationOrder(const std::vector<int>& p, std::int64_t max_order);

// Whether a ∘ b = b ∘ a (same length). O(V).
bool PermutationsCommute(const std::vector<int>& a, const std::vector<int>& b);

}  // namespace collsynth

#endif  // COLLSYNTH_GRAPHS_PERMUTATION_GROUP_H_
