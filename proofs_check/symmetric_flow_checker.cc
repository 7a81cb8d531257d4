#include "proofs_check/symmetric_flow_checker.h"

#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "graphs/symmetry.h"
#include "proofs_check/alltoall_certificate_check.h"

namespace collsynth {
namespace {

// One permutation's cycles laid out one after the other: p^e(v) in O(1) (the checker's own).
struct Cycles {
  std::vector<int> nodes, start, length, position;
  explicit Cycles(const std::vector<int>& p)
      : start(p.size()), length(p.size()), position(p.size()) {
    std::vector<bool> seen(p.size(), false);
    for (std::size_t v = 0; v < p.size(); ++v) {
      if (seen[v]) continue;
      const int first = static_cast<int>(nodes.size());
      for (int u = static_cast<int>(v); !seen[u]; u = p[u]) {
        seen[u] = true;
        start[u] = first;
        position[u] = static_cast<int>(nodes.size()) - first;
        nodes.push_back(u);
      }
      const int len = static_cast<int>(nodes.size()) - first;
      for (int i = first; i < first + len; ++i) length[nodes[i]] = len;
    }
  }
  int Power(int v, std::int64_t e) const {
    return nodes[start[v] + static_cast<int>((position[v] + e) % length[v])];
  }
};

class SymmetricFlowChecker {
 public:
  SymmetricFlowChecker(const Topology& g, const SymmetricFlowSchedule& s, int max_errors,
                       FlowCheckReport* r)
      : g_(g), s_(s), max_errors_(max_errors), r_(r) {}

  void Run() {
    r_->claimed_time = s_.time;
    if (Group() && Sources() && RootPaths()) Time();
    r_->ok = r_->num_violations == 0 && r_->verdict == FlowVerdict::kValid;
  }

 private:
  void Violation(std::string message) {
    ++r_->num_violations;
    if (static_cast<int>(r_->errors.size()) < max_errors_) r_->errors.push_back(std::move(message));
  }
  std::string LinkName(int e) const {
    return g_.node(g_.link(e).from).name + "->" + g_.node(g_.link(e).to).name;
  }

  // Automorphisms, commuting, declared orders, Π n_i = N.
  bool Group() {
    const std::size_t m = s_.generators.size();
    for (std::size_t i = 0; i < m; ++i) {
      const std::string item = "group.generators[" + std::to_string(i) + "]";
      const AutomorphismCheck a = CheckAutomorphism(g_, s_.generators[i]);
      if (!a.ok) Violation(item + ": not an automorphism: " + a.problem);
      cycles_.emplace_back(s_.generators[i]);
      for (int len : cycles_.back().length) {
        if (s_.orders[i] % len != 0) {
          Violation("group.orders[" + std::to_string(i) + "]: " + std::to_string(s_.orders[i]) +
                    " is not a multiple of a cycle length " + std::to_string(len));
          break;
        }
      }
      for (std::size_t j = 0; j < i; ++j) {
        const std::vector<int>&p = s_.generators[i], &q = s_.generators[j];
        for (int v = 0; v < g_.num_nodes(); ++v) {
          if (p[q[v]] != q[p[v]]) {
            Violation(item + ": does not commute with generator " + std::to_string(j));
            break;
          }
        }
      }
    }
    std::int64_t order = 1;
    const std::int64_t n = g_.num_compute();
    for (std::int64_t o : s_.orders) order = order > n ? order : order * o;  // stops above N
    if (order != n) {
      Violation("group.orders: their product is " + (order > n ? "above " : std::string()) +
                std::to_string(order > n ? n : order) + ", not the " + std::to_string(n) +
                " compute nodes (H would not act regularly)");
    }
    r_->group_order = order;
    return r_->num_violations == 0;
  }

  // Every compute node listed, with g_s(root) = s.
  bool Sources() {
    if (static_cast<int>(s_.sources.size()) != g_.num_compute()) {
      Violation("sources: lists " + std::to_string(s_.sources.size()) + " of the " +
                std::to_string(g_.num_compute()) + " compute nodes");
      return false;
    }
    for (std::size_t i = 0; i < s_.sources.size(); ++i) {
      int v = s_.root;
      for (std::size_t j = s_.generators.size(); j-- > 0;) {
        v = cycles_[j].Power(v, s_.sources[i].exponents[j]);
      }
      if (v != s_.sources[i].node) {
        Violation("sources[" + std::to_string(i) + "].exponents: map the root " +
                  g_.node(s_.root).name + " to " + g_.node(v).name + ", not to " +
                  g_.node(s_.sources[i].node).name);
      }
    }
    return r_->num_violations == 0;
  }

