#include "graphs/permutation_group.h"

#include <cstddef>
#include <numeric>

namespace collsynth {

PermutationPowers::PermutationPowers(const std::vector<int>& p)
    : nodes_(p.size()), start_(p.size(), -1), length_(p.size()), position_(p.size()) {
  int next = 0;
  for (std::size_t v0 = 0; v0 < p.size(); ++v0) {
    if (start_[v0] >= 0) continue;
    const int begin = next;
    int v = static_cast<int>(v0);
    do {
      nodes_[next] = v;
      start_[v] = begin;
      position_[v] = next - begin;
      ++next;
      v = p[v];
    } while (v != static_cast<int>(v0));
    for (int i = begin; i < next; ++i) length_[nodes_[i]] = next - begin;
  }
}

int PermutationPowers::Apply(int v, std::int64_t e) const {
  const std::int64_t len = length_[v];
  return nodes_[start_[v] + static_cast<int>((position_[v] + e % len) % len)];
}

int ApplyGroupElement(const std::vector<PermutationPowers>& generators, int v,
                      const std::vector<std::int64_t>& exponents) {
  for (std::size_t k = generators.size(); k-- > 0;) {
    if (exponents[k] != 0) v = generators[k].Apply(v, exponents[k]);
  }
  return v;
}

int ApplyGroupWord(const std::vector<PermutationPowers>& generators, int v, const GroupWord& word) {
  for (std::size_t k = word.size(); k-- > 0;) {
    if (word[k].second != 0) v = generators[word[k].first].Apply(v, word[k].second);
  }
  return v;
}

std::int64_t PermutationOrder(const std::vector<int>& p, std::int64_t max_order) {
  std::vector<char> seen(p.size(), 0);
  std::int64_t order = 1;
  for (std::size_t v = 0; v < p.size(); ++v) {
    if (seen[v]) continue;
    std::int64_t len = 0;
    for (std::size_t u = v; !seen[u]; u = static_cast<std::size_t>(p[u])) {
      seen[u] = 1;
      ++len;
    }
    order = order / std::gcd(order, len) * len;
    if (order > max_order) return 0;
  }
  return order;
}

bool PermutationsCommute(const std::vector<int>& a, const std::vector<int>& b) {
  for (std::size_t v = 0; v < a.size(); ++v) {
    if (a[b[v]] != b[a[v]]) return false;
  }
  return true;
}

}  // namespace collsynth
