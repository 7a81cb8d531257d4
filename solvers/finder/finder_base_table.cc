#include "solvers/finder/finder_base_table.h"

#include <algorithm>
#include <iterator>

namespace collsynth {
namespace {

struct Row {
  int d, m, diameter;
  long long num, den;  // T_B in shard units
};

// {d, m, D, p, q}; generated, sorted by (d, m).
const Row kRows[] = {
#include "solvers/finder/finder_genkautz_table.inc"
    {0, 0, 0, 0, 1}};  // sentinel

}  // namespace

std::optional<GenKautzTableEntry> LookupGenKautzTable(int degree, int nodes) {
  const Row* begin = std::begin(kRows);
  const Row* end = std::end(kRows) - 1;
  const Row* it = std::lower_bound(
      begin, end, std::make_pair(degree, nodes),
      [](const Row& r, const std::pair<int, int>& k) { return std::make_pair(r.d, r.m) < k; });
  if (it == end || it->d != degree || it->m != nodes) return std::nullopt;
  return GenKautzTableEntry{it->d, it->m, it->diameter, Rational(BigInt(it->num), BigInt(it->den))};
}

int GenKautzTableSize() { return static_cast<int>(std::size(kRows)) - 1; }

}  // namespace collsynth
