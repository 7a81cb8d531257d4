#include "proofs_check/height_bound_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace collsynth {
namespace {

// Least length of a walk of at most h links from `from` to `to` (over reversed links when
// `reversed`: then a walk from `to` back to `from` in the topology); nullopt when none exists.
// `len[e]` is the length of link e. h rounds of Bellman–Ford: after round j, d[v] is the least
// length over walks of at most j links (the rounds read the previous round's values only).
std::optional<Rational> HopBoundedDistance(const Topology& g, const std::vector<Rational>& len,
                                           int from, int to, std::int64_t h, bool reversed) {
  const int n = g.num_nodes();
  std::vector<std::optional<Rational>> d(n), next;
  d[from] = Rational(0);
  for (std::int64_t round = 0; round < h; ++round) {
    next = d;
    bool changed = false;
    for (int e = 0; e < g.num_links(); ++e) {
      const int a = reversed ? g.link(e).to : g.link(e).from;
      const int b = reversed ? g.link(e).from : g.link(e).to;
      if (!d[a]) continue;
      Rational via = *d[a] + len[e];
      if (!next[b] || via < *next[b]) {
        next[b] = std::move(via);
        changed = true;
      }
    }
    d.swap(next);
    if (!changed) break;  // a fixed point: more rounds change nothing
  }
  return d[to];
}

std::string Item(const char* what, std::size_t i) {
  return std::string(what) + "[" + std::to_string(i) + "]";
}

std::string LinkName(const Topology& g, int e) {
  return g.node(g.link(e).from).name + "->" + g.node(g.link(e).to).name;
}

}  // namespace

HeightBoundReport CheckHeightBoundCertificate(const Topology& g, const HeightBoundCertificate& c) {
  HeightBoundReport r;
  r.max_height_hops = c.max_height_hops;
  auto fail = [&r](std::string why) {
    r.violation = std::move(why);
    return r;
  };
  if (c.max_height_hops < 0) return fail("max_height_hops < 0");
  if (c.collective != Collective::kAllgather && c.collective != Collective::kReduceScatter) {
    return fail("collective: only allgather and reduce-scatter are bounded");
  }
  const bool reversed = c.collective == Collective::kReduceScatter;
  const int n = g.num_nodes(), m = g.num_links();
  auto head = [&](int e) { return reversed ? g.link(e).from : g.link(e).to; };
  auto tail = [&](int e) { return reversed ? g.link(e).to : g.link(e).from; };
  // c_r(e) per root that the certificate mentions (other roots have c_r = 0).
  std::map<int, std::vector<Rational>> coefficient;
  auto of_root = [&](int root) -> std::vector<Rational>& {
    std::vector<Rational>& v = coefficient[root];
    if (v.empty()) v.assign(m, Rational(0));
    return v;
  };
  Rational numerator(0);
  std::vector<Rational> len(m);
  for (std::size_t i = 0; i < c.pairs.size(); ++i) {
    const HeightBoundPair& p = c.pairs[i];
    const std::string item = Item("pairs", i);
    if (p.root < 0 || p.root >= n || p.target < 0 || p.target >= n) {
      return fail(item + ": node id out of range");
    }
    if (!g.IsCompute(p.root) || !g.IsCompute(p.target)) {
      return fail(item + ": root and target must be compute nodes");
    }
    if (p.root == p.target) return fail(item + ": root == target");
    std::fill(len.begin(), len.end(), Rational(0));
    std::vector<Rational>& coef = of_root(p.root);
    for (const auto& [e, x] : p.lengths) {
      if (e < 0 || e >= m) {
        return fail(item + ": link id " + std::to_string(e) + " out of range");
      }
      if (x < 0) return fail(item + ": negative length on link " + LinkName(g, e));
      len[e] += x;
      coef[e] += x;
    }
    const std::optional<Rational> d =
        HopBoundedDistance(g, len, p.root, p.target, c.max_height_hops, reversed);
    if (!d) {
      r.no_schedule = true;
      continue;
    }
    numerator += *d;
  }
  for (std::size_t i = 0; i < c.roots.size(); ++i) {
    const HeightBoundRoot& p = c.roots[i];
    const std::string item = Item("roots", i);
    if (p.root < 0 || p.root >= n || !g.IsCompute(p.root)) {
      return fail(item + ": the root is not a compute node");
    }
    std::vector<Rational> potential(n, Rational(0));
    for (const auto& [v, x] : p.receive) {
      if (v < 0 || v >= n || !g.IsCompute(v) || v == p.root) {
        return fail(item + ".receive: node " + std::to_string(v) +
                    " is not a compute node other than the root");
      }
      potential[v] += x;
      numerator += x;
    }
    for (const auto& [s, x] : p.forward) {
      if (s < 0 || s >= n || !g.IsSwitch(s)) {
        return fail(item + ".forward: node " + std::to_string(s) + " is not a switch");
      }
      potential[s] += x;
    }
    std::vector<Rational>& coef = of_root(p.root);
    for (int e = 0; e < m; ++e) {
      coef[e] += potential[head(e)];
      if (g.IsSwitch(tail(e))) coef[e] -= potential[tail(e)];
    }
  }
  Rational capacity(0);
  for (int e = 0; e < m; ++e) {
    Rational w(0);
    for (const auto& [root, coef] : coefficient) {
      // A tree never enters its own root: y_r(e) = 0 on links whose head is r.
      if (head(e) != root && coef[e] > w) w = coef[e];
    }
    capacity += g.link(e).bandwidth * w;
  }
  r.ok = true;
  r.bound = capacity > 0 && numerator > 0 ? Rational(numerator / capacity) : Rational(0);
  return r;
}

}  // namespace collsynth
