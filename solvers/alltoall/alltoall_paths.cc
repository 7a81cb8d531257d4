#include "solvers/alltoall/alltoall_paths.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace collsynth {
namespace {

// A link into v that still carries flow (a precondition failure is a program fault).
int PositiveInLink(const Topology& g, const std::vector<Rational>& f, int v) {
  for (int e : g.InLinks(v)) {
    if (f[e] > 0) return e;
  }
  throw std::logic_error("FlowScheduleFromCertificate: flow not conserved at " + g.node(v).name);
}

// Decomposes commodity `f` (source s) into the paths of each pair (s, t).
void DecomposeCommodity(const Topology& g, int s, std::vector<Rational> f,
                        std::map<int, Rational> rest, const Rational& lambda,
                        const std::map<int, Rational>& amount, std::vector<PairFlows>* out) {
  std::vector<int> position(g.num_nodes(), -1);  // index of a node in the walk, -1 if not on it
  for (auto& [t, want] : rest) {
    PairFlows pair;
    pair.from = s;
    pair.to = t;
    const Rational total = lambda * amount.at(t);
    while (want > 0) {
      std::vector<int> nodes = {t};  // backwards: t, ..., s
      std::vector<int> links;        // links[i] enters nodes[i]
      position[t] = 0;
      while (nodes.back() != s) {
        const int e = PositiveInLink(g, f, nodes.back());
        const int u = g.link(e).from;
        if (position[u] < 0) {
          position[u] = static_cast<int>(nodes.size());
          nodes.push_back(u);
          links.push_back(e);
          continue;
        }
        // A cycle u -> nodes.back() -> ... -> u: cancel its least flow, keep the walk up to u.
        const std::size_t j = static_cast<std::size_t>(position[u]);
        Rational least = f[e];
        for (std::size_t i = j; i < links.size(); ++i) least = std::min(least, f[links[i]]);
        f[e] -= least;
        for (std::size_t i = j; i < links.size(); ++i) f[links[i]] -= least;
        for (std::size_t i = j + 1; i < nodes.size(); ++i) position[nodes[i]] = -1;
        nodes.resize(j + 1);
        links.resize(j);
      }
      Rational carried = want;
      for (int e : links) carried = std::min(carried, f[e]);
      for (int e : links) f[e] -= carried;
      want -= carried;
      for (int v : nodes) position[v] = -1;
      std::reverse(nodes.begin(), nodes.end());
      pair.paths.push_back({std::move(nodes), carried / total});
    }
    out->push_back(std::move(pair));
  }
}

}  // namespace

FlowSchedule FlowScheduleFromCertificate(const Topology& g, const AlltoallCertificate& cert,
                                         bool uniform) {
  FlowSchedule s;
  s.collective = Collective::kAlltoall;
  s.relay = cert.relay;
  s.uniform = uniform;
  s.demand = cert.demand;
  s.time = 1 / cert.lambda;
  std::map<int, std::map<int, Rational>> by_source;
  for (const DemandEntry& d : cert.demand.entries) by_source[d.from][d.to] = d.amount;
  for (std::size_t k = 0; k < cert.sources.size(); ++k) {
    auto it = by_source.find(cert.sources[k]);
    if (it == by_source.end()) continue;
    std::map<int, Rational> rest;
    for (const auto& [t, d] : it->second) rest[t] = cert.lambda * d;
    DecomposeCommodity(g, cert.sources[k], cert.flow[k], std::move(rest), cert.lambda, it->second,
                       &s.flows);
  }
  return s;
}

}  // namespace collsynth
