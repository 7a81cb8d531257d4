#include "export/chunking.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace collsynth {

BigInt LcmOfDenominators(const std::vector<Rational>& values) {
  BigInt l = 1;
  for (const Rational& v : values) l = boost::multiprecision::lcm(l, Denominator(v));
  return l;
}

std::vector<std::int64_t> LargestRemainder(const std::vector<Rational>& weights,
                                           std::int64_t total) {
  if (total < 0) throw std::invalid_argument("negative chunk total");
  Rational sum = 0;
  for (const Rational& w : weights) {
    if (w < 0) throw std::invalid_argument("negative weight");
    sum += w;
  }
  if (sum != 1) throw std::invalid_argument("weights do not sum to 1");
  std::vector<std::int64_t> counts(weights.size());
  std::vector<Rational> remainder(weights.size());
  std::int64_t assigned = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    Rational exact = weights[i] * total;
    BigInt f = Floor(exact);
    counts[i] = ToInt64(f);
    remainder[i] = exact - Rational(f);
    assigned += counts[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  // Sum of remainders = total - assigned < n, so every unit lands on a positive remainder.
  for (std::int64_t u = 0; u < total - assigned; ++u) ++counts[order[static_cast<std::size_t>(u)]];
  return counts;
}

WeightChunking ChunkWeightGroups(const std::vector<std::vector<Rational>>& groups,
                                 std::int64_t budget) {
  if (budget < 1) throw std::invalid_argument("chunk budget must be at least 1");
  std::vector<Rational> all;
  for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  WeightChunking out;
  out.exact_chunks_per_shard = LcmOfDenominators(all);
  out.exact = out.exact_chunks_per_shard <= budget;
  out.chunks_per_shard = out.exact ? ToInt64(out.exact_chunks_per_shard) : budget;
  for (const auto& g : groups) out.counts.push_back(LargestRemainder(g, out.chunks_per_shard));
  return out;
}

}  // namespace collsynth
