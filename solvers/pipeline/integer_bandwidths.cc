#include "solvers/pipeline/integer_bandwidths.h"

#include <boost/multiprecision/gmp.hpp>

namespace collsynth {

IntegerBandwidths ScaleToIntegers(const Topology& g) {
  IntegerBandwidths r;
  for (const Link& l : g.links())
    r.scale = boost::multiprecision::lcm(r.scale, Denominator(l.bandwidth));
  r.values.reserve(g.num_links());
  for (const Link& l : g.links()) {
    Rational v = l.bandwidth * r.scale;
    r.values.push_back(Numerator(v));
  }
  return r;
}

Rational OutBandwidthOfSet(const Topology& g, const std::vector<char>& in_set) {
  Rational total = 0;
  for (const Link& l : g.links()) {
    if (in_set[l.from] && !in_set[l.to]) total += l.bandwidth;
  }
  return total;
}

int ComputeCount(const Topology& g, const std::vector<char>& in_set) {
  int n = 0;
  for (int v = 0; v < g.num_nodes(); ++v) n += (in_set[v] && g.IsCompute(v)) ? 1 : 0;
  return n;
}

}  // namespace collsynth