  // The root's pairs, by the plain checker on the demand {(root, t)}.
  bool RootPaths() {
    FlowSchedule plain;
    plain.relay = s_.relay;
    plain.uniform = false;
    plain.flows = s_.flows;
    for (int t : g_.ComputeNodes()) {
      if (t != s_.root) plain.demand.entries.push_back({s_.root, t, Rational(1)});
    }
    plain.time = -1;  // the root's own T is not claimed: only "invalid" matters here
    FlowCheckReport sub = CheckFlowSchedule(g_, plain, max_errors_);
    r_->pairs = sub.pairs;
    r_->paths = sub.paths;
    if (sub.verdict == FlowVerdict::kInvalid) {
      for (std::string& e : sub.errors) Violation(std::move(e));
      return false;
    }
    root_load_ = std::move(sub.loads);
    return true;
  }

  // Link orbits by union-find over the generator images.
  void LinkOrbits() {
    const int m = g_.num_links();
    std::vector<int> parent(m);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (const std::vector<int>& p : s_.generators) {
      for (int e = 0; e < m; ++e) {
        const int a = find(e), b = find(*g_.FindLink(p[g_.link(e).from], p[g_.link(e).to]));
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
      }
    }
    orbit_.assign(m, -1);
    std::vector<int> index(m, -1);
    for (int e = 0; e < m; ++e) {
      const int root = find(e);
      if (index[root] < 0) {
        index[root] = static_cast<int>(orbit_size_.size());
        orbit_size_.push_back(0);
        orbit_link_.push_back(e);
      }
      orbit_[e] = index[root];
      ++orbit_size_[orbit_[e]];
    }
    r_->link_orbits = static_cast<std::int64_t>(orbit_size_.size());
  }

  void Time() {
    LinkOrbits();
    std::vector<Rational> f(orbit_size_.size());
    for (int e = 0; e < g_.num_links(); ++e) f[orbit_[e]] += root_load_[e];
    const Rational n = g_.num_compute();
    Rational t = 0;
    int bottleneck = -1;
    for (std::size_t o = 0; o < f.size(); ++o) {
      const int e = orbit_link_[o];
      const Rational u = n * f[o] / (orbit_size_[o] * g_.link(e).bandwidth);
      if (f[o] > 0 && (bottleneck < 0 || u > t)) {
        t = u;
        bottleneck = e;
      }
    }
    r_->time = t;
    if (bottleneck >= 0) r_->bottleneck_link = LinkName(bottleneck);
    if (t != s_.time) {
      r_->verdict = FlowVerdict::kWrongTime;
      Violation("time: the schedule claims " + ToString(s_.time) + ", its link-orbit loads give " +
                ToString(t) +
                (bottleneck >= 0 ? " (link " + r_->bottleneck_link + ")" : std::string()));
      return;
    }
    r_->verdict = s_.lengths && !Certificate(t) ? FlowVerdict::kInvalid : FlowVerdict::kValid;
  }

  // The H-invariant lengths and the dual bound from the root's Dijkstra.
  bool Certificate(const Rational& t) {
    std::vector<Rational> orbit_length(orbit_size_.size());
    std::vector<int> given(orbit_size_.size(), -1);
    for (std::size_t i = 0; i < s_.lengths->size(); ++i) {
      const auto& [e, len] = (*s_.lengths)[i];
      const int o = orbit_[e];
      if (given[o] >= 0 && orbit_length[o] != len) {
        Violation("lengths[" + std::to_string(i) + "]: link " + LinkName(e) + " has length " +
                  ToString(len) + ", but link " + LinkName((*s_.lengths)[given[o]].first) +
                  " of its orbit has " + ToString(orbit_length[o]) + " (not H-invariant)");
        return false;
      }
      given[o] = static_cast<int>(i);
      orbit_length[o] = len;
    }
    std::vector<Rational> length(g_.num_links());
    for (int e = 0; e < g_.num_links(); ++e) length[e] = orbit_length[orbit_[e]];
    DemandMatrix root_demand;
    for (int v : g_.ComputeNodes()) {
      if (v != s_.root) root_demand.entries.push_back({s_.root, v, Rational(1)});
    }
    Rational upper;  // Σ b ℓ / Σ_t dist(root, t)
    const std::string problem = AlltoallDualBound(g_, root_demand, length, s_.relay, &upper);
    if (!problem.empty()) {
      Violation("lengths: " + problem);
      return false;
    }
    const Rational bound = Rational(g_.num_compute()) / upper;  // N Σ_t dist / Σ b ℓ
    if (bound > t) {                                            // weak duality forbids it
      Violation("lengths: the dual bound " + ToString(bound) + " exceeds the achieved time " +
                ToString(t));
      return false;
    }
    r_->time_lower_bound = bound;
    r_->optimal = bound == t;
    return true;
  }

  const Topology& g_;
  const SymmetricFlowSchedule& s_;
  int max_errors_;
  FlowCheckReport* r_;
  std::vector<Cycles> cycles_;
  std::vector<Rational> root_load_;
  std::vector<int> orbit_, orbit_link_;
  std::vector<std::int64_t> orbit_size_;
};

}  // namespace

FlowCheckReport CheckSymmetricFlowSchedule(const Topology& g, const SymmetricFlowSchedule& s,
                                           int max_errors) {
  FlowCheckReport r;
  SymmetricFlowChecker(g, s, max_errors, &r).Run();
  return r;
}

}  // namespace collsynth
